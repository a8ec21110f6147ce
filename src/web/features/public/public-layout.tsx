import { Box } from '@mantine/core';
import { Outlet, ScrollRestoration } from 'react-router';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import classes from './public.module.css';

/** The shell of every public page: skip link, header, main landmark, footer. */
export function PublicLayout() {
  return (
    <>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <PublicHeader />
      <Box component="main" id="main" tabIndex={-1} className={classes.main}>
        <Outlet />
      </Box>
      <PublicFooter />
      <ScrollRestoration />
    </>
  );
}
