/**
 * The runtime's side of contacts (docs/contacts.md): the one read of a caller's contact a session makes, and the
 * write of what sessions leave on contacts (seen on a channel, a name or an attribute a menu saved), in batches
 * with the session's records (the event sink). The contacts area's routes read and edit the same rows.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contacts } from '../../db/schema';
import type { ContactFields } from '../../engine';

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
}

/** The caller's contact as a session reads it; null when the account has none for the number yet. */
export async function readContactFields(db: Db, ownerId: string, msisdn: string): Promise<ContactFields | null> {
  const [row] = await db
    .select({ name: contacts.name, language: contacts.language, attributes: contacts.attributes })
    .from(contacts)
    .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, msisdn)));
  return row ?? null;
}

/** One contact's records of a batch, folded: the latest name, the attributes merged, the earliest and latest time per channel. */
interface FoldedRecord {
  ownerId: string;
  msisdn: string;
  name: string | null;
  attributes: Record<string, string>;
  seen: Map<ContactChannel, { first: string; last: string }>;
}

function foldRecords(records: ContactRecord[]): FoldedRecord[] {
  const byContact = new Map<string, FoldedRecord>();
  for (const r of records) {
    const key = `${r.ownerId} ${r.msisdn}`;
    let folded = byContact.get(key);
    if (!folded) {
      folded = { ownerId: r.ownerId, msisdn: r.msisdn, name: null, attributes: {}, seen: new Map() };
      byContact.set(key, folded);
    }
    if (r.name !== undefined) folded.name = r.name;
    if (r.attributes) Object.assign(folded.attributes, r.attributes);
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

/** Rows of one statement: well under PostgreSQL's 65,535 parameters at 14 a row. */
const ROWS_PER_STATEMENT = 1000;

/** Each channel's first and last seen, as the table's keys. */
const SEEN_KEYS = {
  ussd: { first: 'firstSeenUssd', last: 'lastSeenUssd' },
  whatsapp: { first: 'firstSeenWhatsapp', last: 'lastSeenWhatsapp' },
  sms: { first: 'firstSeenSms', last: 'lastSeenSms' },
} as const satisfies Record<ContactChannel, { first: keyof typeof contacts.$inferSelect; last: keyof typeof contacts.$inferSelect }>;

/** `excluded.<column>`: the value the statement tried to insert. */
const excluded = (column: { name: string }) => sql.raw(`excluded."${column.name}"`);

/**
 * Writes a batch of contact records: one upsert a thousand contacts, a new contact created on its first record.
 * A name or attribute overwrites; a first time seen stays the earliest, a last time seen the latest, so batches
 * written out of order (a retry) leave the same row.
 */
export async function writeContactRecords(db: Db, records: ContactRecord[], now: Date): Promise<void> {
  const folded = foldRecords(records);
  for (let i = 0; i < folded.length; i += ROWS_PER_STATEMENT) {
    const rows = folded.slice(i, i + ROWS_PER_STATEMENT).map((f) => {
      const row: typeof contacts.$inferInsert = {
        ownerId: f.ownerId,
        msisdn: f.msisdn,
        name: f.name,
        attributes: f.attributes,
        createdAt: now,
        updatedAt: now,
      };
      for (const channel of CONTACT_CHANNELS) {
        const times = f.seen.get(channel);
        row[SEEN_KEYS[channel].first] = times ? new Date(times.first) : null;
        row[SEEN_KEYS[channel].last] = times ? new Date(times.last) : null;
      }
      return row;
    });
    await db
      .insert(contacts)
      .values(rows)
      .onConflictDoUpdate({
        target: [contacts.ownerId, contacts.msisdn],
        set: {
          name: sql`coalesce(${excluded(contacts.name)}, ${contacts.name})`,
          attributes: sql`${contacts.attributes} || ${excluded(contacts.attributes)}`,
          updatedAt: sql`${excluded(contacts.updatedAt)}`,
          ...Object.fromEntries(
            CONTACT_CHANNELS.flatMap((channel) => {
              const first = contacts[SEEN_KEYS[channel].first];
              const last = contacts[SEEN_KEYS[channel].last];
              return [
                [SEEN_KEYS[channel].first, sql`coalesce(${first}, ${excluded(first)})`],
                [SEEN_KEYS[channel].last, sql`greatest(${last}, ${excluded(last)})`],
              ];
            }),
          ),
        },
      });
  }
}
