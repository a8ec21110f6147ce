/**
 * The 24-hour window of a linked number with one WhatsApp user (docs/bots.md, "Writing first"): WhatsApp lets a
 * business send free-form messages to a user only within 24 hours of the user's last message; outside it, only an
 * approved template. The runtime writes each message's time with the session's records (the event sink, in
 * batches, as contact records are: never a round trip on the hop's path); the bots' calls read it.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { whatsappWindows } from '../../db/schema';

/** How long the window stays open after the user's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** One message a user sent to a linked number. `at` is an ISO time (the record travels as JSON). */
export interface WindowRecord {
  linkId: string;
  /** E.164 (toE164). */
  msisdn: string;
  at: string;
}

/** A window as the console and the API see it: open until a time, or closed (since when, if the user ever wrote). */
export type WindowState = { state: 'open'; openUntil: string } | { state: 'closed'; closedAt: string | null };

/**
 * Writes a batch of window records in one statement: the latest message per user and link wins whatever order
 * batches come in (a retry), and a message after a template's pending entry clears it (the entry was used).
 */
export async function writeWindowRecords(db: Db, records: WindowRecord[]): Promise<void> {
  const latest = new Map<string, WindowRecord>();
  for (const r of records) {
    const key = `${r.linkId} ${r.msisdn}`;
    const seen = latest.get(key);
    if (!seen || r.at > seen.at) latest.set(key, r);
  }
  if (latest.size === 0) return;
  const rows = [...latest.values()].map((r) => ({ link_id: r.linkId, msisdn: r.msisdn, at: r.at }));
  await db.execute(sql`insert into whatsapp_windows (link_id, msisdn, last_inbound_at)
    select r.link_id, r.msisdn, r.at from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(link_id uuid, msisdn text, at timestamptz)
    on conflict (link_id, msisdn) do update set
      last_inbound_at = greatest(whatsapp_windows.last_inbound_at, excluded.last_inbound_at),
      entry_menu_id = case when whatsapp_windows.entry_set_at <= excluded.last_inbound_at then null else whatsapp_windows.entry_menu_id end,
      entry_set_at = case when whatsapp_windows.entry_set_at <= excluded.last_inbound_at then null else whatsapp_windows.entry_set_at end`);
}

/** The window from the time of the user's last message (null: they never wrote to this number). */
export function toWindowState(lastInboundAt: Date | null, now: Date): WindowState {
  if (lastInboundAt === null) return { state: 'closed', closedAt: null };
  const end = new Date(lastInboundAt.getTime() + WINDOW_MS);
  return end > now ? { state: 'open', openUntil: end.toISOString() } : { state: 'closed', closedAt: end.toISOString() };
}

/** The window of a linked number with a user (E.164): open until a time, or closed. */
export async function windowState(db: Db, linkId: string, msisdn: string, now: Date): Promise<WindowState> {
  const [row] = await db
    .select({ lastInboundAt: whatsappWindows.lastInboundAt })
    .from(whatsappWindows)
    .where(and(eq(whatsappWindows.linkId, linkId), eq(whatsappWindows.msisdn, msisdn)));
  return toWindowState(row?.lastInboundAt ?? null, now);
}

/** A template went out while the window was closed: the user's next message starts the flow at `entryMenuId`. */
export async function setPendingEntry(db: Db, linkId: string, msisdn: string, entryMenuId: string, at: Date): Promise<void> {
  await db
    .insert(whatsappWindows)
    .values({ linkId, msisdn, entryMenuId, entrySetAt: at })
    .onConflictDoUpdate({ target: [whatsappWindows.linkId, whatsappWindows.msisdn], set: { entryMenuId, entrySetAt: at } });
}
