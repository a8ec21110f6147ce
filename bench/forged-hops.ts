/**
 * Forged hops on a shared shortcode's provider URL (issue 26): a TRIAL tenant (500 live sessions a month) has
 * `*920*34#` connected to its app, and an anonymous sender who knows only the public provider id sends 520 new
 * sessions to `/ussd/provider/{providerId}` over real HTTP, each with a made-up phone number, 8 in flight.
 * Reports what the server answered, how many sessions were counted against the tenant's month, and what a real
 * caller (dialling through the Provider Url as admins hand it out) reads afterwards. Where the server has
 * provider keys, two more runs: the same flood at a legacy provider (bare URL still served) and 520 dials from
 * one number through the keyed URL. Bounded: 520 requests a run, loopback only.
 *
 *   npx tsx bench/forged-hops.ts
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { createUser } from '../src/server/core/accounts';
import { findUsage } from '../src/server/features/billing/plan-limits';

const DIALS = 520;
const IN_FLIGHT = 8;

const database = await openDatabase({ thread: true, lowPriority: true });
await database.migrate();
const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', BILLING_TIMER_INTERVAL_MS: 0 }), {
  database,
  logger: false,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function signIn(input: { email: string; password: string }): Promise<Record<string, string>> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: input });
  return { authorization: `Bearer ${res.json().token}` };
}

async function call(auth: Record<string, string>, url: string, payload?: object) {
  const res = await app.inject({ method: payload ? 'POST' : 'GET', url, headers: auth, ...(payload ? { payload } : {}) });
  return res.json();
}

const adminInput = { email: `admin-${randomUUID()}@bench.test`, password: 'bench-admin-1' };
await createUser(database.db, { fullName: 'Admin', ...adminInput, userType: 'internal_admin', roles: ['ADMIN'] });
const admin = await signIn(adminInput);

/** A TRIAL tenant with an app on `*920*34#` of its own provider; answers the tenant and the provider as admins see it. */
async function seedTenant(providerId: string) {
  const ownerInput = { email: `owner-${randomUUID()}@bench.test`, password: 'bench-owner-1' };
  const owner = await createUser(database.db, { fullName: 'Trial Tenant', ...ownerInput });
  const auth = await signIn(ownerInput);
  const created = await call(auth, '/api/createApp', {
    appName: 'Shop',
    description: 'x',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*555*1#',
  });
  if (created.status !== '00') throw new Error(`createApp failed: ${JSON.stringify(created)}`);
  const appId = created.data.appId as string;
  await call(auth, '/api/createMenu', {
    appId,
    userDefinedName: 'home',
    displayText: 'Welcome to the shop',
    isFirst: true,
    terminate: true,
  });
  const extension = await call(admin, '/api/subscription/createShortCode', {
    country: 'Ghana',
    shortCode: '*920*',
    provider: providerId,
    method: 'POST',
    extension: '',
    extLength: 2,
    price: '150',
  });
  const given = await call(admin, '/api/subscription/provisionShortCode', {
    extensionUuid: extension.data.uuid,
    userEmail: ownerInput.email,
    shortCode: '34',
    leaseCount: 1,
  });
  const connected = await call(auth, '/api/connectAppToShortCode/', { uuid: given.data.uuid, appId, linkedAppEnv: 'test' });
  if (connected.status !== '00') throw new Error(`connect failed: ${JSON.stringify(connected)}`);
  const providers = (await call(admin, '/api/getAllProviders')).data as Array<{ uuid: string; providerId: string; providerUrl: string }>;
  return { ownerId: owner.id, provider: providers.find((p) => p.providerId === providerId)! };
}

let sessions = 0;
async function dial(url: string, phoneNumber?: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      sessionId: `forged-${++sessions}`,
      serviceCode: '*920*34#',
      phoneNumber: phoneNumber ?? `+2332${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      text: '',
    }).toString(),
  });
  return { status: res.status, body: await res.text() };
}

/** DIALS new sessions to `url`, IN_FLIGHT at a time: what was answered, and what the tenant's month counted. */
async function flood(label: string, url: string, ownerId: string, realCallerUrl: string, phoneNumber?: string) {
  const answers = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < DIALS) {
        next++;
        const { status, body } = await dial(url, phoneNumber);
        const kind =
          status !== 200 ? `HTTP ${status}` : body.startsWith('CON') || body.startsWith('END Welcome') ? 'app screen' : body.slice(0, 60);
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const counted = (await findUsage(app.ctx, ownerId)).sessions;
  const real = await dial(realCallerUrl);
  console.log(`\n${label}`);
  console.log(`  ${DIALS} dials in ${seconds.toFixed(1)} s: ${[...answers].map(([k, n]) => `${n} x ${k}`).join(', ')}`);
  console.log(`  counted against the TRIAL month (500): ${counted}`);
  console.log(`  a real caller then reads: ${real.status} ${real.body.slice(0, 90)}`);
}

try {
  const first = await seedTenant(`forge${randomUUID().slice(0, 6)}`);
  const bare = `${origin}/ussd/provider/${first.provider.providerId}`;
  const handedOut = first.provider.providerUrl.replace(/^http:\/\/[^/]+/, origin);
  await flood('forged dials to the bare provider URL (made-up numbers)', bare, first.ownerId, handedOut);

  // Provider keys (where the server has them): a provider still on the legacy flag, and one number through the key.
  const second = await seedTenant(`legacy${randomUUID().slice(0, 6)}`);
  const legacy = await call(admin, `/api/updateProviderAccess/${second.provider.uuid}`, {
    acceptsUnauthenticated: true,
    allowedSources: [],
  });
  if (legacy.status === '00') {
    const secondBare = `${origin}/ussd/provider/${second.provider.providerId}`;
    await flood('the same at a provider with the legacy flag on (bare URL served)', secondBare, second.ownerId, secondBare);
    const third = await seedTenant(`onenum${randomUUID().slice(0, 6)}`);
    const keyed = third.provider.providerUrl.replace(/^http:\/\/[^/]+/, origin);
    await flood('one number, 520 dials through the keyed URL', keyed, third.ownerId, keyed, '+233240000001');
  }
} finally {
  await (app as FastifyInstance).close();
  await database.close();
}
