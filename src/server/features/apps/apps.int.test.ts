import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { eq } from 'drizzle-orm';
import { seedApp, seedMenu, seedTwoMenus, updateAppSettings } from '../../../../tests/support/seed-app';
import { shortcodePurchases } from '../../../db/schema';
import { seedFeaturedTemplates } from '../templates/templates.service';

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

describeDb("an app's dial string: one rule for create, settings, clone, import and template clones", () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const { get, post } = createApiClient(t, owner);
  const base = { appName: 'Airtime', description: 'Top up', country: 'ghana', useTemplateTag: false, connectionMode: 'existing-shortcode' };
  const create = (customShortCode: string, auth = owner.auth) => post('/api/createApp', { ...base, customShortCode }, auth);
  const countApps = async (auth = owner.auth) => (await get('/api/getAllApps', auth)).json().data.length;
  const inUse = (code: string) => ({
    status: '02',
    message: `Another of your apps uses ${code}: choose another shortcode.`,
    field: 'shortCode',
  });
  const held = (code: string) => ({
    status: '02',
    message: `${code} is a shortcode another account holds: choose another shortcode.`,
    field: 'shortCode',
  });

  it("refuses on create a dial string another of the account's apps uses (also new-shortcode mode); another account may type it", async () => {
    expect((await create('*920*11#')).json().status).toBe('00');
    const before = await countApps();
    const again = await create('*920*11#');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(inUse('*920*11#'));
    const built = await post('/api/createApp', { ...base, connectionMode: 'new-shortcode', baseShortCode: '*920*', shortCode: '11#' });
    expect(built.json()).toEqual(inUse('*920*11#'));
    expect(await countApps()).toBe(before);
    // Typing a dial string reserves nothing: another account may name its own app so, and both read "not reserved".
    const theirs = await create('*920*11#', other.auth);
    expect(theirs.json()).toMatchObject({ status: '00', data: { shortCode: '*920*11#' } });
    const read = await get(`/api/getAppByAppId/${theirs.json().data.appId}`, other.auth);
    expect(read.json().data).toMatchObject({ shortCode: '*920*11#', dialStringHold: null });
  });

  it('refuses on App Settings a dial string another app of the account uses; keeping its own is fine', async () => {
    const a = (await create('*920*21#')).json().data.appId;
    const b = (await create('*920*22#')).json().data.appId;
    const taken = await updateAppSettings(t, owner.auth, b, { customShortCode: '*920*21#' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual(inUse('*920*21#'));
    expect((await get(`/api/getAppByAppId/${b}`)).json().data.shortCode).toBe('*920*22#');
    expect((await updateAppSettings(t, owner.auth, b, { appName: 'Renamed' })).json().status).toBe('00');
    expect((await updateAppSettings(t, owner.auth, a, { customShortCode: '*920*23#' })).json().status).toBe('00');
    expect((await updateAppSettings(t, owner.auth, b, { customShortCode: '*920*21#' })).json()).toMatchObject({ status: '00' });
  });

  it("a clone drops a dial string that would collide; a typed one is checked; a template's copy keeps it while free", async () => {
    const source = (await create('*920*31#')).json().data.appId;
    const copy = await post('/api/cloneApp', { appId: source, appName: 'Copy', description: 'Copied' });
    expect(copy.json()).toMatchObject({ status: '00', data: { shortCode: '', connectionMode: 'existing-shortcode', customShortCode: '' } });
    const typed = await post('/api/cloneApp', { appId: source, appName: 'Copy 2', description: 'Copied', shortCode: '*920*31#' });
    expect(typed.statusCode).toBe(409);
    expect(typed.json()).toEqual(inUse('*920*31#'));
    const free = await post('/api/cloneApp', { appId: source, appName: 'Copy 3', description: 'Copied', shortCode: '*920*32#' });
    expect(free.json()).toMatchObject({ status: '00', data: { shortCode: '*920*32#' } });
    // Two copies of one template: the first keeps its dial string, the second has none until its owner types one.
    // (The third template, on *920*13#: the first's *920*11# is already one of this account's apps, above.)
    const templateId = (await seedFeaturedTemplates(t.db, other.user.id, 'http://127.0.0.1'))[2]!;
    const template = (await get(`/api/getAppByAppId/${templateId}`)).json().data;
    const first = await post('/api/cloneApp', { appId: template.appId, appName: 'T1', description: 'From a template' });
    expect(first.json()).toMatchObject({ status: '00', data: { shortCode: template.shortCode } });
    const second = await post('/api/cloneApp', { appId: template.appId, appName: 'T2', description: 'From a template' });
    expect(second.json()).toMatchObject({ status: '00', data: { shortCode: '' } });
    // Never two of the account's apps on one dial string.
    const codes = (await get('/api/getAllApps'))
      .json()
      .data.map((a: { shortCode: string }) => a.shortCode)
      .filter(Boolean);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('an import refuses a dial string in use with the same message', async () => {
    const source = (await create('*920*41#')).json().data.appId;
    const file = (await get(`/api/exportApp/${source}`)).json().data;
    const clash = await post('/api/importApp', { document: file });
    expect(clash.json().errors).toEqual([{ field: 'shortCode', message: inUse('*920*41#').message }]);
    expect((await post('/api/importApp', { document: file, shortCode: '*920*42#' })).json().status).toBe('00');
  });

  it("refuses a dial string another account holds as a shortcode; App Settings says whether the owner's purchase reserves it", async () => {
    const now = new Date();
    const purchase = {
      providerKey: 'mtngh',
      country: 'Ghana',
      requestMethod: 'POST',
      price: '150.00',
      currency: 'GHS',
      status: 'active',
      startDate: now,
      expiryDate: new Date(now.getTime() + 30 * 86_400_000),
    };
    await t.db.insert(shortcodePurchases).values({ ...purchase, userId: other.user.id, dialString: '*920*77#' });
    for (const res of [
      await create('*920*77#'),
      await updateAppSettings(t, owner.auth, (await create('*920*78#')).json().data.appId, { customShortCode: '*920*77#' }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(held('*920*77#'));
    }
    // The holder's own app on it reads reserved, and whether its sessions come here.
    const theirs = (await create('*920*77#', other.auth)).json().data.appId;
    const hold = (await get(`/api/getAppByAppId/${theirs}`, other.auth)).json().data.dialStringHold;
    expect(hold).toMatchObject({ provider: 'mtngh', status: 'active', connectedHere: false });
    await t.db.update(shortcodePurchases).set({ appId: theirs, linkedAppEnv: 'test' }).where(eq(shortcodePurchases.dialString, '*920*77#'));
    expect((await get(`/api/getAppByAppId/${theirs}`, other.auth)).json().data.dialStringHold).toMatchObject({ connectedHere: true });
  });

  it('of two concurrent claims on one dial string in an account, exactly one wins', async () => {
    const before = await countApps();
    const replies = await Promise.all([create('*920*91#'), create('*920*91#'), create('*920*91#')]);
    expect(replies.map((r) => r.json().status).sort()).toEqual(['00', '02', '02']);
    for (const r of replies.filter((r) => r.json().status !== '00')) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual(inUse('*920*91#'));
    }
    expect(await countApps()).toBe(before + 1);
  });
});
