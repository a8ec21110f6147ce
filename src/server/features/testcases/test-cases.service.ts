/**
 * An app's saved test cases (docs/testing-apps.md): kept per app, recorded from the builder's own emulator runs, run
 * together against the draft (the Test tab, a team's CI through an API key) and before a deploy.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { actionResults, appLogLines, appLogs, apps, appTestCases } from '../../../db/schema';
import {
  MAX_TEST_CASES_PER_APP,
  TEST_CASE_MESSAGES,
  type TestCase,
  type TestCaseBody,
  type TestFailure,
  type TestRun,
} from '../../../shared/api/test-cases.schema';
import { AppError, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getOwnedApp, type AppRow } from '../../core/app-access';
import { getUserCaller } from '../runtime/emulator-caller';
import { runTestCase, type RunScript } from './test-case-runner';

/** Runs a script for real for an app's account: the runtime's action runner (app.ts gives it). */
export type RunAppScript = (app: { appId: string; ownerId: string }) => RunScript;

/** What the test cases need of the runtime: its script runner, and writing its buffered rows (a run just finished). */
export interface TestCaseDeps {
  runAppScript: RunAppScript;
  flushEvents(): Promise<void>;
}

type CaseRow = typeof appTestCases.$inferSelect;

function toTestCase(row: CaseRow): TestCase {
  return {
    id: row.id,
    name: row.name,
    dialString: row.dialString,
    msisdn: row.msisdn,
    steps: row.steps,
    stubs: row.stubs,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findTestCases(ctx: AppContext, user: AuthUser, appId: string): Promise<TestCase[]> {
  const app = await getOwnedApp(ctx, user, appId);
  const rows = await ctx.db.select().from(appTestCases).where(eq(appTestCases.appId, app.id)).orderBy(asc(appTestCases.createdAt));
  return rows.map(toTestCase);
}

/** Saves a new case; the app row is locked so two saves racing past the limit cannot both win. */
export async function createTestCase(ctx: AppContext, user: AuthUser, appId: string, body: TestCaseBody): Promise<TestCase> {
  const app = await getOwnedApp(ctx, user, appId);
  return ctx.db.transaction(async (tx) => {
    await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, app.id)).for('update');
    const [held] = await tx.select({ n: count() }).from(appTestCases).where(eq(appTestCases.appId, app.id));
    if (held!.n >= MAX_TEST_CASES_PER_APP) throw invalid(TEST_CASE_MESSAGES.tooMany);
    const [row] = await tx
      .insert(appTestCases)
      .values({ appId: app.id, ...body })
      .returning();
    return toTestCase(row!);
  });
}

async function getOwnedCase(ctx: AppContext, app: AppRow, caseId: string): Promise<CaseRow> {
  if (!isUuid(caseId)) throw notFound('Test case not found');
  const [row] = await ctx.db
    .select()
    .from(appTestCases)
    .where(and(eq(appTestCases.id, caseId), eq(appTestCases.appId, app.id)));
  if (!row) throw notFound('Test case not found');
  return row;
}

export async function updateTestCase(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  caseId: string,
  body: TestCaseBody,
): Promise<TestCase> {
  const app = await getOwnedApp(ctx, user, appId);
  await getOwnedCase(ctx, app, caseId);
  const [row] = await ctx.db
    .update(appTestCases)
    .set({ ...body, updatedAt: ctx.now() })
    .where(and(eq(appTestCases.id, caseId), eq(appTestCases.appId, app.id)))
    .returning();
  return toTestCase(row!);
}

export async function deleteTestCase(ctx: AppContext, user: AuthUser, appId: string, caseId: string): Promise<void> {
  const app = await getOwnedApp(ctx, user, appId);
  await getOwnedCase(ctx, app, caseId);
  await ctx.db.delete(appTestCases).where(and(eq(appTestCases.id, caseId), eq(appTestCases.appId, app.id)));
}

/** Keys whose values a recorded reply never keeps (an API's token, a PIN): blanked, deep. */
const SECRET_KEY = /pass(word)?|secret|token|authori[sz]ation|api[-_]?key|(^|[-_])(pin|cvv|otp)$/i;
export const BLANKED = '(blanked)';

export function blankSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blankSecrets);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? BLANKED : blankSecrets(item)]));
}

/**
 * A case from one of the builder's own emulator runs of the app: what was dialled, each input and the screen that
 * followed, and each action's reply (secrets blanked) as the case's recorded replies. Only the signed-in builder's
 * runs are read (the emulator marks each row with its caller): another's session answers 404.
 */
export async function recordTestCase(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  { sessionId, name }: { sessionId: string; name: string },
  deps: Pick<TestCaseDeps, 'flushEvents'>,
): Promise<TestCase> {
  const app = await getOwnedApp(ctx, user, appId);
  // The run's rows may still be in the runtime's buffer.
  await deps.flushEvents();
  const caller = getUserCaller(user.id);
  const events = await ctx.db
    .select({ type: appLogLines.type, data: appLogLines.data })
    .from(appLogLines)
    .where(
      and(
        eq(appLogLines.appId, app.id),
        eq(appLogLines.sessionId, sessionId),
        eq(appLogLines.caller, caller),
        inArray(appLogLines.type, ['session_started', 'input_received', 'menu_shown', 'session_ended']),
      ),
    )
    .orderBy(asc(appLogLines.id));
  const started = events.find((e) => e.type === 'session_started');
  if (!started) throw notFound(TEST_CASE_MESSAGES.noSession);
  const startedData = started.data as { dialString?: string; msisdn?: string };
  const steps: TestCaseBody['steps'] = [];
  let input = '';
  for (const e of events) {
    const data = e.data as { input?: string; text?: string; replayed?: boolean };
    if (e.type === 'input_received' && !data.replayed) input = data.input ?? '';
    if ((e.type === 'menu_shown' || e.type === 'session_ended') && typeof data.text === 'string') {
      steps.push({ input, expect: data.text });
      input = '';
    }
  }
  if (steps.length === 0) throw invalid('That session showed no screen to record.');
  const results = await ctx.db
    .select({ actionName: actionResults.actionName, result: actionResults.result, isOk: actionResults.isOk })
    .from(actionResults)
    .where(and(eq(actionResults.appId, app.id), eq(actionResults.sessionId, sessionId), eq(actionResults.caller, caller)))
    .orderBy(asc(actionResults.id));
  const stubs: TestCaseBody['stubs'] = {};
  for (const r of results) {
    stubs[r.actionName] = r.isOk
      ? { ok: true, result: blankSecrets(r.result) }
      : { ok: false, error: String((r.result as { error?: unknown } | null)?.error ?? 'failed').slice(0, 500) };
  }
  return createTestCase(ctx, user, appId, {
    name,
    dialString: startedData.dialString ?? '',
    msisdn: (startedData.msisdn ?? '233200000000').slice(0, 20),
    steps: steps.slice(0, 50),
    stubs,
  });
}

/** Every case of the app against its draft, one after another (they share the account's script share). */
export async function runAppTestCases(ctx: AppContext, app: AppRow, runAppScript: RunAppScript): Promise<TestRun> {
  const budgetMs = ctx.config.TEST_RUN_MAX_MS;
  const started = performance.now();
  const loaded = await ctx.versions.getDraft(app.id);
  const rows = await ctx.db.select().from(appTestCases).where(eq(appTestCases.appId, app.id)).orderBy(asc(appTestCases.createdAt));
  if ('missing' in loaded) throw notFound('App not found');
  const runScript = runAppScript({ appId: app.id, ownerId: app.userId });
  const results: TestRun['results'] = [];
  for (const row of rows) {
    // Past the run's time the rest are reported, not run: a suite of slow cases cannot hold the thread for minutes.
    if (performance.now() - started > budgetMs) {
      results.push({ id: row.id, name: row.name, ok: false, steps: [], error: TEST_CASE_MESSAGES.notRun(budgetMs), durationMs: 0 });
      continue;
    }
    results.push(await runTestCase(loaded.compiled, toTestCase(row), runScript));
  }
  const passed = results.filter((r) => r.ok).length;
  return { total: results.length, passed, failed: results.length - passed, durationMs: Math.round(performance.now() - started), results };
}

export async function runTestCases(ctx: AppContext, user: AuthUser, appId: string, runAppScript: RunAppScript): Promise<TestRun> {
  return runAppTestCases(ctx, await getOwnedApp(ctx, user, appId), runAppScript);
}

/** The failing cases of a run as a refused deploy names them: each case's first different step. */
function toFailures(run: TestRun): TestFailure[] {
  return run.results
    .filter((r) => !r.ok)
    .map((r) => {
      const step = r.steps.find((s) => !s.ok);
      return {
        id: r.id,
        name: r.name,
        ...(r.error ? { error: r.error } : {}),
        ...(step ? { step: { input: step.input, actual: step.actual, difference: step.difference } } : {}),
      };
    });
}

/**
 * Before a deploy (docs/testing-apps.md, "Deploys"): the app's cases against the draft. A failing case refuses the
 * deploy with the failures named, unless the builder gives a reason to deploy anyway, which goes to the app's logs
 * with who gave it. An app with no cases deploys as before (null).
 */
export async function checkBeforeDeploy(
  ctx: AppContext,
  user: AuthUser,
  app: AppRow,
  runAppScript: RunAppScript,
  override: string | undefined,
): Promise<TestRun | null> {
  const [held] = await ctx.db.select({ n: count() }).from(appTestCases).where(eq(appTestCases.appId, app.id));
  if (held!.n === 0) return null;
  const run = await runAppTestCases(ctx, app, runAppScript);
  if (run.failed === 0) return run;
  const reason = override?.trim();
  if (!reason) throw new AppError('invalid', TEST_CASE_MESSAGES.failing(run.failed, run.total), { extra: { failures: toFailures(run) } });
  await ctx.db.insert(appLogs).values({
    appId: app.id,
    environment: 'live',
    level: 'system',
    type: 'deploy_override',
    message: `${user.email} deployed with ${run.failed} of ${run.total} test cases failing: ${reason.slice(0, 500)}`,
    data: { failures: toFailures(run).map((f) => f.name), reason: reason.slice(0, 500) },
    createdAt: ctx.now(),
  });
  return run;
}
