import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedShop, updateAppSettings } from '../../../../tests/support/seed-app';
import { apps, sessionRecords } from '../../../db/schema';
import { APP_MESSAGES } from '../../../shared/api/apps.schema';
import { GATEWAY_CONNECTION_MESSAGES } from '../../../shared/gateway-profiles';
import { compileApp } from '../../../engine';
import { findLiveVersion, getDraftVersion } from '../../core/app-versions';

/** An app's gateway connections (docs/runtime.md, "Gateway profiles"): saved on App Settings, carried by its files and versions. */
describeDb('app gateway connections', () => {
  const t = useTestApp({ IMPORT_RATE_LIMIT: 1000 });
  const owner = useUser(t);
  const stranger = useUser(t);
  const { get, post } = createApiClient(t, owner);

  const nalo = { gateway: 'nalo', screenLimit: 100, budgetMs: 6000 };
  const africasTalking = { gateway: 'africastalking', screenLimit: null, budgetMs: null };
  const readConnections = async (appId: string) => (await get(`/api/getAppByAppId/${appId}`)).json().data.gatewayConnections;

  it('are none for a new app; saved whole with the settings and read back, the unset limits as null', async () => {
    const appId = await seedApp(t, owner.auth);
    expect(await readConnections(appId)).toEqual([]);
    const res = await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [nalo, { gateway: 'africastalking' }] });
    expect(res.json()).toMatchObject({ status: '00', data: { gatewayConnections: [nalo, africasTalking] } });
    expect(await readConnections(appId)).toEqual([nalo, africasTalking]);
    // Left out, they are kept (the office hours card saves without them); [] disconnects them all.
    expect((await updateAppSettings(t, owner.auth, appId, { gatewayConnections: undefined, appName: 'Renamed' })).json().status).toBe('00');
    expect(await readConnections(appId)).toEqual([nalo, africasTalking]);
    expect((await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [] })).json().status).toBe('00');
    expect(await readConnections(appId)).toEqual([]);
  });

  it.each([
    ['a gateway connected twice', [nalo, { gateway: 'nalo' }], '1.gateway', GATEWAY_CONNECTION_MESSAGES.duplicate],
    [
      'a screen limit wider than the gateway',
      [{ gateway: 'nalo', screenLimit: 150 }],
      '0.screenLimit',
      GATEWAY_CONNECTION_MESSAGES.screenWider('Nalo', 120),
    ],
    [
      'a budget longer than the gateway waits',
      [{ gateway: 'emergent', budgetMs: 8000 }],
      '0.budgetMs',
      GATEWAY_CONNECTION_MESSAGES.budgetWider('Emergent', 5000),
    ],
    ['a budget under the minimum', [{ gateway: 'hubtel', budgetMs: 1500 }], '0.budgetMs', GATEWAY_CONNECTION_MESSAGES.budgetTooShort],
    [
      'a screen limit under the shortest screen',
      [{ gateway: 'hubtel', screenLimit: 40 }],
      '0.screenLimit',
      GATEWAY_CONNECTION_MESSAGES.screenRange,
    ],
    ['a gateway the platform does not know', [{ gateway: 'acme' }], '0.gateway', undefined],
  ])('refuses %s with 400 and its message, and changes nothing', async (_what, gatewayConnections, at, message) => {
    const appId = await seedApp(t, owner.auth);
    expect((await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [africasTalking] })).json().status).toBe('00');
    const res = await updateAppSettings(t, owner.auth, appId, { gatewayConnections, appName: 'Not saved' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.status).toBe('02');
    expect(body.errors).toEqual([expect.objectContaining({ field: `gatewayConnections.${at}` })]);
    if (message) expect(body).toMatchObject({ message, errors: [{ message }] });
    const after = (await get(`/api/getAppByAppId/${appId}`)).json().data;
    expect(after).toMatchObject({ appName: 'Shop', gatewayConnections: [africasTalking] });
  });

  it("answers another account's app as not found, and leaves it as it was", async () => {
    const appId = await seedApp(t, owner.auth);
    const current = (await get(`/api/getAppByAppId/${appId}`)).json().data;
    const res = await post('/api/updateApp', { ...current, gatewayConnections: [nalo] }, stranger.auth);
    expect(res.statusCode).toBe(404);
    expect(await readConnections(appId)).toEqual([]);
  });

  it('a bot has none: the USSD settings call refuses it, and a stored value is not read back', async () => {
    const appId = await seedApp(t, owner.auth);
    await t.db
      .update(apps)
      .set({ channel: 'whatsapp', gatewayConnections: [{ gateway: 'nalo', screenLimit: null, budgetMs: null }] })
      .where(eq(apps.id, appId));
    const res = await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [nalo] });
    expect(res.json()).toMatchObject({ status: '02', message: APP_MESSAGES.isBot });
    expect(await readConnections(appId)).toEqual([]);
  });

  it('travel in an export file and come back on import; a clone keeps them; a file without them imports with none', async () => {
    const appId = await seedShop(t, owner.auth, { customShortCode: '*920*90#' });
    expect((await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [nalo, africasTalking] })).json().status).toBe('00');
    const file = (await get(`/api/exportApp/${appId}`)).json().data;
    expect(file.app.gatewayConnections).toEqual([nalo, africasTalking]);

    const imported = await post('/api/importApp', { document: file, appName: 'Imported', shortCode: '*920*91#' });
    expect(imported.json()).toMatchObject({ status: '00', data: { gatewayConnections: [nalo, africasTalking] } });

    const { gatewayConnections: _left, ...older } = file.app;
    const plain = await post('/api/importApp', { document: { ...file, app: older }, appName: 'Older', shortCode: '*920*92#' });
    expect(plain.json()).toMatchObject({ status: '00', data: { gatewayConnections: [] } });

    const wider = { ...file, app: { ...file.app, gatewayConnections: [{ gateway: 'nalo', screenLimit: 150 }] } };
    const refused = await post('/api/importApp', { document: wider, appName: 'Wider', shortCode: '*920*93#' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'app.gatewayConnections.0.screenLimit', message: GATEWAY_CONNECTION_MESSAGES.screenWider('Nalo', 120) },
    ]);

    const clone = await post('/api/cloneApp', { appId, appName: 'Copy', description: 'Copied', shortCode: '*920*94#' });
    expect(clone.json()).toMatchObject({ status: '00', data: { gatewayConnections: [nalo, africasTalking] } });
  });

  it('the draft carries them at once and a deployed version from its deploy on: the compiled app holds screens to the strictest', async () => {
    const appId = await seedShop(t, owner.auth, { customShortCode: '*920*95#' });
    const row = async () => (await t.db.select().from(apps).where(eq(apps.id, appId)))[0]!;
    expect((await getDraftVersion(t.db, await row())).gatewayConnections).toBeUndefined();
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');

    expect((await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [nalo, africasTalking] })).json().status).toBe('00');
    const draft = await getDraftVersion(t.db, await row());
    expect(draft.gatewayConnections).toEqual([nalo, africasTalking]);
    expect(compileApp(draft).screenLimit).toBe(100);
    // The live version is the one deployed before the change, until the next deploy (which the change allows).
    expect((await findLiveVersion(t.db, appId))?.gatewayConnections).toBeUndefined();
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const live = await findLiveVersion(t.db, appId);
    expect(live?.gatewayConnections).toEqual([nalo, africasTalking]);
    expect(compileApp(live!).app.gatewayConnections).toEqual([nalo, africasTalking]);
  });

  it('lists the gateways that sent the app sessions in the last 30 days, busiest first: never the emulator, another app or older ones', async () => {
    const appId = await seedApp(t, owner.auth);
    const other = await seedApp(t, owner.auth);
    const day = 24 * 60 * 60 * 1000;
    const record = (app: string, gateway: string, daysAgo: number, environment = 'live') => {
      const endedAt = new Date(Date.now() - daysAgo * day);
      return {
        appId: app,
        sessionId: `${gateway}-${daysAgo}-${Math.random()}`,
        environment,
        gateway,
        mobile: '233244000111',
        network: 'MTN',
        serviceCode: '*920*55#',
        status: 'completed',
        inputs: {},
        hopCount: 2,
        startedAt: endedAt,
        endedAt,
      };
    };
    await t.db
      .insert(sessionRecords)
      .values([
        record(appId, 'hubtel', 1),
        record(appId, 'hubtel', 3, 'test'),
        record(appId, 'nalo', 2),
        record(appId, 'emulator', 1, 'test'),
        record(appId, 'arkesel', 45),
        record(other, 'beem', 1),
      ]);
    const res = await get(`/api/getAppGatewayTraffic/${appId}`);
    expect(res.json()).toMatchObject({
      status: '00',
      data: [
        { gateway: 'hubtel', sessions: 2 },
        { gateway: 'nalo', sessions: 1 },
      ],
    });
    expect(Date.parse(res.json().data[0].lastAt)).toBeGreaterThan(Date.now() - 2 * day);
    expect((await get(`/api/getAppGatewayTraffic/${appId}`, stranger.auth)).statusCode).toBe(404);
  });
});
