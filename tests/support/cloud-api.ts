import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/server/config';
import { createTestApp, type TestApp } from './test-app';

/**
 * The WhatsApp Cloud API around a test server: a local HTTP server stands in for graph.facebook.com (each test
 * answers as Meta's documentation shows for what it exercises), the server's settings point at it, and webhook
 * deliveries are written and signed as Meta sends them.
 */

export const CLOUD_APP_SECRET = 'cloud-app-secret';
export const CLOUD_ACCESS_TOKEN = 'EAAG-test-token';
/** The customer who writes to the bots (Kofi). */
export const CLOUD_CUSTOMER = '233241234567';

/** One request the local Graph API received. */
export interface GraphCall {
  method: string;
  /** As sent, with the version and query: `/v21.0/{phone-number-id}/messages`. */
  url: string;
  /** After the version, without the query: `/{phone-number-id}/messages`. */
  path: string;
  query: URLSearchParams;
  /** The Authorization header, '' when there was none. */
  authorization: string;
  /** The token of a `Bearer` header, '' when there was none. */
  token: string;
  contentType: string | undefined;
  /** The body's exact text. */
  raw: string;
  /** The body read as JSON (the Graph API takes objects); `{}` when there was none, or a multipart one. */
  body: Record<string, unknown>;
}

/** What the local Graph API answers: a JSON body, 200 unless `status` says otherwise. */
export interface GraphReply {
  status?: number;
  body: unknown;
}

/** A test server whose WhatsApp Cloud API settings point at a local Graph API; `close` stops both. */
export type CloudTestApp = TestApp & { apiUrl: string };

/** A server's settings for the Cloud API connector with the Graph API at `apiUrl`. */
export function cloudTestSettings(apiUrl: string): Partial<Config> {
  return {
    WHATSAPP_CONNECTOR: 'cloud',
    WHATSAPP_CLOUD_API_URL: apiUrl,
    WHATSAPP_CLOUD_ACCESS_TOKEN: CLOUD_ACCESS_TOKEN,
    WHATSAPP_CLOUD_APP_SECRET: CLOUD_APP_SECRET,
    WHATSAPP_CLOUD_VERIFY_TOKEN: 'verify-me',
  };
}

/**
 * Starts the local Graph API (answering each request with `reply`) and a test server linked to it with the Cloud
 * API connector, the token {@link CLOUD_ACCESS_TOKEN} and the app secret {@link CLOUD_APP_SECRET}; `overrides`
 * change or add settings (another token, WHATSAPP_CONNECTORS, a business account id...).
 */
export async function createCloudTestApp(reply: (call: GraphCall) => GraphReply, overrides: Partial<Config> = {}): Promise<CloudTestApp> {
  const graph = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://graph.local');
      const authorization = req.headers.authorization ?? '';
      const answer = reply({
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname.replace(/^\/v\d+\.\d+/, ''),
        query: url.searchParams,
        authorization,
        token: authorization.replace(/^Bearer /, ''),
        contentType: req.headers['content-type'],
        raw,
        // A media upload is multipart: its body is left to `raw`.
        body: raw && !req.headers['content-type']?.startsWith('multipart/') ? (JSON.parse(raw) as Record<string, unknown>) : {},
      });
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
  const closeGraph = () => new Promise<void>((resolve) => graph.close(() => resolve()));
  const apiUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;
  let t: TestApp;
  try {
    t = await createTestApp({ ...cloudTestSettings(apiUrl), ...overrides });
  } catch (err) {
    await closeGraph();
    throw err;
  }
  return {
    ...t,
    apiUrl,
    async close() {
      await t.close();
      await closeGraph();
    },
  };
}

/** Meta's answer to a send (`POST /{phone-number-id}/messages`): the message's `wamid...`. */
export function graphSent(messageId: string, to = CLOUD_CUSTOMER): GraphReply {
  return { body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: messageId }] } };
}

/** A Graph API refusal: `{ error: { message, type, code, fbtrace_id } }`, with `more` fields (`type`, `error_subcode`...). */
export function graphError(status: number, message: string, code: number, more: Record<string, unknown> = {}): GraphReply {
  return { status, body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbC', ...more } } };
}

/** A webhook POST's body as Meta sends it: one entry (a business account's, `entry` its fields) with one change. */
export function cloudWebhookBody(field: string, value: Record<string, unknown>, entry: Record<string, unknown> = { id: 'WABA-1' }): string {
  return JSON.stringify({ object: 'whatsapp_business_account', entry: [{ ...entry, changes: [{ field, value }] }] });
}

/** A `messages` change for one of our numbers: its metadata, then what it carries (contacts and messages, or statuses). */
export function cloudMessagesBody(
  phoneNumberId: string,
  value: Record<string, unknown>,
  { displayPhoneNumber = phoneNumberId, wabaId = 'WABA-1' }: { displayPhoneNumber?: string; wabaId?: string } = {},
): string {
  const metadata = { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId };
  return cloudWebhookBody('messages', { messaging_product: 'whatsapp', metadata, ...value }, { id: wabaId });
}

/** What the customer wrote, as a `messages` change carries it: their profile, and one message (`message` its type and content). */
export function customerMessage(messageId: string, message: Record<string, unknown>): Record<string, unknown> {
  return {
    contacts: [{ profile: { name: 'Kofi' }, wa_id: CLOUD_CUSTOMER }],
    messages: [{ from: CLOUD_CUSTOMER, id: messageId, timestamp: '1764150000', ...message }],
  };
}

/** `X-Hub-Signature-256` as Meta computes it: the HMAC-SHA256 of the exact body under the app secret. */
export function signCloudBody(body: string, secret = CLOUD_APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs a body to the Cloud API webhook, with `signature` as its `X-Hub-Signature-256` (none when it is not given). */
export function postCloudWebhook(t: TestApp, body: string, signature?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/whatsapp/cloud/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
    payload: body,
  });
}
