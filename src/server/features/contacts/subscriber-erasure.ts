/**
 * Erasing one number's subscriber data (docs/security.md, "Subscriber data"), step by step: each step finds the
 * number's rows of one kind, in one account or every account, and deletes them, or anonymises them where a count
 * must stay (the dashboard's sessions and unique callers, delivery counts, campaigns' figures, payments as a
 * financial record). Deleting a contact runs every step at once in its transaction (contacts.service.ts); an
 * erasure job runs them a bounded batch at a time (subscriber-data.service.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import {
  actionResults,
  appLogs,
  apps,
  campaignMessages,
  contacts,
  inboxConversations,
  mediaFiles,
  sessionInputs,
  sessionRecords,
  smsMessages,
  smsReplies,
  transactions,
  webhookDeliveries,
  whatsappFirstMessages,
  whatsappLinks,
  whatsappMessages,
  whatsappWindows,
} from '../../../db/schema';
import { SUBSCRIBER_DATA_MESSAGES, type SubscriberDataCounts, type SubscriberDataKind } from '../../../shared/api/subscriber-data.schema';
import { toStoredForms } from '../../core/msisdn';
import { eraseMediaOf } from '../media/media.service';
import { countInputs, countLines } from '../../core/log-rows';

type Tx = Pick<Db, 'select' | 'update' | 'delete'>;

/**
 * Whose data: one account's (`ownerId`), or every account's (null: an admin's erasure). `msisdn` is E.164;
 * `anonymous` is what the number becomes where a row stays (`erased:<uuid>`, one per erasure, so the rows of one
 * caller still count as one).
 */
export interface SubscriberTarget {
  ownerId: string | null;
  msisdn: string;
  anonymous: string;
}

export const toSubscriberTarget = (ownerId: string | null, msisdn: string, anonymous = `erased:${randomUUID()}`): SubscriberTarget => ({
  ownerId,
  msisdn,
  anonymous,
});

/** What one run of a step did: rows per kind, and the storage keys of files whose bytes go once it has committed. */
export interface ErasedRows {
  /** Rows the step found (a batch that found fewer than its limit was the last). */
  found: number;
  counts: Partial<SubscriberDataCounts>;
  storageKeys: string[];
  /**
   * The last serial id the batch looked at, for a step that walks its table in id order (the next batch starts
   * after it): over a table with no index on the number, the batches of one step then read the table once between
   * them, not once each. New rows get higher ids, so one written while the erasure runs is still reached.
   */
  after?: number;
}

/** The account's apps (or every app), for tables that name an app and not its owner. */
export const appsOf = (target: Pick<SubscriberTarget, 'ownerId'>): SQL =>
  target.ownerId === null
    ? sql`select ${apps.id} from ${apps}`
    : sql`select ${apps.id} from ${apps} where ${apps.userId} = ${target.ownerId}`;

/** `column` names the target's account; always true for every account's. */
const ownedBy = (column: PgColumn, target: Pick<SubscriberTarget, 'ownerId'>): SQL | undefined =>
  target.ownerId === null ? undefined : eq(column, target.ownerId);

/** The number's rows of each kind, as a WHERE condition (what the export reads, the summary counts and the steps erase). */
export function subscriberRowsOf(target: Pick<SubscriberTarget, 'ownerId' | 'msisdn'>) {
  const forms = toStoredForms(target.msisdn);
  const ownLinks =
    target.ownerId === null
      ? sql`select ${whatsappLinks.id} from ${whatsappLinks}`
      : sql`select ${whatsappLinks.id} from ${whatsappLinks} join ${apps} on ${apps.id} = ${whatsappLinks.appId} where ${apps.userId} = ${target.ownerId}`;
  return {
    // Session records written before they carried the contact's number have `mobile` as the gateway sent it.
    sessions: and(
      sql`${sessionRecords.appId} in (${appsOf(target)})`,
      or(eq(sessionRecords.contactMsisdn, target.msisdn), inArray(sessionRecords.mobile, forms)),
    ) as SQL,
    sms: and(ownedBy(smsMessages.ownerId, target), inArray(smsMessages.recipient, forms)) as SQL,
    smsReplies: and(ownedBy(smsReplies.ownerId, target), eq(smsReplies.msisdn, target.msisdn)) as SQL,
    whatsappMessages: and(
      target.ownerId === null ? undefined : eq(whatsappMessages.userId, target.ownerId),
      eq(whatsappMessages.toNumber, target.msisdn.slice(1)),
    ) as SQL,
    firstMessages: and(ownedBy(whatsappFirstMessages.ownerId, target), eq(whatsappFirstMessages.msisdn, target.msisdn)) as SQL,
    windows: and(sql`${whatsappWindows.linkId} in (${ownLinks})`, eq(whatsappWindows.msisdn, target.msisdn)) as SQL,
    inboxConversations: and(ownedBy(inboxConversations.ownerId, target), eq(inboxConversations.msisdn, target.msisdn)) as SQL,
    campaignMessages: and(ownedBy(campaignMessages.ownerId, target), eq(campaignMessages.msisdn, target.msisdn)) as SQL,
    media: and(ownedBy(mediaFiles.ownerId, target), eq(mediaFiles.msisdn, target.msisdn)) as SQL,
    // An app's payment prompts only: an account's own plan and shortcode payments name no app.
    payments: and(
      isNotNull(transactions.appId),
      sql`${transactions.appId} in (${appsOf(target)})`,
      inArray(sql`${transactions.metadata} ->> 'mobile'`, forms),
    ) as SQL,
    webhookEvents: and(
      sql`${webhookDeliveries.appId} in (${appsOf(target)})`,
      inArray(sql`${webhookDeliveries.data} ->> 'mobile'`, forms),
    ) as SQL,
    contacts: and(ownedBy(contacts.ownerId, target), eq(contacts.msisdn, target.msisdn)) as SQL,
  };
}

/**
 * `condition`, narrowed to at most `limit` rows by the table's key (`limit` null: every row, in one statement). A
 * table keyed by two columns (the 24-hour windows) is narrowed by its rows' physical address.
 */
function limited(table: PgTable, key: PgColumn | 'ctid', condition: SQL, limit: number | null): SQL {
  if (limit === null) return condition;
  const column = key === 'ctid' ? sql.raw('ctid') : key;
  return sql`${column} in (select ${column} from ${table} where ${condition} limit ${limit})`;
}

/** A transaction's metadata keys that are no person's data: kept when its payer is erased. */
const KEPT_PAYMENT_METADATA = ['provider', 'network', 'sessionId', 'providerReference', 'settledBy', 'failureReason', 'error'];

/** Session ids by app, so each statement uses the (app, session) indexes. */
function groupByApp(sessions: Array<{ appId: string; sessionId: string }>): Array<{ appId: string; ids: string[] }> {
  const byApp = new Map<string, string[]>();
  for (const { appId, sessionId } of sessions) {
    const ids = byApp.get(appId);
    if (ids) ids.push(sessionId);
    else byApp.set(appId, [sessionId]);
  }
  return [...byApp].map(([appId, ids]) => ({ appId, ids }));
}

const rowsOf = (result: unknown[]) => result.length;

/**
 * The number's sessions: their inputs and action results go, their log lines keep their time and kind but not
 * their words or data, the webhook events about them lose the number and the inputs, and the records keep app,
 * time, gateway, network, status, last menu and hop count (the dashboard's counts) with the anonymous token for
 * the number and no inputs or files.
 */
async function eraseSessions(tx: Tx, _now: Date, target: SubscriberTarget, limit: number | null, after?: number): Promise<ErasedRows> {
  const condition = subscriberRowsOf(target).sessions;
  const sessions = await tx
    .select({ id: sessionRecords.id, appId: sessionRecords.appId, sessionId: sessionRecords.sessionId })
    .from(sessionRecords)
    .where(and(condition, after === undefined ? undefined : gt(sessionRecords.id, after)))
    .orderBy(asc(sessionRecords.id))
    .limit(limit ?? Number.MAX_SAFE_INTEGER);
  const counts = { sessions: sessions.length, inputs: 0, actionResults: 0, logs: 0, webhookEvents: 0 };
  if (sessions.length === 0) return { found: 0, counts, storageKeys: [], after };
  const byApp = groupByApp(sessions);
  for (const { appId, ids } of byApp) {
    const ofSessions = <T extends { appId: PgColumn; sessionId: PgColumn }>(t: T) => and(eq(t.appId, appId), inArray(t.sessionId, ids));
    counts.inputs += rowsOf(await tx.delete(sessionInputs).where(ofSessions(sessionInputs)).returning({ id: sessionInputs.id }));
    counts.actionResults += rowsOf(await tx.delete(actionResults).where(ofSessions(actionResults)).returning({ id: actionResults.id }));
    counts.logs += rowsOf(
      await tx
        .update(appLogs)
        .set({ message: SUBSCRIBER_DATA_MESSAGES.erased, data: null })
        .where(and(ofSessions(appLogs), isNull(appLogs.lines), sql`${appLogs.message} <> ${SUBSCRIBER_DATA_MESSAGES.erased}`))
        .returning({ id: appLogs.id }),
    );
    // A hop's row: its inputs go, each line keeps its time and kind but not its words or data.
    const hops = await tx
      .select({ id: appLogs.id, inputs: countInputs(appLogs) })
      .from(appLogs)
      .where(
        and(
          ofSessions(appLogs),
          isNotNull(appLogs.lines),
          sql`(${appLogs.inputs} is not null or exists (select 1 from jsonb_array_elements(${appLogs.lines}) as e(line)
            where e.line ->> 'message' <> ${SUBSCRIBER_DATA_MESSAGES.erased} or e.line ? 'data'))`,
        ),
      );
    if (hops.length > 0) {
      const erased = await tx
        .update(appLogs)
        .set({
          inputs: null,
          lines: sql`(select coalesce(jsonb_agg(((e.line - 'data') || ${JSON.stringify({ message: SUBSCRIBER_DATA_MESSAGES.erased })}::jsonb) order by e.n), '[]'::jsonb)
            from jsonb_array_elements(${appLogs.lines}) with ordinality as e(line, n))`,
        })
        .where(
          inArray(
            appLogs.id,
            hops.map((h) => h.id),
          ),
        )
        .returning({ lines: countLines(appLogs) });
      counts.logs += erased.reduce((sum, row) => sum + row.lines, 0);
      counts.inputs += hops.reduce((sum, row) => sum + row.inputs, 0);
    }
  }
  const ofTheseSessions = byApp.map(({ appId, ids }) =>
    and(eq(webhookDeliveries.appId, appId), inArray(sql`${webhookDeliveries.data} ->> 'sessionId'`, ids)),
  );
  counts.webhookEvents += await anonymiseWebhookEvents(tx, target, or(...ofTheseSessions) as SQL);
  await tx
    .update(sessionRecords)
    .set({ mobile: target.anonymous, contactMsisdn: null, inputs: {}, media: null })
    .where(
      inArray(
        sessionRecords.id,
        sessions.map((s) => s.id),
      ),
    );
  return { found: sessions.length, counts, storageKeys: [], after: sessions.at(-1)!.id };
}

/** Webhook events keep their type and delivery; the number becomes the token, the inputs and the receiver's answer go. */
async function anonymiseWebhookEvents(tx: Tx, target: SubscriberTarget, condition: SQL): Promise<number> {
  const rows = await tx
    .update(webhookDeliveries)
    .set({
      data: sql`case when ${webhookDeliveries.data} ? 'inputs'
        then ${webhookDeliveries.data} || jsonb_build_object('mobile', ${target.anonymous}::text, 'inputs', '{}'::jsonb)
        else ${webhookDeliveries.data} || jsonb_build_object('mobile', ${target.anonymous}::text) end`,
      lastResponseExcerpt: null,
    })
    .where(condition)
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * One kind of the number's rows (docs/security.md, "Subscriber data", says what each keeps). Run in this order:
 * the sessions first, as their webhook events are found by session.
 */
export interface ErasureStep {
  kind: SubscriberDataKind;
  /** At most `limit` rows (null: every row), after the id `after` where the step walks its table in id order. */
  erase(tx: Tx, now: Date, target: SubscriberTarget, limit: number | null, after?: number): Promise<ErasedRows>;
}

/** A step that changes (or deletes) the rows of one table the condition finds, counted under `kind`. */
function rowStep(
  kind: SubscriberDataKind,
  run: (tx: Tx, target: SubscriberTarget, where: (key: PgColumn | 'ctid', table: PgTable) => SQL) => Promise<unknown[] | number>,
): ErasureStep {
  return {
    kind,
    async erase(tx, _now, target, limit) {
      const condition = subscriberRowsOf(target)[kind as Exclude<SubscriberDataKind, 'inputs' | 'actionResults' | 'logs'>];
      const written = await run(tx, target, (key, table) => limited(table, key, condition, limit));
      const found = typeof written === 'number' ? written : written.length;
      return { found, counts: { [kind]: found }, storageKeys: [] };
    },
  };
}

export const ERASURE_STEPS: readonly ErasureStep[] = [
  { kind: 'sessions', erase: eraseSessions },
  // The SMS the account's apps sent the number: number anonymised, text erased; one still queued is never sent.
  rowStep('sms', (tx, target, where) =>
    tx
      .update(smsMessages)
      .set({
        recipient: target.anonymous,
        message: SUBSCRIBER_DATA_MESSAGES.erased,
        status: sql`case when ${smsMessages.status} = 'QUEUED' then 'FAILED' else ${smsMessages.status} end`,
        lastError: sql`case when ${smsMessages.status} = 'QUEUED' then 'Not sent: the number was erased' else ${smsMessages.lastError} end`,
      })
      .where(where(smsMessages.id, smsMessages))
      .returning({ id: smsMessages.id }),
  ),
  // Their replies: the words go, the row stays under the token (a campaign's replies are still counted).
  rowStep('smsReplies', (tx, target, where) =>
    tx
      .update(smsReplies)
      .set({ msisdn: target.anonymous, text: SUBSCRIBER_DATA_MESSAGES.erased })
      .where(where(smsReplies.id, smsReplies))
      .returning({ id: smsReplies.id }),
  ),
  // Events about the number outside its sessions (a payment's).
  rowStep('webhookEvents', (tx, target, where) => anonymiseWebhookEvents(tx, target, where(webhookDeliveries.id, webhookDeliveries))),
  // Payments stay a financial record: amount, status, times and reference; the number becomes the token and every
  // metadata key but the provider's goes.
  rowStep('payments', (tx, target, where) => {
    const kept = sql.raw(KEPT_PAYMENT_METADATA.map((key) => `'${key}', metadata -> '${key}'`).join(', '));
    return tx
      .update(transactions)
      .set({ metadata: sql`jsonb_strip_nulls(jsonb_build_object(${kept})) || jsonb_build_object('mobile', ${target.anonymous}::text)` })
      .where(where(transactions.id, transactions))
      .returning({ id: transactions.id });
  }),
  // The conversations a business started, the 24-hour windows and the inbox (with its messages) go.
  rowStep('firstMessages', (tx, _target, where) =>
    tx
      .delete(whatsappFirstMessages)
      .where(where(whatsappFirstMessages.id, whatsappFirstMessages))
      .returning({ id: whatsappFirstMessages.id }),
  ),
  rowStep('windows', (tx, _target, where) =>
    tx.delete(whatsappWindows).where(where('ctid', whatsappWindows)).returning({ linkId: whatsappWindows.linkId }),
  ),
  rowStep('inboxConversations', (tx, _target, where) =>
    tx.delete(inboxConversations).where(where(inboxConversations.id, inboxConversations)).returning({ id: inboxConversations.id }),
  ),
  // The messages bots sent the number stay for the dashboard's delivery counts, under the token.
  // (No index holds their number: the batches walk the table in id order.)
  {
    kind: 'whatsappMessages',
    async erase(tx, _now, target, limit, after) {
      const condition = and(
        subscriberRowsOf(target).whatsappMessages,
        after === undefined ? undefined : gt(whatsappMessages.id, after),
      ) as SQL;
      const rows = await tx
        .update(whatsappMessages)
        .set({ toNumber: target.anonymous })
        .where(
          limit === null
            ? condition
            : sql`${whatsappMessages.id} in (select ${whatsappMessages.id} from ${whatsappMessages} where ${condition} order by ${whatsappMessages.id} limit ${limit})`,
        )
        .returning({ id: whatsappMessages.id });
      const last = rows.reduce((max, r) => Math.max(max, r.id), after ?? 0);
      return { found: rows.length, counts: { whatsappMessages: rows.length }, storageKeys: [], after: rows.length > 0 ? last : after };
    },
  },
  // Campaigns keep the count, not the number; what was not sent yet never is.
  rowStep('campaignMessages', (tx, target, where) =>
    tx
      .update(campaignMessages)
      .set({
        msisdn: target.anonymous,
        status: sql`case when ${campaignMessages.status} in ('queued', 'claimed') then 'cancelled' else ${campaignMessages.status} end`,
      })
      .where(where(campaignMessages.id, campaignMessages))
      .returning({ id: campaignMessages.id }),
  ),
  // The files the number sent: records kept (a session log still says a file was there), emptied of name and
  // caption; their bytes go once the batch has committed (docs/media.md).
  {
    kind: 'media',
    async erase(tx, now, target, limit) {
      const storageKeys = await eraseMediaOf(tx, now, limited(mediaFiles, mediaFiles.id, subscriberRowsOf(target).media, limit));
      return { found: storageKeys.length, counts: { media: storageKeys.length }, storageKeys };
    },
  },
  rowStep('contacts', (tx, _target, where) => tx.delete(contacts).where(where(contacts.id, contacts)).returning({ id: contacts.id })),
];

/** Every step once, with no limit, in the caller's transaction (deleting a contact): the storage keys to delete after it commits. */
export async function eraseSubscriberDataAtOnce(tx: Tx, now: Date, target: SubscriberTarget): Promise<string[]> {
  const storageKeys: string[] = [];
  for (const step of ERASURE_STEPS) storageKeys.push(...(await step.erase(tx, now, target, null)).storageKeys);
  return storageKeys;
}
