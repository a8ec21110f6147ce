/**
 * Webhooks (docs/webhooks.md): each app may name one URL that receives its session and payment events as
 * signed JSON. This file holds the settings (URL, events, secret), the queue of deliveries as the console
 * reads and redelivers them, and `queueWebhookEvent` for events raised in code. Session events are queued by
 * the database itself (the trigger in the `webhooks` migration); sending is webhook-dispatcher.ts's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { webhookDeliveries, webhooks } from '../../../db/schema';
import { findRefusedAddressError, resolveGuarded, type AddressRules } from '../../../actions/net/address-guard';
import {
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  type SaveWebhookBody,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEventType,
} from '../../../shared/api/webhooks.schema';
import { invalid, notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { recordChangeByAdmin } from '../../core/audit-log';
import { getOwnedApp } from '../../core/app-access';

type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A new signing secret: 32 random bytes, prefixed so a leaked one is recognisable. */
const createSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

function toWebhook(appId: string, row: WebhookRow | undefined): Webhook {
  return {
    appId,
    url: row?.url ?? '',
    events: (row?.events ?? []) as WebhookEventType[],
    isEnabled: row?.isEnabled ?? false,
    secret: row?.secret ?? '',
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * The request body of a delivery, the same bytes at every attempt: `{ id, type, createdAt, appId, data }`.
 * Receivers dedupe on `id`.
 */
export function toWebhookBody(row: Pick<WebhookDeliveryRow, 'eventId' | 'eventType' | 'occurredAt' | 'appId' | 'data'>): string {
  return JSON.stringify({
    id: row.eventId,
    type: row.eventType,
    createdAt: row.occurredAt.toISOString(),
    appId: row.appId,
    data: row.data,
  });
}

function toDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    deliveryId: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status as WebhookDeliveryStatus,
    attemptCount: row.attemptCount,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.status === 'pending' || row.status === 'sending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastResponseStatus: row.lastResponseStatus,
    lastResponseExcerpt: row.lastResponseExcerpt,
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    requestBody: toWebhookBody(row),
  };
}

async function findWebhookRow(ctx: AppContext, appId: string): Promise<WebhookRow | undefined> {
  const [row] = await ctx.db.select().from(webhooks).where(eq(webhooks.appId, appId));
  return row;
}

export async function getWebhook(ctx: AppContext, user: AuthUser, appId: string): Promise<Webhook> {
  const app = await getOwnedApp(ctx, user, appId);
  return toWebhook(app.id, await findWebhookRow(ctx, app.id));
}

/**
 * The URL as it will be called, or a clear refusal: http(s) only, no credentials, and a host that resolves
 * now to addresses the outbound rules allow (the restapi action's guard and operator settings). The guard runs
 * again at every attempt's connect: a name may resolve elsewhere later.
 */
export async function checkWebhookUrl(rules: AddressRules, url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(WEBHOOK_MESSAGES.badUrl);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid(WEBHOOK_MESSAGES.badUrl);
  if (parsed.username || parsed.password) throw invalid(WEBHOOK_MESSAGES.credentialsInUrl);
  const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  try {
    await resolveGuarded(parsed.hostname, port, rules);
  } catch (err) {
    const refused = findRefusedAddressError(err);
    if (refused) throw invalid(refused.message);
    throw invalid(`${parsed.hostname} could not be resolved. Check the URL's host name.`);
  }
  parsed.hash = '';
  return parsed.toString();
}

export async function saveWebhook(
  ctx: AppContext,
  rules: AddressRules,
  user: AuthUser,
  appId: string,
  body: SaveWebhookBody,
): Promise<Webhook> {
  const app = await getOwnedApp(ctx, user, appId);
  const url = await checkWebhookUrl(rules, body.url);
  const events = [...new Set(body.events)];
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(webhooks)
    .values({ appId: app.id, url, events, isEnabled: body.isEnabled, secret: createSecret(), createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: webhooks.appId, set: { url, events, isEnabled: body.isEnabled, updatedAt: now } })
    .returning();
  await recordChangeByAdmin(ctx.db, user, app.userId, 'webhook_changed', app.id, { url, events, isEnabled: body.isEnabled });
  return toWebhook(app.id, row);
}

/** A new secret at once: deliveries from now on (retries included) are signed with it. */
export async function rotateWebhookSecret(ctx: AppContext, user: AuthUser, appId: string): Promise<Webhook> {
  const app = await getOwnedApp(ctx, user, appId);
  await recordChangeByAdmin(ctx.db, user, app.userId, 'webhook_changed', app.id, { secretRotated: true });
  const [row] = await ctx.db
    .update(webhooks)
    .set({ secret: createSecret(), updatedAt: ctx.now() })
    .where(eq(webhooks.appId, app.id))
    .returning();
  if (!row) throw invalid(WEBHOOK_MESSAGES.notSet);
  return toWebhook(app.id, row);
}

/**
 * Queues one event for the app's webhook, when it has one that is on and takes this type; in the caller's
 * transaction (`db` may be one), so the event exists exactly when what it reports does. Queuing the same
 * `eventId` twice does nothing.
 */
export async function queueWebhookEvent(
  db: Db,
  event: { appId: string; eventId: string; eventType: WebhookEventType; data: Record<string, unknown>; occurredAt: Date },
): Promise<void> {
  await db.execute(sql`
    insert into ${webhookDeliveries} (app_id, event_id, event_type, data, occurred_at, next_attempt_at, created_at)
    select ${event.appId}, ${event.eventId}, ${event.eventType}, ${JSON.stringify(event.data)}::jsonb, ${event.occurredAt}, ${event.occurredAt}, ${event.occurredAt}
    from ${webhooks}
    where ${webhooks.appId} = ${event.appId} and ${webhooks.isEnabled}
      and ${webhooks.events} @> jsonb_build_array(${event.eventType}::text)
    on conflict (event_id) do nothing`);
}

/** "Send test event": a `webhook.test` delivery, due now, whatever events are ticked (the webhook must be on). */
export async function queueTestEvent(ctx: AppContext, user: AuthUser, appId: string): Promise<WebhookDelivery> {
  const app = await getOwnedApp(ctx, user, appId);
  const hook = await findWebhookRow(ctx, app.id);
  if (!hook) throw invalid(WEBHOOK_MESSAGES.notSet);
  if (!hook.isEnabled) throw invalid(WEBHOOK_MESSAGES.turnedOff);
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(webhookDeliveries)
    .values({
      appId: app.id,
      eventId: `evt_test_${randomUUID().replaceAll('-', '')}`,
      eventType: WEBHOOK_TEST_EVENT,
      data: { appName: app.appName, message: 'A test event from Dialflow: your endpoint is reachable and can check the signature.' },
      occurredAt: now,
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning();
  return toDelivery(row!);
}

export async function findWebhookDeliveries(ctx: AppContext, user: AuthUser, appId: string, limit: number): Promise<WebhookDelivery[]> {
  const app = await getOwnedApp(ctx, user, appId);
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.appId, app.id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map(toDelivery);
}

/**
 * Sends a delivery again, now, with the same event id and body (receivers that saw it dedupe). It counts as
 * one more attempt; when that fails it is retried only if attempts of its schedule remain.
 */
export async function redeliverWebhookDelivery(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const app = await getOwnedApp(ctx, user, appId);
  const [row] = await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: ctx.now() })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.appId, app.id), ne(webhookDeliveries.status, 'sending')))
    .returning();
  if (row) return toDelivery(row);
  // Being sent right now: it is left to finish (sending it twice at once would be two deliveries).
  const [sending] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.appId, app.id)));
  if (!sending) throw notFound('Delivery not found');
  return toDelivery(sending);
}
