import { Skeleton, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { App } from '../../../shared/api/apps.schema';

interface AppScreenTitleProps {
  /** The screen's name, small above the app's: 'Menu Design View'. */
  screen: string;
  /** Undefined while the app loads: a placeholder keeps the name's place. */
  app: App | undefined;
  /** What the screen shows under the name (the designer: the shortcode and the live version). */
  children?: ReactNode;
}

/** The title of a screen about one app: the screen's name, then the app's name as the page's heading. */
export function AppScreenTitle({ screen, app, children }: AppScreenTitleProps) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.6}>
        {screen}
      </Text>
      {app ? (
        // Two lines at most (a long name's tail is in the tooltip); break-word cuts only a word wider than the line.
        <Title order={1} fz={{ base: 24, sm: 30 }} lineClamp={2} title={app.appName} style={{ overflowWrap: 'break-word' }}>
          {app.appName}
        </Title>
      ) : (
        <Skeleton height={34} width={240} mt={4} />
      )}
      {children}
    </div>
  );
}
