import { Alert, Anchor, Button, CloseButton, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { LintIssueDto } from '../../../shared/api/menus.schema';
import type { TestFailure } from '../../../shared/api/test-cases.schema';
import { testsPath } from '../../lib/paths';

/**
 * What the last deploy said: refused with the checks' errors or the saved test cases that failed, or deployed (maybe
 * with warnings).
 */
export type DeployOutcome =
  | { kind: 'refused'; message: string; errors: LintIssueDto[]; warnings: LintIssueDto[]; failures: TestFailure[] }
  | { kind: 'deployed'; message: string; version: number; warnings: LintIssueDto[] };

interface AppDeployPanelProps {
  appId: string;
  outcome: DeployOutcome;
  onOpenMenu: (issue: LintIssueDto) => void;
  /** Deploys again although test cases fail, for this reason (logged). */
  onDeployAnyway: (reason: string) => void;
  onClose: () => void;
}

/** The deploy checks' errors and warnings, each linking to (opening) the menu it names; failed test cases, with a way on. */
export function AppDeployPanel({ appId, outcome, onOpenMenu, onDeployAnyway, onClose }: AppDeployPanelProps) {
  const isRefused = outcome.kind === 'refused';
  const errors = isRefused ? outcome.errors : [];
  if (!isRefused && outcome.warnings.length === 0) return null;
  return (
    <Alert
      color={isRefused ? 'red' : 'yellow'}
      variant="light"
      radius="md"
      icon={isRefused ? <IconAlertTriangle size={20} /> : <IconCircleCheck size={20} />}
      title={
        <Group justify="space-between" wrap="nowrap" w="100%">
          <span>{isRefused ? 'Deploy refused' : `Deployed version ${outcome.version} with warnings`}</span>
        </Group>
      }
      data-testid="deploy-panel"
      styles={{ title: { width: '100%' }, body: { minWidth: 0 } }}
    >
      <CloseButton aria-label="Dismiss the deploy results" onClick={onClose} pos="absolute" top={10} right={10} size="sm" />
      <Stack gap="sm">
        {isRefused && errors.length === 0 && <Text size="sm">{outcome.message}</Text>}
        {isRefused && outcome.failures.length > 0 && (
          <FailedCases appId={appId} failures={outcome.failures} onDeployAnyway={onDeployAnyway} />
        )}
        <IssueList title={`Errors (${errors.length})`} issues={errors} color="red.8" onOpenMenu={onOpenMenu} testId="deploy-errors" />
        <IssueList
          title={`Warnings (${outcome.warnings.length})`}
          issues={outcome.warnings}
          color="yellow.9"
          onOpenMenu={onOpenMenu}
          testId="deploy-warnings"
        />
      </Stack>
    </Alert>
  );
}

function IssueList({
  title,
  issues,
  color,
  onOpenMenu,
  testId,
}: {
  title: string;
  issues: LintIssueDto[];
  color: string;
  onOpenMenu: (issue: LintIssueDto) => void;
  testId: string;
}) {
  if (issues.length === 0) return null;
  return (
    <div data-testid={testId}>
      <Text size="sm" fw={600} c={color}>
        {title}
      </Text>
      <List size="sm" spacing={4} mt={4}>
        {issues.map((issue, i) => (
          <List.Item key={i} data-testid="deploy-issue">
            {issue.menuId ? (
              <Anchor component="button" type="button" size="sm" fw={600} onClick={() => onOpenMenu(issue)}>
                {issue.menu || 'Open menu'}
              </Anchor>
            ) : (
              <Text span size="sm" fw={600}>
                App
              </Text>
            )}
            <Text span size="sm">
              : {issue.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </div>
  );
}

/** The saved test cases a deploy found failing, each with its first different step; and a reason to deploy anyway. */
function FailedCases({
  appId,
  failures,
  onDeployAnyway,
}: {
  appId: string;
  failures: TestFailure[];
  onDeployAnyway: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Stack gap="xs" data-testid="deploy-test-failures">
      <List size="sm" spacing={4}>
        {failures.map((f) => (
          <List.Item key={f.id} data-testid="deploy-test-failure">
            <Text span size="sm" fw={600}>
              {f.name}
            </Text>
            <Text span size="sm">
              {f.error
                ? `: ${f.error}`
                : f.step?.difference
                  ? `: after "${f.step.input || 'the dial'}", line ${f.step.difference.line} "${f.step.difference.expected}" is not on the screen`
                  : ''}
            </Text>
          </List.Item>
        ))}
      </List>
      <Anchor component={Link} to={testsPath(appId)} size="sm">
        Open the test results
      </Anchor>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim()) onDeployAnyway(reason.trim());
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Deploy anyway, because"
            description="Kept in the app's logs with your name"
            placeholder="e.g. the price change is intended"
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
            // On the alert's light red, the usual dimmed grey is too faint to read (axe: 4.2:1).
            styles={{ description: { color: 'var(--mantine-color-gray-8)' } }}
          />
          <Button type="submit" color="red" variant="light" disabled={!reason.trim()} data-testid="deploy-anyway">
            Deploy anyway
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
