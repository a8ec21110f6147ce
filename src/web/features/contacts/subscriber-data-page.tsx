import { Badge, Button, Group, Modal, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconDownload, IconEraser, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  exportPlatformSubscriberData,
  exportSubscriberData,
  getPlatformSubscriberDataSummary,
  getPlatformSubscriberErasure,
  getSubscriberDataSummary,
  getSubscriberErasure,
  startPlatformSubscriberErasure,
  startSubscriberErasure,
} from '../../../shared/api/subscriber-data.calls';
import {
  SUBSCRIBER_DATA_KIND_INFO,
  SUBSCRIBER_DATA_KINDS,
  type SubscriberDataBody,
  type SubscriberDataSummary,
  type SubscriberErasure,
} from '../../../shared/api/subscriber-data.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { PageHeader } from '../../components/page-header';
import { RoleGuard } from '../../components/role-guard';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery, downloadCall } from '../../lib/call';
import { COUNTRY_OPTIONS } from '../apps/app-countries.data';

/** The account's own calls, or every account's (an admin's `subscriberData.manage`). */
const SCOPES = {
  account: {
    summary: getSubscriberDataSummary,
    export: exportSubscriberData,
    erase: startSubscriberErasure,
    erasure: getSubscriberErasure,
    title: 'Subscriber data',
    description:
      'Everything your apps and bots keep about one phone number: look it up, download it as one file, or erase it when the person asks.',
    where: 'in your apps and bots',
  },
  platform: {
    summary: getPlatformSubscriberDataSummary,
    export: exportPlatformSubscriberData,
    erase: startPlatformSubscriberErasure,
    erasure: getPlatformSubscriberErasure,
    title: 'Subscriber data (every account)',
    description:
      'Everything every account keeps about one phone number: look it up, download it as one file, or erase it everywhere (a regulator or the person asked).',
    where: 'in every account',
  },
} as const;
type Scope = keyof typeof SCOPES;

/** The counts per kind, with what an erasure does to each kind's rows. */
function SubscriberDataCounts({ counts }: { counts: SubscriberDataSummary['counts'] }) {
  return (
    <Table striped withTableBorder verticalSpacing={6} data-testid="subscriber-data-counts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Kept</Table.Th>
          <Table.Th ta="right">Rows</Table.Th>
          <Table.Th visibleFrom="sm">On erasure</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {SUBSCRIBER_DATA_KINDS.map((kind) => (
          <Table.Tr key={kind}>
            <Table.Td>{SUBSCRIBER_DATA_KIND_INFO[kind].label}</Table.Td>
            <Table.Td ta="right" c={counts[kind] === 0 ? 'dimmed' : undefined}>
              {counts[kind].toLocaleString()}
            </Table.Td>
            <Table.Td visibleFrom="sm" c="dimmed">
              {SUBSCRIBER_DATA_KIND_INFO[kind].erasure === 'deleted' ? 'deleted' : 'anonymised (counts stay)'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An erasure's progress, polled until it ends: rows erased of the rows the look-up counted (`expected`). */
function ErasureProgress({ scope, erasureId, expected }: { scope: Scope; erasureId: string; expected: number }) {
  const job = useQuery({
    ...callQuery(SCOPES[scope].erasure, { params: { erasureId } }, 'The erasure could not be read.'),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : 1000),
  });
  if (job.error) return <LoadErrorPanel message={job.error.message} onRetry={() => void job.refetch()} />;
  const data: SubscriberErasure | undefined = job.data;
  if (!data) return <Text size="sm">Starting the erasure…</Text>;
  const running = data.status === 'running';
  const erased = SUBSCRIBER_DATA_KINDS.reduce((sum, kind) => sum + data.counts[kind], 0);
  return (
    <Paper withBorder p="md" data-testid="subscriber-erasure" data-status={data.status}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>
            {running ? 'Erasing…' : data.status === 'done' ? `Erased: ${data.msisdn}` : `Erasure stopped: ${data.msisdn}`}
          </Text>
          <Badge color={running ? 'blue' : data.status === 'done' ? 'teal' : 'red'} variant="light">
            {data.status}
          </Badge>
        </Group>
        <Progress
          value={running ? Math.min(99, expected > 0 ? Math.round((erased / expected) * 100) : 0) : 100}
          animated={running}
          aria-label="Erasure progress"
        />
        <Text size="sm" c="dimmed">
          {erased.toLocaleString()} rows erased in {data.batches.toLocaleString()} batches. Reason: {data.reason}
        </Text>
        {data.failure && (
          <Text size="sm" c="red">
            {data.failure}
          </Text>
        )}
        {!running && <SubscriberDataCounts counts={data.counts} />}
      </Stack>
    </Paper>
  );
}

/** Asks why, and the number typed again, before an erasure that cannot be undone. */
function ErasureDialog({
  scope,
  summary,
  body,
  onClose,
  onStarted,
}: {
  scope: Scope;
  summary: SubscriberDataSummary;
  body: SubscriberDataBody;
  onClose: () => void;
  onStarted: (erasureId: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    const reply = await call(SCOPES[scope].erase, { body: { ...body, reason } });
    setSubmitting(false);
    if (!isOk(reply) || !reply.data) return setError(failureText(reply, 'The erasure could not start.'));
    onStarted(reply.data.erasureId);
  };
  return (
    <Modal opened onClose={onClose} title={`Erase ${summary.msisdn} ${SCOPES[scope].where}`} size="lg">
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="md">
          <Text size="sm">
            Sessions, messages, payments and files stay as anonymous counts; the number, the inputs, the texts and the files go, for good.
            This cannot be undone.
          </Text>
          <FormAlert message={error} onClose={() => setError(null)} />
          <Textarea
            label="Why (kept in the audit log)"
            description="The person's request, a ticket, a regulator's letter"
            required
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <TextInput
            label={`Type ${summary.msisdn} to confirm`}
            required
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
          />
          <DialogActions
            submitLabel="Erase for good"
            onCancel={onClose}
            isSubmitting={submitting}
            isDisabled={typed.replace(/\s/g, '') !== summary.msisdn || reason.trim().length < 3}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function SubscriberDataPanel({ scope }: { scope: Scope }) {
  const [msisdn, setMsisdn] = useState('');
  const [country, setCountry] = useState<string | null>(null);
  const [looked, setLooked] = useState<{ body: SubscriberDataBody; summary: SubscriberDataSummary } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [erasureId, setErasureId] = useState<string | null>(null);

  const lookUp = async (event?: FormEvent) => {
    event?.preventDefault();
    const body: SubscriberDataBody = { msisdn, ...(country ? { country: country as NonNullable<SubscriberDataBody['country']> } : {}) };
    setLoading(true);
    const reply = await call(SCOPES[scope].summary, { body });
    setLoading(false);
    if (!isOk(reply) || !reply.data) {
      setLooked(null);
      return setError(failureText(reply, 'The number could not be looked up.'));
    }
    setError(null);
    setErasureId(null);
    setLooked({ body, summary: reply.data });
  };
  const download = async () => {
    if (!looked) return;
    setExporting(true);
    const reply = await downloadCall(SCOPES[scope].export, { body: looked.body }, `subscriber-data-${looked.summary.msisdn.slice(1)}.json`);
    setExporting(false);
    if (!isOk(reply)) setError(failureText(reply, 'The data could not be exported.'));
  };
  const total = looked ? SUBSCRIBER_DATA_KINDS.reduce((sum, kind) => sum + looked.summary.counts[kind], 0) : 0;

  return (
    <Stack gap="xl">
      <PageHeader title={SCOPES[scope].title} description={SCOPES[scope].description} />
      <Paper withBorder p="md">
        <form onSubmit={(event) => void lookUp(event)}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label="Phone number"
                description="With its country code (+233241234567), or choose its country"
                required
                value={msisdn}
                onChange={(e) => setMsisdn(e.currentTarget.value)}
                autoComplete="off"
              />
              <Select
                label="Country"
                description="For a number written without its country code"
                data={COUNTRY_OPTIONS}
                value={country}
                onChange={setCountry}
                searchable
                clearable
                placeholder="None"
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" leftSection={<IconSearch size={16} />} loading={loading}>
                Look up
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <FormAlert message={error} onClose={() => setError(null)} />
      {looked && (
        <Stack gap="md" data-testid="subscriber-data-summary">
          <Group justify="space-between" align="flex-end">
            <Stack gap={2}>
              <Text fw={600} size="lg">
                {looked.summary.msisdn}
              </Text>
              <Text size="sm" c="dimmed">
                {erasureId
                  ? `${total.toLocaleString()} rows ${SCOPES[scope].where} when looked up; the erasure below says what it took.`
                  : total === 0
                    ? `Nothing is kept about this number ${SCOPES[scope].where}.`
                    : `${total.toLocaleString()} rows ${SCOPES[scope].where}.`}
                {!erasureId && looked.summary.liveSessions > 0 && ' A session of this number is running now: erase once it has ended.'}
              </Text>
            </Stack>
            <Group gap="sm">
              <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting} onClick={() => void download()}>
                Download (JSON)
              </Button>
              <Button color="red" leftSection={<IconEraser size={16} />} disabled={total === 0} onClick={() => setErasing(true)}>
                Erase…
              </Button>
            </Group>
          </Group>
          {erasureId ? (
            <ErasureProgress scope={scope} erasureId={erasureId} expected={total} />
          ) : (
            <SubscriberDataCounts counts={looked.summary.counts} />
          )}
        </Stack>
      )}
      {erasing && looked && (
        <ErasureDialog
          scope={scope}
          summary={looked.summary}
          body={looked.body}
          onClose={() => setErasing(false)}
          onStarted={(id) => {
            setErasing(false);
            setErasureId(id);
          }}
        />
      )}
    </Stack>
  );
}

/** The account's own subscriber data (docs/security.md, "Subscriber data"). */
export function SubscriberDataPage() {
  return <SubscriberDataPanel scope="account" />;
}

/** Every account's, for admins holding `subscriberData.manage`. */
export function PlatformSubscriberDataPage() {
  return (
    <RoleGuard audience="subscriberData.manage">
      <SubscriberDataPanel scope="platform" />
    </RoleGuard>
  );
}
