import { Alert, Badge, Button, Collapse, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconChevronDown,
  IconChevronRight,
  IconCircleCheck,
  IconCircleX,
  IconDeviceMobile,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconTestPipe,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { TestCase, TestCaseResult, TestRun } from '../../../shared/api/test-cases.schema';
import { BackLink } from '../../components/back-link';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { failureText, isOk } from '../../lib/api';
import { designerPath, emulatorPath } from '../../lib/paths';
import { AppScreenTitle } from '../apps/app-screen-title';
import { useApp } from '../apps/use-apps';
import { TestCaseDrawer } from './test-case-drawer';
import { TestStepResults } from './test-step-results';
import { formatRunDuration, formatRunSummary } from './test-run-format';
import { useTestCases, useTestRun } from './use-test-cases';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the drawer holds: a new case, or one of the list's. */
type Editing = { kind: 'new' } | { kind: 'edit'; testCase: TestCase } | null;

function RunSummary({ run }: { run: TestRun }) {
  const isGreen = run.failed === 0;
  return (
    <Alert
      color={isGreen ? 'teal' : 'red'}
      variant="light"
      icon={isGreen ? <IconCircleCheck size={20} /> : <IconCircleX size={20} />}
      title={formatRunSummary(run)}
      data-testid="run-summary"
    >
      {run.total === 0
        ? 'There are no test cases to run.'
        : isGreen
          ? 'Every case showed the screens it expects on the draft.'
          : `${plural(run.failed, 'case')} did not show what ${run.failed === 1 ? 'it expects' : 'they expect'}: open ${run.failed === 1 ? 'it' : 'them'} below to see where.`}
    </Alert>
  );
}

interface CaseRowProps {
  testCase: TestCase;
  result: TestCaseResult | undefined;
  onEdit: () => void;
}

function CaseRow({ testCase, result, onEdit }: CaseRowProps) {
  // A failed case opens on its steps (the builder came to see why); each run draws the rows anew (their key).
  const [isOpen, setOpen] = useState(result?.ok === false);
  const stubCount = Object.keys(testCase.stubs).length;
  const detailsId = `case-${testCase.id}-steps`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="md"
      data-testid="test-case"
      data-result={result ? (result.ok ? 'passed' : 'failed') : 'none'}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            {result &&
              (result.ok ? (
                <IconCircleCheck size={20} color="var(--mantine-color-teal-8)" aria-hidden="true" style={{ flexShrink: 0 }} />
              ) : (
                <IconCircleX size={20} color="var(--mantine-color-red-8)" aria-hidden="true" style={{ flexShrink: 0 }} />
              ))}
            <Title order={3} fz="md" style={{ overflowWrap: 'anywhere' }}>
              {testCase.name}
            </Title>
          </Group>
          <Text size="sm" c="gray.7" mt={2}>
            {plural(testCase.steps.length, 'step')} · {plural(stubCount, 'recorded reply', 'recorded replies')}
            {testCase.dialString ? ` · dials ${testCase.dialString}` : ''}
          </Text>
        </div>
        <Group gap="xs" wrap="nowrap">
          {result && (
            <Badge color={result.ok ? 'teal' : 'red'} variant="light" visibleFrom="xs">
              {result.ok ? `Passed · ${formatRunDuration(result.durationMs)}` : 'Failed'}
            </Badge>
          )}
          <Button variant="default" size="xs" leftSection={<IconPencil size={14} />} onClick={onEdit} aria-label={`Edit ${testCase.name}`}>
            Edit
          </Button>
        </Group>
      </Group>
      {result && (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            mt="xs"
            color={result.ok ? 'gray' : 'red'}
            c={result.ok ? 'gray.8' : 'red.8'}
            leftSection={isOpen ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            aria-expanded={isOpen}
            aria-controls={detailsId}
            onClick={() => setOpen((open) => !open)}
          >
            {result.ok ? 'Passed' : 'Failed'}: {isOpen ? 'hide' : 'show'} {plural(result.steps.length, 'step')}
          </Button>
          <Collapse expanded={isOpen}>
            <div id={detailsId}>
              <Stack mt="xs">{isOpen && <TestStepResults result={result} />}</Stack>
            </div>
          </Collapse>
        </>
      )}
    </Paper>
  );
}

/** 'Tests' (/app/tests/{appId}): the app's saved test cases, Run all against the draft, and why a case failed. */
export function TestsPage() {
  const { appId = '' } = useParams();
  const { data: app } = useApp(appId);
  const cases = useTestCases(appId);
  const run = useTestRun(appId);
  const [lastRun, setLastRun] = useState<TestRun | null>(null);
  const [runNumber, setRunNumber] = useState(0);
  const [runError, setRunError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);

  useEffect(() => {
    document.title = app ? `${app.appName} · Tests · Dialflow` : 'Tests · Dialflow';
  }, [app]);

  async function runAll() {
    setRunError(null);
    const reply = await run.mutateAsync();
    if (isOk(reply) && reply.data) {
      setLastRun(reply.data);
      setRunNumber((n) => n + 1);
    } else setRunError(failureText(reply, 'The test cases could not be run.'));
  }

  /** A case changed or deleted: its last result no longer says anything about it. */
  function forgetResult(caseId: string) {
    setLastRun((current) => (current ? { ...current, results: current.results.filter((r) => r.id !== caseId) } : current));
  }

  const list = cases.data ?? [];
  const results = new Map(lastRun?.results.map((r) => [r.id, r]));

  return (
    <Stack gap="lg" maw={1040}>
      <div>
        <BackLink to={designerPath(appId)} label="Menu Design View" />
        <Group justify="space-between" align="flex-end" mt={6} gap="md">
          <AppScreenTitle screen="Tests" app={app} />
          <Group gap="sm">
            <Button component={Link} to={emulatorPath(appId)} variant="default" leftSection={<IconDeviceMobile size={18} />}>
              Emulator
            </Button>
            <Button variant="default" leftSection={<IconPlus size={18} />} onClick={() => setEditing({ kind: 'new' })}>
              New test case
            </Button>
            <Button
              leftSection={run.isPending ? <Loader size={16} color="teal.9" /> : <IconPlayerPlay size={18} />}
              onClick={() => void runAll()}
              disabled={run.isPending || list.length === 0}
              aria-busy={run.isPending}
            >
              {run.isPending ? 'Running…' : 'Run all'}
            </Button>
          </Group>
        </Group>
        <Text c="gray.7" mt="xs" maw={720}>
          Each test case dials your latest saved draft, types its replies and checks every screen it expects. Run them after a change to see
          what it broke.
        </Text>
      </div>

      <div aria-live="polite">
        {run.isPending && (
          <Group gap="xs" data-testid="run-progress">
            <Loader size="sm" />
            <Text size="sm">Running {plural(list.length, 'test case')} against the draft…</Text>
          </Group>
        )}
        {!run.isPending && runError && (
          <Alert color="red" variant="light" title="Not run" icon={<IconCircleX size={20} />}>
            {runError}
          </Alert>
        )}
        {!run.isPending && !runError && lastRun && <RunSummary run={lastRun} />}
      </div>

      {cases.isPending && <ListSkeleton label="Loading the test cases" rows={3} />}
      {cases.error && <LoadErrorAlert title="Test cases not loaded" message={cases.error.message} onRetry={() => void cases.refetch()} />}
      {cases.data && list.length === 0 && (
        <EmptyPanel
          testId="tests-empty"
          icon={<IconTestPipe size={28} />}
          title="No test cases yet"
          description="A test case is a dial, the replies a customer types and the screen each must show. Record one: run the app in the emulator, then press Save as test case. Or write one here."
          action={
            <Group gap="sm" justify="center">
              <Button component={Link} to={emulatorPath(appId)} variant="default" leftSection={<IconDeviceMobile size={18} />}>
                Open the emulator
              </Button>
              <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ kind: 'new' })}>
                Write a test case
              </Button>
            </Group>
          }
        />
      )}
      {list.length > 0 && (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Test cases">
          {list.map((testCase) => (
            <CaseRow
              key={`${testCase.id}:${runNumber}`}
              testCase={testCase}
              result={results.get(testCase.id)}
              onEdit={() => setEditing({ kind: 'edit', testCase })}
            />
          ))}
        </Stack>
      )}

      <TestCaseDrawer
        appId={appId}
        testCase={editing?.kind === 'edit' ? editing.testCase : undefined}
        isOpen={editing !== null}
        onClose={() => setEditing(null)}
        onChanged={forgetResult}
      />
    </Stack>
  );
}
