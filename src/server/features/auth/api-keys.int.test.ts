import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { apiKeys } from '../../../db/schema';
import { API_KEY_MESSAGES } from '../../../shared/api/api-keys.schema';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { describeDb } from '../../../../tests/support/test-db';

describeDb('API keys', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const { get, post } = createApiClient(t, owner);
  let appId: string;
  let readKey: { uuid: string; key: string };
  let writeKey: { uuid: string; key: string };
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  async function createKey(name: string, scope: 'read' | 'write', auth = owner.auth) {
    const res = await post('/api/apiKey/create', { name, scope }, auth);
    expect(res.statusCode, res.body).toBe(200);
    return { uuid: res.json().data.uuid as string, key: res.json().key as string };
  }
  const findRow = async (uuid: string) => (await t.db.select().from(apiKeys).where(eq(apiKeys.id, uuid)))[0]!;

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { customShortCode: '*920*31#' });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', terminate: true });
    readKey = await createKey('Dashboard reader', 'read');
    writeKey = await createKey('CI deploy', 'write');
  });

  it('shows the key once, lists it by name, scope and prefix, and stores only its SHA-256 hash', async () => {
    expect(writeKey.key).toMatch(/^dfk_[A-Za-z0-9_-]{43}$/);
    const list = (await get('/api/apiKeys')).json().data;
    expect(list).toHaveLength(2);
    expect(list.find((k: { uuid: string }) => k.uuid === writeKey.uuid)).toEqual({
      uuid: writeKey.uuid,
      name: 'CI deploy',
      scope: 'write',
      prefix: writeKey.key.slice(0, 8),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(writeKey.key);
    const row = await findRow(writeKey.uuid);
    expect(row.keyHash).toBe(createHash('sha256').update(writeKey.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(writeKey.key.slice(8));
    // Another account sees none of them.
    expect((await get('/api/apiKeys', stranger.auth)).json().data).toEqual([]);
  });

  it('refuses a key without a name, or with another scope', async () => {
    expect((await post('/api/apiKey/create', { name: ' ', scope: 'read' })).json()).toMatchObject({
      status: '02',
      message: API_KEY_MESSAGES.nameRequired,
    });
    expect((await post('/api/apiKey/create', { name: 'x', scope: 'admin' })).statusCode).toBe(400);
  });

  it('a read key reads the documented calls as its account, and is refused every change', async () => {
    const key = bearer(readKey.key);
    expect((await get('/api/getAllApps', key)).json().data.map((a: { appId: string }) => a.appId)).toEqual([appId]);
    expect((await get(`/api/getAppByAppId/${appId}`, key)).statusCode).toBe(200);
    expect((await get(`/api/getAllMenus/${appId}`, key)).json().data).toMatchObject([{ userDefinedName: 'home' }]);
    expect((await get(`/api/getAppVersions/${appId}`, key)).statusCode).toBe(200);
    expect((await get(`/api/exportApp/${appId}`, key)).json().data.format).toBe('dialflow.app');
    expect((await post('/dashboard/search', { appId, searchBy: 'word', searchQuery: 'x' }, key)).statusCode).toBe(200);
    for (const res of [
      await get(`/api/deployChanges/${appId}`, key),
      await post('/api/createMenu', { appId, userDefinedName: 'more', displayText: 'More' }, key),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: '05', message: API_KEY_MESSAGES.readOnly });
    }
    expect((await get(`/api/getAllMenus/${appId}`)).json().data).toHaveLength(1);
  });

  it('a write key creates, changes and deploys, and imports', async () => {
    const key = bearer(writeKey.key);
    const menu = await post('/api/createMenu', { appId, userDefinedName: 'bye', displayText: 'Goodbye', terminate: true }, key);
    expect(menu.json(), menu.body).toMatchObject({ status: '00' });
    const deploy = await get(`/api/deployChanges/${appId}`, key);
    expect(deploy.json(), deploy.body).toMatchObject({ status: '00', data: { version: 1 } });
    const file = (await get(`/api/exportApp/${appId}`, key)).json().data;
    const imported = await post('/api/importApp', { document: file, shortCode: '*920*32#' }, key);
    expect(imported.json(), imported.body).toMatchObject({ status: '00', data: { shortCode: '*920*32#' } });
    // The changes are the account's: its own session sees them.
    expect((await get('/api/getAllApps')).json().data).toHaveLength(2);
  });

  it('a key gets 403 on every call that does not take keys, its own management included', async () => {
    for (const res of [
      await get('/api/auth/me', bearer(writeKey.key)),
      await get('/api/apiKeys', bearer(writeKey.key)),
      await post('/api/apiKey/create', { name: 'more', scope: 'write' }, bearer(writeKey.key)),
      await get('/api/subscription/current', bearer(readKey.key)),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: '05', message: API_KEY_MESSAGES.notAccepted });
    }
  });

  it('records the last use at most once a minute', async () => {
    const { uuid, key } = await createKey('Timed', 'read');
    expect((await findRow(uuid)).lastUsedAt).toBeNull();
    await get('/api/getAllApps', bearer(key));
    const first = (await findRow(uuid)).lastUsedAt;
    expect(first).not.toBeNull();
    t.advanceClock(30_000);
    await get('/api/getAllApps', bearer(key));
    expect((await findRow(uuid)).lastUsedAt).toEqual(first);
    t.advanceClock(31_000);
    await get('/api/getAllApps', bearer(key));
    expect((await findRow(uuid)).lastUsedAt!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it('another account cannot revoke a key (404); a revoked or unknown key answers 401', async () => {
    const { uuid, key } = await createKey('Short-lived', 'write');
    const foreign = await post('/api/apiKey/revoke', { uuid }, stranger.auth);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ status: '04', message: API_KEY_MESSAGES.notFound });
    expect((await get('/api/getAllApps', bearer(key))).statusCode).toBe(200);

    const revoked = await post('/api/apiKey/revoke', { uuid });
    expect(revoked.json()).toMatchObject({ status: '00', data: { uuid, revokedAt: expect.any(String) } });
    for (const used of [key, 'dfk_not-a-key-of-anyone']) {
      const res = await get('/api/getAllApps', bearer(used));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: '05', message: API_KEY_MESSAGES.invalid });
    }
    expect((await get('/api/apiKeys')).json().data.find((k: { uuid: string }) => k.uuid === uuid).revokedAt).not.toBeNull();
  });

  it("an admin's key acts as the account on its own apps, without the admin's reach into other accounts", async () => {
    const { key } = await createKey('Admin script', 'read', admin.auth);
    expect((await get('/api/getAllApps', admin.auth)).json().data.length).toBeGreaterThan(0);
    expect((await get('/api/getAllApps', bearer(key))).json().data).toEqual([]);
    expect((await get(`/api/getAppByAppId/${appId}`, bearer(key))).statusCode).toBe(404);
  });

  it('the API document marks the calls that take a key', async () => {
    const doc = (await get('/api/docs/json', {})).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/getAllApps'].get.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/deployChanges/{appId}'].get.description).toContain('with the write scope');
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearer: [] }]);
  });
});
