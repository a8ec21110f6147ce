/**
 * Reading what hops keep in `app_logs` (docs/runtime.md, "What a hop keeps"): a hop's row holds its lines and the
 * inputs it stored; rows written before hold one line each, and their inputs are `session_inputs` rows. Lines are
 * read through the `app_log_lines` view; these are the parts a view does not give.
 */
import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appLogs, sessionInputs } from '../../db/schema';

/** The lines a row of `app_logs` holds: a hop's row's lines, or the one line of a line row. */
export const countLines = (t: typeof appLogs) =>
  sql<number>`case when ${t.lines} is null then 1 else jsonb_array_length(${t.lines}) end`.mapWith(Number);

/** The inputs a hop's row holds (0 for a line row). */
export const countInputs = (t: typeof appLogs) => sql<number>`coalesce(jsonb_array_length(${t.inputs}), 0)`.mapWith(Number);

/** An input as given: which session's, the field and value, and the hop's time. */
export interface InputGiven {
  appId: string;
  sessionId: string;
  fieldName: string;
  fieldValue: string;
  createdAt: Date;
}

/**
 * The inputs given in an app's sessions, in the order they were given: `session_inputs` rows (written before hops
 * kept their inputs in their rows) and the hops' rows' inputs, by the sessions' index of each table. `caller`: only
 * the rows of that caller's runs (a featured template's).
 */
export async function findInputsGiven(db: Pick<Db, 'select'>, appId: string, sessionIds: string[], caller?: string): Promise<InputGiven[]> {
  return findInputsWhere(db, {
    inputs: and(
      eq(sessionInputs.appId, appId),
      inArray(sessionInputs.sessionId, sessionIds),
      caller === undefined ? undefined : eq(sessionInputs.caller, caller),
    )!,
    hops: and(
      eq(appLogs.appId, appId),
      inArray(appLogs.sessionId, sessionIds),
      caller === undefined ? undefined : eq(appLogs.caller, caller),
    )!,
  });
}

/** The inputs of the rows each condition picks (one over `session_inputs`, one over `app_logs`), in the order given. */
export async function findInputsWhere(db: Pick<Db, 'select'>, where: { inputs: SQL; hops: SQL }): Promise<InputGiven[]> {
  const [rows, hops] = await Promise.all([
    db
      .select({
        appId: sessionInputs.appId,
        sessionId: sessionInputs.sessionId,
        fieldName: sessionInputs.fieldName,
        fieldValue: sessionInputs.fieldValue,
        createdAt: sessionInputs.createdAt,
      })
      .from(sessionInputs)
      .where(where.inputs)
      .orderBy(asc(sessionInputs.id)),
    db
      .select({ appId: appLogs.appId, sessionId: appLogs.sessionId, inputs: appLogs.inputs, createdAt: appLogs.createdAt })
      .from(appLogs)
      .where(and(where.hops, isNotNull(appLogs.inputs)))
      .orderBy(asc(appLogs.id)),
  ]);
  const given: InputGiven[] = [...rows];
  for (const hop of hops)
    for (const [fieldName, fieldValue] of hop.inputs ?? [])
      given.push({ appId: hop.appId, sessionId: hop.sessionId, fieldName, fieldValue, createdAt: hop.createdAt });
  // Older rows first: a session's inputs are in one table or, across an upgrade, the old table's first (a stable sort).
  return given.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
