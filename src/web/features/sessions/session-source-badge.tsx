import { Badge } from '@mantine/core';
import { getSessionSource, SESSION_SOURCE_LABELS, type SessionSource } from '../../../shared/session-source';

const COLOURS: Record<SessionSource, string> = { live: 'teal', test: 'blue', emulator: 'grape' };

const DETAILS: Record<SessionSource, string> = {
  live: "A gateway called the app's live URL (the deployed version)",
  test: "A gateway or a tool called the app's test URL (the draft)",
  emulator: "Run in the console's emulator (the draft)",
};

/** Where a session came from: Live, Test URL or Emulator. */
export function SessionSourceBadge({ environment, gateway }: { environment: string; gateway: string }) {
  const source = getSessionSource(environment, gateway);
  return (
    <Badge
      component="span"
      variant="light"
      color={COLOURS[source]}
      size="sm"
      radius="sm"
      title={DETAILS[source]}
      data-testid="session-source"
      data-source={source}
      style={{ flexShrink: 0 }}
    >
      {SESSION_SOURCE_LABELS[source]}
    </Badge>
  );
}

/** The source as text, for copied and downloaded tables. */
export const getSourceLabel = (row: { environment: string; gateway: string }) =>
  SESSION_SOURCE_LABELS[getSessionSource(row.environment, row.gateway)];
