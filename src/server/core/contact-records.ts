/**
 * The runtime's side of contacts (docs/contacts.md): the one read of a caller's contact a session makes, and the
 * write of what sessions leave on contacts (seen on a channel, a name or an attribute a menu saved), in batches
 * with the session's records (the event sink). The contacts area's routes read and edit the same rows.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contacts } from '../../db/schema';
import type { ContactFields } from '../../engine';
import type { ContactConsent, ContactConsentMap } from '../../shared/contact-consent';

/** The channels a contact is seen on, each with its first and last time. */
export const CONTACT_CHANNELS = ['ussd', 'whatsapp', 'sms'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** What one session leaves on its caller's contact. `seenAt` is an ISO time (the record travels as JSON). */
export interface ContactRecord {
  ownerId: string;
  /** E.164 (toE164). */
  msisdn: string;
  seen?: { channel: ContactChannel; at: string };
  name?: string;
  attributes?: Record<string, string>;
  /** An opt in or out (a keyword, a menu's choice): per channel, the latest `at` wins. */
  consent?: ContactConsentMap;
}

/** A session waiting for its contact, until the reads of the turn are made together. */
interface PendingRead {
  msisdn: string;
  resolve: (contact: ContactFields | null) => void;
  reject: (err: unknown) => void;
}

/**
 * The read a session makes of its caller's contact: null when the account has none for the number yet. The reads
 * asked for in one turn of the event loop are made together, one statement per account (`msisdn = any(...)`):
 * under load many sessions start at once, and one round trip to the database for all of them costs far less on
 * the hop's thread and the database's than one each. buildApp makes one reader per database.
 */
export function createContactReader(db: Db): (ownerId: string, msisdn: string) => Promise<ContactFields | null> {
  let pending = new Map<string, PendingRead[]>();
  let isScheduled = false;

  async function readOwner(ownerId: string, reads: PendingRead[]): Promise<void> {
    try {
      const rows = await db
        .select({ msisdn: contacts.msisdn, name: contacts.name, language: contacts.language, attributes: contacts.attributes })
        .from(contacts)
        .where(and(eq(contacts.ownerId, ownerId), inArray(contacts.msisdn, [...new Set(reads.map((r) => r.msisdn))])));
      const byNumber = new Map(rows.map(({ msisdn, ...fields }) => [msisdn, fields]));
      for (const read of reads) read.resolve(byNumber.get(read.msisdn) ?? null);
    } catch (err) {
      for (const read of reads) read.reject(err);
    }
  }

  function readPending(): void {
    const batch = pending;
    pending = new Map();
    isScheduled = false;
    for (const [ownerId, reads] of batch) void readOwner(ownerId, reads);
  }

  return (ownerId, msisdn) =>
    new Promise((resolve, reject) => {
      const reads = pending.get(ownerId);
      if (reads) reads.push({ msisdn, resolve, reject });
      else pending.set(ownerId, [{ msisdn, resolve, reject }]);
      if (!isScheduled) {
        isScheduled = true;
        setImmediate(readPending);
      }
    });
}

/** One contact's records of a batch, folded: the latest name, the attributes merged, the earliest and latest time per channel. */
interface FoldedRecord {
  ownerId: string;
  msisdn: string;
  name: string | null;
  attributes: Record<string, string>;
  seen: Map<ContactChannel, { first: string; last: string }>;
  consent: ContactConsentMap | null;
}

/** Two consents of one channel: the later one (the one given last when both have the same time). */
const laterConsent = (a: ContactConsent | undefined, b: ContactConsent) => (a && a.at > b.at ? a : b);

/**
 * A contact's record with a later one of the same contact folded in (a session's hops, kept until written): the
 * later name, the attributes merged, each channel's later consent, the first seen kept.
 */
export function foldContactRecord(earlier: ContactRecord, later: ContactRecord): ContactRecord {
  const folded: ContactRecord = { ownerId: earlier.ownerId, msisdn: earlier.msisdn };
  const seen = earlier.seen ?? later.seen;
  if (seen) folded.seen = seen;
  const name = later.name ?? earlier.name;
  if (name !== undefined) folded.name = name;
  if (earlier.attributes || later.attributes) folded.attributes = { ...earlier.attributes, ...later.attributes };
  if (earlier.consent || later.consent) {
    const consent: ContactConsentMap = { ...earlier.consent };
    for (const [channel, given] of Object.entries(later.consent ?? {}) as [ContactChannel, ContactConsent][])
      consent[channel] = laterConsent(consent[channel], given);
    folded.consent = consent;
  }
  return folded;
}

function foldRecords(records: ContactRecord[]): FoldedRecord[] {
  const byContact = new Map<string, FoldedRecord>();
  for (const r of records) {
    const key = `${r.ownerId} ${r.msisdn}`;
    let folded = byContact.get(key);
    if (!folded) {
      folded = { ownerId: r.ownerId, msisdn: r.msisdn, name: null, attributes: {}, seen: new Map(), consent: null };
      byContact.set(key, folded);
    }
    if (r.name !== undefined) folded.name = r.name;
    if (r.attributes) Object.assign(folded.attributes, r.attributes);
    if (r.consent) {
      folded.consent ??= {};
      const consent = folded.consent;
      for (const [channel, given] of Object.entries(r.consent) as [ContactChannel, ContactConsent][])
        consent[channel] = laterConsent(consent[channel], given);
    }
    if (r.seen) {
      const { channel, at } = r.seen;
      const times = folded.seen.get(channel);
      if (!times) folded.seen.set(channel, { first: at, last: at });
      else {
        if (at < times.first) times.first = at;
        if (at > times.last) times.last = at;
      }
    }
  }
  return [...byContact.values()];
}

/** Each channel's first and last seen columns. Written out per channel so the statement below is plain SQL. */
const SEEN_COLUMNS = {
  ussd: ['first_seen_ussd', 'last_seen_ussd'],
  whatsapp: ['first_seen_whatsapp', 'last_seen_whatsapp'],
  sms: ['first_seen_sms', 'last_seen_sms'],
} as const satisfies Record<ContactChannel, readonly [string, string]>;
const SEEN_LIST = CONTACT_CHANNELS.flatMap((c) => SEEN_COLUMNS[c]);

/**
 * How often a contact's last seen moves: a session seen within this of the time stored leaves the row as it is
 * (docs/contacts.md, "last seen to the quarter hour"). A caller's sessions close together then cost one index probe
 * each rather than a new version of the row.
 */
export const LAST_SEEN_PERIOD_MINUTES = 15;

/** A PostgreSQL array literal of text (null for SQL NULL), given as one parameter and cast (`::text[]`). */
function toArrayLiteral(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

const INSERT_INTO = sql.raw(
  `insert into contacts (owner_id, msisdn, name, attributes, consent, created_at, updated_at, ${SEEN_LIST.join(', ')})`,
);
const SEEN_VALUES = sql.raw(SEEN_LIST.map((c) => `r.${c}`).join(', '));
const RECORD_COLUMNS = sql.raw(`owner_id, msisdn, name, attributes, consent, ${SEEN_LIST.join(', ')}`);
/**
 * A batch's consents over the stored ones, channel by channel: the one with the later `at` stays (ISO times in
 * one form compare as text), so a retried batch never undoes a later opt in or out.
 */
const MERGE_CONSENT = `contacts.consent || coalesce((select jsonb_object_agg(n.key, n.value) from jsonb_each(excluded.consent) n
    where coalesce(contacts.consent -> n.key ->> 'at', '') <= n.value ->> 'at'), '{}'::jsonb)`;
/**
 * A row is changed only when the batch brings something new: a name or an attribute value other than the one
 * stored, a channel's first seen (or an earlier one: a retry), a consent, or a last seen more than
 * LAST_SEEN_PERIOD_MINUTES after the one stored. A returning caller whose session saves what their contact already
 * holds then costs an index probe, not a new version of the row (and of its attributes' index entries).
 */
const ON_CONFLICT = sql.raw(`on conflict (owner_id, msisdn) do update set
  name = coalesce(excluded.name, contacts.name),
  attributes = contacts.attributes || excluded.attributes,
  consent = ${MERGE_CONSENT},
  updated_at = excluded.updated_at,
  ${CONTACT_CHANNELS.map((c) => {
    const [first, last] = SEEN_COLUMNS[c];
    return `${first} = least(contacts.${first}, excluded.${first}), ${last} = greatest(contacts.${last}, excluded.${last})`;
  }).join(',\n  ')}
  where (excluded.name is not null and excluded.name is distinct from contacts.name)
  or not contacts.attributes @> excluded.attributes or excluded.consent <> '{}'::jsonb
  ${CONTACT_CHANNELS.map((c) => {
    const [first, last] = SEEN_COLUMNS[c];
    return `or excluded.${first} < coalesce(contacts.${first}, 'infinity') or excluded.${last} >= contacts.${last} + interval '${LAST_SEEN_PERIOD_MINUTES} minutes'`;
  }).join('\n  ')}`);

/** The general upsert: any of a contact's fields, every channel's times. */
async function writeFull(db: Db, folded: FoldedRecord[], at: string): Promise<void> {
  const seen = (channel: ContactChannel, i: 'first' | 'last') => toArrayLiteral(folded.map((f) => f.seen.get(channel)?.[i] ?? null));
  await db.execute(sql`${INSERT_INTO}
    select r.owner_id, r.msisdn, r.name, coalesce(r.attributes, '{}'::jsonb), coalesce(r.consent, '{}'::jsonb), ${at}::timestamptz, ${at}::timestamptz, ${SEEN_VALUES}
    from unnest(
      ${toArrayLiteral(folded.map((f) => f.ownerId))}::uuid[],
      ${toArrayLiteral(folded.map((f) => f.msisdn))}::text[],
      ${toArrayLiteral(folded.map((f) => f.name))}::text[],
      ${toArrayLiteral(folded.map((f) => (Object.keys(f.attributes).length > 0 ? JSON.stringify(f.attributes) : null)))}::jsonb[],
      ${toArrayLiteral(folded.map((f) => (f.consent ? JSON.stringify(f.consent) : null)))}::jsonb[],
      ${sql.join(
        CONTACT_CHANNELS.flatMap((c) => [sql`${seen(c, 'first')}::timestamptz[]`, sql`${seen(c, 'last')}::timestamptz[]`]),
        sql`, `,
      )}
    ) as r(${RECORD_COLUMNS})
    ${ON_CONFLICT}`);
}

/**
 * The usual batch: callers seen on one channel and nothing else (an app that saves nothing to contacts). Four
 * columns instead of ten, the rest left to the table's defaults.
 */
async function writeSeen(db: Db, channel: ContactChannel, folded: FoldedRecord[], at: string): Promise<void> {
  const [first, last] = SEEN_COLUMNS[channel];
  const times = folded.map((f) => f.seen.get(channel)!);
  await db.execute(sql`insert into contacts (owner_id, msisdn, created_at, updated_at, ${sql.raw(`${first}, ${last}`)})
    select r.owner_id, r.msisdn, ${at}::timestamptz, ${at}::timestamptz, r.first, r.last
    from unnest(
      ${toArrayLiteral(folded.map((f) => f.ownerId))}::uuid[],
      ${toArrayLiteral(folded.map((f) => f.msisdn))}::text[],
      ${toArrayLiteral(times.map((t) => t.first))}::timestamptz[],
      ${toArrayLiteral(times.map((t) => t.last))}::timestamptz[]
    ) as r(owner_id, msisdn, first, last)
    ${SEEN_ON_CONFLICT[channel]}`);
}

const SEEN_ON_CONFLICT = Object.fromEntries(
  CONTACT_CHANNELS.map((c) => {
    const [first, last] = SEEN_COLUMNS[c];
    return [
      c,
      sql.raw(`on conflict (owner_id, msisdn) do update set
  updated_at = excluded.updated_at,
  ${first} = least(contacts.${first}, excluded.${first}), ${last} = greatest(contacts.${last}, excluded.${last})
  where excluded.${first} < coalesce(contacts.${first}, 'infinity') or excluded.${last} >= contacts.${last} + interval '${LAST_SEEN_PERIOD_MINUTES} minutes'`),
    ];
  }),
) as Record<ContactChannel, SQL>;

/**
 * Writes a batch of contact records, a new contact created on its first record: one statement for the contacts
 * only seen on a channel (the usual batch), one for the rest. A name or attribute overwrites; a first time seen
 * stays the earliest, a last time seen the latest (to the period above), so batches written out of order (a
 * retry) leave the same rows. The rows go as one array parameter a column (unnest): the statement costs the same
 * to build for one contact or ten thousand, and arrays are cheaper for the database to read than JSON.
 */
export async function writeContactRecords(db: Db, records: ContactRecord[], now: Date): Promise<void> {
  const at = now.toISOString();
  const seenOnly = new Map<ContactChannel, FoldedRecord[]>();
  const full: FoldedRecord[] = [];
  for (const f of foldRecords(records)) {
    const channel =
      f.seen.size === 1 && f.name === null && f.consent === null && Object.keys(f.attributes).length === 0
        ? [...f.seen.keys()][0]!
        : undefined;
    if (channel === undefined) full.push(f);
    else if (seenOnly.has(channel)) seenOnly.get(channel)!.push(f);
    else seenOnly.set(channel, [f]);
  }
  for (const [channel, folded] of seenOnly) await writeSeen(db, channel, folded, at);
  if (full.length > 0) await writeFull(db, full, at);
}

/**
 * A consent the person gave themselves (a keyword), written at once and only if it changes the channel's status:
 * true when it did (an opt out of a contact already out is no change). One statement: the check and the write
 * cannot be split by another message, and a contact not stored yet is created.
 */
export async function changeConsent(
  db: Db,
  target: { ownerId: string; msisdn: string },
  channel: ContactChannel,
  consent: ContactConsent,
): Promise<boolean> {
  const given = { [channel]: consent };
  const at = new Date(consent.at);
  const rows = await db
    .insert(contacts)
    .values({ ownerId: target.ownerId, msisdn: target.msisdn, consent: given, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [contacts.ownerId, contacts.msisdn],
      set: { consent: sql`${contacts.consent} || ${JSON.stringify(given)}::jsonb`, updatedAt: at },
      setWhere: sql`${contacts.consent} -> ${channel}::text ->> 'status' is distinct from ${consent.status}`,
    })
    .returning({ id: contacts.id });
  return rows.length > 0;
}
