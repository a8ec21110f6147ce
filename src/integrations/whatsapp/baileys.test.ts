import {
  Browsers,
  downloadMediaMessage,
  encryptedStream,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  type AuthenticationCreds,
  type SignalKeyStore,
  type WAMessage,
} from 'baileys';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../shared/whatsapp';
import type { DeliveryUpdate } from '../../shared/whatsapp-status';
import { chatReply } from './test-replies';
import { BaileysStandInSocket as FakeSocket, closedWith } from '../../../tests/support/baileys-stand-in';
import {
  APPEND_MAX_AGE_MS,
  FILES_KEPT,
  MAX_RECONNECT_ATTEMPTS,
  createBaileysConnector,
  readConnectionUpdate,
  readMessagesUpsert,
  type AuthStateStore,
  type ConnectorLog,
} from './baileys';
import { MediaDownloadError, type LinkUpdate, type MediaFile } from './whatsapp-connector';

describe('readConnectionUpdate', () => {
  const linked = { attempt: 0, isLinked: true };
  const linking = { attempt: 0, isLinked: false };

  it('shows a QR, and reports the number CONNECTED from the socket’s own jid when open', () => {
    expect(readConnectionUpdate({ qr: '2@abc,def,ghi' }, linking)).toEqual({
      linkUpdate: { status: 'QR', qrCode: '2@abc,def,ghi' },
      next: 'wait',
    });
    expect(readConnectionUpdate({ connection: 'open' }, { ...linked, userJid: '233241234567:12@s.whatsapp.net' })).toEqual({
      linkUpdate: { status: 'CONNECTED', qrCode: null, mobileNumber: '233241234567' },
      next: 'wait',
    });
    expect(readConnectionUpdate({ connection: 'connecting', qr: undefined }, linking)).toEqual({ next: 'wait' });
    expect(readConnectionUpdate({ isNewLogin: true, qr: undefined }, linking)).toEqual({ next: 'wait' });
    expect(readConnectionUpdate({ receivedPendingNotifications: true }, linked)).toEqual({ next: 'wait' });
  });

  it('restarts at once after a scan (515), whether linking or linked', () => {
    expect(readConnectionUpdate(closedWith(515, 'Stream Errored (restart required)'), linking)).toEqual({ next: 'restart' });
    expect(readConnectionUpdate(closedWith(515), { ...linked, attempt: MAX_RECONNECT_ATTEMPTS })).toEqual({ next: 'restart' });
  });

  it('stops for good on a logout (401), a takeover (440), a refusal (403) and a device mismatch (411)', () => {
    expect(readConnectionUpdate(closedWith(401, 'Intentional Logout'), linked)).toEqual({
      linkUpdate: { status: 'DISCONNECTED', qrCode: null, message: 'Logged out on the phone' },
      next: 'logged_out',
    });
    for (const code of [440, 403, 411]) {
      const step = readConnectionUpdate(closedWith(code), linked);
      expect(step.next).toBe('stop');
      expect(step.linkUpdate).toMatchObject({ status: 'FAILED', qrCode: null, message: expect.any(String) });
    }
    expect(readConnectionUpdate(closedWith(440), linked).linkUpdate?.message).toMatch(/took over/);
  });

  it('fails a QR that ran out of refreshes, so the console offers a new link', () => {
    const expired = { linkUpdate: { status: 'FAILED', qrCode: null, message: 'The QR code expired before it was scanned' }, next: 'stop' };
    expect(readConnectionUpdate(closedWith(408, 'QR refs attempts ended'), linking)).toEqual(expired);
    expect(readConnectionUpdate(closedWith(408), linking)).toEqual(expired);
  });

  it('reconnects a lost connection with back-off, then gives up as DISCONNECTED', () => {
    for (const code of [408, 428, 500, 503, undefined]) {
      expect(readConnectionUpdate(closedWith(code), { ...linked, attempt: 2 })).toEqual({ next: 'reconnect' });
    }
    expect(readConnectionUpdate(closedWith(428, 'Connection Closed'), { ...linking, attempt: 1 })).toEqual({ next: 'reconnect' });
    const gaveUp = readConnectionUpdate(closedWith(503), { ...linked, attempt: MAX_RECONNECT_ATTEMPTS });
    expect(gaveUp).toEqual({
      linkUpdate: { status: 'DISCONNECTED', qrCode: null, message: expect.stringMatching(/^Lost the connection to WhatsApp \(code 503\)/) },
      next: 'stop',
    });
  });

  it('reads the code defensively: a plain error or none at all is a lost connection', () => {
    expect(readConnectionUpdate({ connection: 'close' }, linked)).toEqual({ next: 'reconnect' });
    expect(readConnectionUpdate({ connection: 'close', lastDisconnect: { error: undefined, date: new Date(0) } }, linked)).toEqual({
      next: 'reconnect',
    });
    const odd = Object.assign(new Error('odd'), { output: { statusCode: '401' } });
    expect(readConnectionUpdate({ connection: 'close', lastDisconnect: { error: odd, date: new Date(0) } }, linked)).toEqual({
      next: 'reconnect',
    });
  });
});

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A message as `messages.upsert` carries it (WAMessage: key, message, messageTimestamp in seconds, pushName). */
function waMessage(id: string, message: WAMessage['message'], key: Partial<WAMessage['key']> = {}, sentAt = NOW): WAMessage {
  return {
    key: { remoteJid: '233241234567@s.whatsapp.net', fromMe: false, id, ...key },
    message,
    messageTimestamp: seconds(sentAt),
    pushName: 'Ama',
  };
}

describe('readMessagesUpsert', () => {
  const read = (messages: WAMessage[], type: 'notify' | 'append' = 'notify') =>
    readMessagesUpsert({ messages, type }, { linkId: 'link-1', now: NOW });

  it('reads typed text, with the sender, name, time and reply address, addressed to its link and conversation', () => {
    const addressed = { linkId: 'link-1', conversation: 'link-1:233241234567', receivedAt: NOW };
    expect(read([waMessage('A1', { conversation: 'Hi' }), waMessage('A2', { extendedTextMessage: { text: '2' } })])).toEqual([
      {
        message: {
          ...addressed,
          messageId: 'A1',
          from: '233241234567',
          name: 'Ama',
          text: 'Hi',
          kind: 'text',
          sentAt: seconds(NOW) * 1000,
        },
        replyTo: '233241234567@s.whatsapp.net',
      },
      {
        message: { ...addressed, messageId: 'A2', from: '233241234567', name: 'Ama', text: '2', kind: 'text', sentAt: seconds(NOW) * 1000 },
        replyTo: '233241234567@s.whatsapp.net',
      },
    ]);
  });

  it('takes the phone number from remoteJidAlt when the chat is a LID, and replies to the LID', () => {
    const lid = { remoteJid: '123456789012345@lid', remoteJidAlt: '233241234567@s.whatsapp.net' };
    expect(read([waMessage('L1', { conversation: 'Hi' }, lid)])).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ from: '233241234567' }), replyTo: '123456789012345@lid' }),
    ]);
    // Without it the number is hidden: the LID's digits stand for the user, and replies still reach them.
    expect(read([waMessage('L2', { conversation: 'Hi' }, { remoteJid: '123456789012345@lid' })])).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ from: '123456789012345' }), replyTo: '123456789012345@lid' }),
    ]);
  });

  it('reads legacy list and button replies as choices', () => {
    const picked = read([
      waMessage('C1', { listResponseMessage: { title: 'Balance', singleSelectReply: { selectedRowId: '2' } } }),
      waMessage('C2', { buttonsResponseMessage: { selectedButtonId: '1', selectedDisplayText: 'Yes' } }),
      waMessage('C3', { templateButtonReplyMessage: { selectedId: '3', selectedDisplayText: 'Later' } }),
    ]);
    expect(picked.map(({ message }) => [message.kind, message.text])).toEqual([
      ['choice', '2'],
      ['choice', '1'],
      ['choice', '3'],
    ]);
  });

  it('reads files with their type, size, name and caption (as text), kept by message id; unwraps disappearing and view-once messages', () => {
    const media = read([
      waMessage('M1', { imageMessage: { caption: ' 1 ', mimetype: 'image/jpeg', fileLength: 2048 } }),
      waMessage('M2', { imageMessage: { mimetype: 'image/png' } }),
      waMessage('M3', { audioMessage: { ptt: true, seconds: 3, mimetype: 'audio/ogg; codecs=opus' } }),
      waMessage('M4', {
        documentWithCaptionMessage: {
          message: { documentMessage: { caption: 'invoice', fileName: 'a.pdf', mimetype: 'application/pdf' } },
        },
      }),
      waMessage('M7', { ephemeralMessage: { message: { extendedTextMessage: { text: 'hidden' } } } }),
      waMessage('M8', { viewOnceMessageV2: { message: { videoMessage: { mimetype: 'video/mp4' } } } }),
      waMessage('M9', { audioMessage: { mimetype: 'audio/mpeg' } }),
    ]);
    expect(media.map(({ message }) => [message.messageId, message.kind, message.text, message.media])).toEqual([
      ['M1', 'media', '1', { kind: 'image', mimeType: 'image/jpeg', providerId: 'M1', size: 2048 }],
      ['M2', 'media', '', { kind: 'image', mimeType: 'image/png', providerId: 'M2' }],
      ['M3', 'media', '', { kind: 'audio', mimeType: 'audio/ogg; codecs=opus', providerId: 'M3', voice: true }],
      ['M4', 'media', 'invoice', { kind: 'document', mimeType: 'application/pdf', providerId: 'M4', fileName: 'a.pdf' }],
      ['M7', 'text', 'hidden', undefined],
      ['M8', 'media', '', { kind: 'video', mimeType: 'video/mp4', providerId: 'M8' }],
      ['M9', 'media', '', { kind: 'audio', mimeType: 'audio/mpeg', providerId: 'M9' }],
    ]);
    // The message itself is kept with each file (its keys download it); nothing is kept for text.
    expect(media.map(({ file }) => file?.key.id)).toEqual(['M1', 'M2', 'M3', 'M4', undefined, 'M8', 'M9']);
  });

  it('reads places, contact cards as text, and what no bot reads as unsupported, saying what it was', () => {
    const vcard = (name: string, ...tels: string[]) => ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, ...tels, 'END:VCARD'].join('\n');
    const read1 = read([
      waMessage('L1', {
        locationMessage: { degreesLatitude: 5.6037, degreesLongitude: -0.187, name: 'Accra Mall', address: 'Spintex Rd' },
      }),
      waMessage('L2', { liveLocationMessage: { degreesLatitude: -33.9, degreesLongitude: 18.4 } }),
      waMessage('L3', { locationMessage: { degreesLatitude: 123, degreesLongitude: 0 } }),
      waMessage('C1', {
        contactMessage: { displayName: 'Kofi', vcard: vcard('Kofi Mensah', 'TEL;type=CELL;type=VOICE;waid=233201112222:+233 20 111 2222') },
      }),
      waMessage('C2', {
        contactsArrayMessage: {
          displayName: '2 contacts',
          contacts: [
            { vcard: vcard('Esi', 'item1.TEL;waid=233244445555:+233 24 444 5555', 'item1.X-ABLabel:Mobile') },
            { displayName: 'Yaw', vcard: vcard('Yaw') },
          ],
        },
      }),
      waMessage('S1', { stickerMessage: { mimetype: 'image/webp' } }),
      waMessage('P1', { pollCreationMessageV3: { name: 'Lunch?', options: [{ optionName: 'Yes' }] } }),
    ]);
    expect(
      read1.map(({ message }) => [message.messageId, message.kind, message.text, message.location ?? message.unsupportedReason]),
    ).toEqual([
      ['L1', 'location', '', { latitude: 5.6037, longitude: -0.187, name: 'Accra Mall', address: 'Spintex Rd' }],
      ['L2', 'location', '', { latitude: -33.9, longitude: 18.4 }],
      ['L3', 'unsupported', '', 'a location off the globe (latitude 123, longitude 0)'],
      ['C1', 'text', 'Kofi\n+233 20 111 2222', undefined],
      ['C2', 'text', 'Esi\n+233 24 444 5555\n\nYaw', undefined],
      ['S1', 'unsupported', '', 'a sticker'],
      ['P1', 'unsupported', '', 'a poll'],
    ]);
  });

  it('skips our own messages, groups, status, broadcasts, channels, empty messages, reactions and edits', () => {
    expect(
      read([
        waMessage('S1', { conversation: 'echo' }, { fromMe: true }),
        waMessage('S2', { conversation: 'group' }, { remoteJid: '120363000000000000@g.us', participant: '233241234567@s.whatsapp.net' }),
        waMessage('S3', { conversation: 'story' }, { remoteJid: 'status@broadcast' }),
        waMessage('S4', { conversation: 'list' }, { remoteJid: '1700000000@broadcast' }),
        waMessage('S5', { conversation: 'news' }, { remoteJid: '120363000000000000@newsletter' }),
        waMessage('S6', null),
        waMessage('S7', { reactionMessage: { text: '👍', key: { id: 'OUT1' } } }),
        waMessage('S8', { protocolMessage: { type: 14, editedMessage: { conversation: 'edited' } } }),
        waMessage('S9', { senderKeyDistributionMessage: { groupId: 'x' } }),
        waMessage('', { conversation: 'no id' }),
      ]),
    ).toEqual([]);
  });

  it('answers offline (append) messages only when they are recent', () => {
    const recent = waMessage('R1', { conversation: 'recent' }, {}, NOW - APPEND_MAX_AGE_MS + 1000);
    const old = waMessage('R2', { conversation: 'old' }, {}, NOW - APPEND_MAX_AGE_MS - 1000);
    const undated = { ...waMessage('R3', { conversation: 'undated' }), messageTimestamp: null };
    expect(read([recent, old, undated], 'append').map(({ message }) => message.messageId)).toEqual(['R1']);
    expect(read([old, undated], 'notify').map(({ message }) => message.messageId)).toEqual(['R2', 'R3']);
  });
});

/** The server's store, in memory: credentials saved as copies, as a database would hold them. */
function createMemoryAuthStore() {
  const saved = new Map<string, AuthenticationCreds>();
  const calls: string[] = [];
  const store: AuthStateStore = {
    async load(linkId) {
      calls.push(`load ${linkId}`);
      const stored = saved.get(linkId);
      const creds = stored ? structuredClone(stored) : initAuthCreds();
      const keys: SignalKeyStore = { get: async () => ({}), set: async () => {} };
      return {
        state: { creds, keys },
        saveCreds: async () => {
          calls.push(`save ${linkId}`);
          saved.set(linkId, structuredClone(creds));
        },
      };
    },
    async clear(linkId) {
      calls.push(`clear ${linkId}`);
      saved.delete(linkId);
    },
  };
  return { store, saved, calls };
}

const ME = { id: '233241234567:7@s.whatsapp.net', lid: '123456789012345:7@lid', name: 'Shop' };
const silentLog: ConnectorLog = { info() {}, warn() {}, error() {} };

describe('Baileys connector, driven through a stand-in socket', () => {
  let sockets: FakeSocket[];
  let updates: Array<[string, LinkUpdate]>;
  let received: Array<[string, ChatMessage]>;
  let statuses: DeliveryUpdate[];
  let timers: Array<{ run: () => void; delayMs: number; cancelled: boolean }>;
  let auth: ReturnType<typeof createMemoryAuthStore>;
  /** The connector's clock, and the server's media store as `readMedia` reads it. */
  let clock: number;
  let storedFiles: Map<string, MediaFile>;

  beforeEach(() => {
    clock = NOW;
    storedFiles = new Map();
    sockets = [];
    updates = [];
    received = [];
    statuses = [];
    timers = [];
    auth = createMemoryAuthStore();
  });

  function connect(overrides: { onMessage?: (message: ChatMessage) => Promise<void> } = {}) {
    return createBaileysConnector({
      authStore: auth.store,
      log: silentLog,
      now: () => clock,
      readMedia: async (ref) => {
        const file = storedFiles.get(ref.mediaId);
        if (!file) throw new Error(`media file ${ref.mediaId} not found`);
        return file;
      },
      events: {
        onLinkUpdate: async (linkId, update) => void updates.push([linkId, update]),
        onMessage: overrides.onMessage ?? (async (message) => void received.push([message.linkId, message])),
        onStatus: async (update) => void statuses.push(update),
      },
      loadBaileys: async () => ({
        makeWASocket: (config) => {
          const socket = new FakeSocket(config);
          sockets.push(socket);
          return socket;
        },
        makeCacheableSignalKeyStore,
        downloadMediaMessage,
        Browsers,
      }),
      schedule: (run, delayMs) => {
        const timer = { run, delayMs, cancelled: false };
        timers.push(timer);
        return {
          cancel: () => {
            timer.cancelled = true;
          },
        };
      },
    });
  }

  /** Links `link-1` the way a scan does: QR, new credentials, 515, then an open second socket. */
  async function linkByScan(connector: ReturnType<typeof connect>) {
    await connector.startLink('link-1', {});
    sockets[0]!.emit('connection.update', { qr: 'QR-1' });
    sockets[0]!.emit('creds.update', { me: ME });
    sockets[0]!.emit('connection.update', closedWith(515, 'Stream Errored (restart required)'));
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    sockets[1]!.user = { id: ME.id };
    sockets[1]!.emit('connection.update', { connection: 'open' });
    await vi.waitFor(() => expect(updates.at(-1)?.[1].status).toBe('CONNECTED'));
  }

  it('opens a socket as Baileys asks: stored keys behind its cache, a realistic browser, not online on connect', async () => {
    const connector = connect();
    expect(connector.supportsInteractive).toBe(false);
    await connector.startLink('link-1', {});
    expect(auth.calls).toEqual(['clear link-1', 'load link-1']);
    const { config } = sockets[0]!;
    expect(config.browser).toEqual(Browsers.ubuntu('Dialflow'));
    expect(config.markOnlineOnConnect).toBe(false);
    expect(config.auth?.creds.noiseKey.public).toBeInstanceOf(Uint8Array);
    expect(config.logger?.level).toBe('warn');
    expect(typeof config.getMessage).toBe('function');
  });

  it('links by QR: QR -> saves the new credentials -> 515 -> a second socket on the same keys -> CONNECTED', async () => {
    const connector = connect();
    await linkByScan(connector);
    expect(updates).toEqual([
      ['link-1', { status: 'QR', qrCode: 'QR-1' }],
      ['link-1', { status: 'CONNECTED', qrCode: null, mobileNumber: '233241234567' }],
    ]);
    expect(sockets[1]!.config.auth?.creds).toBe(sockets[0]!.config.auth?.creds);
    expect(sockets[1]!.config.auth?.keys).toBe(sockets[0]!.config.auth?.keys);
    expect(auth.saved.get('link-1')?.me).toEqual(ME);
    expect(timers).toEqual([]);
  });

  it('hands messages to the bot in order and replies to the jid they came from', async () => {
    const connector = connect();
    await linkByScan(connector);
    const lid = { remoteJid: '123456789012345@lid', remoteJidAlt: '233200000001@s.whatsapp.net' };
    sockets[1]!.emit('messages.upsert', {
      type: 'notify',
      messages: [waMessage('IN1', { conversation: 'Hi' }, lid), waMessage('IN2', { conversation: 'mine' }, { fromMe: true })],
    });
    sockets[1]!.emit('messages.upsert', { type: 'notify', messages: [waMessage('IN3', { conversation: '1' }, lid)] });
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received.map(([linkId, m]) => [linkId, m.messageId, m.from, m.text])).toEqual([
      ['link-1', 'IN1', '233200000001', 'Hi'],
      ['link-1', 'IN3', '233200000001', '1'],
    ]);

    await connector.send(chatReply('link-1', '233200000001', { type: 'text', text: 'Welcome' }));
    await connector.send(chatReply('link-1', '233299999999', { type: 'text', text: 'Someone new' }));
    await connector.send(
      chatReply('link-1', '233200000001', {
        type: 'list',
        body: 'Pick one',
        button: 'Choose an option',
        rows: [
          { id: '1', title: 'Balance' },
          { id: '2', title: 'Buy airtime for a frie…', description: 'Buy airtime for a friend' },
        ],
      }),
    );
    expect(sockets[1]!.sent).toEqual([
      { jid: '123456789012345@lid', text: 'Welcome' },
      { jid: '233299999999@s.whatsapp.net', text: 'Someone new' },
      { jid: '123456789012345@lid', text: 'Pick one\n1. Balance\n2. Buy airtime for a friend' },
    ]);
    // What it sent is kept for Baileys' retries (a recipient's device asking for it again).
    await expect(sockets[1]!.config.getMessage?.({ id: 'OUT1' })).resolves.toEqual({ conversation: 'Welcome' });
  });

  it("answers a send with WhatsApp's ids and reports the receipts of our own messages only", async () => {
    const connector = connect();
    await linkByScan(connector);
    const welcome = { type: 'text' as const, text: 'Welcome' };
    expect(await connector.send(chatReply('link-1', '233200000001', welcome))).toEqual([{ providerMessageId: 'OUT1', message: welcome }]);
    const ours = (id: string) => ({ remoteJid: '233200000001@s.whatsapp.net', fromMe: true, id });
    // proto.WebMessageInfo.Status: 0 error, 1 pending, 2 server ack, 3 delivery ack, 4 read, 5 played.
    sockets[1]!.emit('messages.update', [
      { key: ours('OUT1'), update: { status: 2 } },
      { key: ours('OUT1'), update: { status: 3 } },
      { key: ours('OUT1'), update: { status: 4 } },
      { key: ours('OUT2'), update: { status: 1 } },
      { key: ours('OUT3'), update: { status: 0 } },
      { key: { ...ours('THEIRS'), fromMe: false }, update: { status: 4 } },
      { key: ours('EDIT'), update: { message: { conversation: 'edited' } } },
    ]);
    await vi.waitFor(() => expect(statuses).toHaveLength(4));
    const at = { linkId: 'link-1', at: NOW };
    expect(statuses).toEqual([
      { ...at, providerMessageId: 'OUT1', status: 'sent' },
      { ...at, providerMessageId: 'OUT1', status: 'delivered' },
      { ...at, providerMessageId: 'OUT1', status: 'read' },
      { ...at, providerMessageId: 'OUT3', status: 'failed', failureReason: 'WhatsApp reported an error sending this message' },
    ]);
  });

  it('keeps handing messages to the bot after one run fails', async () => {
    const connector = connect({
      onMessage: async (message) => {
        if (message.text === 'boom') throw new Error('bot failed');
        received.push([message.linkId, message]);
      },
    });
    await linkByScan(connector);
    sockets[1]!.emit('messages.upsert', {
      type: 'notify',
      messages: [waMessage('B1', { conversation: 'boom' }), waMessage('B2', { conversation: 'ok' })],
    });
    await vi.waitFor(() => expect(received.map(([, m]) => m.messageId)).toEqual(['B2']));
  });

  it('refuses to send before the number is connected', async () => {
    const connector = connect();
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
    await connector.startLink('link-1', {});
    sockets[0]!.emit('connection.update', { qr: 'QR-1' });
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
  });

  it('deletes the keys and reports DISCONNECTED when the phone logs the device out (401), without reconnecting', async () => {
    const connector = connect();
    await linkByScan(connector);
    sockets[1]!.emit('connection.update', closedWith(401, 'Connection Failure'));
    await vi.waitFor(() =>
      expect(updates.at(-1)).toEqual(['link-1', { status: 'DISCONNECTED', qrCode: null, message: 'Logged out on the phone' }]),
    );
    expect(auth.calls.at(-1)).toBe('clear link-1');
    expect(auth.saved.has('link-1')).toBe(false);
    expect(sockets).toHaveLength(2);
    expect(timers).toEqual([]);
    // A late credentials change from the dead socket does not bring the keys back.
    sockets[1]!.emit('creds.update', { lastPropHash: 'late' });
    await connector.close();
    expect(auth.saved.has('link-1')).toBe(false);
  });

  it('reconnects a lost connection after 2, 4, 8... seconds on the same keys, and starts counting again once open', async () => {
    const connector = connect();
    await linkByScan(connector);
    for (let attempt = 0; attempt < 3; attempt++) {
      sockets.at(-1)!.emit('connection.update', closedWith(428, 'Connection Closed'));
      await vi.waitFor(() => expect(timers).toHaveLength(attempt + 1));
      timers.at(-1)!.run();
      await vi.waitFor(() => expect(sockets).toHaveLength(3 + attempt));
    }
    expect(timers.map((t) => t.delayMs)).toEqual([2000, 4000, 8000]);
    expect(new Set(sockets.map((s) => s.config.auth?.creds)).size).toBe(1);
    sockets.at(-1)!.user = { id: ME.id };
    sockets.at(-1)!.emit('connection.update', { connection: 'open' });
    sockets.at(-1)!.emit('connection.update', closedWith(503, 'Service Unavailable'));
    await vi.waitFor(() => expect(timers).toHaveLength(4));
    expect(timers[3]!.delayMs).toBe(2000);
    // Closing cancels the pending reconnection; a late run opens nothing.
    await connector.close();
    expect(timers[3]!.cancelled).toBe(true);
    const opened = sockets.length;
    timers[3]!.run();
    expect(sockets).toHaveLength(opened);
  });

  it('gives up after the last reconnection and reports DISCONNECTED', async () => {
    const connector = connect();
    await linkByScan(connector);
    for (let attempt = 0; attempt < MAX_RECONNECT_ATTEMPTS; attempt++) {
      sockets.at(-1)!.emit('connection.update', closedWith(408, 'Connection was lost'));
      await vi.waitFor(() => expect(timers).toHaveLength(attempt + 1));
      timers.at(-1)!.run();
      await vi.waitFor(() => expect(sockets).toHaveLength(3 + attempt));
    }
    sockets.at(-1)!.emit('connection.update', closedWith(408, 'Connection was lost'));
    await vi.waitFor(() =>
      expect(updates.at(-1)?.[1]).toMatchObject({ status: 'DISCONNECTED', message: expect.stringMatching(/^Lost the connection/) }),
    );
    expect(timers).toHaveLength(MAX_RECONNECT_ATTEMPTS);
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
  });

  it('stops on a takeover (440): no second socket fighting for the same keys', async () => {
    const connector = connect();
    await linkByScan(connector);
    sockets[1]!.emit('connection.update', closedWith(440, 'Stream Errored (conflict)'));
    await vi.waitFor(() => expect(updates.at(-1)?.[1]).toMatchObject({ status: 'FAILED' }));
    expect(sockets).toHaveLength(2);
    expect(timers).toEqual([]);
    expect(auth.saved.has('link-1')).toBe(true);
  });

  it('fails a link whose QR expired unscanned', async () => {
    const connector = connect();
    await connector.startLink('link-1', {});
    sockets[0]!.emit('connection.update', { qr: 'QR-1' });
    sockets[0]!.emit('connection.update', closedWith(408, 'QR refs attempts ended'));
    await vi.waitFor(() => expect(updates).toHaveLength(2));
    expect(updates[1]).toEqual(['link-1', { status: 'FAILED', qrCode: null, message: 'The QR code expired before it was scanned' }]);
    expect(sockets).toHaveLength(1);
  });

  it('resumes with the stored keys (no new QR), and refuses to resume a link that has none', async () => {
    const first = connect();
    await linkByScan(first);
    await first.close();
    expect(sockets[1]!.ends).toBe(1);
    expect(sockets[1]!.logouts).toBe(0);

    auth.calls.length = 0;
    const second = connect();
    await second.startLink('link-1', { resume: true });
    expect(auth.calls).toEqual(['load link-1']);
    expect(sockets).toHaveLength(3);
    expect(sockets[2]!.config.auth?.creds.me).toEqual(ME);
    const noiseKey = (socket: FakeSocket) => Buffer.from(socket.config.auth!.creds.noiseKey.private);
    expect(noiseKey(sockets[2]!)).toEqual(noiseKey(sockets[0]!));

    await second.startLink('link-2', { resume: true });
    expect(updates.at(-1)).toEqual([
      'link-2',
      { status: 'DISCONNECTED', qrCode: null, message: 'No stored credentials for this number: link it again' },
    ]);
    expect(sockets).toHaveLength(3);
  });

  it('keeps one socket per link: starting again ends the first, whose events are then ignored', async () => {
    const connector = connect();
    await Promise.all([connector.startLink('link-1', {}), connector.startLink('link-1', {})]);
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.ends).toBe(1);
    expect(sockets[1]!.ends).toBe(0);
    sockets[0]!.emit('connection.update', { qr: 'OLD' });
    sockets[1]!.emit('connection.update', { qr: 'NEW' });
    await vi.waitFor(() => expect(updates).toEqual([['link-1', { status: 'QR', qrCode: 'NEW' }]]));
  });

  it('unlinks: logs the device out, deletes its keys, and takes the logout’s close for no failure', async () => {
    const connector = connect();
    await linkByScan(connector);
    const before = updates.length;
    await connector.unlink('link-1');
    expect(sockets[1]!.logouts).toBe(1);
    expect(auth.calls.at(-1)).toBe('clear link-1');
    expect(auth.saved.has('link-1')).toBe(false);
    await connector.close();
    expect(updates).toHaveLength(before);
    expect(auth.saved.has('link-1')).toBe(false);
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
  });

  describe('files, places and contact cards', () => {
    let server: Server;
    let origin: string;
    /** The local stand-in for WhatsApp's media servers: encrypted files by path; any other path answers 404. */
    const hosted = new Map<string, Buffer>();
    const requested: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        requested.push(req.url!);
        const file = hosted.get(req.url!);
        if (file) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
        else res.writeHead(404).end('Not Found');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** A photo as WhatsApp's servers hold it: encrypted by Baileys itself with a new media key, hosted at `path`. */
    async function hostPhoto(path: string, bytes: Buffer) {
      const encrypted = await encryptedStream(bytes, 'image');
      hosted.set(path, await readFile(encrypted.encFilePath));
      await rm(encrypted.encFilePath, { force: true });
      return { url: `${origin}${path}`, mediaKey: encrypted.mediaKey, mimetype: 'image/jpeg' };
    }
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (err: unknown) => err,
      );

    it("downloads a user's photo from the message kept when it came, through Baileys' own download and decryption", async () => {
      const connector = connect();
      await linkByScan(connector);
      const photo = Buffer.from(`a photo of a receipt ${'x'.repeat(5000)}`);
      const image = await hostPhoto('/mms/image/1', photo);
      sockets[1]!.emit('messages.upsert', {
        type: 'notify',
        messages: [waMessage('IMG1', { imageMessage: { ...image, caption: 'my receipt' } })],
      });
      await vi.waitFor(() => expect(received).toHaveLength(1));
      const [, message] = received[0]!;
      expect(message).toMatchObject({ kind: 'media', text: 'my receipt', media: { kind: 'image', providerId: 'IMG1' } });
      expect(Buffer.from(await connector.downloadMedia('link-1', message.media!, photo.length))).toEqual(photo);

      const tooSmall = await failure(connector.downloadMedia('link-1', message.media!, 1000));
      expect(tooSmall).toBeInstanceOf(MediaDownloadError);
      expect(tooSmall).toMatchObject({ reason: 'too_large', message: 'The image of message IMG1 is larger than the 1000 bytes allowed' });
    });

    it('refuses a file over the limit from the size the message gives, downloading nothing', async () => {
      const connector = connect();
      await linkByScan(connector);
      const image = await hostPhoto('/mms/image/2', Buffer.alloc(4000));
      sockets[1]!.emit('messages.upsert', {
        type: 'notify',
        messages: [waMessage('IMG2', { imageMessage: { ...image, fileLength: 4000 } })],
      });
      await vi.waitFor(() => expect(received).toHaveLength(1));
      requested.length = 0;
      expect(await failure(connector.downloadMedia('link-1', received[0]![1].media!, 3999))).toMatchObject({ reason: 'too_large' });
      expect(requested).toEqual([]);
    });

    it('says a file is gone when WhatsApp no longer has it, when it was never kept, and once it is older than the hour kept', async () => {
      const connector = connect();
      await linkByScan(connector);
      const image = await hostPhoto('/mms/image/3', Buffer.from('photo'));
      sockets[1]!.emit('messages.upsert', {
        type: 'notify',
        messages: [
          waMessage('IMG3', { imageMessage: { ...image, url: `${origin}/mms/image/expired` } }),
          waMessage('IMG4', { imageMessage: image }),
        ],
      });
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(await failure(connector.downloadMedia('link-1', received[0]![1].media!, 1024))).toMatchObject({
        reason: 'gone',
        message: expect.stringMatching(/^The image of message IMG3 could not be downloaded/),
      });
      // The sender's phone was asked once to upload it again; once it has, the renewed message downloads it.
      expect(sockets[1]!.reuploads).toBe(1);
      sockets[1]!.reupload = (message) => ({ ...message, message: { imageMessage: image } });
      expect(Buffer.from(await connector.downloadMedia('link-1', received[0]![1].media!, 1024))).toEqual(Buffer.from('photo'));
      expect(sockets[1]!.reuploads).toBe(2);
      const unknown = { kind: 'image' as const, mimeType: 'image/jpeg', providerId: 'NEVER' };
      expect(await failure(connector.downloadMedia('link-1', unknown, 1024))).toMatchObject({ reason: 'gone' });
      expect(await failure(connector.downloadMedia('link-2', received[1]![1].media!, 1024))).toMatchObject({ reason: 'gone' });
      clock = NOW + FILES_KEPT.ms + 1;
      expect(await failure(connector.downloadMedia('link-1', received[1]![1].media!, 1024))).toMatchObject({
        reason: 'gone',
        message: 'The image of message IMG4 is no longer kept (files are kept 60 minutes)',
      });
    });

    it('sends files, places and contact cards natively; link buttons and location requests as their text', async () => {
      storedFiles.set('m-img', { bytes: Buffer.from('png bytes'), mimeType: 'image/png' });
      storedFiles.set('m-pdf', { bytes: Buffer.from('%PDF-1.7'), mimeType: 'application/pdf', fileName: 'receipt.pdf' });
      storedFiles.set('m-ogg', { bytes: Buffer.from('OggS'), mimeType: 'audio/ogg' });
      storedFiles.set('m-mp3', { bytes: Buffer.from('ID3'), mimeType: 'audio/mpeg' });
      storedFiles.set('m-mp4', { bytes: Buffer.from('ftyp'), mimeType: 'video/mp4' });
      const connector = connect();
      expect([...connector.nativeTypes].sort()).toEqual(['contact', 'location', 'media', 'text']);
      await linkByScan(connector);
      const file = (mediaId: string, kind: 'image' | 'document' | 'audio' | 'video', caption?: string) => ({
        type: 'media' as const,
        media: { mediaId, kind, mimeType: storedFiles.get(mediaId)?.mimeType ?? 'image/png', size: 4, ...(caption ? { caption } : {}) },
      });
      await connector.send(
        chatReply(
          'link-1',
          '233241234567',
          file('m-img', 'image', 'New in'),
          file('m-pdf', 'document', 'Your receipt'),
          file('m-ogg', 'audio', 'dropped'),
          file('m-mp3', 'audio'),
          file('m-mp4', 'video'),
          { type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Ama Shop', address: 'Osu' } },
          { type: 'contact', contact: { name: 'Help; desk', phones: ['+233 30 200 0000'] } },
          { type: 'link', body: 'Pay here', button: 'Pay now', url: 'https://pay.example/1' },
          { type: 'locationRequest', body: 'Where should we deliver?' },
        ),
      );
      const jid = '233241234567@s.whatsapp.net';
      expect(sockets[1]!.sent).toEqual([
        { jid, image: Buffer.from('png bytes'), mimetype: 'image/png', caption: 'New in' },
        { jid, document: Buffer.from('%PDF-1.7'), mimetype: 'application/pdf', fileName: 'receipt.pdf', caption: 'Your receipt' },
        { jid, audio: Buffer.from('OggS'), mimetype: 'audio/ogg', ptt: true },
        { jid, audio: Buffer.from('ID3'), mimetype: 'audio/mpeg', ptt: false },
        { jid, video: Buffer.from('ftyp'), mimetype: 'video/mp4' },
        { jid, location: { degreesLatitude: 5.6, degreesLongitude: -0.2, name: 'Ama Shop', address: 'Osu' } },
        {
          jid,
          contacts: {
            displayName: 'Help; desk',
            contacts: [
              {
                displayName: 'Help; desk',
                vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Help\\; desk\nTEL;type=CELL;waid=233302000000:+233 30 200 0000\nEND:VCARD',
              },
            ],
          },
        },
        { jid, text: 'Pay here\nPay now: https://pay.example/1' },
        { jid, text: 'Where should we deliver?' },
      ]);
      await expect(connector.send(chatReply('link-1', '233241234567', file('m-gone', 'image')))).rejects.toThrow(
        'media file m-gone not found',
      );
      expect(sockets[1]!.sent).toHaveLength(9);
    });
  });

  it('reports FAILED when the stored keys cannot be read', async () => {
    const failing: AuthStateStore = {
      load: async () => Promise.reject(new Error('WhatsApp credentials cannot be decrypted: check WHATSAPP_CREDENTIALS_KEY')),
      clear: async () => {},
    };
    const connector = createBaileysConnector({
      authStore: failing,
      log: silentLog,
      events: { onLinkUpdate: async (linkId, update) => void updates.push([linkId, update]), onMessage: async () => {} },
      readMedia: async () => Promise.reject(new Error('no files here')),
      loadBaileys: async () => ({
        makeWASocket: (config) => new FakeSocket(config),
        makeCacheableSignalKeyStore,
        downloadMediaMessage,
        Browsers,
      }),
    });
    await connector.startLink('link-1', { resume: true });
    expect(updates).toEqual([['link-1', { status: 'FAILED', qrCode: null, message: expect.stringContaining('WHATSAPP_CREDENTIALS_KEY') }]]);
  });
});
