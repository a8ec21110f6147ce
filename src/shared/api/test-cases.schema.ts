/**
 * Saved test cases (docs/testing-apps.md): a dial and the inputs that follow it, each with the screen it must show;
 * actions that reach outside (REST, database, SMS, payments) answer with a reply recorded per case.
 */
import { z } from 'zod';

/** Most cases an app keeps: a run of all of them stays a few seconds. */
export const MAX_TEST_CASES_PER_APP = 500;
export const MAX_TEST_STEPS = 50;
/** The wildcard an expected screen may hold for a part that varies (a date, an amount, an id): any text on its line. */
export const TEST_WILDCARD = '{*}';

export const TEST_CASE_MESSAGES = {
  name: 'Give the test case a name (at most 100 characters).',
  steps: `A test case has 1 to ${MAX_TEST_STEPS} steps.`,
  tooMany: `An app keeps at most ${MAX_TEST_CASES_PER_APP} test cases; delete some first.`,
  stub: 'A recorded reply is at most 16 KB of JSON.',
  noSession: 'That session was not found in your emulator runs of this app.',
  notRun: (budgetMs: number) =>
    `Not run: the run stopped after ${budgetMs / 1000} s, its most. Run fewer or quicker cases (recorded replies for slow scripts).`,
  failing: (failed: number, total: number) =>
    `Deploy refused: ${failed} of ${total} test case${total > 1 ? 's' : ''} failed. Fix the app, or deploy anyway with a reason.`,
} as const;

/** One step: what the caller types ('' on the dial) and the screen it must show, in part or whole. */
export const testStepSchema = z
  .object({
    input: z.string().max(512),
    /** The screen, or a part of it, with `{*}` where text varies; the step passes when the screen contains it. */
    expect: z.string().max(2000),
  })
  .strict();

/** A recorded reply of an action, by action name: `{ ok: true, result }` or `{ ok: false, error }`. */
export const actionStubSchema = z
  .union([
    z.object({ ok: z.literal(true), result: z.unknown() }).strict(),
    z.object({ ok: z.literal(false), error: z.string().max(500) }).strict(),
  ])
  .refine((stub) => JSON.stringify(stub).length <= 16_384, TEST_CASE_MESSAGES.stub);

export const testCaseBodySchema = z
  .object({
    name: z.string().trim().min(1, TEST_CASE_MESSAGES.name).max(100, TEST_CASE_MESSAGES.name),
    /** What is dialled: the app's code, or more (`*920*12*50#`). Empty: the app's own code. */
    dialString: z.string().max(100).default(''),
    msisdn: z.string().max(20).default('233200000000'),
    steps: z.array(testStepSchema).min(1, TEST_CASE_MESSAGES.steps).max(MAX_TEST_STEPS, TEST_CASE_MESSAGES.steps),
    stubs: z.record(z.string().max(100), actionStubSchema).default({}),
  })
  .strict();
export type TestCaseBody = z.infer<typeof testCaseBodySchema>;

export const testCaseSchema = testCaseBodySchema.extend({ id: z.string(), createdAt: z.string(), updatedAt: z.string() });
export type TestCase = z.infer<typeof testCaseSchema>;

export const recordTestCaseSchema = z
  .object({
    sessionId: z.string().min(1).max(200),
    name: z.string().trim().min(1, TEST_CASE_MESSAGES.name).max(100, TEST_CASE_MESSAGES.name),
  })
  .strict();

/** One step as run: what was typed, expected and shown; `difference` is the first expected line the screen lacks. */
export const testStepResultSchema = z.object({
  input: z.string(),
  expect: z.string(),
  actual: z.string(),
  ok: z.boolean(),
  difference: z.object({ line: z.number(), expected: z.string() }).optional(),
});
export type TestStepResult = z.infer<typeof testStepResultSchema>;

export const testCaseResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** The steps up to the first that failed (the rest are not run: the session has gone elsewhere). */
  steps: z.array(testStepResultSchema),
  /** Why it could not go on (a step past the session's end). */
  error: z.string().optional(),
  durationMs: z.number(),
});
export type TestCaseResult = z.infer<typeof testCaseResultSchema>;

export const testRunSchema = z.object({
  total: z.number(),
  passed: z.number(),
  failed: z.number(),
  durationMs: z.number(),
  results: z.array(testCaseResultSchema),
});
export type TestRun = z.infer<typeof testRunSchema>;

export const testCaseParamsSchema = z.object({ appId: z.string().min(1).max(64), caseId: z.string().min(1).max(64) });
export const testAppParamsSchema = z.object({ appId: z.string().min(1).max(64) });

/** A failed case as a refused deploy names it: its first step that did not show what it expected, or its error. */
export const testFailureSchema = z.object({
  id: z.string(),
  name: z.string(),
  error: z.string().optional(),
  step: z.object({ input: z.string(), actual: z.string(), difference: testStepResultSchema.shape.difference }).optional(),
});
export type TestFailure = z.infer<typeof testFailureSchema>;
