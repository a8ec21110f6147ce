import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

describeDb('menus API, deploy and versions', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof seedUser>>;
  let stranger: Awaited<ReturnType<typeof seedUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await seedUser(t);
    stranger = await seedUser(t);
  });
  afterAll(() => t.close());

  const get = (url: string, auth = owner.auth) => t.app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, payload: object, auth = owner.auth) => t.app.inject({ method: 'POST', url, headers: auth, payload });
  const identifiers = async (appId: string) => (await get(`/api/getAllMenus/${appId}`)).json().data.map((m: { userDefinedName: string }) => m.userDefinedName);

  it.each([
    [{ userDefinedName: '', displayText: 'Hi' }, 'Menu identifier is required.'],
    [{ userDefinedName: '1menu', displayText: 'Hi' }, 'Menu identifier cannot begin with a number, contain spaces or special characters'],
    [{ userDefinedName: 'my menu', displayText: 'Hi' }, 'Menu identifier cannot begin with a number, contain spaces or special characters'],
    [{ userDefinedName: 'ok', displayText: '  ' }, 'Menu Text cannot be empty.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', allowGoBack: true, goBackInputIndicator: '' }, 'Indicator cannot be empty when Back Menu is checked.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: '', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }] }, 'Action name is required.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'my-action', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }] }, 'Action name must be a valid JavaScript identifier.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'js', actionType: 'pre', inheritsPlugin: 'javascript', code: '' }] }, 'Enter javascript code'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'api', actionType: 'post', inheritsPlugin: 'restapi', code: { method: 'POST', url: '', contentType: 'application/json', payload: '{}', headers: [] } }] }, 'Request URL is required.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'api', actionType: 'post', inheritsPlugin: 'restapi', code: { method: 'POST', url: 'https://example.com', contentType: 'application/json', payload: '', headers: [] } }] }, 'Request body is required for non-GET methods.'],
    [{ userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'api', actionType: 'post', inheritsPlugin: 'restapi', code: { method: 'POST', url: 'https://example.com', contentType: 'application/json', payload: '{bad', headers: [] } }] }, 'Request body must be valid JSON.'],
  ])('refuses %j with "%s" and saves nothing', async (menu, message) => {
    const appId = await seedApp(t, owner.auth);
    const res = await post('/api/createMenu', { appId, ...menu });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    expect(await identifiers(appId)).toEqual([]);
  });

  it('refuses javascript that does not parse as ECMAScript 2020, naming the line', async () => {
    const appId = await seedApp(t, owner.auth);
    const res = await post('/api/createMenu', { appId, userDefinedName: 'ok', displayText: 'Hi', actions: [{ actionName: 'js', actionType: 'pre', inheritsPlugin: 'javascript', code: 'const a = 1;\nreturn a +;' }] });
    expect(res.json().status).toBe('02');
    expect(JSON.stringify(res.json().errors)).toMatch(/line 2|"line":2/);
  });

  it('refuses a regular expression at risk of catastrophic backtracking', async () => {
    const appId = await seedApp(t, owner.auth);
    const res = await post('/api/createMenu', { appId, userDefinedName: 'ok', displayText: 'Hi', inputValidations: [{ validationMethod: 'regexp', compareValue: '^(a+)+$', errorMessage: 'no' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe('02');
  });

  it('keeps identifiers unique within an app', async () => {
    const appId = await seedApp(t, owner.auth);
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'amount', displayText: 'Amount?' });
    const dup = await post('/api/createMenu', { appId, userDefinedName: 'amount', displayText: 'Again' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().field).toBe('userDefinedName');
    const otherApp = await seedApp(t, owner.auth);
    await seedMenu(t, owner.auth, otherApp, { userDefinedName: 'amount', displayText: 'Fine elsewhere' });
  });

  it('inserts after the menu whose plus was pressed, reorders, and derives the first menu', async () => {
    const appId = await seedApp(t, owner.auth);
    const a = await seedMenu(t, owner.auth, appId, { userDefinedName: 'a', displayText: 'A' });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'c', displayText: 'C' });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'b', displayText: 'B', parentMenuId: a });
    expect(await identifiers(appId)).toEqual(['a', 'b', 'c']);
    const top = await seedMenu(t, owner.auth, appId, { userDefinedName: 'top', displayText: 'Top', isFirst: true });
    expect(await identifiers(appId)).toEqual(['top', 'a', 'b', 'c']);

    const lite = (await get(`/api/getAllMenusLite/${appId}`)).json().data;
    expect(Object.keys(lite[0]).sort()).toEqual(['displayText', 'uniqueId', 'userDefinedName']);
    const ids = lite.map((m: { uniqueId: string }) => m.uniqueId);
    const reversed = [...ids].reverse();
    expect((await post('/api/saveMenuOrder', { appId, menuIds: reversed })).json().status).toBe('00');
    const menus = (await get(`/api/getAllMenus/${appId}`)).json().data;
    expect(menus.map((m: { userDefinedName: string }) => m.userDefinedName)).toEqual(['c', 'b', 'a', 'top']);
    expect(menus.map((m: { isFirst: boolean }) => m.isFirst)).toEqual([true, false, false, false]);

    const partial = await post('/api/saveMenuOrder', { appId, menuIds: reversed.slice(1) });
    expect(partial.json()).toMatchObject({ status: '02' });
    expect((await post('/api/saveMenuOrder', { appId, menuIds: [...reversed.slice(1), reversed[1]] })).statusCode).toBe(400);

    expect((await get(`/api/deleteMenu/${top}`)).json().status).toBe('00');
    expect(await identifiers(appId)).toEqual(['c', 'b', 'a']);
  });

  it('updates a menu, and answers another account with not found', async () => {
    const appId = await seedApp(t, owner.auth);
    const id = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome' });
    const updated = await post('/api/updateMenu', { appId, uniqueId: id, userDefinedName: 'home', displayText: 'Welcome back' });
    expect(updated.json()).toMatchObject({ status: '00', uniqueId: id });

    expect((await get(`/api/getAllMenus/${appId}`, stranger.auth)).statusCode).toBe(404);
    expect((await post('/api/updateMenu', { appId, uniqueId: id, userDefinedName: 'home', displayText: 'Hacked' }, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/deleteMenu/${id}`, stranger.auth)).statusCode).toBe(404);
    expect((await post('/api/createMenu', { appId, userDefinedName: 'x', displayText: 'x' }, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/deployChanges/${appId}`, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/getAllMenus/${appId}`)).json().data[0].displayText).toBe('Welcome back');
  });

  it('refuses to deploy an app with no menus or a goto to a missing menu, listing the errors', async () => {
    const appId = await seedApp(t, owner.auth);
    const empty = await get(`/api/deployChanges/${appId}`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().status).toBe('02');
    expect(empty.json().errors.length).toBeGreaterThan(0);

    const target = await seedMenu(t, owner.auth, appId, { userDefinedName: 'target', displayText: 'T', terminate: true });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: '1. Go', isFirst: true, switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: target }] });
    await get(`/api/deleteMenu/${target}`);
    const broken = await get(`/api/deployChanges/${appId}`);
    expect(broken.json().status).toBe('02');
    expect(broken.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'error', menu: 'home' })]));
    expect((await get(`/api/getAppVersions/${appId}`)).json().data).toEqual([]);
  });

  it('deploys numbered versions with warnings, lists them, and rolls back', async () => {
    const appId = await seedApp(t, owner.auth);
    const bye = await seedMenu(t, owner.auth, appId, { userDefinedName: 'bye', displayText: 'Goodbye', terminate: true });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: '1. Leave', isFirst: true, switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: bye }] });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'orphan', displayText: 'Nobody comes here' });

    const v1 = await get(`/api/deployChanges/${appId}`);
    expect(v1.json()).toMatchObject({ status: '00', data: { version: 1, isLive: true } });
    expect(v1.json().data.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warning', menu: 'orphan' })]));

    await get(`/api/deleteMenu/${(await get(`/api/getAllMenusLite/${appId}`)).json().data.find((m: { userDefinedName: string }) => m.userDefinedName === 'orphan').uniqueId}`);
    const v2 = await get(`/api/deployChanges/${appId}`);
    expect(v2.json().data).toMatchObject({ version: 2, warnings: [], menuCount: 2 });

    const rolled = await post('/api/rollbackVersion', { appId, version: 1 });
    expect(rolled.json()).toMatchObject({ status: '00', data: { version: 3, rolledBackFrom: 1, menuCount: 3, isLive: true } });
    const versions = (await get(`/api/getAppVersions/${appId}`)).json().data;
    expect(versions.map((v: { version: number; isLive: boolean }) => [v.version, v.isLive])).toEqual([[3, true], [2, false], [1, false]]);
    expect(versions[0].createdBy).toBe(owner.email);
    expect((await post('/api/rollbackVersion', { appId, version: 3 })).json().status).toBe('02');
    expect((await post('/api/rollbackVersion', { appId, version: 9 })).statusCode).toBe(404);
    // The draft is untouched by a rollback.
    expect(await identifiers(appId)).toEqual(['home', 'bye']);
  });
});
