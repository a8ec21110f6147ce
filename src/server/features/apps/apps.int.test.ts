import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu, seedTwoMenus } from '../../../../tests/support/seed-app';

describeDb('apps API', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);

  const { get, post } = createApiClient(t, owner);
  const create = (payload: object, auth = owner.auth) => post('/api/createApp', payload, auth);
  const base = { appName: 'Airtime', description: 'Top up', country: 'ghana', useTemplateTag: false };

  it.each([
    [{ ...base, appName: '', connectionMode: 'new-shortcode', baseShortCode: '*920*', shortCode: '12#' }, 'Please complete all fields'],
    [{ ...base, country: '', connectionMode: 'new-shortcode', baseShortCode: '*920*', shortCode: '12#' }, 'Please complete all fields'],
    [{ ...base, connectionMode: 'new-shortcode', baseShortCode: '', shortCode: '12#' }, 'Please select top level shortcode'],
    [{ ...base, connectionMode: 'new-shortcode', baseShortCode: '*920*', shortCode: '12' }, "Shortcode must end with '#'"],
    [
      { ...base, connectionMode: 'existing-shortcode', customShortCode: '920#' },
      'Shortcode must start with * and end with # . examples: *966#, *900*200#',
    ],
    [
      { ...base, connectionMode: 'existing-shortcode', customShortCode: '*92a#' },
      'Shortcode must start with * and end with # . examples: *966#, *900*200#',
    ],
    [
      { ...base, connectionMode: 'existing-shortcode', customShortCode: '*920*{amount}#' },
      'Shortcode must start with * and end with # . examples: *966#, *900*200#',
    ],
  ])('refuses %j with "%s"', async (payload, message) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
  });

  it('prefixes the base shortcode and drops a leading * (new-shortcode), or keeps a custom one', async () => {
    const a = await create({ ...base, connectionMode: 'new-shortcode', baseShortCode: '*920*', shortCode: '*12#' });
    expect(a.json().data.shortCode).toBe('*920*12#');
    const b = await create({ ...base, connectionMode: 'new-shortcode', baseShortCode: 'custom', shortCode: '*714*5#' });
    expect(b.json().data.shortCode).toBe('*714*5#');
    const c = await create({
      ...base,
      useTemplateTag: true,
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*{merchantCode}*{amount}#',
    });
    expect(c.json()).toMatchObject({ status: '00', data: { shortCode: '*920*{merchantCode}*{amount}#', useTemplateTag: true } });
  });

  it('gives test and production URLs built from a random 128-bit app id', async () => {
    const res = await create({ ...base, connectionMode: 'existing-shortcode', customShortCode: '*966#' });
    const { appId, testUrl, productionUrl } = res.json().data;
    expect(appId).toMatch(/^[0-9a-f]{32}$/);
    expect(testUrl).toMatch(new RegExp(`/ussd/${appId}/test$`));
    expect(productionUrl).toMatch(new RegExp(`/ussd/${appId}/live$`));
  });

  it("lists only the caller's apps and hides another account's app as not found", async () => {
    const appId = await seedApp(t, owner.auth);
    const mine = await get('/api/getAllApps');
    expect(mine.json().data.map((a: { appId: string }) => a.appId)).toContain(appId);
    const theirs = await get('/api/getAllApps', stranger.auth);
    expect(theirs.json().data.map((a: { appId: string }) => a.appId)).not.toContain(appId);

    for (const req of [
      { method: 'GET' as const, url: `/api/getAppByAppId/${appId}` },
      { method: 'GET' as const, url: `/deleteApp/${appId}` },
      {
        method: 'POST' as const,
        url: '/api/updateApp',
        payload: { ...base, appId, connectionMode: 'existing-shortcode', customShortCode: '*1#' },
      },
      { method: 'POST' as const, url: '/api/cloneApp', payload: { appId, appName: 'x', description: 'y' } },
    ]) {
      const res = await t.app.inject({ ...req, headers: stranger.auth });
      expect(res.statusCode, req.url).toBe(404);
      expect(res.json()).toEqual({ status: '04', message: 'App not found' });
    }
    expect((await get(`/api/getAppByAppId/${appId}`)).json().data.appName).toBe('Shop');
  });

  it('updates settings with their messages', async () => {
    const appId = await seedApp(t, owner.auth);
    const update = (payload: object) => post('/api/updateApp', { appId, ...base, connectionMode: 'existing-shortcode', ...payload });
    expect((await update({ customShortCode: '', shortCode: '' })).json().message).toBe('Please enter Short Code');
    expect((await update({ description: '', customShortCode: '*1#' })).json().message).toBe('Please complete all fields');
    const ok = await update({ appName: 'Renamed', customShortCode: '*777*1#' });
    expect(ok.json()).toMatchObject({ status: '00', data: { appName: 'Renamed', shortCode: '*777*1#' } });
  });

  it('clones an app with its menus, pointing gotos at the copies', async () => {
    const appId = await seedApp(t, owner.auth);
    const first = { userDefinedName: 'first', displayText: '1. Go' };
    const { last: second } = await seedTwoMenus(t, owner.auth, appId, first, { userDefinedName: 'second', displayText: 'Bye' });
    const res = await post('/api/cloneApp', { appId, appName: 'Copy', description: 'Copied' });
    expect(res.json().status).toBe('00');
    const copyId = res.json().data.appId;
    expect(copyId).not.toBe(appId);
    const menus = (await get(`/api/getAllMenus/${copyId}`)).json().data;
    expect(menus.map((m: { userDefinedName: string }) => m.userDefinedName)).toEqual(['first', 'second']);
    const copiedSecond = menus.find((m: { userDefinedName: string }) => m.userDefinedName === 'second').uniqueId;
    expect(copiedSecond).not.toBe(second);
    expect(menus[0].switchOperations[0].actionParam).toBe(copiedSecond);
  });

  it('deletes an app and its menus', async () => {
    const appId = await seedApp(t, owner.auth);
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'm', displayText: 'x' });
    expect((await get(`/deleteApp/${appId}`)).json().status).toBe('00');
    expect((await get(`/api/getAppByAppId/${appId}`)).statusCode).toBe(404);
    expect((await get(`/api/getAllMenus/${appId}`)).statusCode).toBe(404);
  });

  it('serves featured templates without a sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/featuredTemplates' });
    expect(res.json()).toMatchObject({ status: '00', data: expect.any(Array) });
  });
});
