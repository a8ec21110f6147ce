import { Button, EmptyState, Paper } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BOT_LIST_PATH, APP_LIST_PATH } from '../../lib/paths';

/** What every screen of an app (or of a bot, `isBot`) shows when it answers 404, with the way back to its list. */
export function AppNotFoundPanel({ isBot = false }: { isBot?: boolean }) {
  const noun = isBot ? 'bot' : 'app';
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="app-not-found">
      <EmptyState icon={<IconSearchOff size={28} />} withIndicatorBackground>
        <EmptyState.Title order={1}>{isBot ? 'Bot not found' : 'App not found'}</EmptyState.Title>
        <EmptyState.Description>This {noun} does not exist, was deleted, or belongs to another account.</EmptyState.Description>
        <EmptyState.Actions>
          <Button component={Link} to={isBot ? BOT_LIST_PATH : APP_LIST_PATH} variant="default">
            {isBot ? 'Back to WhatsApp Bots' : 'Back to My USSD Apps'}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}
