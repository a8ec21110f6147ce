import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { eq } from 'drizzle-orm';
import { shortcodeProviders, usageCounters } from '../db/schema';
import { createTestDatabase, describeDb, testDbKind } from '../../tests/support/test-db';
import { createTestApp, useTestApp } from '../../tests/support/test-app';
import { buildApp } from './app';
import { createConfig } from './config';
import { createUser } from './core/accounts';

describeDb('server shell', () => {
  const t = useTestApp();

  it('reports the database in /api/health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: '00',
      data: { database: 'up', databaseKind: testDbKind, redis: 'not configured', events: { shed: 0 } },
    });
  });

  it('answers unknown API paths with the envelope and 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: '04', message: 'No route for GET /api/no-such-thing' });
  });

  it('answers malformed JSON with 400 and status 02', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: '02', message: 'The request body is not valid JSON.' });
  });

  it.each([
    ['a path part over 100 characters', { method: 'GET', url: `/api/getAppByAppId/${'a'.repeat(5000)}` }, 414, 'The address is too long'],
    ['a malformed %-escape', { method: 'GET', url: '/api/getAppByAppId/%E0%A4%A' }, 400, 'The address is not valid'],
    [
      'a body over the limit',
      { method: 'POST', url: '/api/auth/login', payload: `"${'x'.repeat(1_100_000)}"`, headers: { 'content-type': 'application/json' } },
      413,
      'The request is too large (at most 1 MB).',
    ],
    [
      'an empty JSON body',
      { method: 'POST', url: '/api/auth/login', payload: '', headers: { 'content-type': 'application/json' } },
      400,
      'The request body is empty',
    ],
    [
      'a Content-Type that cannot be read',
      { method: 'POST', url: '/api/auth/login', payload: 'x', headers: { 'content-type': 'bad type;;' } },
      415,
      "The request's Content-Type is not one this server reads",
    ],
    ['a method no route has', { method: 'DELETE', url: '/api/auth/login' }, 404, 'No route for DELETE /api/auth/login'],
  ] as const)("answers %s with the envelope, never Fastify's own body", async (_name, request, httpStatus, message) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(httpStatus);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.json()).sort()).toEqual(['message', 'status']);
    expect(res.json()).toMatchObject({ status: httpStatus === 404 ? '04' : '02', message: expect.stringContaining(message) });
  });

  it('answers requests Node cannot parse (headers too large, a broken request line) with the envelope', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sendRaw = (text: string) =>
      new Promise<string>((resolve) => {
        let answer = '';
        const socket = connect(Number(new URL(address).port), '127.0.0.1', () => socket.write(text));
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });
    const readAnswer = (raw: string) => ({ statusLine: raw.split('\r\n')[0], body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) });
    expect(readAnswer(await sendRaw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))).toEqual({
      statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: { status: '02', message: "The request's headers are too large." },
    });
    expect(readAnswer(await sendRaw('NOT HTTP\r\n\r\n'))).toEqual({
      statusLine: 'HTTP/1.1 400 Bad Request',
      body: { status: '02', message: 'The request is not valid HTTP.' },
    });
  });

  it('publishes an OpenAPI document built from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/changePassword', '/api/contactus', '/api/health']),
    );
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });

  it('serves the console page for / to any client, and for other client routes to browsers', async () => {
    const webDist = await mkdtemp(join(tmpdir(), 'dialflow-web-'));
    await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Dialflow</title>');
    const web = await createTestApp({ WEB_DIST: webDist });
    try {
      for (const headers of [{}, { accept: '*/*' }, { accept: 'text/html' }]) {
        const home = await web.app.inject({ method: 'GET', url: '/', headers });
        expect(home.statusCode).toBe(200);
        expect(home.headers['content-type']).toContain('text/html');
        expect(home.body).toContain('<title>Dialflow</title>');
      }
      expect((await web.app.inject({ method: 'GET', url: '/app-list', headers: { accept: 'text/html' } })).body).toContain(
        '<title>Dialflow</title>',
      );
      // An API client's typo still gets the envelope rather than a page.
      expect((await web.app.inject({ method: 'GET', url: '/app-list' })).json()).toEqual({
        status: '04',
        message: 'No route for GET /app-list',
      });
    } finally {
      await web.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });

  it('serves the build precompressed by Accept-Encoding, hashed files cached a year and pages never without asking', async () => {
    const webDist = await mkdtemp(join(tmpdir(), 'dialflow-web-'));
    const script = `console.log(${JSON.stringify('Dialflow '.repeat(400))});`;
    const page = `<!doctype html><title>Dialflow</title><script type="module" src="/assets/index-Ab12Cd34.js"></script>${' '.repeat(2000)}`;
    await mkdir(join(webDist, 'assets'));
    await writeFile(join(webDist, 'index.html'), page);
    await writeFile(join(webDist, 'assets', 'index-Ab12Cd34.js'), script);
    await writeFile(join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await precompressDir(webDist);
    expect((await readdir(join(webDist, 'assets'))).sort()).toEqual(['index-Ab12Cd34.js', 'index-Ab12Cd34.js.br', 'index-Ab12Cd34.js.gz']);
    const web = await createTestApp({ WEB_DIST: webDist });
    const get = (url: string, headers: Record<string, string>) => web.app.inject({ method: 'GET', url, headers });
    try {
      const hashed = 'public, max-age=31536000, immutable';
      const br = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(br.statusCode).toBe(200);
      expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'cache-control': hashed });
      expect(br.headers['content-type']).toContain('javascript');
      expect(Number(br.headers['content-length'])).toBeLessThan(script.length / 4);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

      const gz = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
      expect(gz.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'accept-encoding', 'cache-control': hashed });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

      const plain = await get('/assets/index-Ab12Cd34.js', {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers).toMatchObject({ vary: 'accept-encoding', 'cache-control': hashed });
      expect(plain.body).toBe(script);

      // The page, at / and as any client route's fallback: compressed too, and asked for again on every visit, so a
      // deploy's new page (naming the new build's files) is seen at once.
      for (const url of ['/', '/index.html', '/app/design/some-app']) {
        const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers, url).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'cache-control': 'no-cache' });
        expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(page);
      }
      // A file outside /assets is not hashed: revalidated. Too small to be worth compressing, it goes as is.
      const icon = await get('/favicon.svg', { 'accept-encoding': 'br' });
      expect(icon.headers).toMatchObject({ 'cache-control': 'no-cache' });
      expect(icon.headers['content-encoding']).toBeUndefined();
      // A chunk of an earlier build (a tab open across a deploy) is a 404, never the page in its place; nor are
      // the compressed copies URLs of their own.
      for (const url of ['/assets/menu-design-page-Old12345.js', '/assets/index-Ab12Cd34.js.br']) {
        const res = await get(url, { accept: 'text/html,*/*', 'accept-encoding': 'br' });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ status: '04', message: `No route for GET ${url}` });
      }
    } finally {
      await web.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });

  it.each([
    ['console', { console: true, gateways: false }],
    ['runtime', { console: false, gateways: true }],
  ] as const)('MODE=%s registers its own routes and start-up work; the timers run and stop in every mode', async (mode, serves) => {
    const testDb = await createTestDatabase();
    const { db } = testDb.database;
    await db.insert(shortcodeProviders).values({ providerName: 'Legacy', providerKey: `legacy-${mode}`, acceptsUnauthenticated: true });
    const owner = await createUser(db, {
      fullName: 'Owner',
      mobileNumber: '233200000000',
      email: `owner-${mode}@test.dialflow`,
      password: 'secret-123',
    });
    const warnings: string[] = [];
    const app = await buildApp(
      createConfig({ NODE_ENV: 'test', MODE: mode, LOG_FORMAT: 'json', BILLING_TIMER_INTERVAL_MS: 0, WEBHOOK_DISPATCH_INTERVAL_MS: 0 }),
      {
        database: testDb.database,
        logger: { level: 'warn', stream: { write: (line: string) => void warnings.push(line) } },
      },
    );
    try {
      await app.ready();
      const urls = new Set(app.routeTable.map((route) => route.url));
      expect(urls.has('/api/payments/callback/:provider')).toBe(true);
      expect(urls.has('/ussd/provider/:providerId')).toBe(serves.gateways);
      expect(urls.has('/api/sms/outbox')).toBe(serves.console);
      expect(urls.has('/api/subscription/current')).toBe(serves.console);
      // Gateway processes name legacy providers at start; a console process has no traffic of theirs to warn about.
      expect(warnings.some((line) => line.includes('shortcode provider accepts unauthenticated traffic'))).toBe(serves.gateways);
      expect(await app.webhookDispatcher.runOnce()).toBe(0);
      await app.ctx.usageTallies.count(owner.id, 'sessions', null);
      await app.close();
      // Stopping the timers at close flushed what this process counted, whatever its mode.
      expect(await db.select({ count: usageCounters.count }).from(usageCounters).where(eq(usageCounters.userId, owner.id))).toEqual([
        { count: 1 },
      ]);
    } finally {
      await app.close();
      await testDb.close();
    }
  });
});
