import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restapiCodeSchema, type RestapiCode } from '../shared/app';
import { createRestapiRunner, type RestapiResult, type RestapiRunner } from './restapi';
import { testInput, testScope } from './test-input';

const scope = testScope({ inputs: { amount: '20', name: 'Ama "A" & <b>', hostile: '", "admin": true, "x": "' } }, 'a&b=c/d?e');

const makeInput = (code: Partial<RestapiCode>, deadlineMs = 3_000) =>
  testInput('restapi', restapiCodeSchema.parse(code), { scope, actionName: 'call', deadline: Date.now() + deadlineMs });

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

function startServer(handler: http.RequestListener): Promise<{ server: http.Server; port: number; base: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, port, base: `http://127.0.0.1:${port}` });
    }),
  );
}

let main: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;
let open: RestapiRunner;
let closed: RestapiRunner;
let allowFirst: RestapiRunner;

beforeAll(async () => {
  other = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"reached":"other"}');
  });
  main = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (url.pathname === '/redirect') {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/echo' });
        return res.end('moved');
      }
      const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
      if (chain) {
        const n = Number(chain[1]);
        if (n === 0) return res.end('end of chain');
        res.writeHead(302, { location: `/chain/${n - 1}` });
        return res.end();
      }
      if (url.pathname === '/loop/a' || url.pathname === '/loop/b') {
        res.writeHead(302, { location: url.pathname === '/loop/a' ? '/loop/b' : '/loop/a' });
        return res.end();
      }
      if (url.pathname === '/big') {
        res.setHeader('content-type', 'text/plain');
        return res.end('x'.repeat(300 * 1024));
      }
      if (url.pathname === '/big-chunked') {
        res.setHeader('content-type', 'text/plain');
        for (let i = 0; i < 40; i++) res.write('y'.repeat(10 * 1024));
        return res.end();
      }
      if (url.pathname === '/slow') return; // never answers
      if (url.pathname === '/text') {
        res.setHeader('content-type', 'text/plain');
        return res.end('plain words');
      }
      if (url.pathname === '/status/404') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"error":"nope"}');
      }
      const echo: Echo = { method: req.method ?? '', url: req.url ?? '', headers: req.headers as Record<string, string>, body };
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('x-echo', 'yes');
      res.end(JSON.stringify(echo));
    });
  });
  open = createRestapiRunner({ allowPrivate: true });
  closed = createRestapiRunner({ allowPrivate: false });
  allowFirst = createRestapiRunner({ allowPrivate: false, allowHosts: [`127.0.0.1:${main.port}`] });
});

afterAll(async () => {
  await Promise.all([open.close(), closed.close(), allowFirst.close()]);
  main.server.closeAllConnections();
  other.server.closeAllConnections();
  await Promise.all([new Promise((r) => main.server.close(r)), new Promise((r) => other.server.close(r))]);
});

async function call(runner: RestapiRunner, code: Partial<RestapiCode>, deadlineMs?: number) {
  return runner.run(makeInput(code, deadlineMs));
}

async function callOk(runner: RestapiRunner, code: Partial<RestapiCode>): Promise<RestapiResult> {
  const outcome = await call(runner, code);
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome.result as RestapiResult;
}

/** What the local server's /echo received from a request with this method, content type and payload. */
async function echo(method: RestapiCode['method'], contentType: RestapiCode['contentType'], payload: string): Promise<Echo> {
  return (await callOk(open, { method, url: `${main.base}/echo`, contentType, payload })).body as Echo;
}

describe('restapi: requests (private addresses allowed for the local test server)', () => {
  it('GETs with templates in the url (percent-encoded after the host) and headers, parsing a JSON answer', async () => {
    const result = await callOk(open, {
      method: 'GET',
      url: `${main.base}/echo/{{ session.mobile }}?q={{ inRequest.input }}`,
      headers: [{ key: 'X-Msisdn', value: '{{ session.mobile }}' }],
    });
    expect(result.status).toBe(200);
    expect(result.ok).toBe(true);
    expect(result.headers['x-echo']).toBe('yes');
    const body = result.body as Echo;
    expect(body.method).toBe('GET');
    expect(body.url).toBe('/echo/233244000000?q=a%26b%3Dc%2Fd%3Fe');
    expect(body.headers['x-msisdn']).toBe('233244000000');
    expect(body.headers['user-agent']).toBe('Dialflow/1.0');
  });

  it('takes a base url from a template in the host part as written', async () => {
    const withBase = { ...scope, session: { ...scope.session, vars: { base: main.base } } };
    const input = testInput('restapi', restapiCodeSchema.parse({ method: 'GET', url: '{{ session.vars.base }}/echo' }), {
      scope: withBase,
      actionName: 'call',
    });
    const outcome = await open.run(input);
    expect(outcome.ok && (outcome.result as RestapiResult).status).toBe(200);
  });

  it('POSTs JSON with templates; a hostile value stays inside its string and a number stays a number', async () => {
    const body = await echo(
      'POST',
      'application/json',
      '{"amount": {{ session.inputs.amount }}, "mobile": {{ session.mobile }}, "note": "{{ session.inputs.hostile }}", "name": "{{ session.inputs.name }}"}',
    );
    expect(body.headers['content-type']).toBe('application/json');
    expect(JSON.parse(body.body)).toEqual({ amount: 20, mobile: 233244000000, note: '", "admin": true, "x": "', name: 'Ama "A" & <b>' });
  });

  it('refuses a JSON payload that is not JSON after templates', async () => {
    const outcome = await call(open, { method: 'POST', url: `${main.base}/echo`, payload: '{"a": 1,,}' });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^Request body must be valid JSON after templates/) });
  });

  it('sends a form body from a JSON payload and from a raw one, encoding template values', async () => {
    const form = 'application/x-www-form-urlencoded';
    const fromJson = await echo('POST', form, '{"amount": "{{ session.inputs.amount }}", "input": "{{ inRequest.input }}"}');
    expect(fromJson.body).toBe('amount=20&input=a%26b%3Dc%2Fd%3Fe');
    expect(fromJson.headers['content-type']).toBe(form);
    const raw = await echo('PUT', form, 'amount={{ session.inputs.amount }}&input={{ inRequest.input }}');
    expect(raw.method).toBe('PUT');
    expect(Object.fromEntries(new URLSearchParams(raw.body))).toEqual({ amount: '20', input: 'a&b=c/d?e' });
  });

  it('sends XML with template values escaped', async () => {
    const result = await echo('POST', 'text/xml', '<pay><name>{{ session.inputs.name }}</name></pay>');
    expect(result.body).toBe('<pay><name>Ama &quot;A&quot; &amp; &lt;b&gt;</name></pay>');
    expect(result.headers['content-type']).toBe('text/xml');
  });

  it('sends basic auth and returns a text body as text', async () => {
    const result = await callOk(open, {
      method: 'GET',
      url: `${main.base}/echo`,
      basicAuth: { username: 'shop', password: '{{ session.inputs.amount }}' },
    });
    expect((result.body as Echo).headers.authorization).toBe(`Basic ${Buffer.from('shop:20').toString('base64')}`);
    const text = await callOk(open, { method: 'GET', url: `${main.base}/text` });
    expect(text.body).toBe('plain words');
  });

  it('reports a 404 as a result with ok false, not as a failed action', async () => {
    const result = await callOk(open, { method: 'GET', url: `${main.base}/status/404` });
    expect(result).toMatchObject({ status: 404, ok: false, body: { error: 'nope' } });
  });

  it('refuses a header value with a line break', async () => {
    const input = makeInput({ method: 'GET', url: `${main.base}/echo`, headers: [{ key: 'X-A', value: '{{ x }}' }] });
    input.renderTemplate = (s) => (s === '{{ x }}' ? 'a\r\nInjected: 1' : s);
    const outcome = await open.run(input);
    expect(outcome).toMatchObject({ ok: false, error: 'Header X-A contains a line break after templates' });
  });

  it('follows redirects: 302 turns POST into GET without a body, 307 keeps both', async () => {
    const moved = await callOk(open, { method: 'POST', url: `${main.base}/redirect?status=302&to=/echo`, payload: '{"a":1}' });
    expect(moved.body).toMatchObject({ method: 'GET', body: '' });
    const kept = await callOk(open, { method: 'POST', url: `${main.base}/redirect?status=307&to=/echo`, payload: '{"a":1}' });
    expect(kept.body).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('follows at most 5 redirects and refuses a loop', async () => {
    expect((await callOk(open, { method: 'GET', url: `${main.base}/chain/5` })).body).toBe('end of chain');
    expect(await call(open, { method: 'GET', url: `${main.base}/chain/6` })).toMatchObject({
      ok: false,
      error: `Too many redirects from ${main.base}/chain/1 (more than 5)`,
    });
    expect(await call(open, { method: 'GET', url: `${main.base}/loop/a` })).toMatchObject({
      ok: false,
      error: `Redirect loop at ${main.base}/loop/a`,
    });
  });

  it('drops credentials on a redirect to another origin', async () => {
    const result = await callOk(open, {
      method: 'GET',
      url: `${main.base}/redirect?to=${encodeURIComponent(`http://localhost:${main.port}/echo`)}`,
      basicAuth: { username: 'u', password: 'p' },
    });
    expect((result.body as Echo).headers.authorization).toBeUndefined();
  });

  it('refuses a body over the cap, with or without content-length', async () => {
    expect(await call(open, { method: 'GET', url: `${main.base}/big` })).toMatchObject({
      ok: false,
      error: `Response from ${main.base}/big is larger than 262144 bytes`,
    });
    expect(await call(open, { method: 'GET', url: `${main.base}/big-chunked` })).toMatchObject({
      ok: false,
      error: `Response from ${main.base}/big-chunked is larger than 262144 bytes`,
    });
  });

  it('ends at the deadline with timedOut', async () => {
    // /slow never answers: only the deadline ends the call (the test's own timeout bounds it).
    const outcome = await call(open, { method: 'GET', url: `${main.base}/slow?key=secret` }, 300);
    expect(outcome).toMatchObject({
      ok: false,
      timedOut: true,
      error: expect.stringMatching(new RegExp(`^Request to ${main.base}/slow timed out after \\d+ ms$`)),
    });
  });

  it('refuses cloud metadata even when private addresses are allowed', async () => {
    expect(await call(open, { method: 'GET', url: 'http://169.254.169.254/latest/meta-data/' })).toMatchObject({
      ok: false,
      error: 'Refused: 169.254.169.254 is a cloud metadata address',
    });
  });
});

describe('restapi: address rules (private addresses refused)', () => {
  it.each([
    [
      '127.0.0.1',
      () => `${main.base}/echo`,
      /^Refused: 127\.0\.0\.1 is a private address \(loopback\)\. A self-hosted installation allows private addresses with ALLOW_PRIVATE_NETWORK=true, or this one with OUTBOUND_ALLOW_HOSTS=127\.0\.0\.1:\d+\.$/,
    ],
    [
      '[::1]',
      () => `http://[::1]:${main.port}/echo`,
      /^Refused: ::1 is a private address \(loopback\)\. .*OUTBOUND_ALLOW_HOSTS=\[::1\]:\d+\.$/,
    ],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/', /^Refused: 169\.254\.169\.254 is a cloud metadata address$/],
    ['0177.0.0.1 (octal)', () => `http://0177.0.0.1:${main.port}/echo`, /^Refused: 127\.0\.0\.1 is a private address/],
    ['2130706433 (decimal)', () => `http://2130706433:${main.port}/echo`, /^Refused: 127\.0\.0\.1 is a private address/],
    [
      '[::ffff:127.0.0.1] (IPv4-mapped)',
      () => `http://[::ffff:127.0.0.1]:${main.port}/echo`,
      /^Refused: ::ffff:7f00:1 is a private address/,
    ],
    [
      '[::127.0.0.1] (IPv4-compatible)',
      () => `http://[::127.0.0.1]:${main.port}/echo`,
      /^Refused: ::7f00:1 is a private address \(loopback\)\. A self-hosted installation allows/,
    ],
    [
      '[64:ff9b::127.0.0.1] (NAT64)',
      () => `http://[64:ff9b::127.0.0.1]:${main.port}/echo`,
      /^Refused: 64:ff9b::7f00:1 is a private address \(loopback\)\. A self-hosted installation allows/,
    ],
    [
      '10.0.0.1',
      () => 'http://10.0.0.1/',
      /^Refused: 10\.0\.0\.1 is a private address \(private\)\. A self-hosted installation allows private addresses with ALLOW_PRIVATE_NETWORK=true, or this one with OUTBOUND_ALLOW_HOSTS=10\.0\.0\.1:80\.$/,
    ],
    [
      'localhost (resolved at connect time)',
      () => `http://localhost:${main.port}/echo`,
      /^Refused: localhost resolves to a private address \((127\.0\.0\.1|::1), loopback\)\. .*OUTBOUND_ALLOW_HOSTS=localhost:\d+\.$/,
    ],
  ])('refuses %s', async (_name, url, message) => {
    const outcome = await call(closed, { method: 'GET', url: url() });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && outcome.error).toMatch(message);
  });

  it('allowHosts lets exactly that host:port through', async () => {
    const result = await callOk(allowFirst, { method: 'GET', url: `${main.base}/echo` });
    expect(result.status).toBe(200);
    expect(await call(allowFirst, { method: 'GET', url: `${other.base}/` })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a private address \(loopback\)\. /),
    });
    expect(await call(allowFirst, { method: 'GET', url: `http://localhost:${main.port}/echo` })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Refused: localhost resolves/),
    });
  });

  it.each([
    ['127.0.0.1 on another port', () => `${other.base}/`],
    ['0177.0.0.1', () => `http://0177.0.0.1:${other.port}/`],
    ['2130706433', () => `http://2130706433:${other.port}/`],
    ['[::1]', () => `http://[::1]:${other.port}/`],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['localhost', () => `http://localhost:${other.port}/`],
  ])('re-checks a redirect from an allowed host to %s and refuses it', async (_name, target) => {
    const outcome = await call(allowFirst, { method: 'GET', url: `${main.base}/redirect?to=${encodeURIComponent(target())}` });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^Refused: /) });
  });

  it('refuses non-http schemes', async () => {
    expect(await call(open, { method: 'GET', url: 'file:///etc/passwd' })).toMatchObject({
      ok: false,
      error: 'Request URL must be http or https, not file:',
    });
    expect(
      await call(allowFirst, { method: 'GET', url: `${main.base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}` }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/file: URL refused/) });
  });
});

describe('files', () => {
  const pdf = Buffer.from('%PDF-1.4\nreceipt\n%%EOF');
  let files: Awaited<ReturnType<typeof startServer>>;
  let keeping: RestapiRunner;
  const kept: Array<{ bytes: Buffer; mimeType: string; fileName?: string }> = [];
  let refuse: string | null = null;

  beforeAll(async () => {
    files = await startServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/receipt')
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="r-42.pdf"' });
      else if (path === '/missing.pdf') res.writeHead(404, { 'content-type': 'application/pdf' });
      else if (path === '/notes.txt') res.writeHead(200, { 'content-type': 'text/plain' });
      else res.writeHead(200, { 'content-type': 'image/png' });
      res.end(pdf);
    });
    keeping = createRestapiRunner({
      allowPrivate: true,
      keepFile: async (_input, file) => {
        if (refuse) throw new Error(refuse);
        kept.push(file);
        return { mediaId: 'm-1', kind: 'document' };
      },
    });
  });
  afterAll(async () => {
    await keeping.close();
    files.server.closeAllConnections();
    await new Promise((resolve) => files.server.close(resolve));
  });

  it("hands a 2xx answer of a media type to the keeper, whose answer is the result's file", async () => {
    const outcome = await keeping.run(makeInput({ method: 'GET', url: `${files.base}/receipt` }));
    expect(outcome).toMatchObject({ ok: true, result: { status: 200, ok: true, body: '', file: { mediaId: 'm-1' } } });
    expect(kept).toEqual([{ bytes: pdf, mimeType: 'application/pdf', fileName: 'r-42.pdf' }]);
    // The file's name, without Content-Disposition, is the address's last segment.
    await keeping.run(makeInput({ method: 'GET', url: `${files.base}/shop%20front.png` }));
    expect(kept[1]).toMatchObject({ mimeType: 'image/png', fileName: 'shop front.png' });
  });

  it('keeps plain text, an error answer and every answer of a runner without a keeper as a body', async () => {
    kept.length = 0;
    expect(await keeping.run(makeInput({ method: 'GET', url: `${files.base}/notes.txt` }))).toMatchObject({
      ok: true,
      result: { body: pdf.toString('utf8') },
    });
    expect(await keeping.run(makeInput({ method: 'GET', url: `${files.base}/missing.pdf` }))).toMatchObject({
      ok: true,
      result: { status: 404, body: pdf.toString('utf8') },
    });
    expect(kept).toEqual([]);
    const outcome = await open.run(makeInput({ method: 'GET', url: `${files.base}/receipt` }));
    expect(outcome).toMatchObject({ ok: true, result: { body: pdf.toString('utf8') } });
    expect((outcome as { result: RestapiResult }).result.file).toBeUndefined();
  });

  it("fails the action with the keeper's reason when the file is refused", async () => {
    refuse = 'The file is empty.';
    expect(await keeping.run(makeInput({ method: 'GET', url: `${files.base}/receipt` }))).toEqual({
      ok: false,
      error: `The file ${files.base}/receipt answered with was not kept: The file is empty.`,
      logs: [],
    });
    refuse = null;
  });

  it('fetches a file by https address only, through the address rules', async () => {
    const limits = { maxBytes: 1000, timeoutMs: 2000 };
    await expect(keeping.fetchFile(`${files.base}/shop.png`, limits)).rejects.toThrow(/is not an https:\/\/ address$/);
    await expect(closed.fetchFile(`https://127.0.0.1:${files.port}/shop.png`, limits)).rejects.toThrow(/^Refused: 127\.0\.0\.1/);
  });
});
