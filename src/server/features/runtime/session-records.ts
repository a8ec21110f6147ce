/**
 * What a hop leaves behind, as rows for the event sink: its events as log lines (and action results), the inputs
 * it stored, the session's record when it ends, and the network's refusal of a code that is not the app's. The
 * runtime calls these; the sink writes them in batches (event-sink.ts). `ownerId`, the app's account, is whose
 * rows they are when the sink decides whom to hold (omitted where the runtime does not know it: a sweep).
 */
import type { EndReason, EngineEvent, SessionState } from '../../../engine';
import type { EndCause, GatewayEnding } from '../../../shared/session-ends';
import type { SessionNotice } from '../../core/session-notices';
import type { RuntimeMetrics } from '../../core/metrics';
import type { ContactRecord } from '../../core/contact-records';
import type { WindowRecord } from '../../core/whatsapp-windows';
import type { EventSink } from './event-sink';
import { HOP_ROW, LINE_ID_SCALE, type HopLine } from '../../../db/schema';
import type { StoredSession } from './runtime-types';
import type { Environment } from '../../../shared/environment';

export function createSessionRecorder(sink: EventSink, now: () => Date, metrics?: RuntimeMetrics) {
  /**
   * What a hop leaves in the logs, one `app_logs` row (docs/runtime.md, "What a hop keeps"): its events as lines in
   * order and the inputs it stored (`session.inputs` entries that are new or changed: the debugger's User Inputs);
   * a hop of more than MAX_HOP_LINES lines takes as many rows as it needs. Each finished or failed action also
   * leaves an `action_results` row.
   */
  function recordHop(
    events: EngineEvent[],
    before: Record<string, string>,
    after: SessionState,
    environment: Environment,
    caller: string | null,
    ownerId?: string,
  ): void {
    const inputs: Array<[string, string]> = [];
    for (const [fieldName, fieldValue] of Object.entries(after.inputs))
      if (before[fieldName] !== fieldValue) inputs.push([fieldName, fieldValue]);
    if (events.length === 0) {
      // A hop without events (none does today) keeps its inputs all the same.
      if (inputs.length > 0) pushHopRow(after.appId, after.sessionId, after.lastHopAt, [], inputs, environment, caller, ownerId);
      return;
    }
    for (let from = 0; from < events.length; from += MAX_HOP_LINES) {
      const chunk = events.slice(from, from + MAX_HOP_LINES);
      const first = chunk[0]!;
      pushHopRow(
        first.appId,
        first.sessionId,
        first.time,
        chunk.map((e) => toHopLine(e, first.time)),
        from === 0 ? inputs : [],
        environment,
        caller,
        ownerId,
      );
    }
    for (const e of events) {
      if ((e.type === 'action_finished' || e.type === 'action_failed') && e.action) {
        sink.push(
          {
            table: 'actionResults',
            row: {
              appId: e.appId,
              sessionId: e.sessionId,
              caller,
              actionName: e.action,
              menuName: e.menu ?? '',
              plugin: e.plugin ?? '',
              result: e.type === 'action_finished' ? e.data.result : { error: e.message },
              isOk: e.type === 'action_finished' ? 1 : 0,
              durationMs: Math.round(e.data.elapsedMs),
              createdAt: new Date(e.time),
            },
          },
          ownerId,
        );
      }
    }
  }

  function pushHopRow(
    appId: string,
    sessionId: string,
    time: number,
    lines: HopLine[],
    inputs: Array<[string, string]>,
    environment: Environment,
    caller: string | null,
    ownerId?: string,
  ): void {
    sink.push(
      {
        table: 'logs',
        row: {
          appId,
          sessionId,
          environment,
          caller,
          level: HOP_ROW,
          type: HOP_ROW,
          message: HOP_ROW,
          lines,
          inputs: inputs.length > 0 ? inputs : null,
          createdAt: new Date(time),
        },
      },
      ownerId,
    );
  }

  function recordSession(state: SessionState, end: SessionEnd, ownerId?: string): void {
    const { status, cause, ending, caller = null, contactMsisdn, timings } = end;
    metrics?.countSessionEnd(state.gateway, cause);
    sink.push(
      {
        table: 'sessions',
        row: {
          appId: state.appId,
          sessionId: state.sessionId,
          environment: state.environment,
          caller,
          gateway: state.gateway,
          mobile: state.msisdn,
          contactMsisdn: contactMsisdn ?? null,
          network: state.network,
          serviceCode: state.serviceCode,
          status,
          lastMenu: state.currentMenuId,
          inputs: state.inputs,
          media: toStoredMedia(state.media),
          hopCount: state.hopCount,
          endCause: cause,
          gatewayDurationMs: ending?.durationMs ?? null,
          gatewayCost: ending?.cost ?? null,
          gatewayWords: ending?.words ?? null,
          hopMs: timings?.hopMs ?? null,
          actionMs: timings?.actionMs ?? null,
          startedAt: new Date(state.startedAt),
          endedAt: now(),
        },
      },
      ownerId,
    );
  }

  /**
   * A session that ended without completing (the gateway's end notice, a restart word, its timeout): its record,
   * why it ended and what the gateway said of it, and the contact record it kept (docs/contacts.md, "Written once
   * a session").
   */
  function recordAbandoned(stored: StoredSession, ending: GatewayEnding): void {
    recordSession(stored.state, { status: 'abandoned', ...toSessionEnd(stored), cause: ending.cause, ending });
    if (stored.pendingContact) recordContact(stored.pendingContact.record);
  }

  /**
   * A gateway's end notice for a session already recorded (Africa's Talking's comes after the closing screen): what
   * it says is added to the record. Written after the record, as the sink writes in order; a notice for a session
   * never recorded changes nothing, and one sent twice writes the same values again.
   */
  function recordNotice(notice: SessionNotice, ownerId?: string): void {
    sink.push({ table: 'notices', row: notice }, ownerId);
  }

  /**
   * The network refused a dialled code that is not the app's: no session, one system line in the app's logs
   * (the emulator's log panel shows it) so the developer sees why the app did not answer.
   */
  function recordRefusedDial(
    {
      appId,
      environment,
      caller,
      sessionId,
      dialString,
    }: { appId: string; environment: Environment; caller: string | null; sessionId: string; dialString: string },
    shortCode: string,
    answer: string,
    ownerId?: string,
  ): void {
    const dialled = dialString.slice(0, 100);
    sink.push(
      {
        table: 'logs',
        row: {
          appId,
          sessionId,
          environment,
          caller,
          level: 'system',
          type: 'dial_refused',
          menuId: null,
          menu: null,
          plugin: null,
          action: null,
          message: `${dialled} is not this app's code (${shortCode}); the network answered ${answer}`,
          data: { dialString: dialled, shortCode },
          createdAt: now(),
        },
      },
      ownerId,
    );
  }

  /** What a session leaves on its caller's contact (seen on a channel, a saved name or attribute), written with the rest. */
  function recordContact(record: ContactRecord): void {
    sink.push({ table: 'contacts', row: record }, record.ownerId);
  }

  /** A WhatsApp user's message to a linked number: it opens (or keeps open) their 24-hour window, written with the rest. */
  function recordWindow(record: WindowRecord, ownerId?: string): void {
    sink.push({ table: 'windows', row: record }, ownerId);
  }

  return { recordHop, recordSession, recordAbandoned, recordNotice, recordRefusedDial, recordContact, recordWindow };
}

/** The most lines one `app_logs` row holds: a line's id is its row's id * LINE_ID_SCALE plus its place. */
const MAX_HOP_LINES = LINE_ID_SCALE - 1;

/** An engine event as a line of its hop's row: its time as ms after the row's, null fields left out. */
function toHopLine(e: EngineEvent, rowTime: number): HopLine {
  const line: HopLine = { level: e.level, type: e.type, message: e.message };
  if (e.menuId !== null) line.menuId = e.menuId;
  if (e.menu !== null) line.menu = e.menu;
  if (e.plugin !== null) line.plugin = e.plugin;
  if (e.action !== null) line.action = e.action;
  if (e.data !== undefined && e.data !== null) line.data = e.data;
  if (e.time !== rowTime) line.ms = e.time - rowTime;
  return line;
}

/** How a session ended, for its record. `ending`: what the gateway's notice said (its cause is `cause` or another). */
export interface SessionEnd {
  status: 'completed' | 'abandoned';
  cause: EndCause;
  ending?: GatewayEnding;
  caller?: string | null;
  contactMsisdn?: string;
  timings?: HopTimings;
}

/** What a stored session gives its record besides its state: whose it is, its contact and its hops' timings. */
export function toSessionEnd(stored: StoredSession): Pick<SessionEnd, 'caller' | 'contactMsisdn' | 'timings'> {
  return { caller: stored.caller ?? null, contactMsisdn: stored.contactMsisdn, timings: stored.timings };
}

/** Why the engine ended a session, as its record's cause (shared/session-ends.ts). */
const CAUSE_BY_REASON: Record<EndReason, EndCause> = {
  terminate_menu: 'completed',
  handoff: 'completed',
  terminate_rule: 'terminated',
  steered: 'terminated',
  fault: 'app_error',
  over_budget: 'budget_exceeded',
  session_lost: 'timed_out',
};

/** The cause of a session the engine ended on this hop, from its `session_ended` event. */
export function toEndCause(events: readonly EngineEvent[]): EndCause {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'session_ended') return CAUSE_BY_REASON[e.data.reason];
  }
  return 'completed';
}

/** A session's hops as timed by the runtime: each hop's whole time and its time in actions, in ms, the last MAX_TIMED_HOPS. */
export interface HopTimings {
  hopMs: number[];
  actionMs: number[];
}

/** A long chat keeps its last hops' timings only, so a stored session does not grow without end. */
const MAX_TIMED_HOPS = 100;

/** The timings with one more hop: its whole time and the time its actions took (their events' elapsed times). */
export function addHopTiming(timings: HopTimings | undefined, hopMs: number, events: readonly EngineEvent[]): HopTimings {
  let actionMs = 0;
  for (const e of events) if (e.type === 'action_finished' || e.type === 'action_failed') actionMs += e.data.elapsedMs ?? 0;
  const keep = (list: number[] | undefined, value: number) => [
    ...(list ?? []).slice(-(MAX_TIMED_HOPS - 1)),
    Math.max(0, Math.round(value)),
  ];
  return { hopMs: keep(timings?.hopMs, hopMs), actionMs: keep(timings?.actionMs, Math.min(actionMs, hopMs)) };
}

/**
 * `session.media` as a session record keeps it: files without their signed links (which expire; the logs sign them
 * afresh when read), locations as they are; null when none arrived.
 */
function toStoredMedia(media: SessionState['media']): SessionState['media'] | null {
  if (!media || Object.keys(media).length === 0) return null;
  return Object.fromEntries(
    Object.entries(media).map(([identifier, received]) => {
      if (!('mediaId' in received)) return [identifier, received];
      const { url: _signed, ...file } = received;
      return [identifier, file];
    }),
  );
}
