/**
 * What became of a message a bot sent on WhatsApp (docs/whatsapp-connectors.md, "Delivery statuses"): shared by
 * the connectors (which report statuses), the server (which records them) and the console (which shows ticks).
 */
import type { WhatsAppMessage } from './whatsapp';

/** A sent message's states: sent (one grey tick), delivered (two grey), read (two blue), failed (red). */
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * How far each state is along: a status only ever moves a message forward, so statuses that arrive out of order
 * (Meta does not promise their order) or twice change nothing. Read beats delivered beats sent. A failure beats
 * sent only: Meta reports `failed` for a message that could not be delivered, so a message WhatsApp said was
 * delivered or read stays so whatever comes after, and a `delivered` after a `failed` (the phone got it after all)
 * wins.
 */
const RANK: Record<DeliveryStatus, number> = { sent: 0, failed: 1, delivered: 2, read: 3 };

/** True when a message at `current` should move to `next`. */
export function isStatusForward(current: DeliveryStatus, next: DeliveryStatus): boolean {
  return RANK[next] > RANK[current];
}

/** The states a message may be in for `next` to move it: what the server's update is conditioned on. */
export function statusesBefore(next: DeliveryStatus): DeliveryStatus[] {
  return DELIVERY_STATUSES.filter((s) => isStatusForward(s, next));
}

export function isDeliveryStatus(value: unknown): value is DeliveryStatus {
  return typeof value === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** One message a connector sent: its id at the provider (Cloud API `wamid...`, Baileys key id, the simulator's own). */
export interface SentMessage {
  providerMessageId: string;
  message: WhatsAppMessage;
}

/** A connector's report on a message it sent, for the link it sent it from. */
export interface DeliveryUpdate {
  linkId: string;
  providerMessageId: string;
  status: DeliveryStatus;
  /** When it happened, ms since epoch (the provider's time where it gives one). */
  at: number;
  /** A failure's code and words (Cloud API `errors[0]`). */
  failureCode?: number;
  failureReason?: string;
}
