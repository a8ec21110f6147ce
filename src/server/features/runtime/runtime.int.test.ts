import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appLogLines, sessionRecords } from '../../../db/schema';
import { findInputsGiven } from '../../core/log-rows';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createTestApp, seedUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedShop } from '../../../../tests/support/seed-app';
import { buildApp } from '../../app';
import { createConfig } from '../../config';

describeDb('USSD runtime', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth);
  });

  const at = (sessionId: string, text: string, env = 'test') =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/${env}`,
      payload: new URLSearchParams({
        sessionId,
        serviceCode: '*920*55#',
        phoneNumber: '+233241112222',
        networkCode: '62001',
        text,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it("runs the draft behind Africa's Talking (cumulative text), with validation, labels and templates", async () => {
    const first = await at('AT-1', '');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/text\/plain/);
    expect(first.body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    expect((await at('AT-1', '2')).body).toBe('CON Enter amount');
    expect((await at('AT-1', '2*abc')).body).toBe('CON Enter a number\nEnter amount');
    expect((await at('AT-1', '2*abc*50')).body).toBe('END You chose Data for GHS 50');

    await t.app.runtime.flushEvents();
    const [record] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'AT-1')));
    expect(record).toMatchObject({ status: 'completed', gateway: 'africastalking', mobile: '+233241112222', environment: 'test' });
    expect(record!.inputs).toMatchObject({ product: '2', productLabel: 'Data', amount: '50' });
    // Each hop's row holds the inputs it stored, in the order given.
    const inputs = await findInputsGiven(t.db, appId, ['AT-1']);
    expect(inputs.map((i) => `${i.fieldName}=${i.fieldValue}`)).toEqual(['product=2', 'productLabel=Data', 'amount=50']);
    const logs = await t.db.select().from(appLogLines).where(eq(appLogLines.sessionId, 'AT-1'));
    expect(logs.map((l) => l.type)).toEqual(
      expect.arrayContaining(['session_started', 'menu_shown', 'validation_failed', 'session_ended']),
    );
  });

  it('answers Hubtel JSON and records a released session as abandoned', async () => {
    const hubtel = (Type: string, Message: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: {
          SessionId: 'HB-1',
          Type,
          Message,
          ServiceCode: '920',
          Operator: 'mtn',
          ClientState: '',
          Mobile: '233200000001',
          Sequence: 1,
          Platform: 'USSD',
        },
      });
    const start = await hubtel('Initiation', '*920*55#');
    expect(start.json()).toMatchObject({ SessionId: 'HB-1', Type: 'Response', Message: 'Welcome to the shop\n1. Airtime\n2. Data' });
    expect((await hubtel('Response', '1')).json()).toMatchObject({ Type: 'Response', Message: 'Enter amount' });
    expect((await hubtel('Release', '')).statusCode).toBe(200);
    await t.app.runtime.flushEvents();
    const [record] = await t.db.select().from(sessionRecords).where(eq(sessionRecords.sessionId, 'HB-1'));
    expect(record).toMatchObject({ status: 'abandoned', gateway: 'hubtel' });
  });

  it('lists a session in progress as active until it ends', async () => {
    await at('AT-live', '');
    const active = await t.app.runtime.findActiveSessions(appId);
    expect(active.map((s) => s.sessionId)).toContain('AT-live');
    await at('AT-live', '1');
    await at('AT-live', '1*10');
    expect((await t.app.runtime.findActiveSessions(appId)).map((s) => s.sessionId)).not.toContain('AT-live');
  });

  it('serves the live URL only after a deploy, and keeps serving that version while the draft changes', async () => {
    expect((await at('L-1', '', 'live')).body).toBe('END This service is not available yet. Please try again later.');
    expect((await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: owner.auth })).json().status).toBe('00');
    expect((await at('L-2', '', 'live')).body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');

    const lite = (await t.app.inject({ method: 'GET', url: `/api/getAllMenusLite/${appId}`, headers: owner.auth })).json().data;
    const product = lite.find((m: { userDefinedName: string }) => m.userDefinedName === 'product').uniqueId;
    const menus = (await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${appId}`, headers: owner.auth })).json().data;
    const productMenu = menus.find((m: { uniqueId: string }) => m.uniqueId === product);
    await t.app.inject({
      method: 'POST',
      url: '/api/updateMenu',
      headers: owner.auth,
      payload: { ...productMenu, displayText: 'New shop\n1. Airtime\n2. Data' },
    });

    expect((await at('T-3', '')).body).toBe('CON New shop\n1. Airtime\n2. Data');
    expect((await at('L-3', '', 'live')).body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: owner.auth });
    expect((await at('L-4', '', 'live')).body).toBe('CON New shop\n1. Airtime\n2. Data');
  });

  it('runs the emulator channel in its own format, for the signed-in owner only', async () => {
    const emu = (session_mode: string, userdata: string, headers: Record<string, string> = owner.auth) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${appId}`,
        headers,
        payload: { session_id: '20261121101500', userdata, msisdn: '233241234567', session_mode, network_id: 'MTN', appId },
      });
    expect((await emu('start', '*920*55#', {})).statusCode).toBe(401);
    const stranger = await seedUser(t);
    expect((await emu('start', '*920*55#', stranger.auth)).statusCode).toBe(404);
    const start = await emu('start', '*920*55#');
    expect(start.json()).toMatchObject({ session_mode: 'continue' });
    expect(start.json().text).toContain('1. Airtime');
    await emu('continue', '1');
    const end = await emu('continue', '5');
    expect(end.json()).toMatchObject({ session_mode: 'end', text: 'You chose Airtime for GHS 5' });
  });

  it('refuses an unreadable request with 400 and creates no session; an unknown app is 404', async () => {
    const activeBefore = (await t.app.runtime.findActiveSessions(appId)).length;
    const bad = await t.app.inject({ method: 'POST', url: `/ussd/${appId}/test`, payload: { hello: 'world' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe('02');
    const forced = await t.app.inject({ method: 'POST', url: `/ussd/${appId}/test?gateway=nosuch`, payload: { hello: 'world' } });
    expect(forced.statusCode).toBe(400);
    expect(forced.json().message).toMatch(/nosuch/);
    expect((await t.app.runtime.findActiveSessions(appId)).length).toBe(activeBefore);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/ussd/00000000000000000000000000000000/test',
      payload: { sessionId: 'x', serviceCode: '*1#', phoneNumber: '1', text: '' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: '04', message: 'App not found' });
  });

  it('answers hostile input cleanly within the screen limit', async () => {
    for (const [i, text] of ['*'.repeat(1000), 'x'.repeat(200_000), '\u{1F600}'.repeat(500), '\uFFFD\uD800abc'].entries()) {
      // A session each: an empty text on a session past its first hop is a late copy of that hop (refused).
      await at(`H-${i}`, '');
      const res = await at(`H-${i}`, text);
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/^(CON|END) /);
      expect(res.body.length).toBeLessThanOrEqual(4 + 182);
    }
  });
});

describeRedis('USSD sessions in Redis', () => {
  it('continue on a second server process what the first one started', async () => {
    const t = await createTestApp();
    try {
      const owner = await seedUser(t);
      const appId = await seedShop(t, owner.auth);
      const second = await buildApp(createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl }), {
        database: t.app.ctx.database,
        logger: false,
      });
      const first = await buildApp(createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl }), {
        database: t.app.ctx.database,
        logger: false,
      });
      try {
        const sessionId = `R-${Date.now()}`;
        const hop = (app: typeof first, text: string) =>
          app.inject({
            method: 'POST',
            url: `/ussd/${appId}/test`,
            payload: { sessionId, serviceCode: '*920*55#', phoneNumber: '233241112222', networkCode: '62001', text },
          });
        expect((await hop(first, '')).body).toMatch(/^CON Welcome/);
        await first.close();
        expect((await hop(second, '1')).body).toBe('CON Enter amount');
        expect((await hop(second, '1*20')).body).toBe('END You chose Airtime for GHS 20');
      } finally {
        await second.close();
      }
    } finally {
      await t.close();
    }
  });
});
