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
 *
 * Files and places: the page sends a file's bytes (kept here, in a bounded map, until the server fetches them with
 * `downloadMedia`) or a location; the bot's files, places, contact cards, link buttons and location requests go to
 * the page as they are (a file's `url` is the signed link the server put in it).
 */
import { randomBytes } from 'node:crypto';
import { mediaKindOf, type LocationRef, type MediaKind } from '../../shared/media';
import { toConversation, type ChatMessage, type InboundMedia, type WhatsAppMessage } from '../../shared/whatsapp';
import type { SentMessage } from '../../shared/whatsapp-status';
import { toTemplateMessage } from '../../shared/whatsapp-templates';
import { readLocation, tooLarge } from './connector-media';
import {
  MediaDownloadError,
  WHATSAPP_MESSAGE_TYPES,
  type ConnectorEvents,
  type ReadMedia,
  type WhatsAppConnector,
} from './whatsapp-connector';

/**
 * What the simulated phone sends: typed text, a picked choice (`text` its id, `label` its title), a file (`text` its
 * caption), a location, or something no bot reads (`unsupported`, as a sticker).
 */
export type PhoneMessage =
  | { kind: 'text' | 'unsupported'; text: string }
  | { kind: 'choice'; text: string; label?: string }
  | { kind: 'media'; text: string; file: PhoneFile }
  | { kind: 'location'; location: LocationRef };

/** A file sent from the simulated phone. */
export interface PhoneFile {
  bytes: Uint8Array;
  /** The type the page says it is (the server trusts the bytes, not this). */
  mimeType: string;
  fileName?: string;
  /** How the phone sends it; by default what its type is (image, audio, video), else a document, as phones do. */
  kind?: MediaKind;
  /** A voice note (audio recorded in the chat). */
  voice?: boolean;
}

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
  receive(linkId: string, from: string, message: PhoneMessage): Promise<WhatsAppMessage[]>;
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
/** Files sent from simulated phones kept for the server to fetch, in number and bytes (oldest dropped first). */
export const SIMULATOR_UPLOADS_KEPT = { files: 100, bytes: 64 * 1024 * 1024 };

export interface SimulatorOptions {
  origin: string;
  events: ConnectorEvents;
  /** The bytes of a file the bot sends: unused, as the page loads a file from its `url` (kept for one interface). */
  readMedia: ReadMedia;
  now?: () => Date;
  /** Bounds of the files kept (tests make them small). */
  uploadsKept?: { files: number; bytes: number };
}

export function createSimulatorConnector(options: SimulatorOptions): SimulatorConnector {
  const { origin, events } = options;
  const now = options.now ?? (() => new Date());
  const chats = new Map<string, TranscriptEntry[]>();
  const uploads = createUploads(options.uploadsKept ?? SIMULATOR_UPLOADS_KEPT);
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
    nativeTypes: new Set(WHATSAPP_MESSAGE_TYPES),

    async downloadMedia(linkId, media, maxBytes) {
      const file = uploads.get(linkId, media.providerId);
      if (!file) throw new MediaDownloadError('gone', `The simulated phone's file ${media.providerId} is no longer kept`);
      if (file.byteLength > maxBytes) throw tooLarge(`The simulated phone's file ${media.providerId}`, maxBytes);
      return file;
    },

    async startLink(linkId, { resume }) {
      if (resume) return; // nothing to reconnect: the page's secret is kept with the link
      const secret = randomBytes(18).toString('base64url');
      const qrCode = `${origin}/whatsapp-simulator/${linkId}?secret=${secret}`;
      await events.onLinkUpdate(linkId, { status: 'QR', qrCode, externalId: secret });
    },

    async scan(linkId, mobileNumber) {
      await events.onLinkUpdate(linkId, { status: 'CONNECTED', qrCode: null, mobileNumber });
    },

    async receive(linkId, from, sent) {
      const at = now();
      const conversation = toConversation(linkId, from);
      const messageId = `sim-${at.getTime().toString(36)}-${(counter++).toString(36)}`;
      const read = readPhoneMessage(sent, () => uploads.keep(linkId, messageId, sent.kind === 'media' ? sent.file : undefined));
      const message: ChatMessage = {
        linkId,
        conversation,
        messageId,
        from,
        ...read.content,
        receivedAt: at.getTime(),
        sentAt: at.getTime(),
      };
      append(conversation, { direction: 'in', message: read.shown, at: at.toISOString() });
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
      uploads.forgetLink(linkId);
    },

    async close() {
      chats.clear();
      uploads.clear();
    },
  };
}

/** What the bot gets of a phone's message, and how the phone's chat shows it. */
function readPhoneMessage(
  sent: PhoneMessage,
  keepFile: () => InboundMedia['providerId'],
): { content: Pick<ChatMessage, 'text' | 'kind' | 'media' | 'location' | 'unsupportedReason'>; shown: WhatsAppMessage } {
  switch (sent.kind) {
    case 'text':
      return { content: { kind: 'text', text: sent.text }, shown: { type: 'text', text: sent.text } };
    case 'choice':
      // A picked choice shows in the chat as what it said (its title), as on a phone; the bot gets its id.
      return { content: { kind: 'choice', text: sent.text }, shown: { type: 'text', text: sent.label || sent.text } };
    case 'unsupported':
      return { content: { kind: 'unsupported', text: '', unsupportedReason: 'a sticker' }, shown: { type: 'text', text: sent.text } };
    case 'location': {
      const { latitude, longitude, name, address } = sent.location;
      const content = readLocation(latitude, longitude, name, address);
      const shown: WhatsAppMessage = content.location ? { type: 'location', location: content.location } : { type: 'text', text: '' };
      return { content, shown };
    }
    case 'media': {
      const { file } = sent;
      const kind = file.kind ?? toPhoneKind(file.mimeType);
      const providerId = keepFile();
      const media: InboundMedia = { kind, mimeType: file.mimeType, providerId, size: file.bytes.byteLength };
      if (file.fileName) media.fileName = file.fileName;
      if (kind === 'audio' && file.voice) media.voice = true;
      const caption = sent.text.trim();
      // The chat shows the file by its upload id until the server stores it (the page draws it from its own copy).
      const shown: WhatsAppMessage = {
        type: 'media',
        media: {
          mediaId: providerId,
          kind,
          mimeType: file.mimeType,
          size: media.size ?? 0,
          ...(media.fileName ? { fileName: media.fileName } : {}),
          ...(caption ? { caption } : {}),
        },
      };
      return { content: { kind: 'media', text: caption, media }, shown };
    }
  }
}

/** A file's kind as a phone sends it: a picture, a recording or a video as such, anything else as a document. */
function toPhoneKind(mimeType: string): MediaKind {
  return mediaKindOf(mimeType) ?? 'document';
}

/** The phones' files, by link and upload id, within a count and a total size (the oldest dropped first). */
function createUploads(limits: { files: number; bytes: number }) {
  const files = new Map<string, { linkId: string; bytes: Uint8Array }>();
  let total = 0;
  const drop = (key: string) => {
    total -= files.get(key)?.bytes.byteLength ?? 0;
    files.delete(key);
  };
  return {
    /** Keeps a file sent with message `messageId`; answers its upload id (`providerId`). */
    keep(linkId: string, messageId: string, file: PhoneFile | undefined): string {
      const providerId = `${messageId}-file`;
      if (!file) return providerId;
      files.set(providerId, { linkId, bytes: file.bytes });
      total += file.bytes.byteLength;
      while (files.size > 0 && (files.size > limits.files || total > limits.bytes)) drop(files.keys().next().value!);
      return providerId;
    },
    /** A link's file: another link's upload id finds nothing. */
    get(linkId: string, providerId: string): Uint8Array | undefined {
      const found = files.get(providerId);
      return found?.linkId === linkId ? found.bytes : undefined;
    },
    forgetLink(linkId: string): void {
      for (const [key, file] of files) if (file.linkId === linkId) drop(key);
    },
    clear(): void {
      files.clear();
      total = 0;
    },
  };
}
