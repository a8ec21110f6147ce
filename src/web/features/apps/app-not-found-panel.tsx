import { Button, EmptyState, Paper } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { APP_LIST_PATH } from './app-create-page';

/** What every screen of an app shows when the app answers 404, with the way back to the app list. */
export function AppNotFoundPanel() {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="app-not-found">
      <EmptyState icon={<IconSearchOff size={28} />} withIndicatorBackground>
        <EmptyState.Title order={1}>App not found</EmptyState.Title>
        <EmptyState.Description>This app does not exist, was deleted, or belongs to another account.</EmptyState.Description>
        <EmptyState.Actions>
          <Button component={Link} to={APP_LIST_PATH} variant="default">
            Back to My USSD Apps
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}
