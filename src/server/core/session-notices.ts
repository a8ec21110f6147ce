/**
 * A gateway's end notice for a session that is already recorded (Africa's Talking sends its notice after the closing
 * screen, or after the session was recorded as timed out): what the notice says is added to the session's record.
 * Written by the runtime's event sink after the records it follows (the sink writes in the order rows come).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { EndCause } from '../../shared/session-ends';

/** One notice, as the event sink carries it (JSON). */
export interface SessionNotice {
  appId: string;
  gateway: string;
  sessionId: string;
  cause: EndCause;
  durationMs?: number;
  cost?: string;
  words?: string;
}

/**
 * How far back a notice looks for its session's record. Africa's Talking sends its notice as the session ends; a
 * notice later than this changes nothing. The records are found through the (app, ended_at) index, a window of one
 * app's records per batch of notices, rather than by an index on session ids, which every record's write would pay.
 */
const NOTICE_LOOKBACK = '15 minutes';

/**
 * Adds a batch of notices to their sessions' records in one statement. What a notice gives replaces nothing it
 * leaves out; a network's failure after the app's closing screen (the caller never saw it) makes the record's cause
 * a network error. A notice for a session never recorded changes no row; one sent twice writes the same values.
 */
export async function writeSessionNotices(db: Db, notices: SessionNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const rows = notices.map((n) => ({
    app_id: n.appId,
    gateway: n.gateway,
    session_id: n.sessionId,
    cause: n.cause,
    duration_ms: n.durationMs ?? null,
    cost: n.cost ?? null,
    words: n.words ?? null,
  }));
  await db.execute(sql`update session_records s set
      gateway_duration_ms = coalesce(n.duration_ms, s.gateway_duration_ms),
      gateway_cost = coalesce(n.cost, s.gateway_cost),
      gateway_words = coalesce(n.words, s.gateway_words),
      end_cause = case when n.cause = 'network_error' and s.end_cause in ('completed', 'terminated') then 'network_error' else s.end_cause end
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as n(app_id text, gateway text, session_id text, cause text, duration_ms integer, cost text, words text)
    where s.app_id = n.app_id and s.session_id = n.session_id and s.gateway = n.gateway
      and s.ended_at > now() - ${sql.raw(`interval '${NOTICE_LOOKBACK}'`)}`);
}
