import { createHmac } from 'node:crypto';
import { and, asc, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { apps, webhookDeliveries, webhooks } from '../../../db/schema';
import type { AddressRules } from '../../../actions/net/address-guard';
import { createGuardedConnector } from '../../../actions/restapi';
import { ACTION_HOP_HEADER, ACTION_HOP_MARK } from '../../../actions/net/outbound-headers';
import { WEBHOOK_SIGNATURE_HEADER } from '../../../shared/api/webhooks.schema';
import { toErrorMessage } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { createPeriodicTask, type PeriodicTask } from '../../periodic-task';
import { toWebhookBody, type WebhookDeliveryRow } from './webhooks.service';

/** Waits after failed attempts 1, 2, ...: 30 s, 2 min, 10 min, 1 h, 6 h; the attempt after the last fails the delivery. */
export const WEBHOOK_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
/** Delivered and failed deliveries are kept this long (the console lists the latest 50), then deleted. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/**
 * The transaction-scoped advisory lock every dispatcher's claim takes (any number, the same in every process):
 * claims run one at a time across the fleet, so each sees the leases the previous one took and an account's
 * cap holds however many processes send.
 */
const CLAIM_LOCK_KEY = 0x77686b63; // 'whkc'
/** How much of a response's body is kept to show in the console. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export interface WebhookDispatcherOptions {
  /** Poll period; 0 leaves the timer off, and wake too (tests call deliverDue). */
  intervalMs: number;
  /** Limit on one attempt, connect to last byte read. */
  timeoutMs: number;
  rules: AddressRules;
  retryDelaysMs?: readonly number[];
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /**
   * Deliveries of one account (all its apps together) in flight at once, across every process sending them:
   * an account's slow receivers hold this many slots at most, however many apps it has.
   */
  perAccount?: number;
}

export interface WebhookDispatcher extends PeriodicTask<number> {
  /** Claims what is due, sends it, and resolves when those attempts (and any still running) have finished. */
  deliverDue(): Promise<number>;
  /** Runs soon rather than at the next tick ("Send test event", "Redeliver"). */
  wake(): void;
  close(): Promise<void>;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as docs/webhooks.md shows receivers to check it. */
export function signWebhookBody(secret: string, timestampSeconds: number, body: string): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}

interface AttemptOutcome {
  isDelivered: boolean;
  responseStatus: number | null;
  excerpt: string | null;
  error: string | null;
}

/**
 * Sends queued webhook deliveries outside any request. Each tick claims due rows in one UPDATE that marks them
 * `sending`, counts the attempt and sets a lease (`next_attempt_at`), only where they are still due: two
 * processes that pick the same row cannot both claim it, and a process that dies mid-send leaves rows that are
 * taken again when their lease ends. Fairness is per account, counted in the database: an account's rows are
 * claimed only while its leased ones (in flight in any process) and the new ones together stay within
 * `perAccount`, and claims take turns under an advisory lock so that two processes cannot both fill the same
 * account's last slot. One tenant's slow or failing receivers, on however many apps (each attempt ends at
 * `timeoutMs`), hold a few of the `concurrency` slots and never the others'. A 2xx answer delivers; anything
 * else is retried after the next delay of the schedule, then the delivery fails. Times are the injected clock's.
 */
export function createWebhookDispatcher(ctx: AppContext, options: WebhookDispatcherOptions): WebhookDispatcher {
  const retryDelaysMs = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const concurrency = options.concurrency ?? 16;
  const perAccount = options.perAccount ?? 2;
  const leaseMs = options.timeoutMs + 60_000;
  const agent = new Agent({
    connect: createGuardedConnector(options.rules, options.timeoutMs),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  /** Attempts running in this process. */
  const inFlight = new Set<Promise<void>>();

  async function claim(): Promise<Array<WebhookDeliveryRow & { url: string | null; secret: string | null; isEnabled: boolean | null }>> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return [];
    const now = ctx.now();
    const isDue = and(
      or(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.status, 'sending')),
      lte(webhookDeliveries.nextAttemptAt, now),
    );
    // Each account's deliveries in flight now, in any process: sending under a lease that has not ended.
    const busy = ctx.db
      .select({ accountId: sql<string>`${apps.userId}`.as('busy_account_id'), count: sql<number>`count(*)`.as('busy_count') })
      .from(webhookDeliveries)
      .innerJoin(apps, eq(apps.id, webhookDeliveries.appId))
      .where(and(eq(webhookDeliveries.status, 'sending'), gt(webhookDeliveries.nextAttemptAt, now)))
      .groupBy(apps.userId)
      .as('busy');
    const ranked = ctx.db
      .select({
        id: webhookDeliveries.id,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        accountId: sql<string>`${apps.userId}`.as('account_id'),
        rank: sql<number>`row_number() over (partition by ${apps.userId} order by ${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.id})`.as(
          'rank',
        ),
      })
      .from(webhookDeliveries)
      .innerJoin(apps, eq(apps.id, webhookDeliveries.appId))
      .where(isDue)
      .as('ranked');
    const due = ctx.db
      .select({ id: ranked.id })
      .from(ranked)
      .leftJoin(busy, eq(busy.accountId, ranked.accountId))
      .where(sql`${ranked.rank} + coalesce(${busy.count}, 0) <= ${perAccount}`)
      .orderBy(asc(ranked.nextAttemptAt))
      .limit(free);
    const claimed = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
      return tx
        .update(webhookDeliveries)
        .set({
          status: 'sending',
          attemptCount: sql`${webhookDeliveries.attemptCount} + 1`,
          lastAttemptAt: now,
          nextAttemptAt: new Date(now.getTime() + leaseMs),
        })
        .where(and(inArray(webhookDeliveries.id, due), isDue))
        .returning();
    });
    if (!claimed.length) return [];
    const hooks = await ctx.db
      .select()
      .from(webhooks)
      .where(inArray(webhooks.appId, [...new Set(claimed.map((c) => c.appId))]));
    const byApp = new Map(hooks.map((h) => [h.appId, h]));
    return claimed.map((row) => {
      const hook = byApp.get(row.appId);
      return { ...row, url: hook?.url ?? null, secret: hook?.secret ?? null, isEnabled: hook?.isEnabled ?? null };
    });
  }

  /** One POST; the receiver's answer or why there was none. The excerpt is read up to its limit, then the body dropped. */
  async function post(url: string, secret: string, body: string, row: WebhookDeliveryRow): Promise<AttemptOutcome> {
    const timestamp = Math.floor(ctx.now().getTime() / 1000);
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Dialflow-Webhooks/1.0',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(secret, timestamp, body),
          'dialflow-event-id': row.eventId,
          'dialflow-event-type': row.eventType,
          // Marks it as ours: should it reach this platform again (through a receiver that forwards it), it is
          // refused there and starts nothing (actions/net/outbound-headers.ts).
          [ACTION_HOP_HEADER]: ACTION_HOP_MARK,
        },
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buffer = chunk as Buffer;
        chunks.push(buffer);
        size += buffer.length;
        if (size >= RESPONSE_EXCERPT_BYTES) break;
      }
      if (size >= RESPONSE_EXCERPT_BYTES) res.body.destroy();
      const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\0', '');
      const isDelivered = res.statusCode >= 200 && res.statusCode < 300;
      return {
        isDelivered,
        responseStatus: res.statusCode,
        excerpt,
        error: isDelivered ? null : `The endpoint answered HTTP ${res.statusCode}`,
      };
    } catch (err) {
      const isTimeout = (err as Error).name === 'TimeoutError' || /timeout/i.test((err as { code?: string }).code ?? '');
      const error = isTimeout ? `No answer within ${options.timeoutMs / 1000} s` : toErrorMessage(err);
      return { isDelivered: false, responseStatus: null, excerpt: null, error: error.slice(0, 500) };
    }
  }

  async function attempt(row: Awaited<ReturnType<typeof claim>>[number]): Promise<void> {
    const started = performance.now();
    const outcome: AttemptOutcome =
      row.url && row.secret && row.isEnabled
        ? await post(row.url, row.secret, toWebhookBody(row), row)
        : { isDelivered: false, responseStatus: null, excerpt: null, error: 'The webhook is turned off or removed' };
    const durationMs = Math.round(performance.now() - started);
    const delay = retryDelaysMs[row.attemptCount - 1];
    const isFinal = outcome.isDelivered || delay === undefined || !row.isEnabled;
    await ctx.db
      .update(webhookDeliveries)
      .set({
        status: outcome.isDelivered ? 'delivered' : isFinal ? 'failed' : 'pending',
        nextAttemptAt: isFinal ? null : new Date(ctx.now().getTime() + delay),
        lastResponseStatus: outcome.responseStatus,
        lastResponseExcerpt: outcome.excerpt,
        lastDurationMs: durationMs,
        lastError: outcome.error,
      })
      // Only while it is still ours: a lease that ran out may have let another process take it.
      .where(
        and(
          eq(webhookDeliveries.id, row.id),
          eq(webhookDeliveries.status, 'sending'),
          eq(webhookDeliveries.attemptCount, row.attemptCount),
        ),
      );
  }

  function track(row: Awaited<ReturnType<typeof claim>>[number]): void {
    const job: Promise<void> = attempt(row)
      .catch((err: unknown) => ctx.log.error({ err, deliveryId: row.id }, 'webhook attempt could not be recorded'))
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  }

  let prunedAt = Number.NEGATIVE_INFINITY;
  /** Deletes finished deliveries past their retention, at most once an hour per process. */
  async function pruneFinished(): Promise<void> {
    const now = ctx.now().getTime();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    await ctx.db
      .delete(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.status, ['delivered', 'failed']),
          lte(webhookDeliveries.createdAt, new Date(now - DELIVERY_RETENTION_MS)),
        ),
      );
  }

  /** Claims and starts what is due; does not wait for the attempts (a slow receiver must not hold the next tick). */
  async function tick(): Promise<number> {
    await pruneFinished();
    const rows = await claim();
    for (const row of rows) track(row);
    return rows.length;
  }

  async function settle(): Promise<void> {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  }

  const task = createPeriodicTask('webhook dispatcher', tick, { intervalMs: options.intervalMs, log: ctx.log });
  let isWakeQueued = false;
  let isStopped = false;
  return {
    ...task,
    async deliverDue() {
      const started = await task.runOnce();
      await settle();
      return started;
    },
    wake() {
      // A dispatcher without its timer (tests) sends only when told to (deliverDue).
      if (isWakeQueued || isStopped || options.intervalMs <= 0) return;
      isWakeQueued = true;
      setTimeout(() => {
        isWakeQueued = false;
        task.runOnce().catch((err: unknown) => ctx.log.error({ err }, 'webhook dispatcher run failed'));
      }, 0).unref();
    },
    async stop() {
      isStopped = true;
      await task.stop();
      await settle();
    },
    async close() {
      isStopped = true;
      await task.stop();
      await settle();
      await agent.close();
    },
  };
}
