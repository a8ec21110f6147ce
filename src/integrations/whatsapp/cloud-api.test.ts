import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import type { LinkUpdate } from './whatsapp-connector';

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

  it('reads a caption as text, and media without one as media with no text; reactions are left out', () => {
    const [delivery] = read([
      { from: '233241234567', id: 'wamid.I1', type: 'image', image: { id: 'MEDIA1', mime_type: 'image/jpeg', caption: ' 3 ' } },
      { from: '233241234567', id: 'wamid.I2', type: 'image', image: { id: 'MEDIA2', mime_type: 'image/jpeg' } },
      { from: '233241234567', id: 'wamid.V', type: 'audio', audio: { id: 'MEDIA3', voice: true } },
      { from: '233241234567', id: 'wamid.S', type: 'sticker', sticker: { id: 'MEDIA4' } },
      { from: '233241234567', id: 'wamid.P', type: 'location', location: { latitude: 5.6, longitude: -0.2 } },
      { from: '233241234567', id: 'wamid.X', type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] },
      { from: '233241234567', id: 'wamid.R', type: 'reaction', reaction: { message_id: 'wamid.OUT', emoji: '👍' } },
    ]);
    expect(delivery!.messages.map(({ messageId, kind, text }) => ({ messageId, kind, text }))).toEqual([
      { messageId: 'wamid.I1', kind: 'text', text: '3' },
      { messageId: 'wamid.I2', kind: 'media', text: '' },
      { messageId: 'wamid.V', kind: 'media', text: '' },
      { messageId: 'wamid.S', kind: 'media', text: '' },
      { messageId: 'wamid.P', kind: 'media', text: '' },
      { messageId: 'wamid.X', kind: 'media', text: '' },
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

describe('Cloud API connector against a local Graph API', () => {
  let server: Server;
  let apiUrl: string;
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: unknown }> = [];
  /** What the local Graph API answers next, by method and path. */
  let answers: Record<string, { status: number; body: unknown }> = {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: body ? JSON.parse(body) : undefined });
        const answer = answers[`${req.method} ${req.url!.split('?')[0]}`] ?? {
          status: 404,
          body: { error: { message: 'Unknown path', code: 803 } },
        };
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let updates: Array<[string, LinkUpdate]>;
  let received: Array<[string, ChatMessage]>;
  let lookups: string[];
  let statuses: DeliveryUpdate[];
  beforeEach(() => {
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
});
