import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/whatsapp';
import type { DeliveryUpdate } from '../../shared/whatsapp-status';
import {
  answerVerification,
  createCloudApiConnector,
  EXPIRED_TOKEN_TEXT,
  readCloudWebhook,
  toCloudMessageBody,
  verifyCloudSignature,
  type CloudApiOptions,
} from './cloud-api';
import { chatReply } from './test-replies';
import type { MediaRef } from '../../shared/media';
import { MediaDownloadError, type LinkUpdate, type MediaFile } from './whatsapp-connector';

const APP_SECRET = 'app-secret-0123456789';
const TOKEN = 'EAAG-access-token';
const VERIFY_TOKEN = 'dialflow-verify';
/** When the local webhook got its deliveries (the connector's clock). */
const RECEIVED_AT = 1_732_262_402_000;
const sign = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A webhook POST as Meta's documentation shows it: one entry, one `messages` change. */
function webhookBody(value: Record<string, unknown>): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA-1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', ...value } }] }],
  });
}
const metadata = (phoneNumberId: string) => ({ display_phone_number: '15550001111', phone_number_id: phoneNumberId });
const contact = (waId: string, name: string) => ({ profile: { name }, wa_id: waId });

describe('verifyCloudSignature', () => {
  const body = '{"entry":[]}';

  it('accepts the HMAC-SHA256 of the exact bytes, as a string or a Buffer', () => {
    expect(verifyCloudSignature(body, sign(body), APP_SECRET)).toBe(true);
    expect(verifyCloudSignature(Buffer.from(body), sign(body), APP_SECRET)).toBe(true);
  });

  it('refuses a wrong, missing, malformed or truncated signature, and any signature with no app secret', () => {
    expect(verifyCloudSignature(body, sign(body, 'other-secret'), APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(`${body} `, sign(body), APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, undefined, APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, '', APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, sign(body).slice('sha256='.length), APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, sign(body).replace('sha256=', 'sha1='), APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, sign(body).slice(0, -2), APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, `${sign(body)}00`, APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, 'sha256=zz', APP_SECRET)).toBe(false);
    expect(verifyCloudSignature(body, sign(body, ''), '')).toBe(false);
  });
});

describe('answerVerification', () => {
  it('answers the subscribe handshake with the challenge when the token is ours', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' };
    expect(answerVerification(query, VERIFY_TOKEN)).toBe('1158201444');
  });

  it('refuses another token, another mode, a missing challenge, repeated parameters and no token of ours', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' };
    expect(answerVerification({ ...query, 'hub.verify_token': 'guess' }, VERIFY_TOKEN)).toBeNull();
    expect(answerVerification({ ...query, 'hub.mode': 'unsubscribe' }, VERIFY_TOKEN)).toBeNull();
    expect(answerVerification({ ...query, 'hub.challenge': undefined }, VERIFY_TOKEN)).toBeNull();
    expect(answerVerification({ ...query, 'hub.verify_token': [VERIFY_TOKEN, VERIFY_TOKEN] }, VERIFY_TOKEN)).toBeNull();
    expect(answerVerification({ ...query, 'hub.verify_token': '' }, '')).toBeNull();
    expect(answerVerification(null, VERIFY_TOKEN)).toBeNull();
  });
});

describe('readCloudWebhook', () => {
  const read = (messages: unknown[], extra: Record<string, unknown> = {}) =>
    readCloudWebhook(
      JSON.parse(webhookBody({ metadata: metadata('PN1'), contacts: [contact('233241234567', 'Ama')], messages, ...extra })),
    );

  it('reads a text with its sender, profile name and time', () => {
    const [delivery] = read([{ from: '233241234567', id: 'wamid.A', timestamp: '1732262400', type: 'text', text: { body: 'Hi' } }]);
    expect(delivery).toEqual({
      phoneNumberId: 'PN1',
      displayPhoneNumber: '15550001111',
      messages: [{ messageId: 'wamid.A', from: '233241234567', name: 'Ama', text: 'Hi', kind: 'text', sentAt: 1_732_262_400_000 }],
      statuses: [],
    });
  });

  it('reads list and button replies and template quick replies as choices', () => {
    const [delivery] = read([
      {
        from: '233241234567',
        id: 'wamid.L',
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: '2', title: 'Balance', description: 'Check it' } },
      },
      {
        from: '233241234567',
        id: 'wamid.B',
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: '1', title: 'Yes' } },
      },
      { from: '233241234567', id: 'wamid.T', type: 'button', button: { text: 'Stop promotions', payload: 'STOP' } },
      { from: '233241234567', id: 'wamid.U', type: 'button', button: { text: 'Talk to us' } },
    ]);
    expect(delivery!.messages.map(({ messageId, kind, text }) => ({ messageId, kind, text }))).toEqual([
      { messageId: 'wamid.L', kind: 'choice', text: '2' },
      { messageId: 'wamid.B', kind: 'choice', text: '1' },
      { messageId: 'wamid.T', kind: 'choice', text: 'STOP' },
      { messageId: 'wamid.U', kind: 'choice', text: 'Talk to us' },
    ]);
  });

  // Golden cases: each message as Meta's webhook reference shows its type, and what the bot is handed.
  it('reads files with their media id, type, name and caption; voice notes as such', () => {
    const sha256 = 'ba9b4dd29cbc4d1b61c2e9ad5ea5b68c3e3c6a4d0a0a3a3e2b1c0d9e8f7a6b5c';
    const [delivery] = read([
      { from: '233241234567', id: 'wamid.I1', type: 'image', image: { id: 'MEDIA1', mime_type: 'image/jpeg', sha256, caption: ' 3 ' } },
      { from: '233241234567', id: 'wamid.I2', type: 'image', image: { id: 'MEDIA2', mime_type: 'image/png', sha256 } },
      {
        from: '233241234567',
        id: 'wamid.V',
        type: 'audio',
        audio: { id: 'MEDIA3', mime_type: 'audio/ogg; codecs=opus', sha256, voice: true },
      },
      { from: '233241234567', id: 'wamid.A', type: 'audio', audio: { id: 'MEDIA4', mime_type: 'audio/mpeg', sha256, voice: false } },
      {
        from: '233241234567',
        id: 'wamid.D',
        type: 'document',
        document: { id: 'MEDIA5', mime_type: 'application/pdf', sha256, filename: 'receipt.pdf', caption: 'My receipt' },
      },
      { from: '233241234567', id: 'wamid.M', type: 'video', video: { id: 'MEDIA6', mime_type: 'video/mp4', sha256 } },
    ]);
    const file = (messageId: string, text: string, media: Record<string, unknown>) => ({ messageId, kind: 'media', text, media });
    expect(delivery!.messages.map(({ messageId, kind, text, media }) => ({ messageId, kind, text, media }))).toEqual([
      file('wamid.I1', '3', { kind: 'image', mimeType: 'image/jpeg', providerId: 'MEDIA1' }),
      file('wamid.I2', '', { kind: 'image', mimeType: 'image/png', providerId: 'MEDIA2' }),
      file('wamid.V', '', { kind: 'audio', mimeType: 'audio/ogg; codecs=opus', providerId: 'MEDIA3', voice: true }),
      file('wamid.A', '', { kind: 'audio', mimeType: 'audio/mpeg', providerId: 'MEDIA4' }),
      file('wamid.D', 'My receipt', { kind: 'document', mimeType: 'application/pdf', providerId: 'MEDIA5', fileName: 'receipt.pdf' }),
      file('wamid.M', '', { kind: 'video', mimeType: 'video/mp4', providerId: 'MEDIA6' }),
    ]);
  });

  it('reads a location, and contact cards as the text of their names and numbers', () => {
    const [delivery] = read([
      {
        from: '233241234567',
        id: 'wamid.P',
        type: 'location',
        location: { latitude: 5.6037, longitude: -0.187, name: 'Accra Mall', address: 'Spintex Rd, Accra', url: 'https://example.com' },
      },
      { from: '233241234567', id: 'wamid.P2', type: 'location', location: { latitude: '-33.9', longitude: '18.4' } },
      {
        from: '233241234567',
        id: 'wamid.C',
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'Kofi Mensah', first_name: 'Kofi', last_name: 'Mensah' },
            phones: [
              { phone: '+233 20 111 2222', wa_id: '233201112222', type: 'CELL' },
              { phone: '+233 30 222 3333', type: 'WORK' },
            ],
          },
          { name: { first_name: 'Esi' }, phones: [{ phone: '+233244445555' }] },
        ],
      },
    ]);
    expect(delivery!.messages.map(({ messageId, kind, text, location }) => ({ messageId, kind, text, location }))).toEqual([
      {
        messageId: 'wamid.P',
        kind: 'location',
        text: '',
        location: { latitude: 5.6037, longitude: -0.187, name: 'Accra Mall', address: 'Spintex Rd, Accra' },
      },
      { messageId: 'wamid.P2', kind: 'location', text: '', location: { latitude: -33.9, longitude: 18.4 } },
      {
        messageId: 'wamid.C',
        kind: 'text',
        text: 'Kofi Mensah\n+233 20 111 2222\n+233 30 222 3333\n\nEsi\n+233244445555',
        location: undefined,
      },
    ]);
  });

  it('hands over what no bot reads as unsupported, saying what it was; reactions are left out', () => {
    const [delivery] = read([
      { from: '233241234567', id: 'wamid.S', type: 'sticker', sticker: { id: 'MEDIA4', mime_type: 'image/webp', animated: false } },
      { from: '233241234567', id: 'wamid.OFF', type: 'location', location: { latitude: 91, longitude: 0 } },
      { from: '233241234567', id: 'wamid.NAN', type: 'location', location: { latitude: 'north', longitude: 3 } },
      { from: '233241234567', id: 'wamid.X', type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] },
      { from: '233241234567', id: 'wamid.O', type: 'order', order: { catalog_id: '1', product_items: [] } },
      { from: '233241234567', id: 'wamid.F', type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: { response_json: '{}' } } },
      { from: '233241234567', id: 'wamid.I', type: 'image', image: { mime_type: 'image/jpeg' } },
      { from: '233241234567', id: 'wamid.K', type: 'contacts', contacts: [{ name: {}, phones: [] }] },
      { from: '233241234567', id: 'wamid.R', type: 'reaction', reaction: { message_id: 'wamid.OUT', emoji: '👍' } },
    ]);
    expect(delivery!.messages.map(({ messageId, kind, text, unsupportedReason }) => [messageId, kind, text, unsupportedReason])).toEqual([
      ['wamid.S', 'unsupported', '', 'a sticker'],
      ['wamid.OFF', 'unsupported', '', 'a location off the globe (latitude 91, longitude 0)'],
      ['wamid.NAN', 'unsupported', '', 'a location off the globe (latitude north, longitude 3)'],
      ['wamid.X', 'unsupported', '', 'a message of type unsupported'],
      ['wamid.O', 'unsupported', '', 'a message of type order'],
      ['wamid.F', 'unsupported', '', 'an interactive reply of type nfm_reply'],
      ['wamid.I', 'unsupported', '', 'a file (image) without a media id'],
      ['wamid.K', 'unsupported', '', 'a contact card with no name or number'],
    ]);
  });

  it('takes digits only, and the business-scoped user id when a user shares no phone number', () => {
    const [delivery] = read([
      { from: '+233 24 123 4567', id: 'wamid.1', type: 'text', text: { body: 'a' } },
      { from_user_id: 'US.13491208655302741918', id: 'wamid.2', type: 'text', text: { body: 'b' } },
    ]);
    expect(delivery!.messages.map((m) => m.from)).toEqual(['233241234567', '13491208655302741918']);
  });

  it('reads statuses, with the reason of a failed one', () => {
    const [delivery] = read([], {
      statuses: [
        { id: 'wamid.OUT1', status: 'delivered', timestamp: '1732262400', recipient_id: '233241234567' },
        {
          id: 'wamid.OUT2',
          status: 'failed',
          timestamp: '1732262401',
          recipient_id: '233241234567',
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: {
                details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
              },
            },
          ],
        },
      ],
    });
    expect(delivery!.statuses).toEqual([
      { id: 'wamid.OUT1', status: 'delivered', recipientId: '233241234567', at: 1_732_262_400_000 },
      {
        id: 'wamid.OUT2',
        status: 'failed',
        recipientId: '233241234567',
        at: 1_732_262_401_000,
        errorCode: 131047,
        error: expect.stringMatching(
          /^Re-engagement message \(131047\): re-engagement: more than 24 hours.*\. Message failed to send because more than 24 hours/,
        ),
      },
    ]);
  });

  it('never throws on shapes it cannot read, and skips what it cannot read', () => {
    for (const body of [
      null,
      undefined,
      42,
      'text',
      [],
      {},
      { entry: 'x' },
      { entry: [null, 1, { changes: {} }] },
      { entry: [{ changes: [null, { field: 'messages' }] }] },
    ]) {
      expect(readCloudWebhook(body)).toEqual([]);
    }
    const otherField = { entry: [{ changes: [{ field: 'message_template_status_update', value: { metadata: metadata('PN1') } }] }] };
    expect(readCloudWebhook(otherField)).toEqual([]);
    const [delivery] = read([
      null,
      'wamid',
      { id: 'wamid.no-sender', type: 'text', text: { body: 'x' } },
      { from: '233241234567', type: 'text', text: { body: 'no id' } },
      { from: '233241234567', id: 'wamid.no-body', type: 'text', text: {} },
      { from: '233241234567', id: 'wamid.odd', type: 'text', text: 'not an object' },
      { from: '233241234567', id: 'wamid.ok', type: 'text', text: { body: 'ok' }, timestamp: 'soon' },
    ]);
    expect(delivery!.messages).toEqual([{ messageId: 'wamid.ok', from: '233241234567', name: 'Ama', text: 'ok', kind: 'text' }]);
  });
});

describe('toCloudMessageBody', () => {
  it('sends text as Meta documents it', () => {
    expect(toCloudMessageBody('233241234567', { type: 'text', text: 'Welcome!\n1. Balance' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'text',
      text: { body: 'Welcome!\n1. Balance' },
    });
  });

  it('sends a list as it is given: one section, named by the list button', () => {
    const rows = [
      { id: '1', title: 'Airtime' },
      { id: '2', title: 'Pay a merchant with mob…', description: 'Pay a merchant with mobile money' },
    ];
    const body = toCloudMessageBody('233241234567', { type: 'list', body: 'Menu', button: 'Choose an option', rows });
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Menu' },
        action: { button: 'Choose an option', sections: [{ title: 'Choose an option', rows }] },
      },
    });
  });

  it('leaves out a row description that is not there', () => {
    const body = toCloudMessageBody('1', { type: 'list', body: 'Pick', button: 'Menu', rows: [{ id: '1', title: 'Balance' }] }) as {
      interactive: { action: { sections: Array<{ rows: unknown[] }> } };
    };
    expect(body.interactive.action.sections[0]!.rows).toEqual([{ id: '1', title: 'Balance' }]);
  });

  it('sends reply buttons as they are given', () => {
    const buttons = [
      { id: '1', title: 'Yes' },
      { id: '2', title: 'No' },
    ];
    expect(toCloudMessageBody('233241234567', { type: 'buttons', body: 'Confirm?', buttons })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Confirm?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: '1', title: 'Yes' } },
            { type: 'reply', reply: { id: '2', title: 'No' } },
          ],
        },
      },
    });
  });
});

describe('toCloudMessageBody: files, places, cards and the newer interactive messages', () => {
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '233241234567' };
  const ref = { mediaId: 'm-1', mimeType: 'application/pdf', size: 10 };

  it('sends a file by the id of its upload: caption on images, videos and documents, a name on documents only', () => {
    const image = {
      type: 'media' as const,
      media: { ...ref, kind: 'image' as const, mimeType: 'image/png', caption: 'Our shoes', fileName: 'a.png' },
    };
    expect(toCloudMessageBody('233241234567', image, 'UP1')).toEqual({
      ...envelope,
      type: 'image',
      image: { id: 'UP1', caption: 'Our shoes' },
    });
    const document = {
      type: 'media' as const,
      media: { ...ref, kind: 'document' as const, caption: 'Your receipt', fileName: 'receipt.pdf' },
    };
    expect(toCloudMessageBody('233241234567', document, 'UP2')).toEqual({
      ...envelope,
      type: 'document',
      document: { id: 'UP2', caption: 'Your receipt', filename: 'receipt.pdf' },
    });
    const audio = { type: 'media' as const, media: { ...ref, kind: 'audio' as const, mimeType: 'audio/ogg', caption: 'Listen' } };
    expect(toCloudMessageBody('233241234567', audio, 'UP3')).toEqual({ ...envelope, type: 'audio', audio: { id: 'UP3' } });
    const video = { type: 'media' as const, media: { ...ref, kind: 'video' as const, mimeType: 'video/mp4' } };
    expect(toCloudMessageBody('233241234567', video, 'UP4')).toEqual({ ...envelope, type: 'video', video: { id: 'UP4' } });
    expect(() => toCloudMessageBody('233241234567', video)).toThrow(/id of its upload/);
  });

  it('sends a location, a contact card, a link button (cta_url) and a location request as Meta documents them', () => {
    const place = { latitude: 5.6037, longitude: -0.187, name: 'Ama Shop', address: 'Osu, Accra' };
    expect(toCloudMessageBody('233241234567', { type: 'location', location: place })).toEqual({
      ...envelope,
      type: 'location',
      location: place,
    });
    expect(toCloudMessageBody('233241234567', { type: 'location', location: { latitude: 1, longitude: 2 } })).toEqual({
      ...envelope,
      type: 'location',
      location: { latitude: 1, longitude: 2 },
    });
    expect(toCloudMessageBody('233241234567', { type: 'contact', contact: { name: 'Help desk', phones: ['+233302000000'] } })).toEqual({
      ...envelope,
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'Help desk', first_name: 'Help desk' }, phones: [{ phone: '+233302000000', type: 'CELL' }] }],
    });
    expect(toCloudMessageBody('233241234567', { type: 'link', body: 'Pay here', button: 'Pay now', url: 'https://pay.example/1' })).toEqual(
      {
        ...envelope,
        type: 'interactive',
        interactive: {
          type: 'cta_url',
          body: { text: 'Pay here' },
          action: { name: 'cta_url', parameters: { display_text: 'Pay now', url: 'https://pay.example/1' } },
        },
      },
    );
    expect(toCloudMessageBody('233241234567', { type: 'locationRequest', body: 'Where should we deliver?' })).toEqual({
      ...envelope,
      type: 'interactive',
      interactive: { type: 'location_request_message', body: { text: 'Where should we deliver?' }, action: { name: 'send_location' } },
    });
  });
});

/** An upload as the local Graph API read it from its multipart body. */
interface UploadSeen {
  messaging_product: string | null;
  type: string | null;
  file: { name: string; type: string; bytes: Buffer } | null;
}

/** A multipart body read the way a server reads it (the platform's own form-data parser). */
async function readMultipart(raw: Buffer, contentType: string): Promise<UploadSeen> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  const file = form.get('file');
  const text = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : null);
  return {
    messaging_product: text('messaging_product'),
    type: text('type'),
    file: file instanceof File ? { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) } : null,
  };
}

/** A file the local server sends: its bytes, or `streamBytes` of zeros pulled only as the client reads. */
type FileAnswer = { status: number; file: Buffer; contentLength?: boolean } | { status: number; streamBytes: number };

describe('Cloud API connector against a local Graph API', () => {
  let server: Server;
  let apiUrl: string;
  let origin: string;
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: unknown }> = [];
  /** What the local Graph API answers next, by method and path; a path under /files answers bytes. */
  let answers: Record<string, { status: number; body: unknown } | FileAnswer> = {};
  /** How many bytes of a streamed file the server had to produce before the client stopped reading. */
  let streamed = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const type = req.headers['content-type'] ?? '';
        const body = type.startsWith('multipart/')
          ? await readMultipart(raw, type)
          : raw.length > 0
            ? JSON.parse(raw.toString())
            : undefined;
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const answer = answers[`${req.method} ${req.url!.split('?')[0]}`] ?? {
          status: 404,
          body: { error: { message: 'Unknown path', code: 803 } },
        };
        if ('streamBytes' in answer) {
          const chunk = Buffer.alloc(64 * 1024);
          const total = answer.streamBytes;
          res.writeHead(answer.status, { 'content-type': 'application/octet-stream' });
          Readable.from(
            (function* () {
              for (streamed = 0; streamed < total; streamed += chunk.length) yield chunk;
            })(),
          ).pipe(res);
        } else if ('file' in answer) {
          const length = answer.contentLength === false ? {} : { 'content-length': String(answer.file.length) };
          res.writeHead(answer.status, { 'content-type': 'application/octet-stream', ...length }).end(answer.file);
        } else {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    apiUrl = `${origin}/v21.0`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let updates: Array<[string, LinkUpdate]>;
  let received: Array<[string, ChatMessage]>;
  let lookups: string[];
  let statuses: DeliveryUpdate[];
  /** The server's media store as the connector's `readMedia` reads it, and the files it was asked for. */
  let storedFiles: Map<string, MediaFile>;
  let reads: string[];
  beforeEach(() => {
    storedFiles = new Map();
    reads = [];
    seen.length = 0;
    statuses = [];
    updates = [];
    received = [];
    lookups = [];
    answers = {
      'GET /v21.0/PN1': { status: 200, body: { display_phone_number: '+1 555-000-1111', verified_name: 'Dialflow Demo', id: 'PN1' } },
      'POST /v21.0/PN1/messages': {
        status: 200,
        body: {
          messaging_product: 'whatsapp',
          contacts: [{ input: '233241234567', wa_id: '233241234567' }],
          messages: [{ id: 'wamid.OUT' }],
        },
      },
    };
  });

  const graphError = (message: string, code: number, status = 400) => ({
    status,
    body: { error: { message, type: 'OAuthException', code, error_subcode: 2494010, fbtrace_id: 'AbCdEf' } },
  });

  function connect(overrides: Partial<CloudApiOptions> = {}) {
    return createCloudApiConnector({
      apiUrl,
      accessToken: TOKEN,
      appSecret: APP_SECRET,
      verifyToken: VERIFY_TOKEN,
      events: {
        onLinkUpdate: async (linkId, update) => void updates.push([linkId, update]),
        onMessage: async (message) => void received.push([message.linkId, message]),
        onStatus: async (update) => void statuses.push(update),
      },
      now: () => RECEIVED_AT,
      readMedia: async (ref: MediaRef) => {
        const file = storedFiles.get(ref.mediaId);
        if (!file) throw new Error(`media file ${ref.mediaId} not found`);
        reads.push(ref.mediaId);
        return file;
      },
      findLinkId: async (phoneNumberId) => {
        lookups.push(phoneNumberId);
        return phoneNumberId === 'PN1' ? 'link-1' : null;
      },
      ...overrides,
    });
  }

  it('links a number: checks it with the bearer token and reports it CONNECTED with its digits', async () => {
    const connector = connect();
    expect(connector.supportsInteractive).toBe(true);
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v21.0/PN1?fields=display_phone_number,verified_name' });
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(updates).toEqual([['link-1', { status: 'CONNECTED', mobileNumber: '15550001111', qrCode: null }]]);
  });

  it("reports FAILED with Graph's words when the number is refused, and with the cause when Graph is unreachable", async () => {
    answers['GET /v21.0/PN9'] = graphError("Unsupported get request. Object with ID 'PN9' does not exist", 100);
    await connect().startLink('link-9', { phoneNumberId: 'PN9' });
    expect(updates).toEqual([
      ['link-9', { status: 'FAILED', message: expect.stringContaining("Object with ID 'PN9' does not exist (100)") }],
    ]);

    updates = [];
    const offline = connect({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    await offline.startLink('link-1', { phoneNumberId: 'PN1' });
    expect(updates).toEqual([['link-1', { status: 'FAILED', message: 'Could not reach the WhatsApp Cloud API: fetch failed' }]]);
    await expect(offline.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);

    updates = [];
    await connect().startLink('link-2', {});
    expect(updates).toEqual([['link-2', { status: 'FAILED', message: 'A phone number id is required to link a Cloud API number' }]]);
  });

  it('resuming while Meta is unreachable keeps the link as it was and rejects; a refusal still fails it', async () => {
    const offline = connect({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    await expect(offline.startLink('link-1', { phoneNumberId: 'PN1', resume: true })).rejects.toThrow(
      'Could not reach the WhatsApp Cloud API: fetch failed',
    );
    expect(updates).toEqual([]);

    answers['GET /v21.0/PN1'] = { status: 503, body: 'Service Unavailable' };
    const connector = connect();
    await expect(connector.startLink('link-1', { phoneNumberId: 'PN1', resume: true })).rejects.toThrow('WhatsApp Cloud API: HTTP 503');
    expect(updates).toEqual([]);
    await connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'Still here' }));
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v21.0/PN1/messages' });

    answers['GET /v21.0/PN1'] = graphError('Error validating access token: Session has expired', 190, 401);
    await connector.startLink('link-1', { phoneNumberId: 'PN1', resume: true });
    expect(updates).toEqual([['link-1', { status: 'FAILED', message: EXPIRED_TOKEN_TEXT }]]);
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
  });

  it("proves a number with the claimer's own token: true only when Meta answers with that id; refusals are false, no answer rejects", async () => {
    const connector = connect();
    expect(await connector.canReadNumber!('PN1', 'EAAG-claimer-token')).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v21.0/PN1?fields=id' });
    expect(seen[0]!.headers.authorization).toBe('Bearer EAAG-claimer-token');
    answers['GET /v21.0/PN9'] = graphError("Unsupported get request. Object with ID 'PN9' does not exist", 100);
    expect(await connector.canReadNumber!('PN9', 'EAAG-claimer-token')).toBe(false);
    answers['GET /v21.0/PN8'] = graphError('Invalid OAuth access token - Cannot parse access token', 190);
    expect(await connector.canReadNumber!('PN8', 'EAAG-claimer-token')).toBe(false);
    answers['GET /v21.0/PN7'] = { status: 200, body: { id: 'PN1' } };
    expect(await connector.canReadNumber!('PN7', 'EAAG-claimer-token')).toBe(false);
    const offline = connect({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    await expect(offline.canReadNumber!('PN1', 'EAAG-claimer-token')).rejects.toThrow(/Could not reach/);
  });

  it("checks and sends with a number's own token when it has one, and the installation's for the others", async () => {
    answers['GET /v21.0/PN2'] = { status: 200, body: { display_phone_number: '+1 555-000-2222', id: 'PN2' } };
    answers['POST /v21.0/PN2/messages'] = answers['POST /v21.0/PN1/messages']!;
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    await connector.startLink('link-2', { phoneNumberId: 'PN2', accessToken: 'EAAG-business-two' });
    await connector.send(chatReply('link-2', '233241234567', { type: 'text', text: 'From two' }));
    await connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'From one' }));
    expect(seen.map((r) => `${r.method} ${r.url.split('?')[0]} ${r.headers.authorization}`)).toEqual([
      `GET /v21.0/PN1 Bearer ${TOKEN}`,
      'GET /v21.0/PN2 Bearer EAAG-business-two',
      'POST /v21.0/PN2/messages Bearer EAAG-business-two',
      `POST /v21.0/PN1/messages Bearer ${TOKEN}`,
    ]);
  });

  it('turns the link FAILED, asking to reconnect, when Meta refuses a send for an expired token (190)', async () => {
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1', accessToken: 'EAAG-expired' });
    updates = [];
    answers['POST /v21.0/PN1/messages'] = graphError('Error validating access token: Session has expired', 190, 401);
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/\(190\)/);
    expect(updates).toEqual([['link-1', { status: 'FAILED', message: EXPIRED_TOKEN_TEXT }]]);
    expect(EXPIRED_TOKEN_TEXT).toMatch(/reconnect/);
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(/not connected/);
  });

  it('sends: the exact body and Authorization header to /{phone-number-id}/messages', async () => {
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    seen.length = 0;
    await connector.send(chatReply('link-1', '233241234567', { type: 'buttons', body: 'Confirm?', buttons: [{ id: '1', title: 'Yes' }] }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v21.0/PN1/messages' });
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '233241234567',
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Confirm?' },
        action: { buttons: [{ type: 'reply', reply: { id: '1', title: 'Yes' } }] },
      },
    });
  });

  it('rejects a refused send with what the code means: 24-hour window, rate limit, anything else', async () => {
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    const send = () => connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'Hello' }));

    answers['POST /v21.0/PN1/messages'] = graphError('Re-engagement message', 131047);
    await expect(send()).rejects.toThrow(/Re-engagement message \(131047\): re-engagement: more than 24 hours have passed/);
    answers['POST /v21.0/PN1/messages'] = graphError('(#130429) Rate limit hit', 130429, 429);
    await expect(send()).rejects.toMatchObject({ code: 130429, message: expect.stringMatching(/\(130429\): rate limit hit/) });
    answers['POST /v21.0/PN1/messages'] = graphError('(#100) Invalid parameter', 100);
    await expect(send()).rejects.toThrow('WhatsApp Cloud API: (#100) Invalid parameter (100)');
    answers['POST /v21.0/PN1/messages'] = { status: 502, body: 'Bad Gateway' };
    await expect(send()).rejects.toThrow('WhatsApp Cloud API: HTTP 502');
  });

  it('forgets the number on unlink: sends are refused', async () => {
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    await connector.unlink('link-1');
    await expect(connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'x' }))).rejects.toThrow(
      /link-1 is not connected/,
    );
  });

  it('answers the handshake with the verify token it was given', () => {
    const connector = connect();
    expect(connector.verifyWebhook({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': 'c1' })).toBe('c1');
    expect(connector.verifyWebhook({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': 'c1' })).toBeNull();
  });

  it('processes nothing when the signature is bad or missing', async () => {
    const connector = connect();
    const body = webhookBody({
      metadata: metadata('PN1'),
      messages: [{ from: '233241234567', id: 'wamid.A', type: 'text', text: { body: 'Hi' } }],
    });
    expect(await connector.handleWebhook(body, sign(body, 'wrong-secret'))).toBe('bad_signature');
    expect(await connector.handleWebhook(body, undefined)).toBe('bad_signature');
    expect(await connector.handleWebhook(Buffer.from(body.replace('Hi', 'Ho')), sign(body))).toBe('bad_signature');
    expect(lookups).toEqual([]);
    expect(received).toEqual([]);
  });

  it('hands each message to the bot in order, once however often Meta redelivers it, and replies through the number', async () => {
    const connector = connect();
    const body = webhookBody({
      metadata: metadata('PN1'),
      contacts: [contact('233241234567', 'Ama')],
      messages: [
        { from: '233241234567', id: 'wamid.A', timestamp: '1732262400', type: 'text', text: { body: 'Hi' } },
        {
          from: '233241234567',
          id: 'wamid.B',
          timestamp: '1732262401',
          type: 'interactive',
          interactive: { type: 'list_reply', list_reply: { id: '2', title: 'Balance' } },
        },
      ],
    });
    expect(await connector.handleWebhook(Buffer.from(body), sign(body))).toBe('ok');
    expect(await connector.handleWebhook(Buffer.from(body), sign(body))).toBe('ok');
    const addressed = { linkId: 'link-1', conversation: 'link-1:233241234567', from: '233241234567', receivedAt: RECEIVED_AT };
    expect(received).toEqual([
      ['link-1', { ...addressed, messageId: 'wamid.A', name: 'Ama', text: 'Hi', kind: 'text', sentAt: 1_732_262_400_000 }],
      ['link-1', { ...addressed, messageId: 'wamid.B', name: 'Ama', text: '2', kind: 'choice', sentAt: 1_732_262_401_000 }],
    ]);
    // The webhook named the link's number: a reply goes out through it even though startLink never ran here.
    await connector.send(chatReply('link-1', '233241234567', { type: 'text', text: 'Your balance is 10' }));
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v21.0/PN1/messages']);
  });

  it('ignores messages and statuses to a phone number id no link owns', async () => {
    const connector = connect();
    const stranger = webhookBody({
      metadata: metadata('PN-OTHER'),
      messages: [{ from: '233241234567', id: 'wamid.Z', type: 'text', text: { body: 'Hi' } }],
      statuses: [{ id: 'wamid.OUT', status: 'read', timestamp: '1732262400', recipient_id: '233241234567' }],
    });
    expect(await connector.handleWebhook(stranger, sign(stranger))).toBe('ok');
    const notJson = 'not json';
    expect(await connector.handleWebhook(notJson, sign(notJson))).toBe('ok');
    expect(lookups).toEqual(['PN-OTHER']);
    expect(received).toEqual([]);
    expect(statuses).toEqual([]);
  });

  it("reports a delivery's statuses, in order, for the link that owns its number; leaves out states it does not follow", async () => {
    const connector = connect();
    const body = webhookBody({
      metadata: metadata('PN1'),
      statuses: [
        { id: 'wamid.OUT', status: 'read', timestamp: '1732262402', recipient_id: '233241234567' },
        { id: 'wamid.OUT', status: 'delivered', timestamp: '1732262401', recipient_id: '233241234567' },
        { id: 'wamid.GONE', status: 'deleted', timestamp: '1732262401', recipient_id: '233241234567' },
        {
          id: 'wamid.LATE',
          status: 'failed',
          recipient_id: '233241234567',
          errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours.' } }],
        },
      ],
    });
    expect(await connector.handleWebhook(body, sign(body))).toBe('ok');
    expect(statuses).toEqual([
      { linkId: 'link-1', providerMessageId: 'wamid.OUT', status: 'read', at: 1_732_262_402_000 },
      { linkId: 'link-1', providerMessageId: 'wamid.OUT', status: 'delivered', at: 1_732_262_401_000 },
      {
        linkId: 'link-1',
        providerMessageId: 'wamid.LATE',
        status: 'failed',
        at: RECEIVED_AT,
        failureCode: 131047,
        failureReason: expect.stringMatching(/^Re-engagement message \(131047\): re-engagement.*\. More than 24 hours\.$/),
      },
    ]);
  });

  it("answers a send with each message's id, from Meta's answer", async () => {
    const connector = connect();
    await connector.startLink('link-1', { phoneNumberId: 'PN1' });
    const text = { type: 'text' as const, text: 'Hello' };
    expect(await connector.send(chatReply('link-1', '233241234567', text))).toEqual([{ providerMessageId: 'wamid.OUT', message: text }]);
  });

  it('remembers a bounded number of message ids, the oldest forgotten first', async () => {
    const connector = connect({ seenIdsLimit: 2 });
    const deliver = async (id: string) => {
      const body = webhookBody({ metadata: metadata('PN1'), messages: [{ from: '233241234567', id, type: 'text', text: { body: id } }] });
      await connector.handleWebhook(body, sign(body));
    };
    for (const id of ['m1', 'm2', 'm2', 'm3', 'm1']) await deliver(id);
    expect(received.map(([, m]) => m.messageId)).toEqual(['m1', 'm2', 'm3', 'm1']);
  });

  describe('media', () => {
    const photo = Buffer.from('\x89PNG\r\n\x1a\n a product photo');
    const sha256 = createHash('sha256').update(photo).digest('hex');
    const image = { kind: 'image' as const, mimeType: 'image/png', providerId: 'MEDIA1' };
    /** Meta's answer to `GET /{media-id}`, its download URL on the local server. */
    const mediaUrl = (extra: Record<string, unknown> = {}) => ({
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: `${origin}/files/MEDIA1?ext=1`,
        mime_type: 'image/png',
        sha256,
        file_size: photo.length,
        id: 'MEDIA1',
        ...extra,
      },
    });
    async function linked(overrides: Partial<CloudApiOptions> = {}) {
      const connector = connect(overrides);
      await connector.startLink('link-1', { phoneNumberId: 'PN1', accessToken: 'EAAG-own-token' });
      seen.length = 0;
      return connector;
    }
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (err: unknown) => err,
      );

    it('downloads a file: the media id with the bearer token, then its URL with the same token; checks its SHA-256', async () => {
      answers['GET /v21.0/MEDIA1'] = mediaUrl();
      answers['GET /files/MEDIA1'] = { status: 200, file: photo };
      const connector = await linked();
      expect(Buffer.from(await connector.downloadMedia('link-1', image, 5 * 1024 * 1024))).toEqual(photo);
      expect(seen.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
        'GET /v21.0/MEDIA1 Bearer EAAG-own-token',
        'GET /files/MEDIA1?ext=1 Bearer EAAG-own-token',
      ]);

      answers['GET /files/MEDIA1'] = { status: 200, file: Buffer.from('tampered bytes') };
      const tampered = await failure(connector.downloadMedia('link-1', image, 1024));
      expect(tampered).toBeInstanceOf(MediaDownloadError);
      expect(tampered).toMatchObject({ reason: 'failed', message: expect.stringMatching(/do not match the SHA-256/) });
    });

    it('refuses a file over the limit: from the size Meta gives (nothing downloaded), its Content-Length, or as it streams', async () => {
      const connector = await linked();
      answers['GET /v21.0/MEDIA1'] = mediaUrl();
      answers['GET /files/MEDIA1'] = { status: 200, file: photo };
      expect(await failure(connector.downloadMedia('link-1', image, photo.length - 1))).toMatchObject({
        reason: 'too_large',
        message: `The image MEDIA1 is larger than the ${photo.length - 1} bytes allowed`,
      });
      expect(seen.map((r) => r.url)).toEqual(['/v21.0/MEDIA1']);

      answers['GET /v21.0/MEDIA1'] = mediaUrl({ file_size: undefined, sha256: undefined });
      expect(await failure(connector.downloadMedia('link-1', image, 10))).toMatchObject({ reason: 'too_large' });
      answers['GET /files/MEDIA1'] = { status: 200, file: photo, contentLength: false };
      expect(await failure(connector.downloadMedia('link-1', image, 10))).toMatchObject({ reason: 'too_large' });

      // 64 MB offered, 1 MB allowed: reading stops, and the server is not made to produce the rest.
      answers['GET /files/MEDIA1'] = { status: 200, streamBytes: 64 * 1024 * 1024 };
      expect(await failure(connector.downloadMedia('link-1', image, 1024 * 1024))).toMatchObject({ reason: 'too_large' });
      expect(streamed).toBeLessThan(32 * 1024 * 1024);
    });

    it('says a file is gone when Meta no longer knows its media id or its URL answers 404; failed when Meta fails', async () => {
      const connector = await linked();
      answers['GET /v21.0/MEDIA1'] = graphError("Unsupported get request. Object with ID 'MEDIA1' does not exist", 100);
      expect(await failure(connector.downloadMedia('link-1', image, 1024))).toMatchObject({
        reason: 'gone',
        message: expect.stringMatching(/^The image MEDIA1: Meta no longer has it/),
      });
      answers['GET /v21.0/MEDIA1'] = { status: 404, body: 'Not Found' };
      expect(await failure(connector.downloadMedia('link-1', image, 1024))).toMatchObject({ reason: 'gone' });
      answers['GET /v21.0/MEDIA1'] = mediaUrl();
      answers['GET /files/MEDIA1'] = { status: 404, file: Buffer.from('expired') };
      expect(await failure(connector.downloadMedia('link-1', image, 1024))).toMatchObject({
        reason: 'gone',
        message: "The image MEDIA1: Meta's download answered HTTP 404",
      });
      answers['GET /v21.0/MEDIA1'] = { status: 503, body: 'busy' };
      expect(await failure(connector.downloadMedia('link-1', image, 1024))).toMatchObject({ reason: 'failed' });
      answers['GET /v21.0/MEDIA1'] = graphError('Error validating access token', 190, 401);
      expect(await failure(connector.downloadMedia('link-1', image, 1024))).toMatchObject({
        reason: 'failed',
        message: expect.stringMatching(/access token is invalid or has expired/),
      });
      expect(await failure(connector.downloadMedia('link-2', image, 1024))).toMatchObject({ reason: 'failed' });
    });

    it('sends a file: uploads it as multipart to /{phone-number-id}/media, then sends it by the id; uploads a file once', async () => {
      storedFiles.set('m-1', { bytes: photo, mimeType: 'image/png', fileName: 'shoes.png' });
      answers['POST /v21.0/PN1/media'] = { status: 200, body: { id: 'UPLOADED-1' } };
      const connector = await linked();
      const message = {
        type: 'media' as const,
        media: { mediaId: 'm-1', kind: 'image' as const, mimeType: 'image/png', size: photo.length, caption: 'New in' },
      };
      expect(await connector.send(chatReply('link-1', '233241234567', message))).toEqual([{ providerMessageId: 'wamid.OUT', message }]);
      expect(seen.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
        'POST /v21.0/PN1/media Bearer EAAG-own-token',
        'POST /v21.0/PN1/messages Bearer EAAG-own-token',
      ]);
      expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(seen[0]!.body).toEqual({
        messaging_product: 'whatsapp',
        type: 'image/png',
        file: { name: 'shoes.png', type: 'image/png', bytes: photo },
      });
      expect(seen[1]!.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '233241234567',
        type: 'image',
        image: { id: 'UPLOADED-1', caption: 'New in' },
      });

      seen.length = 0;
      await connector.send(chatReply('link-1', '233200000000', message));
      expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v21.0/PN1/messages']);
      expect(reads).toEqual(['m-1']);
    });

    it('rejects a send whose upload Meta refuses, or whose file cannot be read, and sends no message', async () => {
      storedFiles.set('m-2', { bytes: photo, mimeType: 'image/png' });
      answers['POST /v21.0/PN1/media'] = graphError('(#131053) Media upload error', 131053);
      const connector = await linked();
      const message = (mediaId: string) => ({
        type: 'media' as const,
        media: { mediaId, kind: 'image' as const, mimeType: 'image/png', size: 1 },
      });
      await expect(connector.send(chatReply('link-1', '233241234567', message('m-2')))).rejects.toMatchObject({
        name: 'CloudApiError',
        code: 131053,
        message: 'WhatsApp Cloud API: (#131053) Media upload error (131053)',
      });
      answers['POST /v21.0/PN1/media'] = { status: 200, body: {} };
      await expect(connector.send(chatReply('link-1', '233241234567', message('m-2')))).rejects.toThrow(/answered without a media id/);
      await expect(connector.send(chatReply('link-1', '233241234567', message('missing')))).rejects.toThrow('media file missing not found');
      expect(seen.map((r) => r.url)).toEqual(['/v21.0/PN1/media', '/v21.0/PN1/media']);
    });

    it('shows every kind of message as it is', () => {
      expect([...connect().nativeTypes].sort()).toEqual([
        'buttons',
        'contact',
        'link',
        'list',
        'location',
        'locationRequest',
        'media',
        'text',
      ]);
    });
  });
});
