import { bigint, bigserial, index, integer, jsonb, pgTable, pgView, text, timestamp } from 'drizzle-orm/pg-core';
import type { EndCause } from '../../shared/session-ends';

/**
 * One log line of a hop's row (`app_logs.lines`): what a line row has in its columns, `ms` after the row's time
 * (left out when 0), null fields left out.
 */
export interface HopLine {
  level: string;
  type: string;
  menuId?: string;
  menu?: string;
  plugin?: string;
  action?: string;
  message: string;
  data?: unknown;
  ms?: number;
}

/**
 * Application logs (the Application Logs screen and the emulator's log panel), two kinds of row (docs/runtime.md,
 * "What a hop keeps"): a hop's row, its lines in `lines` and the inputs it stored in `inputs` (its own level, type
 * and message are the placeholder 'hop'); or one line in the columns (`lines` null), as every row was before and as
 * lines outside a hop are written. Readers read lines through `app_log_lines`, never the rows.
 */
export const appLogs = pgTable(
  'app_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    sessionId: text('session_id').notNull().default(''),
    environment: text('environment').notNull().default(''),
    /** Whose emulator run wrote the row (`user:<id>` or `anon:<browser id>`); null for gateway traffic. */
    caller: text('caller'),
    level: text('level').notNull(),
    type: text('type').notNull(),
    menuId: text('menu_id'),
    menu: text('menu'),
    plugin: text('plugin'),
    action: text('action'),
    message: text('message').notNull(),
    data: jsonb('data'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    /** A hop's row: its lines in order; '[]' once its lines expired before its inputs. */
    lines: jsonb('lines').$type<HopLine[]>(),
    /** A hop's row: the inputs it stored (new or changed `session.inputs` entries), [field, value] in order; the debugger's User Inputs. */
    inputs: jsonb('inputs').$type<Array<[string, string]>>(),
  },
  (t) => [index('app_logs_app_time_idx').on(t.appId, t.createdAt), index('app_logs_session_idx').on(t.appId, t.sessionId)],
);

/**
 * Every log line, one a row, unpacked from `app_logs` (the view the migration creates): a line row as it is, a hop's
 * row as its lines. `id` is the line's: its row's id times LINE_ID_SCALE plus its place in the row (1, 2, ...; 0 for
 * a line row), so ids keep the order lines were written in. `createdAt` is the line's time; filters by time and
 * order go by `rowCreatedAt` and `rowId`, which the row's indexes serve.
 */
export const appLogLines = pgView('app_log_lines', {
  id: bigint('id', { mode: 'number' }).notNull(),
  rowId: bigint('row_id', { mode: 'number' }).notNull(),
  appId: text('app_id').notNull(),
  sessionId: text('session_id').notNull(),
  environment: text('environment').notNull(),
  caller: text('caller'),
  level: text('level').notNull(),
  type: text('type').notNull(),
  menuId: text('menu_id'),
  menu: text('menu'),
  plugin: text('plugin'),
  action: text('action'),
  message: text('message').notNull(),
  data: jsonb('data'),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  rowCreatedAt: timestamp('row_created_at', { withTimezone: true, precision: 3 }).notNull(),
}).existing();

/** A hop's row's level, type and message (its lines are in `lines`). */
export const HOP_ROW = 'hop';

/** A line's id is its row's id times this plus its place in the row: a hop's row holds fewer lines (hop-lines.ts). */
export const LINE_ID_SCALE = 1000;

/**
 * Inputs as given, one a row: rows written before a hop's inputs went into its `app_logs` row (the debugger's User
 * Inputs reads both).
 */
export const sessionInputs = pgTable(
  'session_inputs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    sessionId: text('session_id').notNull(),
    /** Whose emulator run wrote the row (`user:<id>` or `anon:<browser id>`); null for gateway traffic. */
    caller: text('caller'),
    fieldName: text('field_name').notNull(),
    fieldValue: text('field_value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('session_inputs_session_idx').on(t.appId, t.sessionId)],
);

/** Each action's result (the debugger's Action Results). */
export const actionResults = pgTable(
  'action_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    sessionId: text('session_id').notNull(),
    /** Whose emulator run wrote the row (`user:<id>` or `anon:<browser id>`); null for gateway traffic. */
    caller: text('caller'),
    actionName: text('action_name').notNull(),
    menuName: text('menu_name').notNull(),
    plugin: text('plugin').notNull(),
    result: jsonb('result'),
    isOk: integer('is_ok').notNull().default(1),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('action_results_session_idx').on(t.appId, t.sessionId)],
);

/** A finished session: completed (the app ended it) or abandoned (timed out, released by the gateway), and why (`end_cause`). */
export const sessionRecords = pgTable(
  'session_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    sessionId: text('session_id').notNull(),
    environment: text('environment').notNull(),
    /** Whose emulator run wrote the row (`user:<id>` or `anon:<browser id>`); null for gateway traffic. */
    caller: text('caller'),
    gateway: text('gateway').notNull(),
    mobile: text('mobile').notNull(),
    /** The caller's contact: the number in E.164 form (docs/contacts.md); null when the number is not one. */
    contactMsisdn: text('contact_msisdn'),
    network: text('network').notNull(),
    serviceCode: text('service_code').notNull(),
    status: text('status').notNull(),
    lastMenu: text('last_menu'),
    inputs: jsonb('inputs').notNull(),
    /**
     * `session.media` when it ended: by menu identifier, the file (a MediaRef without its link, which is signed
     * afresh for the app's owner when read) or the location a bot's menu received; null when none arrived.
     */
    media: jsonb('media'),
    hopCount: integer('hop_count').notNull(),
    /** Why it ended (shared/session-ends.ts EndCause); null on records kept from before causes were recorded. */
    endCause: text('end_cause').$type<EndCause>(),
    /** What the gateway's end notice said, where it says it: the session's length by its clock, its cost, the network's words. */
    gatewayDurationMs: integer('gateway_duration_ms'),
    gatewayCost: text('gateway_cost'),
    gatewayWords: text('gateway_words'),
    /** Each hop's time in the runtime, from the request to the answer, in ms (in order); null on older records. */
    hopMs: integer('hop_ms').array(),
    /** Each hop's time spent in actions, in ms, matching `hopMs`. */
    actionMs: integer('action_ms').array(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index('session_records_app_ended_idx').on(t.appId, t.status, t.endedAt),
    index('session_records_app_time_idx').on(t.appId, t.endedAt),
    index('session_records_contact_idx').on(t.contactMsisdn, t.endedAt),
    // No index for the cause or the session id: each costs every hop's writes (bench/README.md, issue 33's figures);
    // the cause filter and a gateway's end notice read a time range of one app instead (core/session-notices.ts).
  ],
);
