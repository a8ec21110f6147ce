/**
 * WhatsApp as a channel (docs/bots.md): a message is a hop, and a reply is one or more WhatsApp messages.
 *
 * Unlike a USSD gateway, WhatsApp has no session ids and no "dial": a conversation is keyed by the linked
 * number and the user, any message with no open session starts one (its text is not an answer), and one of
 * RESTART_WORDS starts over whatever screen is open (`conversation` below tells the runtime so).
 *
 * No HTTP request carries a message here: a connector (or the console's chat simulator) hands the runtime a
 * typed `ChatMessage`, read as a hop by `readChatMessage`, and the runtime hands the connector a `ChatReply`,
 * written by `toChatReply`. This is the one place a reply's text is cut to WhatsApp's bounds.
 *
 * A reply's numbered options (`1. Balance`, `2) Help`) become a WhatsApp list or reply buttons when the
 * connector can show them (`interactive`) and they fit WhatsApp's bounds; the picked option's id is its
 * number, so it arrives as the same input a typed `1` would. Everything else is numbered text.
 *
 * Example:
 *   readChatMessage({ linkId: 'link-1', conversation: 'link-1:233241234567', from: '233241234567', text: '1', kind: 'choice', ... })
 *     -> { kind: 'continue', input: '1', msisdn: '233241234567', sessionId: '' }
 *   toChatReply(message, { text: 'Pick one\n1. Balance\n2. Help', end: false }, 's-1', { interactive: true })
 *     -> { conversation: 'link-1:233241234567', to: '233241234567', sessionId: 's-1', end: false,
 *          messages: [{ type: 'buttons', body: 'Pick one', buttons: [{ id: '1', title: 'Balance' }, ...] }] }
 */
import type { Reply, ReplyAttachment } from '../engine';
import {
  RESTART_WORDS,
  WHATSAPP_LIMITS,
  type ChatMessage,
  toPlainText,
  type ChatReply,
  type WhatsAppChoice,
  type WhatsAppMessage,
} from '../shared/whatsapp';
import { cleanText } from './fields';
import { ChannelError, type ChannelAdapter, type InboundHop } from './types';

const NAME = 'whatsapp' as const;

/** How long a conversation waits for the next message before it is over (15 minutes; docs/bots.md). */
export const WHATSAPP_SESSION_TIMEOUT_SECONDS = 15 * 60;

/** A media message's caption (Cloud API reference). */
const CAPTION_LIMIT = 1024;

/** The list message's button, which opens its rows. */
const LIST_BUTTON = 'Choose an option';
/** The body of an interactive message whose screen is only options. */
const EMPTY_BODY = 'Choose an option';

const OPTION_LINE = /^\s*(\d{1,3})\s*[.)]\s*(\S.*)$/;

const isRestartWord = (text: string) => (RESTART_WORDS as readonly string[]).includes(text.trim().toLowerCase());

/** Cuts text to `max` characters without splitting a surrogate pair, marking the cut with an ellipsis. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The numbered options of a screen and the rest of its lines, or null when it has fewer than two options. */
function readOptions(text: string): { body: string; choices: WhatsAppChoice[] } | null {
  const rest: string[] = [];
  const choices: WhatsAppChoice[] = [];
  for (const line of text.split('\n')) {
    const match = OPTION_LINE.exec(line);
    if (match) choices.push({ id: match[1]!, title: match[2]!.trim() });
    else rest.push(line);
  }
  if (choices.length < 2 || new Set(choices.map((c) => c.id)).size !== choices.length) return null;
  return { body: rest.join('\n').trim() || EMPTY_BODY, choices };
}

/** What a screen carries besides its text (the engine's Reply): files, pins and cards to send first, a link button, a location request. */
export type ScreenExtras = Pick<Reply, 'attachments' | 'linkButton' | 'requestLocation'>;

/** A body WhatsApp takes for an interactive message whose screen is too long to be its body. */
const SHARE_LOCATION_BODY = 'Share your location';

/**
 * One screen as WhatsApp messages (docs/bots.md, "Media"): its attachments first, each its own message, in the
 * menu's order; then the screen as a location request or a link button when the menu has one, else reply buttons
 * for up to three short options, a list for up to ten, else (or when the connector cannot show them, or the session
 * ended) the screen as text. A location request or link button on a connector without interactive messages, or on a
 * screen too long for an interactive body, is the screen as text followed by its plain-text form (toPlainText).
 */
export function toWhatsAppMessages(text: string, options: { interactive: boolean; end: boolean } & ScreenExtras): WhatsAppMessage[] {
  const messages: WhatsAppMessage[] = (options.attachments ?? []).map(toAttachmentMessage);
  const screen = text.trim() === '' ? '…' : text;
  const { linkButton, requestLocation, interactive } = options;
  if (requestLocation || linkButton) {
    const fits = screen.length <= WHATSAPP_LIMITS.interactiveBody;
    const extras: WhatsAppMessage[] = [];
    if (requestLocation) extras.push({ type: 'locationRequest', body: fits ? screen : SHARE_LOCATION_BODY });
    if (linkButton) {
      const body = fits && !requestLocation ? screen : linkButton.text;
      extras.push({ type: 'link', body, button: cutText(linkButton.text, 20), url: linkButton.url });
    }
    if (!fits) messages.push({ type: 'text', text: cutText(screen, WHATSAPP_LIMITS.text) });
    for (const extra of extras)
      messages.push(interactive ? extra : { type: 'text', text: cutText(toPlainText(extra), WHATSAPP_LIMITS.text) });
    return messages;
  }
  messages.push(toScreenMessage(screen, options));
  return messages;
}

/** An attachment as its message; a caption is cut to WhatsApp's 1,024 characters. */
function toAttachmentMessage(attachment: ReplyAttachment): WhatsAppMessage {
  if (attachment.type === 'location') return { type: 'location', location: attachment.location };
  if (attachment.type === 'contact') return { type: 'contact', contact: attachment.contact };
  const { media } = attachment;
  return { type: 'media', media: media.caption ? { ...media, caption: cutText(media.caption, CAPTION_LIMIT) } : media };
}

function toScreenMessage(screen: string, options: { interactive: boolean; end: boolean }): WhatsAppMessage {
  const read = options.interactive && !options.end ? readOptions(screen) : null;
  if (read && read.body.length <= WHATSAPP_LIMITS.interactiveBody) {
    const { body, choices } = read;
    if (choices.length <= WHATSAPP_LIMITS.buttons && choices.every((c) => c.title.length <= WHATSAPP_LIMITS.buttonTitle))
      return { type: 'buttons', body, buttons: choices };
    if (choices.length <= WHATSAPP_LIMITS.listRows) {
      const rows = choices.map((c): WhatsAppChoice => {
        if (c.title.length <= WHATSAPP_LIMITS.listRowTitle) return c;
        return {
          id: c.id,
          title: cutText(c.title, WHATSAPP_LIMITS.listRowTitle),
          description: cutText(c.title, WHATSAPP_LIMITS.listRowDescription),
        };
      });
      return { type: 'list', body, button: LIST_BUTTON, rows };
    }
  }
  return { type: 'text', text: cutText(screen, WHATSAPP_LIMITS.text) };
}

/**
 * A chat message as the runtime's hop. It names no session: the runtime keys the conversation's session on
 * `message.conversation`, and `sessionId` is the session's own id once the runtime has found or started it.
 */
export function readChatMessage(message: ChatMessage): InboundHop {
  const input = cleanText(message.text);
  const hop: InboundHop = {
    gateway: NAME,
    sessionId: '',
    msisdn: message.from,
    // The dashboard's networks chart shows a bot's traffic as WhatsApp's.
    network: 'WhatsApp',
    serviceCode: '',
    // A restart word starts over; any other message answers the open screen (or, with none open, starts one).
    kind: message.kind === 'text' && isRestartWord(input) ? 'start' : 'continue',
    // A file's caption stays the input until the runtime has stored the file: the engine ignores it once the hop
    // carries the file (`hop.media`, whose `caption` keeps it) or a location.
    input,
    raw: {},
  };
  // A file reaches the hop once the runtime has stored it (`hop.media`); a location is read as it is.
  if (message.kind === 'location' && message.location) hop.location = message.location;
  if (message.kind === 'media' && message.mediaRef) hop.media = message.mediaRef;
  // Connectors redeliver a message with the same id (the Cloud API for up to a day): it must not run twice.
  if (message.messageId) hop.hopId = message.messageId;
  return hop;
}

/** The bot's screen for a message as what goes back to its user: WhatsApp messages within WhatsApp's bounds. */
export function toChatReply(message: ChatMessage, reply: Reply, sessionId: string, options: { interactive: boolean }): ChatReply {
  const messages = toWhatsAppMessages(cleanText(reply.text), {
    interactive: options.interactive,
    end: reply.end,
    attachments: reply.attachments,
    linkButton: reply.linkButton,
    requestLocation: reply.requestLocation,
  });
  return { linkId: message.linkId, conversation: message.conversation, to: message.from, sessionId, end: reply.end, messages };
}

/** WhatsApp messages are never gateway requests: they reach the runtime as ChatMessage and leave as ChatReply. */
const notAGatewayRequest = () =>
  new ChannelError('unknown_gateway', 'WhatsApp messages reach bots through their linked numbers, never as a gateway request', NAME);

export const whatsapp: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'a ChatMessage from a WhatsApp connector',
  conversation: { timeoutSeconds: WHATSAPP_SESSION_TIMEOUT_SECONDS },
  // Never detected from a gateway request's shape, nor read or answered as one (readChatMessage, toChatReply).
  matches: () => false,
  parseRequest() {
    throw notAGatewayRequest();
  },
  formatReply() {
    throw notAGatewayRequest();
  },
};
