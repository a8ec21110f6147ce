import { Anchor, Badge, Box, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconBug, IconInfoCircle, IconRoute } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ReactNode } from 'react';
import type { ActionResultEntry, UserInputEntry } from './emulator.api';
import type { DebugList } from './use-debug-output';
import { LOGS_UNAVAILABLE_NOTE } from './action-logs-panel';
import classes from './emulator.module.css';
import { MediaPreview } from '../../components/media-preview';

/** The panel's words where a bot's chat simulator differs from the USSD emulator. */
export interface DebugOutputCopy {
  /** The number field's label: 'Dial Number', 'Customer number'. */
  numberLabel: string;
  /** Under the field while it can be changed. */
  numberDescription: string;
  /** How a session starts: 'Dial the app', 'Send the bot a message'. */
  start: string;
}

interface DebugOutputPanelProps {
  /** Defaults to the USSD emulator's words. */
  copy?: DebugOutputCopy;
  msisdn: string;
  msisdnError: string | null;
  network: string;
  /** Locked while a session runs: the server knows the session by this number. */
  isMsisdnLocked: boolean;
  sessionId: string | null;
  /** The flow map with this session's path, for a builder's own app (not a template tried). */
  pathUrl?: string | null;
  /** What the builder may do with the session (Save as test case), under its id. */
  sessionActions?: ReactNode;
  /** Debug data needs a signed-in user: a visitor trying a template sees how to get it. */
  isSignedOut: boolean;
  userInputs: DebugList<UserInputEntry>;
  actionResults: DebugList<ActionResultEntry>;
  onMsisdnChange: (value: string) => void;
  onBack: () => void;
}

interface ListStateProps<T> {
  title: string;
  start: string;
  list: DebugList<T>;
  sessionId: string | null;
  isSignedOut: boolean;
  noun: string;
  children: (items: T[]) => ReactNode;
}

/** One list of the session (User Inputs, Action Results) under its title: its rows, or why there are none yet. */
function ListState<T>({ title, start, list, sessionId, isSignedOut, noun, children }: ListStateProps<T>) {
  const { result, failure } = list;
  const items = result?.kind === 'ok' ? result.data : [];
  return (
    <Stack gap="xs">
      <Title order={3} fz="sm" c="gray.8">
        {title}
      </Title>
      <Stack gap={6}>
        {items.length > 0 ? (
          children(items)
        ) : (
          <Box py="md" px="sm" bg="gray.0" style={{ borderRadius: 8, border: '1px dashed var(--mantine-color-gray-3)' }}>
            <Text size="sm" c="gray.7" ta="center">
              {isSignedOut
                ? `Log in to see the ${noun} of your test runs.`
                : !sessionId
                  ? `${start} to see the ${noun} of a session.`
                  : result
                    ? `No ${noun} in this session yet.`
                    : `Waiting for the ${noun}…`}
            </Text>
            {result?.kind === 'unavailable' && (
              <Group gap={4} justify="center" mt={4} data-testid="debug-unavailable">
                <IconInfoCircle size={14} color="var(--mantine-color-orange-8)" aria-hidden="true" />
                <Text size="xs" c="orange.9">
                  {LOGS_UNAVAILABLE_NOTE}
                </Text>
              </Group>
            )}
          </Box>
        )}
        {failure && (
          <Text size="xs" c="red.8" role="alert">
            Could not refresh: {failure}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

/**
 * The debug output panel: a Back button, the Dial Number (the msisdn sent), the session's
 * User Inputs (field name, value) and Action Results (action name, menu name, result).
 */
export function DebugOutputPanel(props: DebugOutputPanelProps) {
  const {
    msisdn,
    msisdnError,
    network,
    isMsisdnLocked,
    sessionId,
    pathUrl,
    sessionActions,
    isSignedOut,
    userInputs,
    actionResults,
    onMsisdnChange,
    onBack,
  } = props;
  const copy = props.copy ?? {
    numberLabel: 'Dial Number',
    numberDescription: `Sent as the msisdn, on network ${network}`,
    start: 'Dial the app',
  };
  const listContext = { start: copy.start, sessionId, isSignedOut };
  return (
    <Paper component="section" withBorder radius="lg" p="lg" shadow="xs" aria-labelledby="debug-title" data-testid="debug-panel">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Group gap={8} wrap="nowrap">
          <IconBug size={20} color="var(--mantine-color-teal-8)" aria-hidden="true" />
          <Title order={2} fz="md" id="debug-title">
            Debug output
          </Title>
        </Group>
        <Button variant="default" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={onBack}>
          Back
        </Button>
      </Group>

      <Group align="flex-start" gap="md" mb="lg" wrap="wrap">
        <TextInput
          label={copy.numberLabel}
          description={isMsisdnLocked ? 'Locked while a session runs' : copy.numberDescription}
          value={msisdn}
          onChange={(event) => onMsisdnChange(event.currentTarget.value)}
          readOnly={isMsisdnLocked}
          error={msisdnError}
          inputMode="tel"
          autoComplete="off"
          w={{ base: '100%', xs: 300 }}
          styles={{ input: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Session
          </Text>
          <Badge
            variant="light"
            color={sessionId ? 'teal' : 'gray'}
            size="lg"
            radius="sm"
            ff="monospace"
            data-testid="debug-session-id"
            // A session id (time plus 22 random characters) wraps at phone width rather than being cut off.
            styles={{
              root: { height: 'auto', maxWidth: '100%' },
              label: { textTransform: 'none', whiteSpace: 'normal', overflowWrap: 'anywhere' },
            }}
          >
            {sessionId ?? 'none yet'}
          </Badge>
          {pathUrl && (
            <Anchor component={Link} to={pathUrl} size="sm" data-testid="debug-show-path">
              <Group gap={4} wrap="nowrap" component="span">
                <IconRoute size={14} aria-hidden="true" />
                Show path on the flow map
              </Group>
            </Anchor>
          )}
          {sessionActions}
        </Stack>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <ListState title="User Inputs" list={userInputs} noun="user inputs" {...listContext}>
          {(items) => (
            <Table withTableBorder striped fz="sm" data-testid="debug-user-inputs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Field</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item, index) => (
                  <Table.Tr key={`${item.fieldName}-${index}`}>
                    <Table.Td ff="monospace">{item.fieldName}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {item.media ? <MediaPreview media={item.media} /> : item.fieldValue}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </ListState>
        <ListState title="Action Results" list={actionResults} noun="action results" {...listContext}>
          {(items) => (
            <Stack gap="xs" data-testid="debug-action-results">
              {items.map((item, index) => (
                <Paper key={`${item.actionName}-${index}`} withBorder radius="md" p="sm">
                  <Group gap={6} justify="space-between" wrap="nowrap">
                    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                      {item.isOk !== undefined && (
                        <Badge size="xs" variant="light" color={item.isOk ? 'teal' : 'red'}>
                          {item.isOk ? 'ok' : 'failed'}
                        </Badge>
                      )}
                      <Text size="sm" fw={600} ff="monospace" truncate>
                        {item.actionName}
                      </Text>
                    </Group>
                    <Badge variant="light" color="gray" radius="sm" title="Menu" styles={{ label: { textTransform: 'none' } }}>
                      {item.menuName}
                    </Badge>
                  </Group>
                  <pre className={classes.resultBlock}>{item.actionResult}</pre>
                </Paper>
              ))}
            </Stack>
          )}
        </ListState>
      </SimpleGrid>
    </Paper>
  );
}
