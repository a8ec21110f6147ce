/**
 * A REST action that calls the platform itself, against another tenant's REST actions (issue 26, finding 4).
 *
 *   npx tsx bench/self-loop.ts                       # quiet 10 s, then 40 self-loop requests and 15 s more (~40 s)
 *   npx tsx bench/self-loop.ts --loops=40 --phase=15 --quiet=10
 *
 * One process: the whole server (buildApp, PGlite in memory, private addresses refused as shipped, BILLING=off)
 * listening on 127.0.0.1, a local upstream API (named in OUTBOUND_ALLOW_HOSTS) answering at once, and the
 * clients. Tenant V's app runs a restapi action against the upstream on every session; its sessions are sent
 * one after another and timed. Tenant A's app runs a javascript action (a fresh session id) and a restapi
 * action that posts a new session to A's own test URL: on a server that lets it, each session starts another,
 * for ever. `loops` anonymous requests start it. The bench reports V's latency before and during, how many
 * hops reached A's URL during the phase and in the 5 s after the last of the 40 requests was given up, then
 * closes the server (which ends any chain). Everything is bounded: each request gives up after 10 s.
 * Run it in a worktree of an older commit for "before" figures; the load average is printed (shared machine).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { createUser } from '../src/server/core/accounts';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const LOOPS = Number(args.loops ?? 40);
const PHASE_S = Number(args.phase ?? 15);
const QUIET_S = Number(args.quiet ?? 10);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamHost = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const probe = createServer();
await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
const port = (probe.address() as AddressInfo).port;
await new Promise<void>((r) => probe.close(() => r()));
const base = `http://127.0.0.1:${port}`;

const dataDir = mkdtempSync(join(tmpdir(), 'dialflow-self-loop-'));
const database = await openDatabase({ thread: true, lowPriority: true });
await database.migrate();
const app = await buildApp(
  createConfig({
    NODE_ENV: 'production',
    PORT: port,
    DATA_DIR: dataDir,
    BILLING: 'off',
    SEED_DEMO: false,
    OUTBOUND_ALLOW_HOSTS: [upstreamHost],
    WEBHOOK_DISPATCH_INTERVAL_MS: 0,
    LOGIN_ADDRESS_RATE_LIMIT: 1000,
  }),
  { database, logger: false },
);
let loopHops = 0;
let attackerApp = '';
app.addHook('onRequest', async (req) => {
  if (attackerApp && req.url.startsWith(`/ussd/${attackerApp}/`)) loopHops++;
});
await app.listen({ port, host: '127.0.0.1' });

async function api(auth: Record<string, string>, path: string, payload: object) {
  const res = await app.inject({ method: 'POST', url: path, headers: auth, payload });
  const body = res.json();
  if (body.status !== '00') throw new Error(`${path}: ${res.body}`);
  return body;
}
async function seedTenant(name: string, menus: (appId: string) => object[]): Promise<string> {
  const email = `${name}${Date.now()}@bench.dialflow`;
  await createUser(database.db, { fullName: name, mobileNumber: '233200000000', email, password: 'secret-123' });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'secret-123' } });
  const auth = { authorization: `Bearer ${login.json().token}` };
  const created = await api(auth, '/api/createApp', {
    appName: name,
    description: name,
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*55#',
  });
  const appId = created.data.appId as string;
  for (const menu of menus(appId)) await api(auth, '/api/createMenu', { appId, ...menu });
  return appId;
}
const restapi = (code: object) => ({ actionName: 'q', actionType: 'pre', inheritsPlugin: 'restapi', code });
const victimApp = await seedTenant('victim', () => [
  {
    userDefinedName: 'balance',
    displayText: 'Upstream said {{ actions.q.status }}',
    isFirst: true,
    terminate: true,
    actions: [
      restapi({
        method: 'GET',
        url: `http://${upstreamHost}/ok`,
        contentType: 'application/json',
        payload: '',
        headers: [],
        basicAuth: null,
      }),
    ],
  },
]);
const form = (sessionId: string) => ({ sessionId, serviceCode: '*920*55#', phoneNumber: '+233241112222', networkCode: '62001', text: '' });
attackerApp = await seedTenant('attacker', (appId) => [
  {
    userDefinedName: 'loop',
    displayText: 'Looped {{ actions.q.status }} {{ actions.q.error }}',
    isFirst: true,
    terminate: true,
    actions: [
      {
        actionName: 'id',
        actionType: 'pre',
        inheritsPlugin: 'javascript',
        code: 'return { vars: { next: "L" + Math.random().toString(36).slice(2) } }',
      },
      restapi({
        method: 'POST',
        url: `${base}/ussd/${appId}/test`,
        contentType: 'application/x-www-form-urlencoded',
        payload: JSON.stringify(form('{{ session.vars.next }}')),
        headers: [],
        basicAuth: null,
      }),
    ],
  },
]);

// Starts the javascript pool before anything is timed (it starts on first use, and takes seconds on a loaded machine).
const warmApp = await seedTenant('warm', () => [
  {
    userDefinedName: 'warm',
    displayText: 'Warm {{ session.vars.next }}',
    isFirst: true,
    terminate: true,
    actions: [{ actionName: 'id', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return { vars: { next: "w" } }' }],
  },
]);
await app.inject({ method: 'POST', url: `/ussd/${warmApp}/test`, payload: form('warm') });

let seq = 0;
async function victimHop(): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}/ussd/${victimApp}/test`, {
      method: 'POST',
      body: new URLSearchParams(form(`V${seq++}`)),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { ms: performance.now() - started, ok: text === 'END Upstream said 200' };
  } catch {
    return { ms: performance.now() - started, ok: false };
  }
}
async function measure(seconds: number) {
  const times: number[] = [];
  let wrong = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const { ms, ok } = await victimHop();
    times.push(ms);
    if (!ok) wrong++;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  return `${times.length} sessions, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times.at(-1)!.toFixed(1)} ms, wrong ${wrong}`;
}

console.log(`load before: ${load()}`);
await measure(2); // warm-up: the javascript pool, the upstream connection
console.log(`quiet:  V ${await measure(QUIET_S)}`);
const attack = Array.from({ length: LOOPS }, (_, i) =>
  fetch(`${base}/ussd/${attackerApp}/test`, {
    method: 'POST',
    body: new URLSearchParams(form(`A${i}`)),
    signal: AbortSignal.timeout(10_000),
  })
    .then((r) => r.text())
    .catch((err: Error) => `gave up (${err.name})`),
);
await sleep(500);
console.log(`attack: V ${await measure(PHASE_S)}  (load ${load()})`);
const answers = await Promise.all(attack);
const hopsDuring = loopHops;
await sleep(5_000);
const kinds = new Map<string, number>();
for (const answer of answers) kinds.set(answer.slice(0, 90), (kinds.get(answer.slice(0, 90)) ?? 0) + 1);
console.log(`attacker: ${LOOPS} requests answered:`);
for (const [answer, n] of kinds) console.log(`  ${n} x ${answer}`);
console.log(
  `hops reaching the attacker's URL: ${hopsDuring} by the end of the phase, ${loopHops - hopsDuring} more in the 5 s after (a chain still running)`,
);
console.log(`load after: ${load()}`);
await app.close();
await database.close?.();
upstream.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
