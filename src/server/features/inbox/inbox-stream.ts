/**
 * The inbox's live stream (docs/inbox.md, "Live"): `GET /api/inbox/events` as server-sent events (core/event-streams.ts),
 * one per open inbox screen. A removed agent's streams end at once, whichever process removed them; no screen is told.
 */
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { createEventStreams, type EventStreams } from '../../core/event-streams';
import type { InboxEvents } from './inbox-events';

export interface InboxStreamLimits {
  perAccount: number;
  total: number;
  heartbeatMs: number;
}

export function createInboxStreams(events: InboxEvents, limits: InboxStreamLimits): EventStreams {
  return createEventStreams(events, {
    ...limits,
    tooManyMessage: INBOX_MESSAGES.tooManyStreams,
    route: (event, userId) => (event.type !== 'agent_removed' ? 'send' : event.userId === userId ? 'end' : 'skip'),
  });
}

export type InboxStreams = EventStreams;
