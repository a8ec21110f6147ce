import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedShop } from '../../../../tests/support/seed-app';
import { testRedisUrl, describeRedis } from '../../../../tests/support/redis';
import { createApiClient, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import type { Provider } from '../../../shared/api/shortcodes.schema';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { findUsage } from '../billing/plan-limits';
import { GATEWAY_ACCESS_MESSAGES } from '../../core/gateway-access';
import { GATEWAY_LIMIT_TEXTS } from '../runtime/gateway-limits';

/**
 * A provider of its own (unique id), `*920*` + 2 digits in its catalogue, and `*920*34#` given to `owner` and
 * connected to a shop app. Answers the provider as admins see it.
 */
async function seedProvider(t: TestApp, admin: SeededUser, owner: SeededUser): Promise<{ provider: Provider; shopId: string }> {
  const adminApi = createApiClient(t, admin);
  const providerId = `p${randomUUID().slice(0, 8)}`;
  const registered = await adminApi.post('/api/registerProvider', { providerName: 'Forge Test', providerId });
  const provider = registered.json().data as Provider;
  const created = await adminApi.post('/api/subscription/createShortCode', {
    country: 'Ghana',
    shortCode: '*920*',
    provider: providerId,
    method: 'POST',
    extension: '',
    extLength: 2,
    price: '150',
  });
  const extensionUuid = created.json().data.uuid as string;
  const shopId = await seedShop(t, owner.auth, { appName: 'Shop' });
  const given = await adminApi.post('/api/subscription/provisionShortCode', {
    extensionUuid,
    userEmail: owner.email,
    shortCode: '34',
    leaseCount: 1,
  });
  const connected = await createApiClient(t, owner).post('/api/connectAppToShortCode/', {
    uuid: given.json().data.uuid,
    appId: shopId,
    linkedAppEnv: 'test',
  });
  expect(connected.json().status, connected.body).toBe('00');
  return { provider, shopId };
}

let sessions = 0;
/** A new Africa's Talking session on `*920*34#` sent to `url`, from `phoneNumber`. */
function dial(t: TestApp, url: string, options: { phoneNumber?: string; headers?: Record<string, string>; remoteAddress?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: options.remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    payload: new URLSearchParams({
      sessionId: `forge-${sessions++}`,
      serviceCode: '*920*34#',
      phoneNumber: options.phoneNumber ?? `+23324${String(sessions).padStart(7, '0')}`,
      text: '',
    }).toString(),
  });
}

const usedSessions = async (t: TestApp, owner: SeededUser) => (await findUsage(t.app.ctx, owner.user.id)).sessions;
const bareUrl = (provider: Provider) => `/ussd/provider/${provider.providerId}`;
const keyedUrl = (provider: Provider) => `/ussd/provider/${provider.providerId}/${provider.gatewayKey}`;

describeDb('provider keys: /ussd/provider/{providerId}/{key}', () => {
  const t = useTestApp({ TOKEN_TTL_DAYS: 365, SHORTCODE_TIMER_INTERVAL_MS: 0 });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const owner = useUser(t, { plan: 'TRIAL' });
  let provider: Provider;
  let shopId: string;
  beforeAll(async () => {
    ({ provider, shopId } = await seedProvider(t, admin, owner));
  });

  it('gives a new provider a 256-bit key in its URL, with the legacy flag off and no allow-list', () => {
    expect(Buffer.from(provider.gatewayKey, 'base64url')).toHaveLength(32);
    expect(provider.providerUrl).toBe(`http://localhost:80/ussd/provider/${provider.providerId}/${provider.gatewayKey}`);
    expect(provider).toMatchObject({ acceptsUnauthenticated: false, allowedSources: [] });
  });

  it('refuses a forged hop (no key, a wrong key) with 401: no session starts and nothing is counted against the tenant', async () => {
    const before = await usedSessions(t, owner);
    for (const url of [bareUrl(provider), `${bareUrl(provider)}/${'A'.repeat(43)}`, `${bareUrl(provider)}/${provider.gatewayKey}x`]) {
      const res = await dial(t, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ status: '05', message: GATEWAY_ACCESS_MESSAGES.unauthenticated });
    }
    const wrongHeader = await dial(t, bareUrl(provider), { headers: { 'x-dialflow-key': 'nope' } });
    expect(wrongHeader.statusCode).toBe(401);
    await t.app.runtime.flushEvents();
    expect(await t.app.runtime.findActiveSessions(shopId)).toEqual([]);
    expect(await usedSessions(t, owner)).toBe(before);
  });

  it('serves the right key in the path or in an X-Dialflow-Key header, and counts those sessions', async () => {
    const before = await usedSessions(t, owner);
    const inPath = await dial(t, keyedUrl(provider));
    expect(inPath.statusCode).toBe(200);
    expect(inPath.body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    const inHeader = await dial(t, bareUrl(provider), { headers: { 'x-dialflow-key': provider.gatewayKey } });
    expect(inHeader.body).toMatch(/^CON Welcome to the shop/);
    expect(await usedSessions(t, owner)).toBe(before + 2);
  });

  it('answers an unknown provider 404', async () => {
    const res = await dial(t, `/ussd/provider/nosuch${randomUUID().slice(0, 6)}/${provider.gatewayKey}`);
    expect(res.statusCode).toBe(404);
  });

  it('serves the bare URL only while the legacy flag is on', async () => {
    const adminApi = createApiClient(t, admin);
    const on = await adminApi.post(`/api/updateProviderAccess/${provider.uuid}`, { acceptsUnauthenticated: true, allowedSources: [] });
    expect(on.json().data).toMatchObject({ acceptsUnauthenticated: true });
    expect((await dial(t, bareUrl(provider))).body).toMatch(/^CON Welcome to the shop/);
    // A key presented must still be the right one.
    expect((await dial(t, `${bareUrl(provider)}/wrong`)).statusCode).toBe(401);
    await adminApi.post(`/api/updateProviderAccess/${provider.uuid}`, { acceptsUnauthenticated: false, allowedSources: [] });
    expect((await dial(t, bareUrl(provider))).statusCode).toBe(401);
  });

  it('an allow-list refuses other addresses (403, key or not) and admits its own without the key', async () => {
    const adminApi = createApiClient(t, admin);
    const bad = await adminApi.post(`/api/updateProviderAccess/${provider.uuid}`, {
      acceptsUnauthenticated: false,
      allowedSources: ['10.9.0.0/16', '10.9.0.0/40'],
    });
    expect(bad.statusCode).toBe(400);
    expect((await adminApi.get('/api/getAllProviders')).json().data.find((p: Provider) => p.uuid === provider.uuid).allowedSources).toEqual(
      [],
    );

    const saved = await adminApi.post(`/api/updateProviderAccess/${provider.uuid}`, {
      acceptsUnauthenticated: false,
      allowedSources: ['10.9.0.0/16', '2001:db8::/32'],
    });
    expect(saved.json().data.allowedSources).toEqual(['10.9.0.0/16', '2001:db8::/32']);
    const before = await usedSessions(t, owner);
    const outside = await dial(t, keyedUrl(provider), { remoteAddress: '127.0.0.1' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toEqual({ status: '05', message: GATEWAY_ACCESS_MESSAGES.forbidden });
    expect(await usedSessions(t, owner)).toBe(before);
    expect((await dial(t, bareUrl(provider), { remoteAddress: '10.9.3.4' })).body).toMatch(/^CON Welcome/);
    expect((await dial(t, bareUrl(provider), { remoteAddress: '::ffff:10.9.3.5' })).body).toMatch(/^CON Welcome/);
    expect((await dial(t, bareUrl(provider), { remoteAddress: '2001:db8::7' })).body).toMatch(/^CON Welcome/);
    await adminApi.post(`/api/updateProviderAccess/${provider.uuid}`, { acceptsUnauthenticated: false, allowedSources: [] });
  });

  it('a rotated key replaces the old one at once', async () => {
    const rotated = await createApiClient(t, admin).post(`/api/rotateProviderKey/${provider.uuid}`, {});
    const next = rotated.json().data as Provider;
    expect(next.gatewayKey).not.toBe(provider.gatewayKey);
    expect((await dial(t, keyedUrl(provider))).statusCode).toBe(401);
    expect((await dial(t, keyedUrl(next))).body).toMatch(/^CON Welcome/);
    provider = next;
  });

  it('stops the 11th new session from one number in a minute, and leaves the plan counter untouched by it', async () => {
    const phoneNumber = `+23320${randomUUID().replace(/\D/g, '').slice(0, 7).padEnd(7, '0')}`;
    const before = await usedSessions(t, owner);
    for (let n = 1; n <= 10; n++) expect((await dial(t, keyedUrl(provider), { phoneNumber })).body, `dial ${n}`).toMatch(/^CON Welcome/);
    const eleventh = await dial(t, keyedUrl(provider), { phoneNumber });
    expect(eleventh.statusCode).toBe(200);
    expect(eleventh.body).toBe(`END ${GATEWAY_LIMIT_TEXTS.caller}`);
    expect(await usedSessions(t, owner)).toBe(before + 10);
    // Another number is not held back.
    expect((await dial(t, keyedUrl(provider))).body).toMatch(/^CON Welcome/);
  });
});

describe('limits on unauthenticated sources', () => {
  describeDb('per source address, for a legacy provider', () => {
    const t = useTestApp({ TOKEN_TTL_DAYS: 365, SHORTCODE_TIMER_INTERVAL_MS: 0, GATEWAY_SOURCE_SESSIONS_PER_MINUTE: 3 });
    const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    const owner = useUser(t, { plan: 'TRIAL' });

    it('stops new sessions from one address past the limit when no key is presented; keyed traffic is not held back', async () => {
      const { provider } = await seedProvider(t, admin, owner);
      await createApiClient(t, admin).post(`/api/updateProviderAccess/${provider.uuid}`, {
        acceptsUnauthenticated: true,
        allowedSources: [],
      });
      const before = await usedSessions(t, owner);
      for (let n = 0; n < 3; n++) expect((await dial(t, bareUrl(provider))).body).toMatch(/^CON Welcome/);
      expect((await dial(t, bareUrl(provider))).body).toBe(`END ${GATEWAY_LIMIT_TEXTS.source}`);
      expect(await usedSessions(t, owner)).toBe(before + 3);
      expect((await dial(t, bareUrl(provider), { remoteAddress: '10.1.1.1' })).body).toMatch(/^CON Welcome/);
      expect((await dial(t, keyedUrl(provider))).body).toMatch(/^CON Welcome/);
    });
  });
});

describeRedis('provider keys and limits across processes (Redis)', () => {
  const t = useTestApp({ TOKEN_TTL_DAYS: 365, SHORTCODE_TIMER_INTERVAL_MS: 0 });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const owner = useUser(t, { plan: 'TRIAL' });

  it('a key rotated on one process is refused on another at once, and one number is counted across both', async () => {
    const { provider } = await seedProvider(t, admin, owner);
    const config = createConfig({
      NODE_ENV: 'test',
      REDIS_URL: testRedisUrl,
      TOKEN_TTL_DAYS: 365,
      SHORTCODE_TIMER_INTERVAL_MS: 0,
      // The admin here has not enrolled in two-factor sign-in (tests/support/test-app.ts turns it off the same way).
      TWO_FACTOR_REQUIRED_FOR_ADMINS: false,
    });
    const one = await buildApp(config, { database: t.app.ctx.database, logger: false });
    const two = await buildApp(config, { database: t.app.ctx.database, logger: false });
    try {
      const phoneNumber = `+23327${randomUUID().replace(/\D/g, '').slice(0, 7).padEnd(7, '0')}`;
      const on = (app: typeof one) => ({ app }) as unknown as TestApp;
      for (let n = 0; n < 10; n++)
        expect((await dial(on(n % 2 ? one : two), keyedUrl(provider), { phoneNumber })).body).toMatch(/^CON Welcome/);
      expect((await dial(on(one), keyedUrl(provider), { phoneNumber })).body).toBe(`END ${GATEWAY_LIMIT_TEXTS.caller}`);
      expect((await dial(on(two), keyedUrl(provider), { phoneNumber })).body).toBe(`END ${GATEWAY_LIMIT_TEXTS.caller}`);

      const rotated = await two.inject({ method: 'POST', url: `/api/rotateProviderKey/${provider.uuid}`, headers: admin.auth });
      expect(rotated.json().status).toBe('00');
      // Pub/sub delivers the invalidation a moment later: dial until it shows (a cached rule would serve the old key for a minute).
      const deadline = Date.now() + 5000;
      let status = 200;
      while (Date.now() < deadline && status !== 401) status = (await dial(on(one), keyedUrl(provider))).statusCode;
      expect(status).toBe(401);
      expect((await dial(on(one), keyedUrl(rotated.json().data))).body).toMatch(/^CON Welcome/);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
