import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { appLogLines, sessionRecords } from '../../../db/schema';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { createTestApp, seedUser, useTestApp, useUser, type TestApp } from '../../../../tests/support/test-app';
import { seedFeaturedTemplates } from '../templates/templates.service';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { seedApp, seedMenu, updateAppSettings } from '../../../../tests/support/seed-app';

const OFFER = '1. Continue where you left off\n2. Start again';
const MSISDN = '233241110000';

/** Name (typed), city (options), a confirmation, then a closing screen: two answers leave the dialler on the confirmation. */
async function seedTrip(t: TestApp, auth: Record<string, string>, settings: { resumeOnRedial: boolean; resumeWindowMinutes?: number }) {
  const appId = await seedApp(t, auth, { customShortCode: '*920*77#' });
  const done = await seedMenu(t, auth, appId, {
    userDefinedName: 'done',
    displayText: 'Thanks {{ session.inputs.name }}',
    terminate: true,
  });
  const confirm = await seedMenu(t, auth, appId, {
    userDefinedName: 'confirm',
    displayText: '{{ session.inputs.name }} in {{ session.inputs.cityLabel }}\n1. Confirm',
    switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: done }],
  });
  const city = await seedMenu(t, auth, appId, {
    userDefinedName: 'city',
    displayText: 'City?\n1. Accra\n2. Kumasi',
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: confirm }],
  });
  await seedMenu(t, auth, appId, {
    userDefinedName: 'name',
    displayText: 'Your name?',
    isFirst: true,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: city }],
  });
  await updateAppSettings(t, auth, appId, settings);
  return appId;
}

/** Africa's Talking: cumulative text, the session's every answer joined by `*`. */
const atHop = (app: FastifyInstance, appId: string, sessionId: string, text: string, env = 'test') =>
  app
    .inject({
      method: 'POST',
      url: `/ussd/${appId}/${env}`,
      payload: { sessionId, serviceCode: '*920*77#', phoneNumber: MSISDN, networkCode: '62001', text },
    })
    .then((r) => r.body);

/** Hubtel: JSON, one answer a request; `Type` Initiation, Response, Release or Timeout. */
const hubtelHop = (app: FastifyInstance, appId: string, SessionId: string, Type: string, Message = '') =>
  app
    .inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { SessionId, Type, Mobile: MSISDN, Message, ServiceCode: '*920*77#', Operator: 'mtn' },
    })
    .then((r) => (r.body ? (r.json() as { Message: string; Type: string }) : null));

async function readLogs(t: TestApp, appId: string, sessionId: string) {
  await t.app.runtime.flushEvents();
  return t.db
    .select({ type: appLogLines.type, message: appLogLines.message, data: appLogLines.data })
    .from(appLogLines)
    .where(and(eq(appLogLines.appId, appId), eq(appLogLines.sessionId, sessionId)))
    .orderBy(asc(appLogLines.createdAt), asc(appLogLines.id));
}

describeDb('resume on redial', () => {
  const t = useTestApp();
  // Each test's app dials *920*77#, and an account's apps have different dial strings: an account per test.
  let auth: Record<string, string>;
  beforeEach(async () => {
    auth = (await seedUser(t)).auth;
  });

  it("Africa's Talking: a session that timed out is offered back; 1 shows its menu with its inputs, then it completes", async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: true, resumeWindowMinutes: 5 });
    expect(await atHop(t.app, appId, 'at-1', '')).toBe('CON Your name?');
    expect(await atHop(t.app, appId, 'at-1', 'Ama')).toBe('CON City?\n1. Accra\n2. Kumasi');
    expect(await atHop(t.app, appId, 'at-1', 'Ama*2')).toBe('CON Ama in Kumasi\n1. Confirm');

    t.advanceClock(200_000); // past the 180 s session timeout, inside the 5-minute window
    await t.app.runtime.sweepExpired();
    expect(await atHop(t.app, appId, 'at-2', '')).toBe(`CON ${OFFER}`);
    expect(await atHop(t.app, appId, 'at-2', '1')).toBe('CON Ama in Kumasi\n1. Confirm');
    expect(await atHop(t.app, appId, 'at-2', '1*1')).toBe('END Thanks Ama');

    const logs = await readLogs(t, appId, 'at-2');
    expect(logs.map((l) => l.type)).toEqual([
      'session_started',
      'resume_offered',
      'menu_shown',
      'input_received',
      'session_resumed',
      'menu_shown',
      'input_received',
      'navigated',
      'session_ended',
    ]);
    expect(logs[4]).toMatchObject({ message: 'Resumed from session at-1', data: { fromSessionId: 'at-1' } });
    expect(logs[2]).toMatchObject({ data: { text: OFFER } });
    await t.app.runtime.flushEvents();
    const records = await t.db
      .select({ sessionId: sessionRecords.sessionId, status: sessionRecords.status, inputs: sessionRecords.inputs })
      .from(sessionRecords)
      .where(eq(sessionRecords.appId, appId))
      .orderBy(asc(sessionRecords.sessionId));
    expect(records).toEqual([
      { sessionId: 'at-1', status: 'abandoned', inputs: { name: 'Ama', city: '2', cityLabel: 'Kumasi' } },
      {
        sessionId: 'at-2',
        status: 'completed',
        inputs: { name: 'Ama', city: '2', cityLabel: 'Kumasi', confirm: '1', confirmLabel: 'Confirm' },
      },
    ]);

    // Consumed, and the resumed session completed: the next dial starts afresh.
    expect(await atHop(t.app, appId, 'at-3', '')).toBe('CON Your name?');
  });

  it('Hubtel: a session dropped mid-way (no end notice) is offered at once; other input repeats the offer, 2 starts again', async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: true });
    expect((await hubtelHop(t.app, appId, 'hb-1', 'Initiation', '*920*77#'))?.Message).toBe('Your name?');
    expect((await hubtelHop(t.app, appId, 'hb-1', 'Response', 'Kofi'))?.Message).toBe('City?\n1. Accra\n2. Kumasi');
    expect((await hubtelHop(t.app, appId, 'hb-1', 'Response', '1'))?.Message).toBe('Kofi in Accra\n1. Confirm');

    expect(await hubtelHop(t.app, appId, 'hb-2', 'Initiation', '*920*77#')).toMatchObject({ Message: OFFER, Type: 'Response' });
    expect((await hubtelHop(t.app, appId, 'hb-2', 'Response', '9'))?.Message).toBe(`Invalid choice\n${OFFER}`);
    expect((await hubtelHop(t.app, appId, 'hb-2', 'Response', '2'))?.Message).toBe('Your name?');
    expect((await hubtelHop(t.app, appId, 'hb-2', 'Response', 'Esi'))?.Message).toBe('City?\n1. Accra\n2. Kumasi');
    expect((await readLogs(t, appId, 'hb-2')).map((l) => l.message)).toContain('Started again instead of resuming session hb-1');

    // Dropped again, this time on the city menu: the fresh session is what is offered now, and 1 restores it.
    expect((await hubtelHop(t.app, appId, 'hb-3', 'Initiation', '*920*77#'))?.Message).toBe(OFFER);
    expect((await hubtelHop(t.app, appId, 'hb-3', 'Response', '1'))?.Message).toBe('City?\n1. Accra\n2. Kumasi');
    expect((await hubtelHop(t.app, appId, 'hb-3', 'Response', '2'))?.Message).toBe('Esi in Kumasi\n1. Confirm');
    expect(await hubtelHop(t.app, appId, 'hb-3', 'Response', '1')).toMatchObject({ Message: 'Thanks Esi', Type: 'Release' });
    expect((await hubtelHop(t.app, appId, 'hb-4', 'Initiation', '*920*77#'))?.Message).toBe('Your name?');
  });

  it('Hubtel: offers a session that timed out (Timeout), not one the user released (Release)', async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: true });
    await hubtelHop(t.app, appId, 'rel-1', 'Initiation', '*920*77#');
    await hubtelHop(t.app, appId, 'rel-1', 'Response', 'Yaw');
    expect(await hubtelHop(t.app, appId, 'rel-1', 'Release')).toBeNull();
    expect((await hubtelHop(t.app, appId, 'rel-2', 'Initiation', '*920*77#'))?.Message).toBe('Your name?');

    await hubtelHop(t.app, appId, 'rel-2', 'Response', 'Yaw');
    expect(await hubtelHop(t.app, appId, 'rel-2', 'Timeout')).toBeNull();
    expect((await hubtelHop(t.app, appId, 'rel-3', 'Initiation', '*920*77#'))?.Message).toBe(OFFER);
  });

  it('offers nothing outside the window, after a completed session, or with the setting off', async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: true, resumeWindowMinutes: 2 });
    await atHop(t.app, appId, 'out-1', '');
    await atHop(t.app, appId, 'out-1', 'Ama');
    t.advanceClock(121_000);
    expect(await atHop(t.app, appId, 'out-2', '')).toBe('CON Your name?');

    // Completed: a Terminate menu ended it normally.
    await atHop(t.app, appId, 'out-2', 'Ama');
    await atHop(t.app, appId, 'out-2', 'Ama*1');
    expect(await atHop(t.app, appId, 'out-2', 'Ama*1*1')).toBe('END Thanks Ama');
    expect(await atHop(t.app, appId, 'out-3', '')).toBe('CON Your name?');

    const off = await seedTrip(t, (await seedUser(t)).auth, { resumeOnRedial: false });
    await atHop(t.app, off, 'off-1', '');
    await atHop(t.app, off, 'off-1', 'Ama');
    expect(await atHop(t.app, off, 'off-2', '')).toBe('CON Your name?');
  });

  it('applies a change of the setting to the live URL from the next session', async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: false });
    const deploy = await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: auth });
    expect(deploy.json().status).toBe('00');
    await atHop(t.app, appId, 'live-1', '', 'live');
    await atHop(t.app, appId, 'live-1', 'Ama', 'live');
    expect(await atHop(t.app, appId, 'live-2', '', 'live')).toBe('CON Your name?');

    expect((await updateAppSettings(t, auth, appId, { resumeOnRedial: true, resumeWindowMinutes: 10 })).json().data).toMatchObject({
      resumeOnRedial: true,
      resumeWindowMinutes: 10,
    });
    await atHop(t.app, appId, 'live-3', '', 'live');
    await atHop(t.app, appId, 'live-3', 'Ama', 'live');
    expect(await atHop(t.app, appId, 'live-4', '', 'live')).toBe(`CON ${OFFER}`);
    // The test URL is another environment: nothing saved there for this dialler.
    expect(await atHop(t.app, appId, 'test-1', '')).toBe('CON Your name?');
  });

  it('refuses a window outside 1 to 60 minutes with a clear message, and changes nothing', async () => {
    const appId = await seedTrip(t, auth, { resumeOnRedial: true, resumeWindowMinutes: 7 });
    for (const resumeWindowMinutes of [0, 61, 2.5, '5']) {
      const res = await updateAppSettings(t, auth, appId, { resumeOnRedial: true, resumeWindowMinutes });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: 'Resume window must be a whole number of minutes from 1 to 60',
        field: 'resumeWindowMinutes',
      });
    }
    const bad = await updateAppSettings(t, auth, appId, { resumeOnRedial: 'yes' });
    expect(bad.statusCode).toBe(400);
    const app = (await t.app.inject({ method: 'GET', url: `/api/getAppByAppId/${appId}`, headers: auth })).json().data;
    expect(app).toMatchObject({ resumeOnRedial: true, resumeWindowMinutes: 7 });

    // Another account's app: 404, as for every other field.
    const stranger = await seedUser(t);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/updateApp',
      headers: stranger.auth,
      payload: { ...app, resumeOnRedial: false },
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describeDb('resume on redial in the emulator', () => {
  const t = useTestApp();
  // Featured templates are changed by the platform's admins only (template.edit).
  const operator = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const alice = useUser(t);
  const bob = useUser(t);
  const FIRST_SCREEN = 'Airtime Top-Up\n1. My number\n2. Another number';
  let airtime: string;
  beforeAll(async () => {
    [airtime] = (await seedFeaturedTemplates(t.db, operator.user.id, 'http://127.0.0.1')) as [string];
    expect((await updateAppSettings(t, operator.auth, airtime, { resumeOnRedial: true })).statusCode).toBe(200);
  });

  const emulate = (sessionId: string, mode: string, userdata: string, headers: Record<string, string> = {}) =>
    t.app
      .inject({
        method: 'POST',
        url: `/ussd-emulator/${airtime}`,
        headers,
        payload: { session_id: sessionId, userdata, msisdn: MSISDN, session_mode: mode, network_id: 'MTN', appId: airtime },
      })
      .then((r) => (r.body ? (r.json().text as string) : ''));

  it("offers a caller's cancelled session to that caller only, never to another on the same number", async () => {
    expect(await emulate('em-1', 'start', '*920*11#', alice.auth)).toBe(FIRST_SCREEN);
    expect(await emulate('em-1', 'continue', '2', alice.auth)).toBe('Enter the phone number to top up');
    await emulate('em-1', 'end', '', alice.auth); // the emulator's Cancel: a drop, as a gateway's end notice

    expect(await emulate('em-2', 'start', '*920*11#', bob.auth)).toBe(FIRST_SCREEN);
    expect(await emulate('em-3', 'start', '*920*11#')).toBe(FIRST_SCREEN);
    const viaGateway = await atHop(t.app, airtime, 'em-4', '');
    expect(viaGateway).toBe(`CON ${FIRST_SCREEN}`);

    expect(await emulate('em-5', 'start', '*920*11#', alice.auth)).toBe(OFFER);
    expect(await emulate('em-5', 'continue', '1', alice.auth)).toBe('Enter the phone number to top up');
  });
});

describeRedis('resume on redial, sessions in Redis', () => {
  it('offers on one process a session that dropped on another, and restores it there', async () => {
    const t = await createTestApp();
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const build = () =>
      buildApp(createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl }), { database: t.app.ctx.database, logger: false, now });
    const first = await build();
    const second = await build();
    try {
      const { auth } = await seedUser(t);
      const appId = await seedTrip(t, auth, { resumeOnRedial: true, resumeWindowMinutes: 5 });
      const id = `r-${Date.now()}`;
      expect(await atHop(first, appId, `${id}-1`, '')).toBe('CON Your name?');
      expect(await atHop(first, appId, `${id}-1`, 'Ama')).toBe('CON City?\n1. Accra\n2. Kumasi');
      expect(await atHop(first, appId, `${id}-1`, 'Ama*1')).toBe('CON Ama in Accra\n1. Confirm');
      offset += 200_000; // past the session timeout: Redis no longer hands that session to either process
      expect(await atHop(second, appId, `${id}-2`, '')).toBe(`CON ${OFFER}`);
      expect(await atHop(first, appId, `${id}-2`, '1')).toBe('CON Ama in Accra\n1. Confirm');
      expect(await atHop(second, appId, `${id}-2`, '1*1')).toBe('END Thanks Ama');
      // Consumed once: neither process offers it again.
      expect(await atHop(first, appId, `${id}-3`, '')).toBe('CON Your name?');

      // Outside the window (kept in Redis with the window as its TTL, read with the servers' clock).
      await atHop(second, appId, `${id}-3`, 'Kofi');
      offset += 301_000;
      expect(await atHop(first, appId, `${id}-4`, '')).toBe('CON Your name?');
    } finally {
      await first.close();
      await second.close();
      await t.close();
    }
  });
});
