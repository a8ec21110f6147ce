import { Alert, Anchor, CloseButton, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { LintIssueDto } from '../../../shared/api/menus.schema';

/** What the last deploy said: refused with the checks' errors, or deployed (maybe with warnings). */
export type DeployOutcome =
  | { kind: 'refused'; message: string; errors: LintIssueDto[]; warnings: LintIssueDto[] }
  | { kind: 'deployed'; message: string; version: number; warnings: LintIssueDto[] };

interface AppDeployPanelProps {
  outcome: DeployOutcome;
  onOpenMenu: (issue: LintIssueDto) => void;
  onClose: () => void;
}

/** The deploy checks' errors and warnings, each linking to (opening) the menu it names. */
export function AppDeployPanel({ outcome, onOpenMenu, onClose }: AppDeployPanelProps) {
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
