// Over 400 lines: one connector's socket wiring and the pure readings of its events, kept together so Baileys' types are read in one place.
/**
 * The linked-device connector (docs/whatsapp-connectors.md): a real WhatsApp number joins as a device of the
 * phone, like WhatsApp Web, through Baileys. Linking shows a QR code the phone scans; the device's keys are kept
 * by an {@link AuthStateStore} (the server's, encrypted in the database) so the number stays linked across
 * restarts.
 *
 * Baileys is loaded only when this connector is created (`WHATSAPP_CONNECTOR=baileys`): it is ESM-only and large.
 * Everything else in this file (what a connection update means, which upserted messages are a user's) is pure
 * and tested on its own; the socket wiring is written to Baileys' types (`node_modules/baileys/lib/*.d.ts`).
 */
import type {
  AnyMessageContent,
  AuthenticationState,
  BaileysEventMap,
  BrowsersMap,
  ConnectionState,
  SignalKeyStore,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
  proto,
} from 'baileys';
import type { ContactCard, MediaKind } from '../../shared/media';
import { toErrorMessage } from '../../shared/errors';
import {
  toChatMessage,
  toPlainText,
  type ChatMessage,
  type ChatMessageRead,
  type InboundMedia,
  type WhatsAppMessage,
} from '../../shared/whatsapp';
import type { DeliveryUpdate, SentMessage } from '../../shared/whatsapp-status';
import { readAtMost, readLocation, toContactText, toShownMessage, tooLarge } from './connector-media';
import {
  MediaDownloadError,
  type ConnectorEvents,
  type LinkUpdate,
  type ReadMedia,
  type StartLinkOptions,
  type WhatsAppConnector,
  type WhatsAppMessageType,
} from './whatsapp-connector';

/** Baileys' logger interface (not exported by name from its index). */
type ILogger = NonNullable<UserFacingSocketConfig['logger']>;

/**
 * Where a link's device keys live. `load` gives a new device's keys when there are none (Baileys'
 * `initAuthCreds()`); `saveCreds` writes `state.creds` as it is now (Baileys changes it in place).
 */
export interface AuthStateStore {
  load(linkId: string): Promise<{ state: AuthenticationState; saveCreds(): Promise<void> }>;
  clear(linkId: string): Promise<void>;
}

/** What the connector does after a connection update (see {@link readConnectionUpdate}). */
export type ConnectionNext = 'wait' | 'reconnect' | 'restart' | 'logged_out' | 'stop';

export interface ConnectionStep {
  /** The link's new state to report, if it changed. */
  linkUpdate?: LinkUpdate;
  next: ConnectionNext;
}

export interface ConnectionContext {
  /** Reconnections tried since the connection was last open. */
  attempt: number;
  /** True once the phone has scanned a QR for these credentials (they name an account). */
  isLinked: boolean;
  /** The socket's own account (`sock.user.id`, e.g. `233241234567:12@s.whatsapp.net`), once open. */
  userJid?: string;
}

/** Reconnections tried after losing a linked number's connection before it is reported DISCONNECTED. */
export const MAX_RECONNECT_ATTEMPTS = 5;

/** Baileys' DisconnectReason codes (lib/Types/index.d.ts), by the name Baileys gives them. */
const CLOSED = {
  loggedOut: 401,
  forbidden: 403,
  timedOut: 408,
  multideviceMismatch: 411,
  connectionReplaced: 440,
  restartRequired: 515,
} as const;

/**
 * What a `connection.update` means for the link. An example after a QR scan: `{ qr }` (show it), then a close
 * with 515 restartRequired (a new socket on the same keys, at once), then `{ connection: 'open' }` (CONNECTED).
 * Closes that another attempt cannot fix stop: 401 (the device was logged out on the phone: its keys are
 * dead), 440 (another socket took over these keys: reconnecting would throw it out in turn, forever), 403 and
 * 411; a QR that ran out of refreshes (408 while linking) fails so the console offers a new link. Any other
 * close (408, 428, 500, 503) is retried with back-off, then given up as DISCONNECTED.
 */
export function readConnectionUpdate(update: Partial<ConnectionState>, context: ConnectionContext): ConnectionStep {
  if (typeof update.qr === 'string' && update.qr) return { linkUpdate: { status: 'QR', qrCode: update.qr }, next: 'wait' };
  if (update.connection === 'open') {
    const mobileNumber = readJidDigits(context.userJid ?? '');
    return { linkUpdate: { status: 'CONNECTED', qrCode: null, ...(mobileNumber ? { mobileNumber } : {}) }, next: 'wait' };
  }
  if (update.connection !== 'close') return { next: 'wait' };

  const error = update.lastDisconnect?.error;
  const code = readStatusCode(error);
  const fail = (status: 'FAILED' | 'DISCONNECTED', message: string, next: ConnectionNext = 'stop'): ConnectionStep => ({
    linkUpdate: { status, qrCode: null, message },
    next,
  });
  switch (code) {
    case CLOSED.restartRequired:
      return { next: 'restart' };
    case CLOSED.loggedOut:
      return fail('DISCONNECTED', 'Logged out on the phone', 'logged_out');
    case CLOSED.connectionReplaced:
      return fail('FAILED', 'Another connection took over this linked device (the same number linked twice): link it again');
    case CLOSED.forbidden:
      return fail('FAILED', 'WhatsApp refused this number (forbidden): it may be banned or restricted');
    case CLOSED.multideviceMismatch:
      return fail('FAILED', "WhatsApp no longer accepts this device's keys: link the number again");
  }
  const isQrExhausted = code === CLOSED.timedOut && (!context.isLinked || /QR refs attempts ended/i.test(error?.message ?? ''));
  if (isQrExhausted) return fail('FAILED', 'The QR code expired before it was scanned');
  if (context.attempt >= MAX_RECONNECT_ATTEMPTS) {
    const why = code ? ` (code ${code})` : '';
    return fail('DISCONNECTED', `Lost the connection to WhatsApp${why} and ${MAX_RECONNECT_ATTEMPTS} reconnections failed: reconnect it`);
  }
  return { next: 'reconnect' };
}

/** The HTTP-like status of a Baileys close: `lastDisconnect.error` is a Boom, `output.statusCode` its code. */
function readStatusCode(error: unknown): number | undefined {
  if (!isRecord(error) || !isRecord(error.output)) return undefined;
  const code = error.output.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** A user's part of a jid, digits only: `233241234567:12@s.whatsapp.net` -> `233241234567`. */
function readJidDigits(jid: string): string {
  const user = jid.split('@')[0] ?? '';
  return (user.split(':')[0] ?? '').replace(/\D/g, '');
}

/**
 * A message from one user, with the jid replies go to (a `@lid` jid when WhatsApp hides the number: it works), and,
 * for a file, Baileys' message itself: its keys are what downloads the file, so it is kept for `downloadMedia`.
 */
export interface UpsertedMessage {
  message: ChatMessage;
  replyTo: string;
  file?: WAMessage;
}

/**
 * WhatsApp's acks of a message we sent (proto.WebMessageInfo.Status): 2 the server has it, 3 the phone got it, 4
 * the user read it (5, played, is a voice note's read); 0 is an error. 1 (pending) says nothing new.
 */
const RECEIPT_STATUSES: Record<number, DeliveryUpdate['status']> = { 0: 'failed', 2: 'sent', 3: 'delivered', 4: 'read', 5: 'read' };

/**
 * The delivery statuses in a `messages.update`: updates of our own messages (`key.fromMe`) that carry a status;
 * edits, reactions and other users' messages are left out.
 */
export function readMessagesUpdate(
  updates: BaileysEventMap['messages.update'],
  options: { linkId: string; now: number },
): DeliveryUpdate[] {
  const read: DeliveryUpdate[] = [];
  for (const { key, update } of updates) {
    const status = typeof update.status === 'number' ? RECEIPT_STATUSES[update.status] : undefined;
    if (!key.fromMe || !key.id || !status) continue;
    const found: DeliveryUpdate = { linkId: options.linkId, providerMessageId: key.id, status, at: options.now };
    if (status === 'failed') found.failureReason = 'WhatsApp reported an error sending this message';
    read.push(found);
  }
  return read;
}

/** Messages received while the device was offline come as `append`; those older than this are not answered. */
export const APPEND_MAX_AGE_MS = 5 * 60_000;

/** Chats with one user: a phone-number jid or a LID (7.x), and their "hosted" forms. Not groups, broadcasts, channels. */
const USER_SERVERS = new Set(['s.whatsapp.net', 'lid', 'hosted', 'hosted.lid']);

/**
 * The users' messages in a `messages.upsert`: not our own (echoes of our sends), not groups, status updates,
 * broadcasts or channels, not empty ones (stubs, failed decryptions); `notify` ones, and `append` ones sent in
 * the last five minutes (received while offline; older ones would answer a conversation long over).
 */
export function readMessagesUpsert(
  upsert: BaileysEventMap['messages.upsert'],
  options: { linkId: string; now: number },
): UpsertedMessage[] {
  const read: UpsertedMessage[] = [];
  for (const message of upsert.messages ?? []) {
    const { key } = message;
    const chat = key?.remoteJid ?? '';
    if (!key?.id || key.fromMe || !USER_SERVERS.has(chat.split('@')[1] ?? '')) continue;
    const sentAt = readPositive(message.messageTimestamp);
    if (upsert.type !== 'notify' && (sentAt === undefined || options.now - sentAt * 1000 > APPEND_MAX_AGE_MS)) continue;
    const content = readMessageContent(message.message, key.id);
    if (!content) continue;
    const from = readJidDigits(readSenderJid(key));
    if (!from) continue;
    const sent: ChatMessageRead = { messageId: key.id, from, ...content };
    if (message.pushName) sent.name = message.pushName;
    if (sentAt !== undefined) sent.sentAt = sentAt * 1000;
    const upserted: UpsertedMessage = { message: toChatMessage(options.linkId, sent, options.now), replyTo: chat };
    if (content.media) upserted.file = message;
    read.push(upserted);
  }
  return read;
}

/** The sender's phone-number jid when WhatsApp gives it: a `@lid` chat may carry it in `remoteJidAlt`. */
function readSenderJid(key: WAMessageKey): string {
  const chat = key.remoteJid ?? '';
  const isLid = chat.endsWith('@lid') || chat.endsWith('@hosted.lid');
  return isLid && key.remoteJidAlt ? key.remoteJidAlt : chat;
}

/** `messageTimestamp` (seconds) and `fileLength` (bytes) are numbers or protobuf Longs; 0 and less mean none. */
function readPositive(value: unknown): number | undefined {
  if (typeof value === 'number') return value > 0 ? value : undefined;
  if (isRecord(value) && typeof value.toNumber === 'function') {
    const seconds: unknown = value.toNumber();
    return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
  }
  return undefined;
}

/** Wrappers around the real content (disappearing, view-once, a document with a caption), as Baileys unwraps them. */
const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
] as const;
/** Baileys' file messages, by the kind of file each carries (a round video note, `ptvMessage`, is a video). */
const FILE_KEYS = [
  ['imageMessage', 'image'],
  ['videoMessage', 'video'],
  ['ptvMessage', 'video'],
  ['documentMessage', 'document'],
  ['audioMessage', 'audio'],
] as const satisfies ReadonlyArray<readonly [keyof proto.IMessage, MediaKind]>;

/** What one message carries, before its sender and time are added. */
type BaileysContent = Pick<ChatMessageRead, 'text' | 'kind' | 'media' | 'location' | 'unsupportedReason'>;

/** Content no bot reads, handed over so the user hears so (the server answers it without the bot). */
const UNSUPPORTED_KEYS = {
  stickerMessage: 'a sticker',
  pollCreationMessage: 'a poll',
  pollCreationMessageV2: 'a poll',
  pollCreationMessageV3: 'a poll',
  eventMessage: 'an event',
  productMessage: 'a product',
  orderMessage: 'an order',
  groupInviteMessage: 'a group invitation',
} as const satisfies Partial<Record<keyof proto.IMessage, string>>;

/**
 * What the user typed, picked, or sent: a file (by the message's id, `providerId`, with its caption as text), a
 * place, a contact card as text. Reactions, edits, deletions and key exchanges return null: they are not messages
 * to the bot.
 */
function readMessageContent(message: proto.IMessage | null | undefined, messageId: string): BaileysContent | null {
  let unwrapped = message;
  for (let depth = 0; depth < 5 && unwrapped; depth++) {
    const outer = unwrapped;
    const inner = WRAPPERS.map((wrapper) => outer[wrapper]?.message).find(Boolean);
    if (!inner) break;
    unwrapped = inner;
  }
  const content = unwrapped;
  if (!content) return null;
  const typed = content.conversation ?? content.extendedTextMessage?.text;
  if (typeof typed === 'string') return { kind: 'text', text: typed };
  // Replies to the legacy list and button messages (sent by other tools; Baileys can no longer send them).
  const picked =
    content.listResponseMessage?.singleSelectReply?.selectedRowId ??
    content.buttonsResponseMessage?.selectedButtonId ??
    content.templateButtonReplyMessage?.selectedId;
  if (typeof picked === 'string') return { kind: 'choice', text: picked };
  for (const [key, kind] of FILE_KEYS) {
    const file = content[key];
    if (file) return { kind: 'media', text: readCaption(file), media: readFile(file, kind, messageId) };
  }
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place) return readLocation(place.degreesLatitude, place.degreesLongitude, readName(place), readAddress(place));
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length > 0) return { kind: 'text', text: toContactText(cards.map(readVcard)) };
  const reason = Object.entries(UNSUPPORTED_KEYS).find(([key]) => content[key as keyof typeof UNSUPPORTED_KEYS])?.[1];
  return reason ? { kind: 'unsupported', text: '', unsupportedReason: reason } : null;
}

type BaileysFile = proto.Message.IImageMessage & proto.Message.IVideoMessage & proto.Message.IDocumentMessage & proto.Message.IAudioMessage;

function readCaption(file: proto.Message.IImageMessage | proto.Message.IDocumentMessage | proto.Message.IAudioMessage): string {
  return 'caption' in file && typeof file.caption === 'string' ? file.caption.trim() : '';
}

function readFile(file: Partial<BaileysFile>, kind: MediaKind, messageId: string): InboundMedia {
  const media: InboundMedia = { kind, mimeType: file.mimetype ?? '', providerId: messageId };
  if (file.fileName) media.fileName = file.fileName;
  const size = readPositive(file.fileLength);
  if (size !== undefined) media.size = size;
  if (kind === 'audio' && file.ptt) media.voice = true;
  return media;
}

const readName = (place: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage) => ('name' in place ? place.name : undefined);
const readAddress = (place: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage) =>
  'address' in place ? place.address : undefined;

/**
 * A shared contact's card: its display name (or the vCard's `FN`) and the numbers of its `TEL` lines, e.g.
 * `TEL;type=CELL;waid=233241234567:+233 24 123 4567` -> `+233 24 123 4567`.
 */
function readVcard(contact: proto.Message.IContactMessage): ContactCard {
  const lines = (contact.vcard ?? '').split(/\r?\n/);
  const readValue = (line: string) => line.slice(line.indexOf(':') + 1).trim();
  const fullName = lines.find((line) => /^FN[;:]/i.test(line));
  const name = contact.displayName?.trim() || (fullName ? readValue(fullName) : '');
  const phones = lines
    .filter((line) => /^(item\d+\.)?TEL[;:]/i.test(line))
    .map(readValue)
    .filter(Boolean);
  return { name, phones };
}

/** The part of a Baileys socket this connector uses (lib/Socket/socket.d.ts). */
export interface BaileysSocket {
  ev: { on<E extends keyof BaileysEventMap>(event: E, listener: (arg: BaileysEventMap[E]) => void): void };
  user?: { id: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent): Promise<{ key: WAMessageKey; message?: proto.IMessage | null } | undefined>;
  /** Asks the sender's phone to upload a file again whose link WhatsApp's servers no longer answer (404, 410). */
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): Promise<void> | void;
}

/** The part of the `baileys` module this connector uses; tests give a stand-in. */
export interface BaileysModule {
  makeWASocket(config: UserFacingSocketConfig): BaileysSocket;
  downloadMediaMessage: typeof import('baileys').downloadMediaMessage;
  makeCacheableSignalKeyStore(store: SignalKeyStore, logger?: ILogger): SignalKeyStore;
  Browsers: BrowsersMap;
}

/** A pino-like logger (the server's). */
export interface ConnectorLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface BaileysConnectorOptions {
  authStore: AuthStateStore;
  events: ConnectorEvents;
  log: ConnectorLog;
  /** The bytes of a file a `media` message sends. */
  readMedia: ReadMedia;
  /** The clock that decides which offline (`append`) messages are recent. */
  now?: () => number;
  loadBaileys?: () => Promise<BaileysModule>;
  /** Runs a reconnection later; tests run it when they choose. */
  schedule?: (run: () => void, delayMs: number) => { cancel(): void };
}

/** The wait before reconnection `attempt` (0-based): 2 s, 4 s, 8 s, ... at most a minute. */
export function toReconnectDelay(attempt: number): number {
  return Math.min(2_000 * 2 ** attempt, 60_000);
}

/** Sent messages kept per link for Baileys' `getMessage`, which a recipient's device asks for to retry decryption. */
const SENT_MESSAGES_KEPT = 500;
/** Reply addresses kept per link (user digits -> jid); the oldest are forgotten first. */
const REPLY_ADDRESSES_KEPT = 100_000;
/**
 * Users' file messages kept per link for `downloadMedia` (the server fetches a file as its message is answered):
 * at most this many, for at most this long; after that a download is `gone`.
 */
export const FILES_KEPT = { count: 500, ms: 60 * 60_000 };

/** What a linked device shows as it is; lists, buttons, link buttons and location requests go as their text. */
const BAILEYS_NATIVE_TYPES: ReadonlySet<WhatsAppMessageType> = new Set(['text', 'media', 'location', 'contact']);

interface LinkState {
  auth: { state: AuthenticationState; saveCreds(): Promise<void> };
  keys: SignalKeyStore;
  sock: BaileysSocket | null;
  isOpen: boolean;
  attempt: number;
  timer: { cancel(): void } | null;
  /** Connection handling and credential saves, in the order Baileys emitted them. */
  work: Promise<void>;
  /** Inbound messages, one at a time: a user's messages reach the bot in order. */
  inbox: Promise<void>;
  replyTo: Map<string, string>;
  sent: Map<string, proto.IMessage>;
  /** Users' file messages by id (`providerId`), with when they came. */
  files: Map<string, { message: WAMessage; at: number }>;
  /** Set when the link's keys are deleted (logged out, unlinked): a late save must not bring them back. */
  isCleared: boolean;
}

/** Keeps a map within `limit` entries, forgetting the oldest first (a Map iterates in insertion order). */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) {
    const [oldest] = map.keys();
    if (oldest !== undefined) map.delete(oldest);
  }
}

async function loadInstalledBaileys(): Promise<BaileysModule> {
  const baileys = await import('baileys');
  return {
    makeWASocket: baileys.makeWASocket,
    downloadMediaMessage: baileys.downloadMediaMessage,
    makeCacheableSignalKeyStore: baileys.makeCacheableSignalKeyStore,
    Browsers: baileys.Browsers,
  };
}

/**
 * Baileys' logger, quiet below warnings (it logs every frame at debug and trace), writing into ours with the
 * link's id.
 */
function toBaileysLogger(log: ConnectorLog, bindings: Record<string, unknown>): ILogger {
  const write = (level: 'warn' | 'error') => (obj: unknown, msg?: string) =>
    log[level]({ ...bindings, ...(isRecord(obj) ? obj : { detail: obj }) }, msg);
  return {
    level: 'warn',
    child: (more: Record<string, unknown>) => toBaileysLogger(log, { ...bindings, ...more }),
    trace() {},
    debug() {},
    info() {},
    warn: write('warn'),
    error: write('error'),
  };
}

export function createBaileysConnector(options: BaileysConnectorOptions): WhatsAppConnector {
  const { authStore, events, log } = options;
  const now = options.now ?? Date.now;
  const schedule =
    options.schedule ??
    ((run: () => void, delayMs: number) => {
      const timer = setTimeout(run, delayMs);
      timer.unref();
      return { cancel: () => clearTimeout(timer) };
    });
  let baileys: Promise<BaileysModule> | undefined;
  const getBaileys = () => {
    baileys ??= (options.loadBaileys ?? loadInstalledBaileys)();
    return baileys;
  };
  const links = new Map<string, LinkState>();
  /** startLink and unlink of one link, one at a time: two sockets on one set of keys throw each other out. */
  const locks = new Map<string, Promise<void>>();

  function withLinkLock(linkId: string, run: () => Promise<void>): Promise<void> {
    const previous = locks.get(linkId) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => {});
    locks.set(linkId, settled);
    void settled.then(() => {
      if (locks.get(linkId) === settled) locks.delete(linkId);
    });
    return next;
  }

  async function report(linkId: string, update: LinkUpdate): Promise<void> {
    try {
      await events.onLinkUpdate(linkId, update);
    } catch (err) {
      log.error({ linkId, err }, 'WhatsApp link update not stored');
    }
  }

  const isCurrent = (linkId: string, link: LinkState, sock: BaileysSocket) => links.get(linkId) === link && link.sock === sock;

  async function openSocket(linkId: string, link: LinkState): Promise<void> {
    const { makeWASocket, Browsers } = await getBaileys();
    if (links.get(linkId) !== link) return;
    const sock = makeWASocket({
      auth: { creds: link.auth.state.creds, keys: link.keys },
      logger: toBaileysLogger(log, { linkId, module: 'baileys' }),
      // Shown on the phone's list of linked devices.
      browser: Browsers.ubuntu('Dialflow'),
      // Online on connect would stop the phone's notifications for every chat while the bot runs.
      markOnlineOnConnect: false,
      getMessage: async (key) => (key.id ? link.sent.get(key.id) : undefined),
    });
    link.sock = sock;
    link.isOpen = false;

    // Baileys has already merged the change into `creds` (its own listener runs first): we store them whole.
    // Saved even from a socket that is being replaced or closed: a lost key write unlinks the device.
    sock.ev.on('creds.update', () => {
      link.work = link.work
        .then(() => (link.isCleared ? undefined : link.auth.saveCreds()))
        .catch((err) => log.error({ linkId, err }, 'WhatsApp credentials not saved'));
    });
    sock.ev.on('connection.update', (update) => {
      if (!isCurrent(linkId, link, sock)) return;
      link.work = link.work
        .then(() => handleConnection(linkId, link, sock, update))
        .catch((err) => log.error({ linkId, err }, 'WhatsApp connection update not handled'));
    });
    sock.ev.on('messages.upsert', (upsert) => {
      if (!isCurrent(linkId, link, sock)) return;
      for (const { message, replyTo, file } of readMessagesUpsert(upsert, { linkId, now: now() })) {
        setBounded(link.replyTo, message.from, replyTo, REPLY_ADDRESSES_KEPT);
        if (file) setBounded(link.files, message.messageId, { message: file, at: now() }, FILES_KEPT.count);
        link.inbox = link.inbox
          .then(() => events.onMessage(message))
          .catch((err) => log.error({ linkId, messageId: message.messageId, err }, 'WhatsApp message not handled'));
      }
    });
    sock.ev.on('messages.update', (updates) => {
      if (!isCurrent(linkId, link, sock) || !events.onStatus) return;
      for (const update of readMessagesUpdate(updates, { linkId, now: now() }))
        void events.onStatus(update).catch((err) => log.error({ linkId, err }, 'WhatsApp delivery status not handled'));
    });
  }

  async function handleConnection(linkId: string, link: LinkState, sock: BaileysSocket, update: Partial<ConnectionState>) {
    if (!isCurrent(linkId, link, sock)) return;
    const step = readConnectionUpdate(update, {
      attempt: link.attempt,
      isLinked: Boolean(link.auth.state.creds.me),
      userJid: sock.user?.id,
    });
    if (update.connection === 'open') {
      link.isOpen = true;
      link.attempt = 0;
    } else if (update.connection === 'close') {
      link.isOpen = false;
    }
    if (step.next === 'logged_out' || step.next === 'stop') {
      links.delete(linkId);
      link.sock = null;
      // Keys the phone has logged out loop on every reconnect: they are deleted, the link must scan again.
      if (step.next === 'logged_out') {
        link.isCleared = true;
        await authStore.clear(linkId);
      }
    }
    if (step.linkUpdate) await report(linkId, step.linkUpdate);
    if (step.next === 'restart') {
      // After a scan WhatsApp closes the first socket (515): the next one, on the same keys, is the linked device.
      await openSocket(linkId, link);
    } else if (step.next === 'reconnect') {
      const delayMs = toReconnectDelay(link.attempt);
      link.attempt += 1;
      log.warn(
        { linkId, attempt: link.attempt, delayMs, reason: update.lastDisconnect?.error?.message },
        'WhatsApp connection lost; reconnecting',
      );
      link.timer = schedule(() => {
        link.timer = null;
        if (links.get(linkId) !== link) return;
        openSocket(linkId, link).catch((err) => log.error({ linkId, err }, 'WhatsApp reconnection failed'));
      }, delayMs);
    }
  }

  /** Forgets a link, so that nothing its socket still emits is handled (the close it gets, a late reconnect). */
  function forgetLink(linkId: string): { link?: LinkState; sock: BaileysSocket | null; wasOpen: boolean } {
    const link = links.get(linkId);
    if (!link) return { sock: null, wasOpen: false };
    links.delete(linkId);
    link.timer?.cancel();
    const forgotten = { link, sock: link.sock, wasOpen: link.isOpen };
    link.sock = null;
    link.isOpen = false;
    return forgotten;
  }

  /** Ends a socket here without logging the device out: it stays linked on the phone. */
  async function endSocket(linkId: string, sock: BaileysSocket | null): Promise<void> {
    if (!sock) return;
    await Promise.resolve(sock.end(undefined)).catch((err) => log.warn({ linkId, err }, 'WhatsApp socket did not end cleanly'));
  }

  /**
   * A user's file, from the message kept when it came: Baileys downloads and decrypts it from WhatsApp's servers.
   * When they no longer have it (404, 410) the sender's phone is asked once to upload it again (Baileys'
   * `updateMediaMessage`), and the renewed message is kept. The size the message gives is checked before anything
   * is downloaded.
   */
  async function downloadMedia(linkId: string, media: InboundMedia, maxBytes: number): Promise<Uint8Array> {
    const what = `The ${media.kind} of message ${media.providerId}`;
    const link = links.get(linkId);
    const kept = link?.files.get(media.providerId);
    if (!link || !kept || now() - kept.at > FILES_KEPT.ms) {
      throw new MediaDownloadError('gone', `${what} is no longer kept (files are kept ${FILES_KEPT.ms / 60_000} minutes)`);
    }
    if ((media.size ?? 0) > maxBytes) throw tooLarge(what, maxBytes);
    const { downloadMediaMessage } = await getBaileys();
    const download = async (message: WAMessage) => readAtMost(await downloadMediaMessage(message, 'stream', {}), maxBytes, what);
    try {
      try {
        return await download(kept.message);
      } catch (err) {
        if (!isGoneStatus(err) || !link.sock) throw err;
        kept.message = await link.sock.updateMediaMessage(kept.message);
        return await download(kept.message);
      }
    } catch (err) {
      if (err instanceof MediaDownloadError) throw err;
      const reason = isGoneStatus(err) ? 'gone' : 'failed';
      throw new MediaDownloadError(reason, `${what} could not be downloaded: ${toErrorMessage(err)}`);
    }
  }

  return {
    name: 'baileys',
    supportsInteractive: false,
    nativeTypes: BAILEYS_NATIVE_TYPES,
    downloadMedia,
    startLink: (linkId, { resume }: StartLinkOptions) =>
      withLinkLock(linkId, async () => {
        await endSocket(linkId, forgetLink(linkId).sock);
        const { makeCacheableSignalKeyStore } = await getBaileys();
        let auth: LinkState['auth'];
        try {
          // A new link starts from new keys (a new QR); only a resumed one uses what is stored.
          if (!resume) await authStore.clear(linkId);
          auth = await authStore.load(linkId);
        } catch (err) {
          await report(linkId, { status: 'FAILED', qrCode: null, message: toErrorMessage(err) });
          return;
        }
        if (resume && !auth.state.creds.me) {
          await report(linkId, { status: 'DISCONNECTED', qrCode: null, message: 'No stored credentials for this number: link it again' });
          return;
        }
        const link: LinkState = {
          auth,
          keys: makeCacheableSignalKeyStore(auth.state.keys, toBaileysLogger(log, { linkId, module: 'baileys-keys' })),
          sock: null,
          isOpen: false,
          attempt: 0,
          timer: null,
          work: Promise.resolve(),
          inbox: Promise.resolve(),
          replyTo: new Map(),
          sent: new Map(),
          files: new Map(),
          isCleared: false,
        };
        links.set(linkId, link);
        await openSocket(linkId, link);
      }),
    unlink: (linkId) =>
      withLinkLock(linkId, async () => {
        // Forgotten first, so the close that logging out causes is not taken for a lost connection.
        const link = links.get(linkId);
        if (link) link.isCleared = true;
        const { sock, wasOpen } = forgetLink(linkId);
        if (sock && wasOpen) {
          try {
            await sock.logout();
          } catch (err) {
            log.warn({ linkId, err }, 'WhatsApp logout failed; the device may still be listed on the phone');
          }
        }
        await endSocket(linkId, sock);
        await authStore.clear(linkId);
      }),
    async send({ linkId, to, messages }) {
      const ids: SentMessage[] = [];
      for (const message of messages) {
        const link = links.get(linkId);
        if (!link?.sock || !link.isOpen) throw new Error(`WhatsApp link ${linkId} is not connected`);
        const jid = link.replyTo.get(to) ?? `${to.replace(/\D/g, '')}@s.whatsapp.net`;
        const sent = await link.sock.sendMessage(
          jid,
          await toBaileysContent(toShownMessage(message, BAILEYS_NATIVE_TYPES), options.readMedia),
        );
        if (sent?.key.id && sent.message) setBounded(link.sent, sent.key.id, sent.message, SENT_MESSAGES_KEPT);
        if (sent?.key.id) ids.push({ providerMessageId: sent.key.id, message });
      }
      return ids;
    },
    async close() {
      await Promise.all(
        [...links.keys()].map(async (linkId) => {
          const { link, sock } = forgetLink(linkId);
          await endSocket(linkId, sock);
          // Credential saves still queued (some emitted by the ending itself) finish before the database closes.
          await link?.work;
        }),
      );
    },
  };
}

/**
 * A message as Baileys sends it: a file's bytes with its type (`{ image, caption }`, `{ document, mimetype,
 * fileName }`, `{ audio, ptt }` for an Ogg voice note, `{ video }`), a place, a contact card as a vCard, else text.
 * @example toBaileysContent({ type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Shop' } }, readMedia)
 *   -> { location: { degreesLatitude: 5.6, degreesLongitude: -0.2, name: 'Shop' } }
 */
export async function toBaileysContent(message: WhatsAppMessage, readMedia: ReadMedia): Promise<AnyMessageContent> {
  if (message.type === 'location') {
    const { latitude, longitude, name, address } = message.location;
    return {
      location: { degreesLatitude: latitude, degreesLongitude: longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
    };
  }
  if (message.type === 'contact') {
    const { name } = message.contact;
    return { contacts: { displayName: name, contacts: [{ displayName: name, vcard: toVcard(message.contact) }] } };
  }
  if (message.type !== 'media') return { text: toPlainText(message) };
  const { kind, caption } = message.media;
  const file = await readMedia(message.media);
  const bytes = Buffer.from(file.bytes);
  const captioned = caption ? { caption } : {};
  switch (kind) {
    case 'image':
      return { image: bytes, mimetype: file.mimeType, ...captioned };
    case 'video':
      return { video: bytes, mimetype: file.mimeType, ...captioned };
    case 'audio':
      // WhatsApp plays Ogg Opus as a voice note; other audio as a file to play. An audio message has no caption.
      return { audio: bytes, mimetype: file.mimeType, ptt: file.mimeType.startsWith('audio/ogg') };
    case 'document':
      return { document: bytes, mimetype: file.mimeType, fileName: file.fileName ?? message.media.fileName ?? 'document', ...captioned };
  }
}

/** A contact card as the vCard WhatsApp reads: its name, and each number with its WhatsApp id (`waid`) so it opens a chat. */
export function toVcard({ name, phones }: ContactCard): string {
  const escaped = name.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
  const tels = phones.map((phone) => `TEL;type=CELL;waid=${phone.replace(/\D/g, '')}:${phone}`);
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${escaped}`, ...tels, 'END:VCARD'].join('\n');
}

/**
 * True when WhatsApp's media servers no longer have a file: Baileys' download fails with the HTTP status as `status`
 * (a fetch) or `output.statusCode` (a Boom), 404 or 410.
 */
function isGoneStatus(error: unknown): boolean {
  if (!isRecord(error)) return false;
  const status = typeof error.status === 'number' ? error.status : readStatusCode(error);
  return status === 404 || status === 410;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
