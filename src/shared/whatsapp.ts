/**
 * WhatsApp as a channel (docs/bots.md): what a linked number's status may be, what one inbound message is
 * and what the bot sends back. Shared by the channel adapter (formats replies), the connectors (send and
 * receive them), the server (stores links) and the console (renders the chat simulator).
 */

/** A linked number's states, in the order linking goes through them (PENDING -> QR -> CONNECTED). */
export const LINK_STATUSES = ['PENDING', 'QR', 'CONNECTED', 'FAILED', 'DISCONNECTED'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const WHATSAPP_CONNECTORS = ['simulator', 'baileys', 'cloud'] as const;
export type WhatsAppConnectorName = (typeof WHATSAPP_CONNECTORS)[number];

/** WhatsApp's own bounds (Cloud API reference): what the adapter keeps every message within. */
export const WHATSAPP_LIMITS = {
  /** A text message's body. */
  text: 4096,
  /** An interactive message's body. */
  interactiveBody: 1024,
  /** Rows of a list message, over all its sections. */
  listRows: 10,
  listRowTitle: 24,
  listRowDescription: 72,
  /** The list's opening button. */
  listButton: 20,
  /** Reply buttons on one message, and the length of each title. */
  buttons: 3,
  buttonTitle: 20,
} as const;

/** One choice of an interactive message; `id` is what comes back when it is picked (the option's number). */
export interface WhatsAppChoice {
  id: string;
  title: string;
  description?: string;
}

/**
 * One message the bot sends. `list` and `buttons` only go to connectors that can show them (the Cloud API,
 * the simulator); others get the same screen as numbered `text`.
 */
export type WhatsAppMessage =
  | { type: 'text'; text: string }
  | { type: 'list'; body: string; button: string; rows: WhatsAppChoice[] }
  | { type: 'buttons'; body: string; buttons: WhatsAppChoice[] };

/**
 * A message as text, for a connector that cannot show lists or buttons: the body, then one numbered line per
 * choice (its id is its number, so the typed answer is the same as a tap).
 */
export function toPlainText(message: WhatsAppMessage): string {
  if (message.type === 'text') return message.text;
  const choices = message.type === 'list' ? message.rows : message.buttons;
  return [message.body, ...choices.map((c) => `${c.id}. ${c.description ?? c.title}`)].join('\n');
}

/**
 * What one inbound message carries once its connector has read it. `text` is what the user typed, or the id
 * of the choice they picked; `kind` says which, and `media` marks a picture, voice note or file with no text.
 */
export interface WhatsAppInbound {
  /** The connector's message id (Cloud API `wamid...`, Baileys key id): a redelivery carries the same one. */
  messageId: string;
  /** The sender's number, digits only (`233241234567`). */
  from: string;
  /** The sender's profile name, when WhatsApp gives it. */
  name?: string;
  text: string;
  kind: 'text' | 'choice' | 'media';
  /** When it was sent (ms since epoch), when the connector says. */
  sentAt?: number;
}

/**
 * Words that start a conversation over, whatever screen is open (compared trimmed, in any case). A USSD user
 * dials again; a WhatsApp user types one of these.
 */
export const RESTART_WORDS = ['menu', 'restart', '#'] as const;

/** Sent, without running the bot, when a message has no text to read (a picture, a voice note). */
export const MEDIA_REPLY_TEXT = 'Please reply with text: this service reads typed answers only.';
/** Sent when the bot is switched off (Inactive on Bot Settings). */
export const INACTIVE_BOT_TEXT = 'This service is not available at the moment. Please try again later.';
