/**
 * What a hop leaves behind, as rows for the event sink: its events as log lines (and action results), the inputs
 * it stored, the session's record when it ends, and the network's refusal of a code that is not the app's. The
 * runtime calls these; the sink writes them in batches (event-sink.ts). `ownerId`, the app's account, is whose
 * rows they are when the sink decides whom to hold (omitted where the runtime does not know it: a sweep).
 */
import type { EngineEvent, SessionState } from '../../../engine';
import type { ContactRecord } from '../../core/contact-records';
import type { WindowRecord } from '../../core/whatsapp-windows';
import type { EventSink } from './event-sink';
import type { StoredSession } from './runtime-types';
import type { Environment } from '../../../shared/environment';

export function createSessionRecorder(sink: EventSink, now: () => Date) {
  function recordEvents(events: EngineEvent[], environment: Environment, caller: string | null, ownerId?: string): void {
    for (const e of events) {
      sink.push(
        {
          table: 'logs',
          row: {
            appId: e.appId,
            sessionId: e.sessionId,
            environment,
            caller,
            level: e.level,
            type: e.type,
            menuId: e.menuId,
            menu: e.menu,
            plugin: e.plugin,
            action: e.action,
            message: e.message,
            data: e.data ?? null,
            createdAt: new Date(e.time),
          },
        },
        ownerId,
      );
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

  /** Inputs the hop stored (`session.inputs` entries that are new or changed): the debugger's User Inputs. */
  function recordInputs(before: Record<string, string>, after: SessionState, caller: string | null, ownerId?: string): void {
    for (const [fieldName, fieldValue] of Object.entries(after.inputs)) {
      if (before[fieldName] === fieldValue) continue;
      sink.push(
        {
          table: 'inputs',
          row: { appId: after.appId, sessionId: after.sessionId, caller, fieldName, fieldValue, createdAt: new Date(after.lastHopAt) },
        },
        ownerId,
      );
    }
  }

  function recordSession(
    state: SessionState,
    status: 'completed' | 'abandoned',
    lastMenu: string | null,
    caller: string | null,
    ownerId?: string,
    contactMsisdn?: string,
  ): void {
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
          lastMenu,
          inputs: state.inputs,
          media: toStoredMedia(state.media),
          hopCount: state.hopCount,
          startedAt: new Date(state.startedAt),
          endedAt: now(),
        },
      },
      ownerId,
    );
  }

  /**
   * A session that ended without completing (the gateway's end notice, a restart word, its timeout): its record,
   * and the contact record it kept (docs/contacts.md, "Written once a session").
   */
  function recordAbandoned(stored: StoredSession): void {
    const { state } = stored;
    recordSession(state, 'abandoned', state.currentMenuId, stored.caller ?? null, undefined, stored.contactMsisdn);
    if (stored.pendingContact) recordContact(stored.pendingContact.record);
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

  return { recordEvents, recordInputs, recordSession, recordAbandoned, recordRefusedDial, recordContact, recordWindow };
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
