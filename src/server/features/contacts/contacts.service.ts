import { and, asc, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { toContactConditions } from '../../core/contact-filters';
import { isUuid } from '../../../shared/ids';
import type { Db } from '../../../db/client';
import { apps, contacts, sessionRecords, whatsappFirstMessages, whatsappLinks, whatsappMessages } from '../../../db/schema';
import {
  CONTACT_ATTRIBUTE_KEYS_MAX,
  CONTACT_ATTRIBUTE_KEYS_SAMPLE,
  CONTACT_MESSAGES,
  type ContactAttributeKeys,
  type Contact,
  type ContactDetail,
  type ContactFilter,
  type ContactFirstMessage,
  type ContactList,
  type ContactListQuery,
  type ContactSession,
  type UpdateContactBody,
} from '../../../shared/api/contacts.schema';
import { CONSENT_CHANNELS, type ContactConsentMap } from '../../../shared/contact-consent';
import { notFound } from '../../../shared/errors';
import { toCsvLine } from '../../../shared/table-file';
import type { DeliveryStatus } from '../../../shared/whatsapp-status';
import type { AppContext } from '../../context';
import { deleteErasedMedia } from '../media/media.service';
import { eraseSubscriberDataAtOnce, subscriberRowsOf, toSubscriberTarget } from './subscriber-erasure';
import type { AuthUser } from '../../core/auth-user';

type ContactRow = typeof contacts.$inferSelect;

/** How many of a contact's sessions its page shows. */
const RECENT_SESSIONS = 20;
/** How many of the messages sent a contact first its page shows. */
const RECENT_FIRST_MESSAGES = 20;

const toTime = (d: Date | null) => (d ? d.toISOString() : null);

function toContact(row: ContactRow): Contact {
  return {
    contactId: row.id,
    msisdn: row.msisdn,
    name: row.name,
    language: row.language,
    attributes: row.attributes,
    seen: {
      ussd: { firstSeen: toTime(row.firstSeenUssd), lastSeen: toTime(row.lastSeenUssd) },
      whatsapp: { firstSeen: toTime(row.firstSeenWhatsapp), lastSeen: toTime(row.lastSeenWhatsapp) },
      sms: { firstSeen: toTime(row.firstSeenSms), lastSeen: toTime(row.lastSeenSms) },
    },
    consent: { ussd: row.consent.ussd ?? null, whatsapp: row.consent.whatsapp ?? null, sms: row.consent.sms ?? null },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A contact of the account; another account's id (or one that is no uuid) is 404, as one that does not exist. */
async function getOwnContact(db: Db, user: AuthUser, contactId: string): Promise<ContactRow> {
  const [row] = isUuid(contactId)
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.id, contactId), eq(contacts.ownerId, user.id)))
    : [];
  if (!row) throw notFound(CONTACT_MESSAGES.notFound);
  return row;
}

export async function listContacts(ctx: AppContext, user: AuthUser, query: ContactListQuery): Promise<ContactList> {
  const conditions = toContactConditions(user.id, query);
  // Keyset paging (docs/contacts.md): a page after a number, or before one (read backwards), starts from the
  // (owner, number) index at that number, however deep it is; `offset` skips index entries one by one.
  const backwards = query.before !== undefined;
  if (query.after !== undefined) conditions.push(gt(contacts.msisdn, query.after));
  if (query.before !== undefined) conditions.push(lt(contacts.msisdn, query.before));
  // The page's numbers first, then their rows: the numbers come from the (owner, number) index alone (an
  // index-only scan), so a page deep in a million contacts, or a number's start far down the list, does not read
  // every row it skips (bench/contacts-search.ts).
  const page = ctx.db
    .select({ msisdn: contacts.msisdn })
    .from(contacts)
    .where(and(...conditions))
    .orderBy(backwards ? desc(contacts.msisdn) : asc(contacts.msisdn))
    .limit(query.limit + 1)
    .offset(query.offset);
  const rows = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.ownerId, user.id), inArray(contacts.msisdn, page)))
    .orderBy(backwards ? desc(contacts.msisdn) : asc(contacts.msisdn));
  const more = rows.length > query.limit;
  const shown = rows.slice(0, query.limit);
  if (backwards) shown.reverse();
  const first = shown[0]?.msisdn ?? null;
  const last = shown.at(-1)?.msisdn ?? null;
  return {
    contacts: shown.map(toContact),
    // Read backwards, `more` is about the numbers before the page; the `before` number itself follows it.
    hasMore: backwards ? last !== null : more,
    nextAfter: backwards || more ? last : null,
    previousBefore: backwards ? (more ? first : null) : query.after !== undefined || query.offset > 0 ? first : null,
  };
}

/**
 * The attribute keys the account's contacts use, the most used first (the designer's suggestions). Listing the
 * keys of every contact reads every row of the account (a million rows, seconds); this reads the first
 * {@link CONTACT_ATTRIBUTE_KEYS_SAMPLE} in number order from the (owner, number) index, so its cost is bounded
 * whatever the account's size. A key only contacts past the sample have is not offered (the designer takes it typed).
 */
export async function findContactAttributeKeys(ctx: AppContext, user: AuthUser): Promise<ContactAttributeKeys> {
  const result = await ctx.db.execute(sql`
    with sample as (
      select ${contacts.attributes} as attributes from ${contacts}
      where ${contacts.ownerId} = ${user.id}
      order by ${contacts.msisdn}
      limit ${CONTACT_ATTRIBUTE_KEYS_SAMPLE + 1}
    )
    select key, count(*)::int as contacts, (select count(*) from sample)::int as sampled
    from (select attributes from sample limit ${CONTACT_ATTRIBUTE_KEYS_SAMPLE}) s, jsonb_object_keys(s.attributes) as key
    group by key
    order by contacts desc, key
    limit ${CONTACT_ATTRIBUTE_KEYS_MAX}`);
  // PGlite and node-postgres both answer { rows }.
  const rows = (result as unknown as { rows: Array<{ key: string; contacts: number; sampled: number }> }).rows;
  return {
    keys: rows.map((r) => ({ key: r.key, contacts: Number(r.contacts) })),
    isSampled: Number(rows[0]?.sampled ?? 0) > CONTACT_ATTRIBUTE_KEYS_SAMPLE,
  };
}

async function findRecentSessions(db: Db, ownerId: string, msisdn: string): Promise<ContactSession[]> {
  const rows = await db
    .select({
      appId: sessionRecords.appId,
      appName: apps.appName,
      channel: apps.channel,
      sessionId: sessionRecords.sessionId,
      environment: sessionRecords.environment,
      gateway: sessionRecords.gateway,
      status: sessionRecords.status,
      hopCount: sessionRecords.hopCount,
      startedAt: sessionRecords.startedAt,
      endedAt: sessionRecords.endedAt,
    })
    .from(sessionRecords)
    .innerJoin(apps, eq(apps.id, sessionRecords.appId))
    .where(subscriberRowsOf({ ownerId, msisdn }).sessions)
    .orderBy(desc(sessionRecords.endedAt))
    .limit(RECENT_SESSIONS);
  return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString(), endedAt: r.endedAt.toISOString() }));
}

/**
 * The latest messages the account sent the contact first, with a template's delivery status: its `whatsapp_messages`
 * row (the same link and provider id, written by the event sink once sent, so briefly absent after the send).
 */
async function findFirstMessages(db: Db, ownerId: string, msisdn: string): Promise<ContactFirstMessage[]> {
  const rows = await db
    .select({
      id: whatsappFirstMessages.id,
      appId: whatsappFirstMessages.appId,
      appName: apps.appName,
      linkId: whatsappFirstMessages.linkId,
      mobileNumber: whatsappLinks.mobileNumber,
      kind: whatsappFirstMessages.kind,
      entryMenuId: whatsappFirstMessages.entryMenuId,
      templateName: whatsappFirstMessages.templateName,
      templateLanguage: whatsappFirstMessages.templateLanguage,
      status: whatsappFirstMessages.status,
      error: whatsappFirstMessages.error,
      createdAt: whatsappFirstMessages.createdAt,
      deliveryStatus: whatsappMessages.status,
      failureReason: whatsappMessages.failureReason,
    })
    .from(whatsappFirstMessages)
    .innerJoin(apps, eq(apps.id, whatsappFirstMessages.appId))
    .innerJoin(whatsappLinks, eq(whatsappLinks.id, whatsappFirstMessages.linkId))
    .leftJoin(
      whatsappMessages,
      and(
        eq(whatsappMessages.linkId, sql`${whatsappFirstMessages.linkId}::text`),
        eq(whatsappMessages.providerMessageId, whatsappFirstMessages.providerMessageId),
        eq(whatsappMessages.userId, sql`${whatsappFirstMessages.ownerId}::text`),
      ),
    )
    .where(and(eq(whatsappFirstMessages.ownerId, ownerId), eq(whatsappFirstMessages.msisdn, msisdn)))
    .orderBy(desc(whatsappFirstMessages.createdAt))
    .limit(RECENT_FIRST_MESSAGES);
  return rows.map(({ deliveryStatus, failureReason, ...r }) => ({
    ...r,
    kind: r.kind as ContactFirstMessage['kind'],
    status: r.status as ContactFirstMessage['status'],
    createdAt: r.createdAt.toISOString(),
    delivery: deliveryStatus ? { status: deliveryStatus as DeliveryStatus, failureReason: failureReason ?? '' } : null,
  }));
}

export async function getContact(ctx: AppContext, user: AuthUser, contactId: string): Promise<ContactDetail> {
  const row = await getOwnContact(ctx.db, user, contactId);
  const [recentSessions, firstMessages] = await Promise.all([
    findRecentSessions(ctx.db, user.id, row.msisdn),
    findFirstMessages(ctx.db, user.id, row.msisdn),
  ]);
  return { ...toContact(row), recentSessions, firstMessages };
}

export async function updateContact(ctx: AppContext, user: AuthUser, contactId: string, body: UpdateContactBody): Promise<Contact> {
  await getOwnContact(ctx.db, user, contactId);
  const now = ctx.now();
  const changes: Partial<typeof contacts.$inferInsert> = { updatedAt: now };
  if (body.name !== undefined) changes.name = body.name === '' ? null : body.name;
  if (body.language !== undefined) changes.language = body.language;
  if (body.attributes !== undefined) changes.attributes = body.attributes;
  const [row] = await ctx.db
    .update(contacts)
    .set({ ...changes, ...(body.consent ? { consent: toConsentChanges(user, body.consent, now) } : {}) })
    .where(and(eq(contacts.id, contactId), eq(contacts.ownerId, user.id)))
    .returning();
  if (!row) throw notFound(CONTACT_MESSAGES.notFound);
  return toContact(row);
}

/**
 * Consent set by the console (source `console`, the user's email) or the API (source `api`, the key's name), merged
 * into the stored consent on the channels named.
 */
function toConsentChanges(user: AuthUser, consent: NonNullable<UpdateContactBody['consent']>, now: Date): SQL {
  const changes: ContactConsentMap = {};
  for (const channel of CONSENT_CHANNELS) {
    const status = consent[channel];
    if (status)
      changes[channel] = user.apiKeyName
        ? { status, at: now.toISOString(), source: 'api', detail: user.apiKeyName }
        : { status, at: now.toISOString(), source: 'console', detail: user.email };
  }
  return sql`${contacts.consent} || ${JSON.stringify(changes)}::jsonb`;
}

/**
 * Deletes a contact and erases what is kept of the person in the account, in one transaction: every step of a
 * subscriber data erasure (subscriber-erasure.ts; docs/contacts.md, "Deleting a contact") run at once. The session
 * records keep their app, time, gateway, network, status, last menu and hop count (the dashboard's counts), their
 * number replaced by one anonymous token (so unique callers still count once); the files the number sent the
 * account's bots lose their bytes once the transaction has committed (docs/media.md).
 */
export async function deleteContact(ctx: AppContext, user: AuthUser, contactId: string): Promise<void> {
  const row = await getOwnContact(ctx.db, user, contactId);
  const target = toSubscriberTarget(user.id, row.msisdn);
  const erasedMedia = await ctx.db.transaction((tx) => eraseSubscriberDataAtOnce(tx, ctx.now(), target));
  await deleteErasedMedia(ctx, erasedMedia);
}

/** Contacts an export reads at a time. */
const EXPORT_PAGE = 1000;
const yesNo = (consent: { status: 'in' | 'out' } | null) => (consent ? (consent.status === 'in' ? 'yes' : 'no') : '');

/**
 * Every contact the filters match as CSV, page by page in number order: number, name, language, one column per
 * attribute key found, consent per channel (yes, no or empty: never asked; the columns an import reads back) with
 * how it was given, and first and last seen per channel.
 */
export async function* exportContacts(ctx: AppContext, user: AuthUser, filter: ContactFilter): AsyncGenerator<string> {
  const conditions = toContactConditions(user.id, filter);
  const keys = await ctx.db.execute(
    sql`select distinct jsonb_object_keys(${contacts.attributes}) as key from ${contacts} where ${and(...conditions)} order by 1`,
  );
  // PGlite and node-postgres both answer { rows }.
  const attributeKeys = (keys as unknown as { rows: Array<{ key: string }> }).rows.map((r) => r.key);
  yield '\uFEFF';
  yield toCsvLine([
    'phone_number',
    'name',
    'language',
    ...attributeKeys,
    ...CONSENT_CHANNELS.flatMap((c) => [`${c}_consent`, `${c}_consent_at`, `${c}_consent_source`]),
    ...CONSENT_CHANNELS.flatMap((c) => [`${c}_first_seen`, `${c}_last_seen`]),
  ]);
  let after: string | undefined;
  for (;;) {
    const rows = await ctx.db
      .select()
      .from(contacts)
      .where(and(...conditions, ...(after === undefined ? [] : [gt(contacts.msisdn, after)])))
      .orderBy(asc(contacts.msisdn))
      .limit(EXPORT_PAGE);
    if (rows.length === 0) break;
    let chunk = '';
    for (const row of rows) {
      const c = toContact(row);
      chunk += toCsvLine([
        c.msisdn,
        c.name ?? '',
        c.language ?? '',
        ...attributeKeys.map((key) => c.attributes[key] ?? ''),
        ...CONSENT_CHANNELS.flatMap((ch) => {
          const consent = c.consent[ch];
          return [yesNo(consent), consent?.at ?? '', consent ? [consent.source, consent.detail].filter(Boolean).join(': ') : ''];
        }),
        ...CONSENT_CHANNELS.flatMap((ch) => [c.seen[ch].firstSeen ?? '', c.seen[ch].lastSeen ?? '']),
      ]);
    }
    yield chunk;
    after = rows[rows.length - 1]!.msisdn;
  }
}
