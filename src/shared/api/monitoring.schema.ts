import { z } from 'zod';
import { ENVIRONMENTS } from '../environment';
import { END_CAUSES } from '../session-ends';
import { DELIVERY_STATUSES } from '../whatsapp-status';
import { locationSchema } from './bots.schema';
import { mediaRefSchema } from './media.schema';

export const LOG_LEVELS = ['system', 'debug', 'info', 'error'] as const;
/** Ascending order of the table view ("ordered by level ascending"). */
export const LOG_LEVEL_ORDER: Record<string, number> = { system: 0, debug: 1, info: 2, error: 3 };

const appId = z.string().min(1).max(64);
/** Milliseconds since the epoch, or an ISO date. */
const instant = z.union([z.number(), z.string().max(64)]);

/**
 * `timeStamp` is the emulator's cursor (lines after it). `afterId` is ours and exact: lines written after the
 * line with that id, so two lines of the same millisecond are never lost between polls.
 */
export const streamLogsBodySchema = z.object({
  appId,
  timeStamp: instant.optional(),
  afterId: z.number().int().min(0).optional(),
  sessionId: z.string().max(100).optional(),
});
export const streamLogEntrySchema = z.object({
  id: z.number(),
  logLevel: z.string(),
  message: z.string(),
  timestamp: z.string(),
  sessionId: z.string(),
  menu: z.string().nullable(),
  plugin: z.string().nullable(),
  action: z.string().nullable(),
  data: z.unknown(),
});

export const searchLogsBodySchema = z.object({
  appId,
  filterByMenu: z.boolean().default(false),
  filterByLevel: z.boolean().default(false),
  filterByPlugin: z.boolean().default(false),
  level: z.string().max(20).default(''),
  menuId: z.string().max(200).default(''),
  plugin: z.string().max(40).default(''),
});
export const logEntrySchema = z.object({
  id: z.number(),
  time: z.string(),
  logLevel: z.string(),
  pluginActionMenu: z.string(),
  message: z.string(),
  data: z.unknown(),
});

export const debugBodySchema = z.object({ appId, sessionId: z.string().min(1).max(100) });
/** One input of a session; `media`: the file a bot's photo or document input received (its value is the file's id). */
export const userInputEntrySchema = z.object({
  fieldName: z.string(),
  fieldValue: z.string(),
  time: z.string(),
  media: mediaRefSchema.optional(),
});
/**
 * POST /debug/sessionPath: the menus a session was shown, in order (a menu paged or shown again appears again), and
 * the navigation rules it took (`rule`: the rule's index in its menu; `toId` null when the rule ended the session).
 */
export const sessionPathSchema = z.object({
  steps: z.array(z.object({ menuId: z.string(), menu: z.string(), time: z.string() })),
  rules: z.array(z.object({ menuId: z.string(), rule: z.number(), toId: z.string().nullable() })),
  ended: z.boolean(),
});
export type SessionPath = z.infer<typeof sessionPathSchema>;

export const actionResultEntrySchema = z.object({
  actionName: z.string(),
  menuName: z.string(),
  actionResult: z.unknown(),
  isOk: z.boolean(),
  time: z.string(),
});

/**
 * Where a session ran, on every session the monitoring screens list: `environment` (`live`, `test`) and the
 * `gateway` that carried it (`emulator`, `africastalking`...); see shared/session-source.ts.
 */
const sessionOrigin = { environment: z.string(), gateway: z.string() };

export const liveItemSchema = z.object({
  id: z.string(),
  menuText: z.string(),
  sessionId: z.string(),
  network: z.string(),
  mobile: z.string(),
  updatedAt: z.string(),
  ...sessionOrigin,
});

/** The dashboard counts one environment at a time: live traffic unless test runs (test URL and emulator) are asked for. */
export const dashboardQuerySchema = z.object({
  environment: z.enum(ENVIRONMENTS, { message: 'The environment must be live or test' }).default('live'),
});
export type { Environment } from '../environment';

export const dashboardSchema = z.object({
  connectedSessions: z.number(),
  transactions: z.number(),
  totalUsers: z.number(),
  menuCount: z.number(),
  /** Sessions that ended in each hour of the last 24, by network as the gateway sent it ('' when it did not). */
  sessionsByHour: z.array(z.object({ hour: z.string(), network: z.string(), sessions: z.number() })),
  /** For each menu where sessions stopped: how many ended there completed and how many were abandoned. */
  menuOutcomes: z.array(z.object({ menuId: z.string(), menu: z.string(), completed: z.number(), abandoned: z.number() })),
});

/** The periods the dashboard's WhatsApp delivery counts and inbox figures cover, ending now: the last 24 hours, 7 days or 30 days. */
export const DASHBOARD_PERIODS = ['day', 'week', 'month'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

export const deliveryCountsQuerySchema = dashboardQuerySchema.extend({
  period: z.enum(DASHBOARD_PERIODS, { message: 'The period must be day, week or month' }).default('day'),
});

const deliveryTally = { sent: z.number(), delivered: z.number(), read: z.number(), failed: z.number() };

/**
 * A bot's outbound WhatsApp messages sent in the period, by where each stands now (shared/whatsapp-status.ts):
 * `sent` counts every message sent, `delivered` those delivered or read, `read` those read, `failed` those failed.
 */
export const deliveryCountsSchema = z.object({
  period: z.enum(DASHBOARD_PERIODS),
  /** The period's bounds, ISO times: messages with from <= sentAt <= to. */
  from: z.string(),
  to: z.string(),
  totals: z.object(deliveryTally),
  /** By hour (a day) or by day (a week, a month) of sending, UTC, only buckets with messages. */
  buckets: z.array(z.object({ at: z.string(), ...deliveryTally })),
  /** The commonest failures, most first (at most five): the provider's code (null when it gave none) and words. */
  failureReasons: z.array(z.object({ code: z.number().nullable(), reason: z.string(), messages: z.number() })),
});

/** The dashboard's session health covers the delivery counts' environment and period. */
export const sessionHealthQuerySchema = deliveryCountsQuerySchema;

/** Sessions by why they ended (shared/session-ends.ts), in END_CAUSES order; `cause` null for records kept from before causes. */
const causeCountsSchema = z.array(z.object({ cause: z.enum(END_CAUSES).nullable(), sessions: z.number() }));
/** A time's middle and its 95th percentile, in milliseconds (interpolated, rounded); null when nothing was measured. */
const msPercentilesSchema = z.object({ p50Ms: z.number(), p95Ms: z.number() }).nullable();

/**
 * Why an app's sessions ended and how fast it answered them (docs/monitoring.md, "Session health"): the finished
 * sessions of one environment in the period (ended between `from` and `to`).
 */
export const sessionHealthSchema = z.object({
  period: z.enum(DASHBOARD_PERIODS),
  from: z.string(),
  to: z.string(),
  sessions: z.number(),
  causes: causeCountsSchema,
  /** Per menu where sessions stopped (named as the dashboard's menuOutcomes name it), most sessions first. */
  menus: z.array(z.object({ menuId: z.string(), menu: z.string(), sessions: z.number(), causes: causeCountsSchema })),
  /**
   * Per network as people name it (shared/mobile-networks.ts: `62001` and `MTN` are one), most sessions first:
   * `completionRate` is completions (COMPLETING_CAUSES) over the sessions with a cause, null when none has one;
   * `medianHopMs` the middle time of their hops in the runtime, null when none was timed.
   */
  networks: z.array(
    z.object({
      network: z.string(),
      detail: z.string(),
      sessions: z.number(),
      completionRate: z.number().nullable(),
      medianHopMs: z.number().nullable(),
      causes: causeCountsSchema,
    }),
  ),
  /**
   * Hop times per gateway against its response budget (shared/gateway-profiles.ts, as the app's connections narrow
   * it; null for a chat channel): a hop's whole time, its time in the runtime (whole less actions) and in actions.
   */
  latency: z.array(
    z.object({
      gateway: z.string(),
      label: z.string(),
      budgetMs: z.number().nullable(),
      hops: z.number(),
      overBudget: z.number(),
      hop: msPercentilesSchema,
      runtime: msPercentilesSchema,
      actions: msPercentilesSchema,
    }),
  ),
  /** The five actions with the slowest 95th percentile in those sessions: runs, that percentile (null: never timed), failures. */
  slowestActions: z.array(
    z.object({ actionName: z.string(), menuName: z.string(), runs: z.number(), p95Ms: z.number().nullable(), failures: z.number() }),
  ),
});

export const inboxFiguresQuerySchema = z.object({
  period: z.enum(DASHBOARD_PERIODS, { message: 'The period must be day, week or month' }).default('day'),
});

/** A duration's middle and its 90th percentile, in seconds; null when nothing was measured. */
const durationSchema = z.object({ medianSeconds: z.number(), p90Seconds: z.number() }).nullable();

/**
 * The conversations an app handed to a person (docs/inbox.md, "Figures"), over the period: how soon a person
 * answered (a reply sent; a callback request marked done), how long until closed, and what each agent did.
 */
export const inboxFiguresSchema = z.object({
  period: z.enum(DASHBOARD_PERIODS),
  from: z.string(),
  to: z.string(),
  /** Conversations opened in the period; of those, answered by a person, and still open with no answer. */
  opened: z.number(),
  answered: z.number(),
  waiting: z.number(),
  /** From opening to the first answer, over the conversations opened in the period and answered. */
  firstResponse: durationSchema,
  /** Conversations closed in the period, and from opening to closing over those. */
  closed: z.number(),
  resolution: durationSchema,
  /** Opened and closed by hour (a day) or by day (a week, a month), UTC, only buckets with either. */
  buckets: z.array(z.object({ at: z.string(), opened: z.number(), closed: z.number() })),
  /**
   * Each person who replied or closed in the period, most conversations first (at most 50): the conversations they
   * replied in, their replies, the conversations they closed, and their first answers' middle time.
   */
  agents: z.array(
    z.object({
      userId: z.string().nullable(),
      name: z.string(),
      conversations: z.number(),
      replies: z.number(),
      closed: z.number(),
      firstResponseMedianSeconds: z.number().nullable(),
    }),
  ),
});

export const sessionMessagesQuerySchema = z.object({
  sessionId: z.string({ message: 'Name the session' }).min(1, 'Name the session').max(100, 'A session id has at most 100 characters'),
});

/** One message a bot sent in a session and what became of it (docs/whatsapp-connectors.md, "Delivery statuses"). */
export const sessionMessageSchema = z.object({
  providerMessageId: z.string(),
  /** text, list, buttons (or template, a first message). */
  kind: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  failureCode: z.number().nullable(),
  failureReason: z.string(),
  sentAt: z.string(),
  deliveredAt: z.string().nullable(),
  readAt: z.string().nullable(),
  failedAt: z.string().nullable(),
});

/**
 * What a bot's session received instead of text, by menu identifier (its `session.inputs` entry is the media id or
 * `latitude,longitude`): the file with a fresh signed link (none once its bytes are deleted), or the location.
 */
export const sessionMediaSchema = z.record(z.string(), z.union([mediaRefSchema, locationSchema]));
export type SessionMedia = z.infer<typeof sessionMediaSchema>;

export const sessionRowSchema = z.object({
  id: z.number(),
  sessionId: z.string(),
  mobile: z.string(),
  network: z.string(),
  createdAt: z.string(),
  inputs: z.record(z.string(), z.string()),
  media: sessionMediaSchema.optional(),
  lastMenu: z.string().nullable(),
  status: z.string(),
  /** Why it ended (shared/session-ends.ts); null on records kept from before causes were recorded. */
  endCause: z.enum(END_CAUSES).nullable(),
  /** What the gateway's end notice said, where it said it: the session's length by its clock, its cost, the network's words. */
  gatewayDurationMs: z.number().nullable(),
  gatewayCost: z.string().nullable(),
  gatewayWords: z.string().nullable(),
  ...sessionOrigin,
});

/** The finished sessions' lists, optionally of one end cause only. */
export const sessionListQuerySchema = z.object({
  cause: z.enum(END_CAUSES, { message: `The cause must be one of ${END_CAUSES.join(', ')}` }).optional(),
});

export const searchBodySchema = z
  .object({
    appId,
    startDate: z.string().max(64).default(''),
    endDate: z.string().max(64).default(''),
    searchBy: z.enum(['date', 'word']).default('date'),
    searchQuery: z.string().max(200).default(''),
    flatResults: z.boolean().default(false),
  })
  .refine((b) => b.searchBy !== 'date' || (b.startDate && b.endDate), { message: 'Please select a date range', path: ['startDate'] })
  .refine((b) => b.searchBy !== 'word' || b.searchQuery.trim().length > 0, {
    message: 'Please enter a word to search for',
    path: ['searchQuery'],
  });
export type SearchBody = z.infer<typeof searchBodySchema>;

export const searchRowSchema = z.object({
  mobile: z.string(),
  network: z.string(),
  date: z.string(),
  inputs: z.record(z.string(), z.string()),
  media: sessionMediaSchema.optional(),
  ...sessionOrigin,
});
export const flatSearchSchema = z.object({ headers: z.array(z.string()), rows: z.array(z.record(z.string(), z.string())) });
