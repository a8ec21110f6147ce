/** How a run of the test cases reads on the Tests screen: its summary line, a step's name, its screens' lines. */
import type { TestRun } from '../../../shared/api/test-cases.schema';

/** 340 ms, 1.2 s, 12 s. */
export function formatRunDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
}

/** '18 of 20 passed · 1.2 s'. */
export const formatRunSummary = (run: Pick<TestRun, 'total' | 'passed' | 'durationMs'>) =>
  `${run.passed} of ${run.total} passed · ${formatRunDuration(run.durationMs)}`;

/** 'Dial' for the first step (its input is not sent: the dial string is), else what was typed. */
export const stepInputLabel = (input: string, index: number) =>
  index === 0 ? 'Dial' : input === '' ? 'Reply (empty)' : `Reply “${input}”`;

/** A screen's lines, each with whether it is the one a failed step names (`difference.line`, 1-based). */
export function markLines(text: string, differenceLine?: number): { text: string; isDifferent: boolean }[] {
  return text.split('\n').map((line, index) => ({ text: line, isDifferent: differenceLine === index + 1 }));
}
