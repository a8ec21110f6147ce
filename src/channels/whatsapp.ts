/**
 * WhatsApp as a channel (docs/bots.md): a message is a hop, and a reply is one or more WhatsApp messages.
 *
 * Unlike a USSD gateway, WhatsApp has no session ids and no "dial": a conversation is keyed by the linked
 * number and the user, any message with no open session starts one (its text is not an answer), and one of
 * RESTART_WORDS starts over whatever screen is open (`conversation` below tells the runtime so).
 *
 * The request is ours, built by the bots service from a connector's message (or by the console's chat
 * simulator): JSON `{ conversation, from, text, kind, messageId?, interactive? }`. It is never chosen by a
 * gateway URL's `?gateway=`.
 *
 * A reply's numbered options (`1. Balance`, `2) Help`) become a WhatsApp list or reply buttons when the
 * connector can show them (`interactive`) and they fit WhatsApp's bounds; the picked option's id is its
 * number, so it arrives as the same input a typed `1` would. Everything else is numbered text.
 *
 * Example:
 *   { "conversation": "link-1:233241234567", "from": "233241234567", "text": "1", "kind": "choice", "interactive": true }
 *     -> { kind: 'continue', input: '1', msisdn: '233241234567' }
 *   formatReply({ text: 'Pick one\n1. Balance\n2. Help', end: false })
 *     -> { "end": false, "messages": [{ "type": "buttons", "body": "Pick one", "buttons": [{ "id": "1", "title": "Balance" }, ...] }] }
 */
import { RESTART_WORDS, WHATSAPP_LIMITS, type WhatsAppChoice, type WhatsAppMessage } from '../shared/whatsapp';
import { FIELD_LIMITS, cleanText, getText, malformed, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, InboundHop, JsonValue, OutboundReply } from './types';

const NAME = 'whatsapp' as const;

/** How long a conversation waits for the next message before it is over (15 minutes; docs/bots.md). */
export const WHATSAPP_SESSION_TIMEOUT_SECONDS = 15 * 60;

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

/**
 * One screen as WhatsApp messages: reply buttons for up to three short options, a list for up to ten, else
 * (or when the connector cannot show them, or the session ended) the screen as text.
 */
export function toWhatsAppMessages(text: string, options: { interactive: boolean; end: boolean }): WhatsAppMessage[] {
  const screen = text.trim() === '' ? '…' : text;
  const read = options.interactive && !options.end ? readOptions(screen) : null;
  if (read && read.body.length <= WHATSAPP_LIMITS.interactiveBody) {
    const { body, choices } = read;
    if (choices.length <= WHATSAPP_LIMITS.buttons && choices.every((c) => c.title.length <= WHATSAPP_LIMITS.buttonTitle))
      return [{ type: 'buttons', body, buttons: choices }];
    if (choices.length <= WHATSAPP_LIMITS.listRows) {
      const rows = choices.map((c): WhatsAppChoice => {
        if (c.title.length <= WHATSAPP_LIMITS.listRowTitle) return c;
        return {
          id: c.id,
          title: cutText(c.title, WHATSAPP_LIMITS.listRowTitle),
          description: cutText(c.title, WHATSAPP_LIMITS.listRowDescription),
        };
      });
      return [{ type: 'list', body, button: LIST_BUTTON, rows }];
    }
  }
  return [{ type: 'text', text: cutText(screen, WHATSAPP_LIMITS.text) }];
}

const KINDS = new Set(['text', 'choice', 'media']);

export const whatsapp: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'conversation, from, text, kind',
  conversation: { timeoutSeconds: WHATSAPP_SESSION_TIMEOUT_SECONDS },

  // Never detected from a gateway request's shape: only the bots service and the chat simulator build these.
  matches: () => false,

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const conversation = getText(fields, NAME, 'conversation', { nonEmpty: true, max: FIELD_LIMITS.id });
    const from = getText(fields, NAME, 'from', { nonEmpty: true, max: FIELD_LIMITS.msisdn });
    const text = getText(fields, NAME, 'text', { max: FIELD_LIMITS.input });
    const kind = getText(fields, NAME, 'kind', { max: 16 }) || 'text';
    if (!KINDS.has(kind)) throw malformed(NAME, `field "kind" is "${kind}"; expected text, choice or media`);
    const messageId = getText(fields, NAME, 'messageId', { max: FIELD_LIMITS.id });
    const raw: Record<string, JsonValue> = { interactive: fields.interactive === true };
    const hop: InboundHop = {
      gateway: NAME,
      sessionId: conversation,
      msisdn: from,
      // The dashboard's networks chart shows a bot's traffic as WhatsApp's.
      network: 'WhatsApp',
      serviceCode: '',
      // A restart word starts over; any other message answers the open screen (or, with none open, starts one).
      kind: kind === 'text' && isRestartWord(text) ? 'start' : 'continue',
      input: text,
      raw,
    };
    // Connectors redeliver a message with the same id (the Cloud API for up to a day): it must not run twice.
    if (messageId) hop.hopId = messageId;
    return hop;
  },

  formatReply(reply: OutboundReply, hop: InboundHop) {
    const messages = toWhatsAppMessages(cleanText(reply.text), { interactive: hop.raw.interactive === true, end: reply.end });
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ sessionId: hop.sessionId, end: reply.end, messages }) };
  },
};
