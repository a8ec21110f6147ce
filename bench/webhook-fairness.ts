/**
 * One account's slow webhook receivers against another account's webhook (issue 26, finding 7).
 *
 *   npx tsx bench/webhook-fairness.ts                # quiet, then 8 slow apps of one account (~40 s)
 *   npx tsx bench/webhook-fairness.ts --apps=8 --each=3 --hold=10 --rounds=3
 *
 * One process: the whole server (buildApp, PGlite in memory, its webhook dispatcher on its timer as shipped:
 * 16 slots, 1 s interval, WEBHOOK_TIMEOUT_MS raised to 15 s so the slow receivers' answers count), local
 * receivers on 127.0.0.1 (ALLOW_PRIVATE_NETWORK=true, as a self-hosted install would set to reach them). The
 * hostile account has `apps` apps whose receiver answers after `hold` seconds, `each` deliveries queued for each
 * (as session events would be, written to the table); the victim account's app has a receiver that answers at
 * once. The victim presses "Send test event" `rounds` times (quiet first, then while the hostile deliveries are
 * queued and in flight) and the time from the press to its receiver getting the event is reported, with how many
 * of the hostile account's deliveries were in flight at that moment. Bounded: every wait gives up after 30 s,
 * and the slow receivers answer everything they hold when it ends. Run it in a worktree of an older commit for
 * the "before" figures; the load average is printed (shared machine).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { webhookDeliveries } from '../src/db/schema';
import { createUser } from '../src/server/core/accounts';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const APPS = Number(args.apps ?? 8);
const EACH = Number(args.each ?? 3);
const HOLD_S = Number(args.hold ?? 10);
const ROUNDS = Number(args.rounds ?? 3);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const held = new Set<ServerResponse>();
let isEnding = false;
const slow = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (isEnding) return res.writeHead(200).end('ok');
    held.add(res);
    setTimeout(() => {
      held.delete(res);
      res.writeHead(200).end('late');
    }, HOLD_S * 1000).unref();
  });
});
let onVictim: (() => void) | null = null;
const fast = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200).end('ok');
    onVictim?.();
  });
});
const listen = async (server: typeof slow) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const slowBase = await listen(slow);
const fastBase = await listen(fast);

const database = await openDatabase({ thread: true, lowPriority: true });
await database.migrate();
const app = await buildApp(
  createConfig({
    NODE_ENV: 'production',
    BILLING: 'off',
    SEED_DEMO: false,
    ALLOW_PRIVATE_NETWORK: true,
    WEBHOOK_TIMEOUT_MS: 15_000,
    LOGIN_ADDRESS_RATE_LIMIT: 1000,
  }),
  { database, logger: false },
);
await app.ready();

async function api(auth: Record<string, string>, path: string, payload: object) {
  const res = await app.inject({ method: 'POST', url: path, headers: auth, payload });
  const body = res.json();
  if (body.status !== '00') throw new Error(`${path}: ${res.body}`);
  return body;
}
async function seedAccount(name: string) {
  const email = `${name}${Date.now()}@bench.dialflow`;
  await createUser(database.db, { fullName: name, mobileNumber: '233200000000', email, password: 'secret-123' });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'secret-123' } });
  return { authorization: `Bearer ${login.json().token}` };
}
async function seedHookedApp(auth: Record<string, string>, url: string): Promise<string> {
  const created = await api(auth, '/api/createApp', {
    appName: 'Hooked',
    description: 'bench',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*55#',
  });
  const appId = created.data.appId as string;
  await api(auth, `/api/apps/${appId}/webhook`, { url, events: ['session.completed'], isEnabled: true });
  return appId;
}

const hostile = await seedAccount('hostile');
const hostileApps: string[] = [];
for (let i = 0; i < APPS; i++) hostileApps.push(await seedHookedApp(hostile, `${slowBase}/hooks/${i}`));
const victim = await seedAccount('victim');
const victimApp = await seedHookedApp(victim, `${fastBase}/hooks/victim`);

const hostileInFlight = async () =>
  (
    await database.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.appId, hostileApps), eq(webhookDeliveries.status, 'sending')))
  ).length;

/** Presses "Send test event" on the victim's app; ms until its receiver has the event. */
async function victimRound(): Promise<string> {
  const got = new Promise<void>((resolve) => (onVictim = resolve));
  const started = performance.now();
  await api(victim, `/api/apps/${victimApp}/webhook/test`, {});
  const inFlight = await hostileInFlight();
  const outcome = await Promise.race([got.then(() => 'ok'), sleep(30_000).then(() => 'gave up after 30 s')]);
  const ms = performance.now() - started;
  return `${outcome === 'ok' ? `${ms.toFixed(1)} ms` : outcome} (hostile deliveries sending when pressed: ${inFlight})`;
}

console.log(`load before: ${load()}`);
await victimRound(); // warm-up
for (let i = 0; i < ROUNDS; i++) console.log(`quiet:  victim's test event received after ${await victimRound()}`);
const now = new Date();
await database.db.insert(webhookDeliveries).values(
  hostileApps.flatMap((appId) =>
    Array.from({ length: EACH }, () => ({
      appId,
      eventId: `evt_bench_${randomUUID()}`,
      eventType: 'session.completed',
      data: {},
      occurredAt: now,
      nextAttemptAt: now,
    })),
  ),
);
await sleep(1_500); // a tick of the dispatcher's timer takes them
for (let i = 0; i < ROUNDS; i++) {
  console.log(`attack: victim's test event received after ${await victimRound()}  (load ${load()})`);
  await sleep(1_000);
}
console.log(`load after: ${load()}`);
isEnding = true;
for (const res of held) res.writeHead(200).end('ended');
await app.close();
slow.close();
fast.close();
process.exit(0);
