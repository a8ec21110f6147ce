/**
 * The chat simulator's and the simulated phone's conversation as shown (pure, unit-tested): who said what and
 * when, which bot message's choices can still be picked, and the customer's number.
 */
import type { WhatsAppChoice, WhatsAppMessage } from '../../../shared/whatsapp';
import type { DeliveryStatus } from '../../../shared/whatsapp-status';

/** A customer number that is plainly a test one (Ghana format, as the USSD emulator's). */
export const DEFAULT_CUSTOMER_NUMBER = '233240000001';
/** E.164 allows 15 digits. */
const MAX_NUMBER_DIGITS = 15;

export interface ChatEntry {
  /** Unique within one conversation, in order. */
  id: number;
  /** `in`: the customer wrote it (drawn on the right); `out`: the bot's (on the left). */
  direction: 'in' | 'out';
  message: WhatsAppMessage;
  /** When it was sent: an ISO time. */
  at: string;
  /** The bot's messages: the id its delivery status is asked and reported under. */
  messageId?: string;
}

/** A bot message's delivery status as its ticks show it. */
export interface EntryStatus {
  status: DeliveryStatus;
  failureReason: string;
}

/** What a tick says to a screen reader and on hover: `Read`, or `Failed: <the words>`. */
export function describeStatus({ status, failureReason }: EntryStatus): string {
  const name = status[0]!.toUpperCase() + status.slice(1);
  return status === 'failed' && failureReason ? `${name}: ${failureReason}` : name;
}

/** The bot's message ids whose status may still change (not read, not failed): what the ticks keep asking about. */
export function findOpenMessageIds(entries: ChatEntry[], statuses: ReadonlyMap<string, EntryStatus>): string[] {
  return entries.flatMap((e) => {
    const status = e.messageId ? statuses.get(e.messageId)?.status : undefined;
    return e.messageId && status !== 'read' && status !== 'failed' ? [e.messageId] : [];
  });
}

/** What the customer typed or picked, as their bubble shows it (a picked row shows its title, as WhatsApp does). */
export const toCustomerMessage = (text: string): WhatsAppMessage => ({ type: 'text', text });

/** The choices a message offers (none for text). */
export function findChoices(message: WhatsAppMessage): WhatsAppChoice[] {
  return message.type === 'list' ? message.rows : message.type === 'buttons' ? message.buttons : [];
}

/**
 * The one entry whose list or buttons can still be picked: the bot's last message, while the customer has not
 * answered it. Older choices belong to screens the conversation has left, so they are shown but not active.
 */
export function findLiveEntryId(entries: ChatEntry[], isEnded: boolean): number | null {
  const last = entries.at(-1);
  if (last?.direction !== 'out' || isEnded) return null;
  return findChoices(last.message).length > 0 ? last.id : null;
}

/** The time under a bubble: hours and minutes on the viewer's clock. */
export function formatChatTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** The customer number field keeps digits only (`+233 24 000 0001` -> `233240000001`). */
export function toCustomerNumber(value: string): string {
  return value.replace(/\D/g, '').slice(0, MAX_NUMBER_DIGITS);
}

/** A number WhatsApp could hold: 8 to 15 digits. */
export const isCustomerNumber = (value: string) => /^\d{8,15}$/.test(value);

/** Appends messages to a conversation, numbering them after the last one. */
export function appendEntries(
  entries: ChatEntry[],
  direction: ChatEntry['direction'],
  messages: WhatsAppMessage[],
  at: string,
  messageIds: string[] = [],
): ChatEntry[] {
  let next = (entries.at(-1)?.id ?? 0) + 1;
  return [
    ...entries,
    ...messages.map((message, i) => ({ id: next++, direction, message, at, ...(messageIds[i] ? { messageId: messageIds[i] } : {}) })),
  ];
}
