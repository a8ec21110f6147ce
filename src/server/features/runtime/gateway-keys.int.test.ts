import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { seedShop } from '../../../../tests/support/seed-app';
import { createApiClient, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import type { App } from '../../../shared/api/apps.schema';
import { GATEWAY_ACCESS_MESSAGES } from '../../core/gateway-access';
import { GATEWAY_LIMIT_TEXTS } from './gateway-limits';

let sessions = 0;
/** A new Africa's Talking session on `url` (the path of a gateway URL). */
function dial(t: TestApp, url: string, options: { phoneNumber?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    payload: new URLSearchParams({
      sessionId: `app-key-${randomUUID()}`,
      serviceCode: '*920*55#',
      phoneNumber: options.phoneNumber ?? `+23355${String(++sessions).padStart(7, '0')}`,
      text: '',
    }).toString(),
  });
}

const pathOf = (url: string) => new URL(url).pathname;

describeDb("an app's gateway key: /ussd/{appId}/{test|live}/{key}", () => {
  const t = useTestApp({ TOKEN_TTL_DAYS: 365 });
  const owner = useUser(t);
  const other = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth, { appName: 'Keyed shop' });
  });
  const getApp = async () => (await createApiClient(t, owner).get(`/api/getAppByAppId/${appId}`)).json().data as App;

  it('is off for a new app: its bare URLs are served', async () => {
    const app = await getApp();
    expect(app).toMatchObject({ hasGatewayKey: false, gatewayKey: null });
    expect(app.testUrl).toBe(`http://localhost:80/ussd/${appId}/test`);
    expect((await dial(t, pathOf(app.testUrl))).body).toMatch(/^CON Welcome to the shop/);
  });

  it('turned on, the URLs end in the key; a request without it, or with a wrong one, is refused 401 and starts nothing', async () => {
    const turned = await createApiClient(t, owner).post(`/api/rotateAppGatewayKey/${appId}`, {});
    const app = turned.json().data as App;
    expect(app.hasGatewayKey).toBe(true);
    expect(Buffer.from(app.gatewayKey!, 'base64url')).toHaveLength(32);
    expect(app.testUrl).toBe(`http://localhost:80/ussd/${appId}/test/${app.gatewayKey}`);
    expect(app.productionUrl).toBe(`http://localhost:80/ussd/${appId}/live/${app.gatewayKey}`);

    const open = (await t.app.runtime.findActiveSessions(appId)).length;
    for (const url of [`/ussd/${appId}/test`, `/ussd/${appId}/test/wrong`, `/ussd/${appId}/live`]) {
      const res = await dial(t, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ status: '05', message: GATEWAY_ACCESS_MESSAGES.unauthenticated });
    }
    expect(await t.app.runtime.findActiveSessions(appId)).toHaveLength(open);
    expect((await dial(t, pathOf(app.testUrl))).body).toMatch(/^CON Welcome to the shop/);
    expect((await dial(t, `/ussd/${appId}/test`, { headers: { 'x-dialflow-key': app.gatewayKey! } })).body).toMatch(/^CON Welcome/);
  });

  it('rotated, the old key is refused at once; turned off, the bare URLs are served again', async () => {
    const old = await getApp();
    const rotated = (await createApiClient(t, owner).post(`/api/rotateAppGatewayKey/${appId}`, {})).json().data as App;
    expect(rotated.gatewayKey).not.toBe(old.gatewayKey);
    expect((await dial(t, pathOf(old.testUrl))).statusCode).toBe(401);
    expect((await dial(t, pathOf(rotated.testUrl))).body).toMatch(/^CON Welcome/);

    const off = (await createApiClient(t, owner).post(`/api/removeAppGatewayKey/${appId}`, {})).json().data as App;
    expect(off).toMatchObject({ hasGatewayKey: false, gatewayKey: null, testUrl: `http://localhost:80/ussd/${appId}/test` });
    expect((await dial(t, `/ussd/${appId}/test`)).body).toMatch(/^CON Welcome/);
  });

  it("another account cannot turn on or rotate the app's key (404), and a copy of the app gets no key", async () => {
    for (const path of ['rotateAppGatewayKey', 'removeAppGatewayKey']) {
      const res = await createApiClient(t, other).post(`/api/${path}/${appId}`, {});
      expect(res.statusCode, path).toBe(404);
    }
    expect((await getApp()).hasGatewayKey).toBe(false);
    await createApiClient(t, owner).post(`/api/rotateAppGatewayKey/${appId}`, {});
    const copy = await createApiClient(t, owner).post('/api/cloneApp', { appId, appName: 'Copy', description: 'x' });
    expect(copy.json().data).toMatchObject({ hasGatewayKey: false, gatewayKey: null });
    await createApiClient(t, owner).post(`/api/removeAppGatewayKey/${appId}`, {});
  });

  it('stops the 11th new session from one number in a minute on an app URL too', async () => {
    const phoneNumber = `+23356${randomUUID().replace(/\D/g, '').slice(0, 7).padEnd(7, '0')}`;
    for (let n = 1; n <= 10; n++) expect((await dial(t, `/ussd/${appId}/test`, { phoneNumber })).body, `dial ${n}`).toMatch(/^CON/);
    expect((await dial(t, `/ussd/${appId}/test`, { phoneNumber })).body).toBe(`END ${GATEWAY_LIMIT_TEXTS.caller}`);
  });
});
