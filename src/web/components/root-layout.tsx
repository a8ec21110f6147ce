import { Box } from '@mantine/core';
import { Outlet, useNavigation } from 'react-router';
import { useDelayPassed } from '../lib/use-delay-passed';
import classes from './root-layout.module.css';

/** A bar across the top while the next screen's code downloads, after a moment (a fast load shows nothing). */
function NavigationProgress() {
  const isPassed = useDelayPassed(150);
  return isPassed ? <Box className={classes.progress} role="progressbar" aria-label="Loading the page" /> : null;
}

/**
 * Around every screen (router.tsx). Screens load their code on first visit; meanwhile the screen the user was on
 * stays, under a progress bar, so a click on a slow connection is seen to be taken.
 */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === 'loading' && <NavigationProgress />}
      <Outlet />
    </>
  );
}
