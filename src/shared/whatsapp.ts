import type { ContactCard, LocationRef, MediaKind, MediaRef } from './media';

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

/**
 * WhatsApp's own bounds (Cloud API reference). The channel cuts every message to them in one place
 * (`toWhatsAppMessages`, src/channels/whatsapp.ts); connectors send what they are given as it is.
 */
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
  | { type: 'buttons'; body: string; buttons: WhatsAppChoice[] }
  /** A stored file (docs/media.md), with its caption (`media.caption`). */
  | { type: 'media'; media: MediaRef }
  /** A pin on the map. */
  | { type: 'location'; location: LocationRef }
  /** A contact card. */
  | { type: 'contact'; contact: ContactCard }
  /** A call-to-action button that opens `url` (Cloud API `cta_url`). */
  | { type: 'link'; body: string; button: string; url: string }
  /** Asks the user to share their location (Cloud API `location_request_message`). */
  | { type: 'locationRequest'; body: string };

/** A map link for a location, for a screen that cannot show a pin. */
export const toMapUrl = ({ latitude, longitude }: LocationRef): string => `https://maps.google.com/?q=${latitude},${longitude}`;

/**
 * A message as text, for a connector that cannot show it as it is: lists and buttons become the body and one
 * numbered line per choice (its id is its number, so the typed answer is the same as a tap); a link button, its
 * text and address; a location, its name, address and a map link; a contact card, its name and numbers; a file,
 * its caption and link.
 */
export function toPlainText(message: WhatsAppMessage): string {
  switch (message.type) {
    case 'text':
      return message.text;
    case 'list':
    case 'buttons': {
      const choices = message.type === 'list' ? message.rows : message.buttons;
      return [message.body, ...choices.map((c) => `${c.id}. ${c.description ?? c.title}`)].join('\n');
    }
    case 'link':
      return `${message.body}\n${message.button}: ${message.url}`;
    case 'locationRequest':
      return message.body;
    case 'location': {
      const { name, address } = message.location;
      return [name, address, toMapUrl(message.location)].filter(Boolean).join('\n');
    }
    case 'contact':
      return [message.contact.name, ...message.contact.phones].join('\n');
    case 'media':
      return [message.media.caption, message.media.url].filter(Boolean).join('\n');
  }
}

/**
 * What a message carries: what the user typed, the id of a choice they picked, a file (`media`, with its caption
 * as `text`), a location, or something no bot reads (`unsupported`: a sticker, a poll, a type the connector does
 * not know, a location off the globe; `unsupportedReason` says which). A contact card a user shares is read as
 * `text` (its name and numbers, as {@link toPlainText} writes a card).
 */
export type ChatMessageKind = 'text' | 'choice' | 'media' | 'location' | 'unsupported';

/**
 * A file a user sent, as its connector knows it before the server stores it: the server fetches the bytes with
 * the connector's `downloadMedia` and the menu's input becomes a {@link MediaRef}.
 */
export interface InboundMedia {
  kind: MediaKind;
  /** The type the connector was told; the server trusts the bytes, not this. */
  mimeType: string;
  /** The connector's handle on the file (Cloud API media id, the simulator's upload id, Baileys' message key id). */
  providerId: string;
  fileName?: string;
  /** Bytes, when the connector says. */
  size?: number;
  /** True for a voice note (audio recorded in the chat). */
  voice?: boolean;
}

/**
 * One message a user sent to a linked number, as its connector hands it to the server (docs/bots.md): the chat
 * path's only inbound shape, from the connector's wire to the runtime's hop.
 */
export interface ChatMessage {
  /** The linked number it was sent to (`whatsapp_links.id`). */
  linkId: string;
  /** The user's thread with the linked number, `<linkId>:<from>` (toConversation): the runtime's key for its session. */
  conversation: string;
  /** The connector's message id (Cloud API `wamid...`, Baileys key id): a redelivery carries the same one. '' when none. */
  messageId: string;
  /** The sender's number, digits only (`233241234567`). */
  from: string;
  /** The sender's profile name, when WhatsApp gives it. */
  name?: string;
  /** What the user typed, the id of the choice they picked, or a file's caption (`kind` says which). */
  text: string;
  kind: ChatMessageKind;
  /** The file, when `kind` is media. */
  media?: InboundMedia;
  /** The place, when `kind` is location. */
  location?: LocationRef;
  /** The file once the server stored it for the bot's account (never read off a wire): what the bot reads. */
  mediaRef?: MediaRef;
  /** What the message was, when `kind` is unsupported (`a sticker`, `a location off the globe (latitude 91, ...)`), for the log. */
  unsupportedReason?: string;
  /** When the connector got it (ms since epoch). */
  receivedAt: number;
  /** When it was sent (ms since epoch), when the connector says. */
  sentAt?: number;
}

/** A message as a connector reads it off its wire, before it knows the link it came to (the Cloud API's webhook). */
export type ChatMessageRead = Pick<
  ChatMessage,
  'messageId' | 'from' | 'name' | 'text' | 'kind' | 'sentAt' | 'media' | 'location' | 'unsupportedReason'
>;

/** The conversation of a linked number and one of its users. */
export const toConversation = (linkId: string, from: string): string => `${linkId}:${from}`;

/** A message read off a connector's wire, addressed to the link it came to. */
export function toChatMessage(linkId: string, read: ChatMessageRead, receivedAt: number): ChatMessage {
  return { linkId, conversation: toConversation(linkId, read.from), ...read, receivedAt };
}

/**
 * What the bot sends back for one message, in order: the chat path's only outbound shape, from the runtime to the
 * connector's `send`.
 */
export interface ChatReply {
  linkId: string;
  conversation: string;
  /** The user it goes to (the message's `from`). */
  to: string;
  /** The session the messages belong to; '' when no session ran (an inactive bot, a picture). */
  sessionId: string;
  /** True when the session ended with this reply. */
  end: boolean;
  messages: WhatsAppMessage[];
}

/** A reply of one sentence, sent without running the bot (an inactive bot, a message with no text). */
export function toSentenceReply(message: ChatMessage, text: string): ChatReply {
  const { linkId, conversation, from } = message;
  return { linkId, conversation, to: from, sessionId: '', end: true, messages: [{ type: 'text', text }] };
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
