import { beforeAll, expect, it } from 'vitest';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { seedApp, seedMenu, seedShop } from '../../../../tests/support/seed-app';
import { createApiClient, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { createShortcodeTimer } from './shortcode-reminders';
import type { Provider } from '../../../shared/api/shortcodes.schema';
import { PROVIDER_TRAFFIC_TEXTS } from './shortcodes.service';

const DAY = 24 * 60 * 60 * 1000;

/** A catalogue of `*920*` + 2 digits on mtngh, and a helper that gives `owner` one of its dial strings. */
async function seedCatalogue(t: TestApp, admin: SeededUser, owner: SeededUser) {
  const adminApi = createApiClient(t, admin);
  const created = await adminApi.post('/api/subscription/createShortCode', {
    country: 'Ghana',
    shortCode: '*920*',
    provider: 'mtngh',
    method: 'POST',
    extension: '',
    extLength: 2,
    price: '150',
  });
  const extensionUuid = created.json().data.uuid as string;
  return async (digits: string, appId?: string, linkedAppEnv: 'test' | 'production' = 'test') => {
    const res = await adminApi.post('/api/subscription/provisionShortCode', {
      extensionUuid,
      userEmail: owner.email,
      shortCode: digits,
      leaseCount: 1,
    });
    const uuid = res.json().data.uuid as string;
    if (appId) await connect(t, owner, uuid, appId, linkedAppEnv);
    return uuid;
  };
}

/** The provider's gateway key (docs/shortcodes.md, "Provider keys"), as admins see it; every hop below presents it. */
async function readProviderKey(t: TestApp, admin: SeededUser, providerId = 'mtngh'): Promise<string> {
  const providers = (await createApiClient(t, admin).get('/api/getAllProviders')).json().data as Provider[];
  return providers.find((p) => p.providerId === providerId)!.gatewayKey;
}
const keyHeader = (key: string) => ({ 'x-dialflow-key': key });
let mtnghKey = '';

async function connect(t: TestApp, owner: SeededUser, uuid: string, appId: string, linkedAppEnv: 'test' | 'production' = 'test') {
  const res = await createApiClient(t, owner).post('/api/connectAppToShortCode/', { uuid, appId, linkedAppEnv });
  if (res.json().status !== '00') throw new Error(`connect failed: ${res.body}`);
}

/** Africa's Talking: a form POST with the cumulative text; the dialled extension arrives as the serviceCode. */
function at(t: TestApp, sessionId: string, serviceCode: string, text: string, provider = 'mtngh') {
  return t.app.inject({
    method: 'POST',
    url: `/ussd/provider/${provider}/${mtnghKey}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ sessionId, serviceCode, phoneNumber: '+233241112222', networkCode: '62001', text }).toString(),
  });
}

/** Hubtel: JSON; the dial string comes only on the initiation, later hops carry the bare service code. */
function hubtel(t: TestApp, sessionId: string, type: 'Initiation' | 'Response', message: string) {
  return t.app.inject({
    method: 'POST',
    url: '/ussd/provider/mtngh',
    headers: keyHeader(mtnghKey),
    payload: { SessionId: sessionId, Type: type, Message: message, ServiceCode: '920', Mobile: '233200585542', Operator: 'mtn' },
  });
}

describeDb('routing a shared shortcode: /ussd/provider/{providerId}', () => {
  const t = useTestApp({ TOKEN_TTL_DAYS: 365, SHORTCODE_TIMER_INTERVAL_MS: 0 });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const owner = useUser(t);
  let shopId: string;
  let give: Awaited<ReturnType<typeof seedCatalogue>>;
  beforeAll(async () => {
    shopId = await seedShop(t, owner.auth, { appName: 'Shop', customShortCode: '*555*1#' });
    give = await seedCatalogue(t, admin, owner);
    await give('34', shopId);
    mtnghKey = await readProviderKey(t, admin);
  });

  it("runs the connected app's draft behind Africa's Talking, deep dial included", async () => {
    expect((await at(t, 'AT-1', '*920*34#', '')).body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    expect((await at(t, 'AT-1', '*920*34#', '1')).body).toBe('CON Enter amount');
    const last = await at(t, 'AT-1', '*920*34#', '1*20');
    expect(last.statusCode).toBe(200);
    expect(last.body).toBe('END You chose Airtime for GHS 20');

    // `*920*34*2#`: `*920*34#` is the longest purchased prefix; `2` is the first menu's input.
    expect((await at(t, 'AT-2', '*920*34*2#', '')).body).toBe('CON Enter amount');
    expect((await at(t, 'AT-2', '*920*34*2#', '30')).body).toBe('END You chose Data for GHS 30');

    // GET with a query string and PUT reach it too.
    const query = new URLSearchParams({ sessionId: 'AT-3', serviceCode: '*920*34#', phoneNumber: '233241112222', text: '' });
    expect((await t.app.inject({ method: 'GET', url: `/ussd/provider/mtngh/${mtnghKey}?${query}` })).body).toMatch(
      /^CON Welcome to the shop/,
    );
    const put = await t.app.inject({ method: 'PUT', url: `/ussd/provider/mtngh/${mtnghKey}`, payload: Object.fromEntries(query) });
    expect(put.body).toMatch(/^CON Welcome to the shop/);
  });

  it('keeps a Hubtel session on its app although its later hops carry no dial string', async () => {
    const first = await hubtel(t, 'HB-1', 'Initiation', '*920*34#');
    expect(first.json()).toMatchObject({ Type: 'Response', Message: 'Welcome to the shop\n1. Airtime\n2. Data' });
    expect((await hubtel(t, 'HB-1', 'Response', '2')).json()).toMatchObject({ Type: 'Response', Message: 'Enter amount' });
    expect((await hubtel(t, 'HB-1', 'Response', '15')).json()).toMatchObject({ Type: 'Release', Message: 'You chose Data for GHS 15' });
    expect((await hubtel(t, 'HB-2', 'Initiation', '*920*34*1*25#')).json()).toMatchObject({
      Type: 'Release',
      Message: 'You chose Airtime for GHS 25',
    });
  });

  it("fills an app's template tags with what followed the purchased code", async () => {
    const tagged = await seedApp(t, owner.auth, { appName: 'Pay', useTemplateTag: true, customShortCode: '*384*{merchant}*{amount}#' });
    await seedMenu(t, owner.auth, tagged, {
      userDefinedName: 'pay',
      displayText: 'Pay GHS {{ session.vars.amount }} to {{ session.vars.merchant }}',
      terminate: true,
    });
    await give('35', tagged);
    expect((await hubtel(t, 'HB-3', 'Initiation', '*920*35*12*50#')).json()).toMatchObject({
      Type: 'Release',
      Message: 'Pay GHS 50 to 12',
    });
    expect((await at(t, 'AT-4', '*920*35*7*5#', '')).body).toBe('END Pay GHS 5 to 7');
  });

  it("answers an unknown or unconnected code with the gateway's own end screen, never an HTTP error", async () => {
    await give('36');
    for (const [sessionId, dialled, provider, text] of [
      ['AT-5', '*920*99#', 'mtngh', PROVIDER_TRAFFIC_TEXTS.unknown],
      ['AT-7', '*920*36#', 'mtngh', PROVIDER_TRAFFIC_TEXTS.notConnected],
      ['AT-8', '*920*3#', 'mtngh', PROVIDER_TRAFFIC_TEXTS.unknown],
    ] as const) {
      const res = await at(t, sessionId, dialled, '', provider);
      expect(res.statusCode, dialled).toBe(200);
      expect(res.body, dialled).toBe(`END ${text}`);
    }
    // A provider that is not registered has no key to check: 404, before any session.
    expect((await at(t, 'AT-6', '*920*34#', '', 'nosuch')).statusCode).toBe(404);
    const hub = await hubtel(t, 'HB-4', 'Initiation', '*920*36*1#');
    expect(hub.statusCode).toBe(200);
    expect(hub.json()).toMatchObject({ Type: 'Release', Message: PROVIDER_TRAFFIC_TEXTS.notConnected });
    // A continuing hop of a session the server never had, on a code it does not know: ended, not refused.
    expect((await hubtel(t, 'HB-5', 'Response', '1')).json()).toMatchObject({ Type: 'Release', Message: PROVIDER_TRAFFIC_TEXTS.unknown });
  });

  it('follows a new connection at once, and a session started before it stays on its app', async () => {
    const hello = await seedApp(t, owner.auth, { appName: 'Hello', customShortCode: '*555*2#' });
    const menuId = await seedMenu(t, owner.auth, hello, { userDefinedName: 'hi', displayText: 'Hello v1', terminate: true });
    expect((await createApiClient(t, owner).get(`/api/deployChanges/${hello}`)).json().status).toBe('00');
    await createApiClient(t, owner).post('/api/updateMenu', {
      appId: hello,
      uniqueId: menuId,
      userDefinedName: 'hi',
      displayText: 'Hello v2',
      terminate: true,
    });
    const uuid = await give('37', shopId);

    expect((await at(t, 'AT-9', '*920*37#', '')).body).toMatch(/^CON Welcome to the shop/);
    await connect(t, owner, uuid, hello, 'production');
    expect((await at(t, 'AT-10', '*920*37#', '')).body).toBe('END Hello v1');
    // The session started on the shop goes on there.
    expect((await at(t, 'AT-9', '*920*37#', '2')).body).toBe('CON Enter amount');
    await connect(t, owner, uuid, hello, 'test');
    expect((await at(t, 'AT-11', '*920*37#', '')).body).toBe('END Hello v2');
  });

  it('answers an expired extension as expired, before and after the timer marks it', async () => {
    t.advanceClock(32 * DAY);
    expect((await at(t, 'AT-12', '*920*34#', '')).body).toBe(`END ${PROVIDER_TRAFFIC_TEXTS.expired}`);
    expect((await createShortcodeTimer(t.app.ctx, { intervalMs: 0 }).runOnce()).ended).toBe(true);
    expect((await at(t, 'AT-13', '*920*34#', '')).body).toBe(`END ${PROVIDER_TRAFFIC_TEXTS.expired}`);
    expect((await hubtel(t, 'HB-6', 'Initiation', '*920*34*1#')).json()).toMatchObject({
      Type: 'Release',
      Message: PROVIDER_TRAFFIC_TEXTS.expired,
    });
  });
});

describeRedis('shortcode routes across processes', () => {
  const t = useTestApp({ TOKEN_TTL_DAYS: 365 });
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const owner = useUser(t);

  it("a connection made on one process reaches another process's routing table through Redis", async () => {
    const shopId = await seedShop(t, owner.auth, { appName: 'Shop', customShortCode: '*555*1#' });
    const hello = await seedApp(t, owner.auth, { appName: 'Hello', customShortCode: '*555*2#' });
    await seedMenu(t, owner.auth, hello, { userDefinedName: 'hi', displayText: 'Hello there', terminate: true });
    const give = await seedCatalogue(t, admin, owner);
    const uuid = await give('48', shopId);
    const key = await readProviderKey(t, admin);

    const config = createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl, TOKEN_TTL_DAYS: 365, SHORTCODE_TIMER_INTERVAL_MS: 0 });
    const gateway = await buildApp(config, { database: t.app.ctx.database, logger: false });
    const consoleApp = await buildApp(config, { database: t.app.ctx.database, logger: false });
    try {
      const dial = async (sessionId: string) =>
        (
          await gateway.inject({
            method: 'POST',
            url: `/ussd/provider/mtngh/${key}`,
            payload: { sessionId, serviceCode: '*920*48#', phoneNumber: '233241112222', text: '' },
          })
        ).body;
      expect(await dial(`R-${Date.now()}-0`)).toMatch(/^CON Welcome to the shop/);
      const res = await consoleApp.inject({
        method: 'POST',
        url: '/api/connectAppToShortCode/',
        headers: owner.auth,
        payload: { uuid, appId: hello, linkedAppEnv: 'test' },
      });
      expect(res.json().status).toBe('00');
      // Pub/sub delivers the invalidation a moment later: dial until it shows (the old table never would).
      const deadline = Date.now() + 5000;
      let answer = '';
      for (let i = 1; Date.now() < deadline && answer !== 'END Hello there'; i++) answer = await dial(`R-${Date.now()}-${i}`);
      expect(answer).toBe('END Hello there');
    } finally {
      await consoleApp.close();
      await gateway.close();
    }
  });
});
