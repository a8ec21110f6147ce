import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFreePort } from '../../../../tests/support/free-port';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

const form = (sessionId: string) => ({
  sessionId,
  serviceCode: '*920*55#',
  phoneNumber: '+233241112222',
  networkCode: '62001',
  text: '',
});

/** A restapi action's code: `url` with an Africa's Talking start hop as its form body (a gateway hop). */
const postHop = (url: string, sessionId = 'chain-{{ session.sessionId }}') => ({
  method: 'POST',
  url,
  contentType: 'application/x-www-form-urlencoded',
  payload: JSON.stringify(form(sessionId)),
  headers: [],
  basicAuth: null,
});
const get = (url: string, headers: Array<{ key: string; value: string }> = []) => ({
  method: 'GET',
  url,
  contentType: 'application/json',
  payload: '',
  headers,
  basicAuth: null,
});

/**
 * Actions and webhooks never reach this server but on the demo bank's paths, and a hop one of them sends is
 * refused wherever it comes back from: without that, an action posting to its own app's test URL re-entered
 * itself for ever, and every loop held a connection of the outbound pool other tenants share. The server
 * listens for real here, with the production defaults (private addresses refused, a local echo server named in
 * OUTBOUND_ALLOW_HOSTS).
 */
describeDb.each([
  // Private addresses refused (the default): the server's loopback address is refused as any other.
  { allowPrivate: false, refused: /Refused: \S+ (is|resolves to) (this platform's own server|a private address)/ },
  // Allowed (self-hosted next to its own systems, the test suite): its address and port are refused as the platform's.
  { allowPrivate: true, refused: /Refused: \S+ (\(\S+\) )?is this platform's own server/ },
])('calls from actions and webhooks to the platform itself (private addresses allowed: $allowPrivate)', ({ allowPrivate, refused }) => {
  // The refusal on the app's last screen; a private address's refusal names the settings that allow it, longer
  // than one USSD screen, so its first page (CON, with More) is what comes back.
  const ended = new RegExp(`^(END|CON) ${refused.source}`);
  let t: TestApp;
  let owner: SeededUser;
  let base: string;
  let echo: Server;
  let echoBase: string;
  /** An app whose only screen says "Hello from B": what a call that got through would show. */
  let target: string;

  beforeAll(async () => {
    echo = createServer((req, res) => {
      const url = new URL(req.url!, 'http://echo');
      if (url.pathname === '/headers') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(Object.keys(req.headers).sort().join(','));
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to')! }).end();
      } else {
        // A proxy that keeps the request's headers, as a builder's redirector could.
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', async () => {
          const { host: _host, 'content-length': _length, connection: _connection, ...headers } = req.headers as Record<string, string>;
          try {
            const answer = await fetch(url.searchParams.get('to')!, { method: req.method, headers, body: body || undefined });
            res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(await answer.text());
          } catch (err) {
            res.writeHead(502).end(String(err));
          }
        });
      }
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoBase = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const port = await findFreePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      PORT: port,
      // The name the public reaches the server by: refused by name (it never needs to resolve here).
      PUBLIC_URL: 'https://public.dialflow.invalid:8443',
      ALLOW_PRIVATE_NETWORK: allowPrivate,
      OUTBOUND_ALLOW_HOSTS: [new URL(echoBase).host],
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await seedUser(t);
    target = await seedApp(t, owner.auth);
    await seedMenu(t, owner.auth, target, { userDefinedName: 'hello', displayText: 'Hello from B', isFirst: true, terminate: true });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => echo?.close(resolve));
  });

  /** Dials a new app whose first screen runs the restapi `code` (or one made from the new app's id) and shows what it got. */
  async function dial(code: object | ((appId: string) => object)): Promise<string> {
    const appId = await seedApp(t, owner.auth);
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'result',
      displayText:
        '{% if actions.q.error %}{{ actions.q.error }}{% else %}{{ actions.q.status }} {{ actions.q.body.accountNumber | default: actions.q.body }}{% endif %}',
      isFirst: true,
      terminate: true,
      actions: [{ actionName: 'q', actionType: 'pre', inheritsPlugin: 'restapi', code: typeof code === 'function' ? code(appId) : code }],
    });
    const res = await fetch(`${base}/ussd/${appId}/test`, {
      method: 'POST',
      body: new URLSearchParams(form(`SC-${randomBytes(4).toString('hex')}`)),
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  it("refuses an action's call to a gateway URL, its own app's included, on the server's own address", async () => {
    expect(await dial(postHop(`${base}/ussd/${target}/test`))).toMatch(ended);
    expect(await dial(postHop(`${base.replace('127.0.0.1', 'localhost')}/ussd/${target}/test`))).toMatch(ended);
    expect(await dial(postHop(`https://public.dialflow.invalid:8443/ussd/${target}/test`))).toBe(
      "END Refused: public.dialflow.invalid:8443 is this platform's own server",
    );
    // The loop: the app posts a new session to its own test URL. The session ends, and nothing runs on.
    expect(await dial((appId) => postHop(`${base}/ussd/${appId}/test`))).toMatch(ended);
  });

  it('refuses the console API, the emulator and dot segments out of the demo bank, and keeps the demo bank', async () => {
    expect(await dial(get(`${base}/api/getApps`))).toMatch(ended);
    expect(await dial(postHop(`${base}/ussd-emulator/${target}`))).toMatch(ended);
    expect(await dial(get(`${base}/api/sandbox/accounts/../../getApps`))).toMatch(ended);
    expect(await dial(get(`${base}/api/sandbox/accounts/%2e%2e/%2e%2e/getApps`))).toMatch(ended);
    expect(await dial(get(`${base}/api/sandbox/accounts/123456`))).toBe('END 200 123456');
  });

  it('refuses a redirect from elsewhere to a gateway URL of the server', async () => {
    const to = encodeURIComponent(`${base}/ussd/${target}/test`);
    expect(await dial(get(`${echoBase}/redirect?to=${to}`))).toMatch(ended);
  });

  it('never sends forwarding headers, and marks every request it sends', async () => {
    const spoofed = ['X-Forwarded-For', 'X-Forwarded-Host', 'Forwarded', 'X-Real-IP', 'True-Client-IP', 'Dialflow-Hop'].map((key) => ({
      key,
      value: '203.0.113.7',
    }));
    const received = (await dial(get(`${echoBase}/headers`, [...spoofed, { key: 'X-Api-Key', value: 'k' }]))).split(',');
    expect(received).toContain('x-api-key');
    expect(received).toContain('dialflow-hop');
    for (const name of ['x-forwarded-for', 'x-forwarded-host', 'forwarded', 'x-real-ip', 'true-client-ip'])
      expect(received).not.toContain(name);
  });

  it('refuses a hop that comes back through a proxy that keeps headers, with the gateway end screen', async () => {
    const viaProxy = (to: string) => `${echoBase}/proxy?to=${encodeURIComponent(to)}`;
    expect(await dial(postHop(viaProxy(`${base}/ussd/${target}/test`)))).toBe(
      'END 200 END This service cannot be reached from a REST action or a webhook.',
    );
    // The console API answers such a request with the envelope's refusal.
    expect(await dial(get(viaProxy(`${base}/api/getApps`)))).toMatch(/^END 403 \{"status":"\d+","message":"This service cannot be reached/);
    // The loop through the proxy ends after one turn.
    expect(await dial((appId) => postHop(viaProxy(`${base}/ussd/${appId}/test`)))).toBe(
      'END 200 END This service cannot be reached from a REST action or a webhook.',
    );
  });

  it("refuses a webhook URL on the server's own address", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/apps/${target}/webhook`,
      headers: owner.auth,
      payload: { url: `${base}/ussd/${target}/test`, events: ['session.completed'], isEnabled: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(refused);
  });
});
