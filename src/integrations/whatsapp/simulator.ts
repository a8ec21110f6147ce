/**
 * The local stand-in for WhatsApp, the default connector (docs/bots.md): nothing leaves the machine.
 *
 * Linking shows a real QR code whose content is the address of a simulated phone page on this server
 * (`<origin>/whatsapp-simulator/<linkId>?secret=<secret>`). Opening it and pressing "Link device" is the scan:
 * the link goes CONNECTED with the number typed there. The page is then a chat with the bot as a customer of
 * that number: its messages take the same path as a real connector's (`events.onMessage`), and what the bot
 * sends comes back through `send`. The page can also make the link fail or log it out, to try those states.
 *
 * The secret is the page's only credential; the server keeps it with the link (`externalId`) and checks it
 * on every call of the page.
 */
import { randomBytes } from 'node:crypto';
import { toConversation, type ChatMessage, type ChatMessageKind, type WhatsAppMessage } from '../../shared/whatsapp';
import type { SentMessage } from '../../shared/whatsapp-status';
import { toTemplateMessage } from '../../shared/whatsapp-templates';
import type { ConnectorEvents, WhatsAppConnector } from './whatsapp-connector';

/** One line of a simulated chat. */
export interface TranscriptEntry {
  direction: 'in' | 'out';
  /** The bot's messages: their id, under which the phone reports them delivered, read or failed. */
  id?: string;
  message: WhatsAppMessage;
  at: string;
}

export interface SimulatorConnector extends WhatsAppConnector {
  readonly name: 'simulator';
  /** The phone scanned the QR: the link is CONNECTED as `mobileNumber`. */
  scan(linkId: string, mobileNumber: string): Promise<void>;
  /** A customer's message to the linked number; resolves with what the bot sent back to that customer for it. */
  receive(linkId: string, from: string, text: string, kind: ChatMessageKind, label?: string): Promise<WhatsAppMessage[]>;
  /** Makes the link FAILED or DISCONNECTED (logged out on the phone), as a real number can be. */
  setLinkState(linkId: string, status: 'FAILED' | 'DISCONNECTED'): Promise<void>;
  /**
   * The phone's receipt for a message the bot sent it: delivered when shown, read when the chat is open, or
   * failed (the page's testing control), reported as a real connector's statuses are.
   */
  reportStatus(linkId: string, messageId: string, status: 'delivered' | 'read' | 'failed'): Promise<void>;
  /** The chat between the linked number and one customer, oldest first. */
  getTranscript(linkId: string, from: string): TranscriptEntry[];
}

/** Lines kept per chat, and chats kept in all (oldest dropped first): a simulator, not an archive. */
const MAX_LINES = 200;
const MAX_CHATS = 2000;

export function createSimulatorConnector(options: { origin: string; events: ConnectorEvents; now?: () => Date }): SimulatorConnector {
  const { origin, events } = options;
  const now = options.now ?? (() => new Date());
  const chats = new Map<string, TranscriptEntry[]>();
  /** What the bot sends to a conversation while one of its messages is being answered, collected for `receive`. */
  const collecting = new Map<string, WhatsAppMessage[]>();
  let counter = 0;

  function append(key: string, entry: TranscriptEntry): void {
    let lines = chats.get(key);
    if (!lines) {
      if (chats.size >= MAX_CHATS) chats.delete(chats.keys().next().value!);
      lines = [];
      chats.set(key, lines);
    }
    lines.push(entry);
    if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
  }

  function forgetLink(linkId: string): void {
    for (const key of chats.keys()) if (key.startsWith(`${linkId}:`)) chats.delete(key);
  }

  return {
    name: 'simulator',
    supportsInteractive: true,

    async startLink(linkId, { resume }) {
      if (resume) return; // nothing to reconnect: the page's secret is kept with the link
      const secret = randomBytes(18).toString('base64url');
      const qrCode = `${origin}/whatsapp-simulator/${linkId}?secret=${secret}`;
      await events.onLinkUpdate(linkId, { status: 'QR', qrCode, externalId: secret });
    },

    async scan(linkId, mobileNumber) {
      await events.onLinkUpdate(linkId, { status: 'CONNECTED', qrCode: null, mobileNumber });
    },

    async receive(linkId, from, text, kind, label) {
      const at = now();
      const conversation = toConversation(linkId, from);
      const messageId = `sim-${at.getTime().toString(36)}-${(counter++).toString(36)}`;
      const message: ChatMessage = { linkId, conversation, messageId, from, text, kind, receivedAt: at.getTime(), sentAt: at.getTime() };
      // A picked choice shows in the chat as what it said (its title), as on a phone; the bot gets its id.
      append(conversation, {
        direction: 'in',
        message: { type: 'text', text: kind === 'choice' && label ? label : text },
        at: at.toISOString(),
      });
      const replies: WhatsAppMessage[] = [];
      collecting.set(conversation, replies);
      try {
        await events.onMessage(message);
      } finally {
        collecting.delete(conversation);
      }
      return replies;
    },

    async send(reply) {
      const sent: SentMessage[] = [];
      for (const message of reply.messages) {
        const at = now();
        const id = `sim-out-${at.getTime().toString(36)}-${(counter++).toString(36)}`;
        append(reply.conversation, { direction: 'out', id, message, at: at.toISOString() });
        collecting.get(reply.conversation)?.push(message);
        sent.push({ providerMessageId: id, message });
      }
      return sent;
    },

    async reportStatus(linkId, messageId, status) {
      const failure = status === 'failed' ? { failureReason: 'The simulated phone made this message fail' } : {};
      await events.onStatus?.({ linkId, providerMessageId: messageId, status, at: now().getTime(), ...failure });
    },

    // A template a business sends first shows in the customer's chat as WhatsApp draws it: header, body, footer, buttons.
    async sendTemplate(linkId, to, template) {
      const at = now();
      const id = `sim-out-${at.getTime().toString(36)}-${(counter++).toString(36)}`;
      const message = toTemplateMessage(template, true);
      append(toConversation(linkId, to), { direction: 'out', id, message, at: at.toISOString() });
      return [{ providerMessageId: id, message }];
    },

    async setLinkState(linkId, status) {
      const message = status === 'FAILED' ? 'The simulated phone reported a failure' : 'Logged out on the simulated phone';
      await events.onLinkUpdate(linkId, { status, qrCode: null, message });
    },

    getTranscript: (linkId, from) => [...(chats.get(toConversation(linkId, from)) ?? [])],

    async unlink(linkId) {
      forgetLink(linkId);
    },

    async close() {
      chats.clear();
    },
  };
}
