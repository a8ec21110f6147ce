import { Alert, Badge, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TestCaseResult, TestStepResult } from '../../../shared/api/test-cases.schema';
import { markLines, stepInputLabel } from './test-run-format';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** A screen's text line by line; the line a failed step names is marked, in colour and in words. */
function ScreenLines({ label, text, differenceLine }: { label: string; text: string; differenceLine?: number }) {
  const lines = markLines(text, differenceLine);
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" fw={700} c="gray.7" tt="uppercase" lts={0.5} mb={4}>
        {label}
      </Text>
      <Box
        component="pre"
        m={0}
        p="xs"
        bg="gray.0"
        fz="sm"
        ff={MONO}
        style={{ borderRadius: 6, border: '1px solid var(--mantine-color-gray-3)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {lines.map((line, index) =>
          line.isDifferent ? (
            <Box
              key={index}
              component="mark"
              display="block"
              bg="red.1"
              c="red.9"
              style={{ borderLeft: '3px solid var(--mantine-color-red-7)', paddingLeft: 4, marginLeft: -7 }}
              data-testid="difference-line"
            >
              {line.text || ' '}
              <Text component="span" size="xs" fw={700} ml="xs" ff="var(--mantine-font-family)">
                ← first line not shown
              </Text>
            </Box>
          ) : (
            <div key={index}>{line.text || ' '}</div>
          ),
        )}
      </Box>
    </div>
  );
}

function StepResult({ step, index }: { step: TestStepResult; index: number }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="step-result" data-ok={step.ok}>
      <Group justify="space-between" mb="xs" gap="xs">
        <Text size="sm" fw={600}>
          Step {index + 1} · {stepInputLabel(step.input, index)}
        </Text>
        <Badge color={step.ok ? 'teal' : 'red'} variant="light">
          {step.ok ? 'Shown' : 'Different'}
        </Badge>
      </Group>
      {!step.ok && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <ScreenLines label="Expected" text={step.expect} differenceLine={step.difference?.line} />
          <ScreenLines label="Shown" text={step.actual} />
        </SimpleGrid>
      )}
      {!step.ok && step.difference && (
        <Text size="sm" c="red.9" mt="xs">
          Line {step.difference.line} of the expected screen is not on the screen shown: “{step.difference.expected}”.
        </Text>
      )}
    </Paper>
  );
}

/** A case's run: each step it got to (the failed one with expected and shown side by side), or why it stopped. */
export function TestStepResults({ result }: { result: TestCaseResult }) {
  return (
    <Stack gap="xs">
      {result.steps.map((step, index) => (
        <StepResult key={index} step={step} index={index} />
      ))}
      {result.error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The case could not go on">
          {result.error}
        </Alert>
      )}
    </Stack>
  );
}
