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
  AuthenticationState,
  BaileysEventMap,
  BrowsersMap,
  ConnectionState,
  SignalKeyStore,
  UserFacingSocketConfig,
  WAMessageKey,
  proto,
} from 'baileys';
import { toErrorMessage } from '../../shared/errors';
import { toChatMessage, toPlainText, type ChatMessage, type ChatMessageRead } from '../../shared/whatsapp';
import type { DeliveryUpdate, SentMessage } from '../../shared/whatsapp-status';
import type { ConnectorEvents, LinkUpdate, StartLinkOptions, WhatsAppConnector } from './whatsapp-connector';

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

/** A message from one user, with the jid replies go to (a `@lid` jid when WhatsApp hides the number: it works). */
export interface UpsertedMessage {
  message: ChatMessage;
  replyTo: string;
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
    const sentAt = readSeconds(message.messageTimestamp);
    if (upsert.type !== 'notify' && (sentAt === undefined || options.now - sentAt * 1000 > APPEND_MAX_AGE_MS)) continue;
    const content = readMessageContent(message.message);
    if (!content) continue;
    const from = readJidDigits(readSenderJid(key));
    if (!from) continue;
    const sent: ChatMessageRead = { messageId: key.id, from, ...content };
    if (message.pushName) sent.name = message.pushName;
    if (sentAt !== undefined) sent.sentAt = sentAt * 1000;
    read.push({ message: toChatMessage(options.linkId, sent, options.now), replyTo: chat });
  }
  return read;
}

/** The sender's phone-number jid when WhatsApp gives it: a `@lid` chat may carry it in `remoteJidAlt`. */
function readSenderJid(key: WAMessageKey): string {
  const chat = key.remoteJid ?? '';
  const isLid = chat.endsWith('@lid') || chat.endsWith('@hosted.lid');
  return isLid && key.remoteJidAlt ? key.remoteJidAlt : chat;
}

/** `messageTimestamp` is seconds, a number or a protobuf Long. */
function readSeconds(value: unknown): number | undefined {
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
/** Media and other content with nothing typed: the bot asks for text. */
const MEDIA_KEYS = [
  'imageMessage',
  'videoMessage',
  'ptvMessage',
  'documentMessage',
  'audioMessage',
  'stickerMessage',
  'locationMessage',
  'liveLocationMessage',
  'contactMessage',
  'contactsArrayMessage',
] as const;

/**
 * What the user typed or picked. Reactions, edits, deletions, polls and key exchanges return null: they are not
 * messages to the bot.
 */
function readMessageContent(message: proto.IMessage | null | undefined): Pick<ChatMessage, 'text' | 'kind'> | null {
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
  const caption = (content.imageMessage?.caption ?? content.videoMessage?.caption ?? content.documentMessage?.caption)?.trim();
  if (caption) return { kind: 'text', text: caption };
  return MEDIA_KEYS.some((k) => content[k]) ? { kind: 'media', text: '' } : null;
}

/** The part of a Baileys socket this connector uses (lib/Socket/socket.d.ts). */
export interface BaileysSocket {
  ev: { on<E extends keyof BaileysEventMap>(event: E, listener: (arg: BaileysEventMap[E]) => void): void };
  user?: { id: string } | undefined;
  sendMessage(jid: string, content: { text: string }): Promise<{ key: WAMessageKey; message?: proto.IMessage | null } | undefined>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): Promise<void> | void;
}

/** The part of the `baileys` module this connector uses; tests give a stand-in. */
export interface BaileysModule {
  makeWASocket(config: UserFacingSocketConfig): BaileysSocket;
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
      for (const { message, replyTo } of readMessagesUpsert(upsert, { linkId, now: now() })) {
        setBounded(link.replyTo, message.from, replyTo, REPLY_ADDRESSES_KEPT);
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

  return {
    name: 'baileys',
    supportsInteractive: false,
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
        const sent = await link.sock.sendMessage(jid, { text: toPlainText(message) });
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
