import { ActionIcon, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isOk } from '../../lib/api';
import { useMenusLite } from '../menus/use-menus';
import { findCompletedSessions, findUncompletedSessions } from '../../../shared/api/sessions.calls';
import { call, queryKey } from '../../lib/call';
import type { SessionRow } from './sessions.api';
import { describeNetwork } from '../../../shared/mobile-networks';
import { AppMonitoringHeader } from '../apps/app-monitoring-header';
import { useApp } from '../apps/use-apps';
import { SessionMessages } from './session-messages';
import { InputsToggle, SessionInputsTable } from './session-inputs-table';
import { NetworkName } from '../../components/network-name';
import { getSourceLabel, SessionSourceBadge } from './session-source-badge';
import { formatTime, inputsAsText } from '../../lib/table-export';
import { formatMs } from '../../lib/format';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { sessionPathUrl } from '../../lib/paths';
import { causeLabel } from '../../lib/end-causes';
import { END_CAUSES, isEndCause, type EndCause } from '../../../shared/session-ends';

type SessionListKind = 'completed' | 'uncompleted';

const LIST_CALLS = { completed: findCompletedSessions, uncompleted: findUncompletedSessions };

const COPY: Record<SessionListKind, { title: string; description: string; empty: string }> = {
  completed: { title: 'Recent Completed Sessions', description: 'Sessions the app brought to an end.', empty: 'No completed sessions yet' },
  uncompleted: {
    title: 'Uncompleted Sessions',
    description: 'Sessions the dialer abandoned, and the menu where they stopped.',
    empty: 'No uncompleted sessions yet',
  },
};

/** Sorted by the second column (MOBILE) ascending (docs/product.md); ties keep the newest first. */
export const sortByMobile = (rows: SessionRow[]) =>
  [...rows].sort((a, b) => a.mobile.localeCompare(b.mobile, undefined, { numeric: true }));

/** A gateway's own account of a session's end, where its end notice gave one: the network's words, its duration and cost. */
export function describeGatewayEnding(row: Pick<SessionRow, 'gatewayWords' | 'gatewayDurationMs' | 'gatewayCost'>): string {
  return [
    row.gatewayWords ? `"${row.gatewayWords}"` : null,
    row.gatewayDurationMs === null ? null : `${formatMs(row.gatewayDurationMs)} by its clock`,
    row.gatewayCost ? `cost ${row.gatewayCost}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Recent Completed Sessions (/app/completesession/{id}) and Uncompleted Sessions (/app/uncompletedsession/{id}):
 * ID, MOBILE, NETWORK, DATE, SOURCE (Live, Test URL, Emulator; and STOPPED AT for abandoned ones), ENDED (why, and
 * what the gateway said of it), a plus button per row for the inputs. `?cause=` lists one end cause only (the
 * dashboard's "Why sessions ended" links here).
 */
export function SessionListPage({ kind }: { kind: SessionListKind }) {
  const { id = '' } = useParams();
  const copy = COPY[kind];
  const isBot = useApp(id).data?.channel === 'whatsapp';
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get('cause') ?? '';
  const cause: EndCause | undefined = isEndCause(asked) ? asked : undefined;
  const chooseCause = (value: string | null) =>
    setSearchParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        if (value && isEndCause(value)) next.set('cause', value);
        else next.delete('cause');
        return next;
      },
      { replace: true },
    );
  const input = { params: { appId: id }, query: cause ? { cause } : {} };
  const sessions = useQuery({
    queryKey: queryKey(LIST_CALLS[kind], input),
    queryFn: async (): Promise<SessionRow[]> => {
      const reply = await call(LIST_CALLS[kind], input);
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      // These errors are only logged.
      console.error(`Loading ${kind} sessions failed`, reply.message ?? reply);
      return [];
    },
  });
  const menus = useMenusLite(id, { enabled: kind === 'uncompleted', retry: false });
  const menuNames = useMemo(() => new Map((menus.data ?? []).map((m) => [m.uniqueId, m.userDefinedName || m.uniqueId])), [menus.data]);
  const stopMenu = (row: SessionRow) => (row.lastMenu ? (menuNames.get(row.lastMenu) ?? row.lastMenu) : 'Before the first menu');

  const rows = useMemo(() => sortByMobile(sessions.data ?? []), [sessions.data]);
  const isUncompleted = kind === 'uncompleted';
  // On a phone the table keeps MOBILE and ACTIONS; the other columns fold into a line under the number.
  const isWide = useMediaQuery('(min-width: 48em)', true);

  const getTable = () => ({
    headers: [
      'ID',
      'MOBILE',
      'NETWORK',
      'NETWORK CODE',
      'DATE',
      'SOURCE',
      ...(isUncompleted ? ['STOPPED AT'] : []),
      'ENDED',
      'GATEWAY SAID',
      'INPUTS',
    ],
    rows: rows.map((r) => {
      const network = describeNetwork(r.network);
      return [
        r.sessionId,
        r.mobile,
        network.name,
        network.code,
        formatTime(r.createdAt),
        getSourceLabel(r),
        ...(isUncompleted ? [stopMenu(r)] : []),
        causeLabel(r.endCause),
        describeGatewayEnding(r),
        inputsAsText(r.inputs, r.media),
      ];
    }),
  });

  const stopColumn: DataTableColumn<SessionRow> = { header: 'STOPPED AT', visibleFrom: 'sm', cellTestId: 'stop-menu', render: stopMenu };
  const columns: DataTableColumn<SessionRow>[] = [
    { header: 'ID', visibleFrom: 'sm', cellProps: { ff: 'monospace', fz: 'sm' }, render: (row) => row.sessionId },
    {
      header: 'MOBILE',
      headerProps: { 'aria-sort': 'ascending' },
      render: (row) => (
        <>
          {row.mobile}
          <Text hiddenFrom="sm" size="xs" c="dimmed" data-testid="session-row-details">
            <NetworkName network={row.network} /> · {formatTime(row.createdAt)}
            {isUncompleted && ` · stopped at ${stopMenu(row)}`} · {causeLabel(row.endCause)}
            <br />
            <SessionSourceBadge environment={row.environment} gateway={row.gateway} />{' '}
            <Text span ff="monospace" fz="xs">
              {row.sessionId}
            </Text>
          </Text>
        </>
      ),
    },
    { header: 'NETWORK', visibleFrom: 'sm', render: (row) => <NetworkName network={row.network} /> },
    { header: 'DATE', visibleFrom: 'sm', cellProps: { style: { whiteSpace: 'nowrap' } }, render: (row) => formatTime(row.createdAt) },
    {
      header: 'SOURCE',
      visibleFrom: 'sm',
      render: (row) => <SessionSourceBadge environment={row.environment} gateway={row.gateway} />,
    },
    ...(isUncompleted ? [stopColumn] : []),
    {
      header: 'ENDED',
      visibleFrom: 'sm',
      cellTestId: 'end-cause',
      render: (row) => {
        const said = describeGatewayEnding(row);
        return (
          <>
            {causeLabel(row.endCause)}
            {said ? (
              <Text size="xs" c="dimmed" data-testid="gateway-ending" style={{ overflowWrap: 'anywhere' }}>
                {said}
              </Text>
            ) : null}
          </>
        );
      },
    },
    {
      header: 'ACTIONS',
      width: 110,
      render: (row, { isOpen, toggle }) => (
        <Group gap={6} wrap="nowrap">
          <InputsToggle isOpen={isOpen} of={row.sessionId} onToggle={toggle} />
          <Tooltip label="Show path on the flow map">
            <ActionIcon
              component={Link}
              to={sessionPathUrl(id, row.sessionId)}
              variant="light"
              color="violet"
              radius="xl"
              aria-label={`Show the path of ${row.sessionId} on the flow map`}
              data-testid="session-show-path"
            >
              <IconRoute size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <AppMonitoringHeader appId={id} screen={kind} title={copy.title} description={copy.description} />
      <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
        <Select
          label="Ended because"
          value={cause ?? 'any'}
          onChange={chooseCause}
          data={[{ value: 'any', label: 'Any cause' }, ...END_CAUSES.map((c) => ({ value: c, label: causeLabel(c) }))]}
          allowDeselect={false}
          maw={280}
          mb="sm"
          data-testid="session-cause-filter"
        />
        <DataTable
          rows={rows}
          columns={columns}
          getRowKey={(row) => row.id}
          summary={
            <Text size="sm" c="dimmed" data-testid="session-count">
              {sessions.isPending ? 'Loading…' : `${rows.length} ${rows.length === 1 ? 'session' : 'sessions'}`}
            </Text>
          }
          exportButtons={{ fileName: `${kind}-sessions-${id}`, getTable, disabled: rows.length === 0 }}
          minWidth={isWide ? (isUncompleted ? 880 : 760) : 0}
          testId="session-table"
          rowTestId="session-row"
          emptyText={sessions.isPending ? null : cause ? `No ${kind} sessions ended this way: ${causeLabel(cause)}` : copy.empty}
          renderDetails={(row) => (
            <>
              {describeGatewayEnding(row) ? (
                <Text size="sm" hiddenFrom="sm" mb="xs" data-testid="gateway-ending-details" style={{ overflowWrap: 'anywhere' }}>
                  The gateway said: {describeGatewayEnding(row)}
                </Text>
              ) : null}
              <SessionInputsTable inputs={row.inputs} media={row.media} />
              {isBot ? <SessionMessages appId={id} sessionId={row.sessionId} /> : null}
            </>
          )}
          detailsBackground="gray.0"
        />
      </Paper>
    </Stack>
  );
}

export function CompletedSessionsPage() {
  return <SessionListPage kind="completed" />;
}

export function UncompletedSessionsPage() {
  return <SessionListPage kind="uncompleted" />;
}
