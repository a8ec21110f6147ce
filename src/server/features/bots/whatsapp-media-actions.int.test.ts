import { linkSimulatedNumber } from '../../../../tests/support/inbox-bot';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, makePng } from '../../../../tests/support/media-files';
import { seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, useTestApp, useUser, type TestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { mediaFiles } from '../../../db/schema';
import { MEDIA_TYPES } from '../../../shared/media';
import { MEDIA_MESSAGES } from '../media/media.service';
import { URL_FILE_REUSE_MS } from './whatsapp-media';

/**
 * Files and actions (docs/media.md, docs/runtime.md "Files"): a REST call answering a PDF keeps it for the app's
 * account and the next menu sends it; a file by https address is fetched through the REST action's guarded path,
 * stored, and reused within the hour; a private address is refused unless allowed; a file too large or forged is
 * left out while the rest of the reply goes; a REST action sends a user's photo on by a fresh signed link.
 */

/** A self-signed certificate for 127.0.0.1, made for this run: the local https server's, trusted through OUTBOUND_CA_FILE. */
const certDir = mkdtempSync(join(tmpdir(), 'dialflow-media-tls-'));
execFileSync(
  'openssl',
  [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
    ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')],
  ],
  { stdio: 'ignore' },
);
const CA_FILE = join(certDir, 'cert.pem');

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

/** A local server answering by path; counts the requests each path got. */
function useFileServer(secure: boolean, routes: Record<string, Handler>) {
  const server = {} as { base: string; hits: Map<string, number>; close(): Promise<void> };
  let listening: Server;
  beforeAll(async () => {
    const hits = new Map<string, number>();
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        hits.set(path, (hits.get(path) ?? 0) + 1);
        const route = routes[path];
        if (!route) return res.writeHead(404).end();
        route(req, Buffer.concat(chunks), res);
      });
    };
    listening = secure
      ? createHttpsServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(CA_FILE) }, handle)
      : createServer(handle);
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    Object.assign(server, { base: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`, hits });
  });
  afterAll(async () => {
    listening?.closeAllConnections?.();
    await new Promise((resolve) => listening?.close(resolve));
  });
  return server;
}

const answer =
  (contentType: string, bytes: Buffer, headers: Record<string, string> = {}): Handler =>
  (_req, _body, res) =>
    res.writeHead(200, { 'content-type': contentType, ...headers }).end(bytes);

const RECEIPT = makePdf('Receipt 42');
const PHOTO = makePng(3, 2);
// One byte over what WhatsApp takes of an image, with a real PNG's first bytes.
const TOO_BIG = Buffer.concat([makePng(1, 1), Buffer.alloc(MEDIA_TYPES.image.maxBytes + 1 - makePng(1, 1).length)]);

/** A deployed bot on a simulator number, scanned; answers the simulated phone's send for one number. */
async function linkBot(t: TestApp, auth: { authorization: string }, name: string, design: (appId: string) => Promise<void>) {
  const { get, post } = createApiClient(t, { auth });
  const created = (await post('/api/chatbot/app/create', { appName: name, description: 'Files', botType: 'whatsapp' })).json();
  const appId = created.data.appId as string;
  await design(appId);
  expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  const { linkId, secret } = await linkSimulatedNumber(t, { auth }, appId, '+233200000012');
  const phone = async (body: Record<string, unknown>) => {
    const res = await post(`/api/whatsapp-simulator/${linkId}/messages`, { secret, from: '233209999912', ...body }, {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.messages as Array<Record<string, unknown>>;
  };
  return { appId, phone };
}

const hi = { text: 'hi', kind: 'text' };

/** A menu sending the file at `url` (an image) with its text. */
const sendsByAddress = (url: string, displayText: string) => ({
  userDefinedName: 'hello',
  displayText,
  isFirst: true,
  terminate: true,
  attachments: [{ type: 'file', kind: 'image', source: 'url', value: url, caption: 'Our shop', fileName: '' }],
});

describeDb('files from actions and addresses, private addresses allowed', () => {
  // Links live a minute here, so that one expires while the session waits.
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true, OUTBOUND_CA_FILE: CA_FILE, MEDIA_URL_TTL_SECONDS: 60 });
  const builder = useUser(t, { roles: ['CHATBOT'] });
  beforeAll(() => t.app.startScripts());
  const pushed: Array<Record<string, unknown>> = [];
  const api = useFileServer(false, {
    '/receipt': answer('application/pdf', RECEIPT, { 'content-disposition': 'attachment; filename="receipt-42.pdf"' }),
    '/forged': answer('application/pdf', PHOTO),
    '/big': answer('image/png', TOO_BIG),
    '/claims': (_req, body, res) => {
      pushed.push(JSON.parse(body.toString('utf8')));
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"claim":"C-7"}');
    },
  });
  const cdn = useFileServer(true, {
    '/shop.png': answer('image/png', PHOTO),
    '/big.png': answer('image/png', TOO_BIG),
    '/fake.png': answer('image/png', RECEIPT),
  });

  it("keeps the PDF a REST call answers for the bot's account, and the menu sends it as a document", async () => {
    const { appId, phone } = await linkBot(t, builder.auth, 'Receipt Bot', async (appId) => {
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'hello',
        displayText: 'Paid. {{ actions.receipt.file.fileName }} ({{ actions.receipt.file.size }} bytes)',
        isFirst: true,
        terminate: true,
        actions: [
          { actionName: 'receipt', actionType: 'pre', inheritsPlugin: 'restapi', code: { method: 'GET', url: `${api.base}/receipt` } },
        ],
        attachments: [
          { type: 'file', kind: 'document', source: 'variable', value: 'actions.receipt.file', caption: 'Your receipt', fileName: '' },
        ],
      });
    });
    const reply = await phone(hi);
    expect(reply).toEqual([
      {
        type: 'media',
        media: expect.objectContaining({ kind: 'document', mimeType: 'application/pdf', size: RECEIPT.length, caption: 'Your receipt' }),
      },
      { type: 'text', text: `Paid. receipt-42.pdf (${RECEIPT.length} bytes)` },
    ]);
    const stored = await t.db
      .select()
      .from(mediaFiles)
      .where(and(eq(mediaFiles.appId, appId), eq(mediaFiles.source, 'action')));
    expect(stored).toEqual([expect.objectContaining({ ownerId: builder.user.id, kind: 'document', fileName: 'receipt-42.pdf' })]);
    // What went out is that file, with a link that serves its bytes.
    const { url } = (reply[0] as { media: { url: string } }).media;
    const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
    expect(served.rawPayload.equals(RECEIPT)).toBe(true);
  });

  it('refuses a forged or too large file an action answered with: the action fails with the reason, the rest of the reply goes', async () => {
    const refusals = {
      '/forged': MEDIA_MESSAGES.forgedType('application/pdf', 'image/png'),
      '/big': MEDIA_MESSAGES.tooLargeForKind('image'),
    };
    for (const [path, reason] of Object.entries(refusals)) {
      const { appId, phone } = await linkBot(t, builder.auth, `Refused ${path}`, async (appId) => {
        await seedMenu(t, builder.auth, appId, {
          userDefinedName: 'hello',
          displayText: 'Sorry: {{ actions.receipt.error }}',
          isFirst: true,
          terminate: true,
          actions: [
            { actionName: 'receipt', actionType: 'pre', inheritsPlugin: 'restapi', code: { method: 'GET', url: `${api.base}${path}` } },
          ],
          attachments: [{ type: 'file', kind: 'document', source: 'variable', value: 'actions.receipt.file', caption: '', fileName: '' }],
        });
      });
      expect(await phone(hi), path).toEqual([
        { type: 'text', text: `Sorry: The file ${api.base}${path} answered with was not kept: ${reason}` },
      ]);
      expect(await t.db.select().from(mediaFiles).where(eq(mediaFiles.appId, appId))).toEqual([]);
    }
  });

  it('fetches a file by address once, sends it again from the store within the hour, and fetches it again after', async () => {
    const address = `${cdn.base}/shop.png`;
    const { phone } = await linkBot(t, builder.auth, 'Shop Bot', (appId) =>
      seedMenu(t, builder.auth, appId, sendsByAddress(address, 'Welcome')).then(() => {}),
    );
    const sent = {
      type: 'media',
      media: expect.objectContaining({ kind: 'image', mimeType: 'image/png', size: PHOTO.length, caption: 'Our shop' }),
    };
    expect(await phone(hi)).toEqual([sent, { type: 'text', text: 'Welcome' }]);
    expect(await phone(hi)).toEqual([sent, { type: 'text', text: 'Welcome' }]);
    expect(cdn.hits.get('/shop.png')).toBe(1);
    const rows = await t.db.select().from(mediaFiles).where(eq(mediaFiles.sourceUrl, address));
    expect(rows).toEqual([expect.objectContaining({ ownerId: builder.user.id, source: 'url', kind: 'image' })]);

    t.advanceClock(URL_FILE_REUSE_MS + 1000);
    expect(await phone(hi)).toEqual([sent, { type: 'text', text: 'Welcome' }]);
    expect(cdn.hits.get('/shop.png')).toBe(2);
  });

  it('leaves out a file by address that is too large, forged or missing, and sends the rest of the reply', async () => {
    for (const path of ['/big.png', '/fake.png', '/gone.png']) {
      const { phone } = await linkBot(t, builder.auth, `Bad ${path}`, (appId) =>
        seedMenu(t, builder.auth, appId, sendsByAddress(`${cdn.base}${path}`, 'Still here')).then(() => {}),
      );
      expect(await phone(hi), path).toEqual([{ type: 'text', text: 'Still here' }]);
      expect(cdn.hits.get(path), path).toBe(1);
      expect(
        await t.db
          .select()
          .from(mediaFiles)
          .where(eq(mediaFiles.sourceUrl, `${cdn.base}${path}`)),
      ).toEqual([]);
    }
  });

  it("sends a user's photo on to a REST endpoint, and shows it to a script, by a signed link made fresh when the action runs", async () => {
    const { phone } = await linkBot(t, builder.auth, 'Claims Bot', async (appId) => {
      const done = await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'done',
        displayText: 'Claim {{ actions.file.body.claim }} filed. {{ actions.look.kind }} {{ actions.look.link }}',
        terminate: true,
        actions: [
          {
            actionName: 'look',
            actionType: 'pre',
            inheritsPlugin: 'javascript',
            code: 'return { kind: session.media.photo.kind, link: session.media.photo.url };',
          },
          {
            actionName: 'file',
            actionType: 'pre',
            inheritsPlugin: 'restapi',
            code: {
              method: 'POST',
              url: `${api.base}/claims`,
              contentType: 'application/json',
              payload: '{"photo": "{{ session.media.photo.url }}", "type": "{{ session.media.photo.mimeType }}"}',
            },
          },
        ],
      });
      const wait = await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'wait',
        displayText: 'Reply with anything to file it.',
        switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
      });
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'photo',
        displayText: 'Send a photo of the damage',
        isFirst: true,
        inputKind: 'image',
        switchOperations: [{ operator: 'always', action: 'goto', actionParam: wait }],
      });
    });
    await phone(hi);
    expect(await phone({ kind: 'media', text: '', file: { data: PHOTO.toString('base64'), mimeType: 'image/png' } })).toEqual([
      { type: 'text', text: 'Reply with anything to file it.' },
    ]);
    // The link the session got with the photo has expired by the time the action runs.
    t.advanceClock(90_000);
    const [filed] = await phone({ text: 'ok', kind: 'text' });
    expect(filed).toEqual({ type: 'text', text: expect.stringMatching(/^Claim C-7 filed\. image http\S+\/media\/\S+$/) });
    expect(pushed).toEqual([{ photo: expect.stringContaining('/media/'), type: 'image/png' }]);
    // The REST endpoint's link and the script's both serve the photo.
    const scripts = (filed as { text: string }).text.split(' ').pop()!;
    for (const link of [new URL(pushed[0]!.photo as string), new URL(scripts)]) {
      const served = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
      expect(served.statusCode, served.body).toBe(200);
      expect(served.rawPayload.equals(PHOTO)).toBe(true);
    }
  });
});

describeDb("another account's file named by a script", () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  // The scripts' workers load before the hop, not inside its budget.
  beforeAll(() => t.app.startScripts());

  it('is never signed for an action nor sent', async () => {
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/media?kind=document&fileName=theirs.pdf',
      headers: { ...stranger.auth, 'content-type': 'application/pdf' },
      payload: RECEIPT,
    });
    const theirs = uploaded.json().data.mediaId as string;
    const { phone } = await linkBot(t, builder.auth, 'Borrowing Bot', async (appId) => {
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'hello',
        displayText: 'Link: {{ actions.look.link }}',
        isFirst: true,
        terminate: true,
        actions: [
          {
            actionName: 'fake',
            actionType: 'pre',
            inheritsPlugin: 'javascript',
            code: `return { file: { mediaId: '${theirs}', kind: 'document', mimeType: 'application/pdf', size: ${RECEIPT.length} } };`,
          },
          {
            actionName: 'look',
            actionType: 'pre',
            inheritsPlugin: 'javascript',
            code: "return { link: actions.fake.file.url || 'none' };",
          },
        ],
        attachments: [{ type: 'file', kind: 'document', source: 'variable', value: 'actions.fake.file', caption: '', fileName: '' }],
      });
    });
    expect(await phone(hi)).toEqual([{ type: 'text', text: 'Link: none' }]);
  });
});

describe('files by address, private addresses refused', () => {
  describeDb('with ALLOW_PRIVATE_NETWORK off', () => {
    const t = useTestApp({ OUTBOUND_CA_FILE: CA_FILE });
    const builder = useUser(t, { roles: ['CHATBOT'] });
    const cdn = useFileServer(true, { '/shop.png': answer('image/png', PHOTO) });

    it('never reaches a loopback address for a file, and sends the rest of the reply', async () => {
      const { phone } = await linkBot(t, builder.auth, 'Private Bot', (appId) =>
        seedMenu(t, builder.auth, appId, sendsByAddress(`${cdn.base}/shop.png`, 'Welcome')).then(() => {}),
      );
      expect(await phone(hi)).toEqual([{ type: 'text', text: 'Welcome' }]);
      expect(cdn.hits.get('/shop.png')).toBeUndefined();
      expect(await t.db.select().from(mediaFiles)).toEqual([]);
    });
  });
});
