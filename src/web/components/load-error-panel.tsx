import { Button, Paper, Text } from '@mantine/core';

/**
 * A screen's own record that could not be loaded, in place of the screen (the app's settings, the designer's
 * menus, the flow map): the reason and Try again. A list's alert above its rows is LoadErrorAlert.
 */
export function LoadErrorPanel({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Text c="red.8">{message}</Text>
      <Button mt="sm" size="xs" variant="default" onClick={onRetry}>
        Try again
      </Button>
    </Paper>
  );
}
