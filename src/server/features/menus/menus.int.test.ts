import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { appLogLines, appVersions } from '../../../db/schema';
import { MISSING_MENU_TEXT } from '../../../engine';
import { REGEXP_MESSAGES } from '../../../shared/app';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu, seedTwoMenus } from '../../../../tests/support/seed-app';

describeDb('menus API, deploy and versions', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);

  const { get, post } = createApiClient(t, owner);
  const identifiers = async (appId: string) =>
    (await get(`/api/getAllMenus/${appId}`)).json().data.map((m: { userDefinedName: string }) => m.userDefinedName);

  /** A valid menu but for its one action. */
  const withAction = (action: object) => ({ userDefinedName: 'ok', displayText: 'Hi', actions: [action] });
  /** A valid menu but for its restapi action, a POST request with these fields changed. */
  const withRequest = (code: object) =>
    withAction({
      actionName: 'api',
      actionType: 'post',
      inheritsPlugin: 'restapi',
      code: { method: 'POST', url: 'https://example.com', contentType: 'application/json', payload: '{}', headers: [], ...code },
    });

  it.each([
    [{ userDefinedName: '', displayText: 'Hi' }, 'Menu identifier is required.'],
    [{ userDefinedName: '1menu', displayText: 'Hi' }, 'Menu identifier cannot begin with a number, contain spaces or special characters'],
    [{ userDefinedName: 'my menu', displayText: 'Hi' }, 'Menu identifier cannot begin with a number, contain spaces or special characters'],
    [{ userDefinedName: 'ok', displayText: '  ' }, 'Menu Text cannot be empty.'],
    [
      { userDefinedName: 'ok', displayText: 'Hi', allowGoBack: true, goBackInputIndicator: '' },
      'Indicator cannot be empty when Back Menu is checked.',
    ],
    [withAction({ actionName: '', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }), 'Action name is required.'],
    [
      withAction({ actionName: 'my-action', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }),
      'Action name must be a valid JavaScript identifier.',
    ],
    [withAction({ actionName: 'js', actionType: 'pre', inheritsPlugin: 'javascript', code: '' }), 'Enter javascript code'],
    [withRequest({ url: '' }), 'Request URL is required.'],
    [withRequest({ payload: '' }), 'Request body is required for non-GET methods.'],
    [withRequest({ payload: '{bad' }), 'Request body must be valid JSON.'],
  ])('refuses %j with "%s" and saves nothing', async (menu, message) => {
    const appId = await seedApp(t, owner.auth);
    const res = await post('/api/createMenu', { appId, ...menu });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    expect(await identifiers(appId)).toEqual([]);
  });

  it('refuses javascript that does not parse as ECMAScript 2020, naming the line', async () => {
    const appId = await seedApp(t, owner.auth);
    const res = await post('/api/createMenu', {
      appId,
      userDefinedName: 'ok',
      displayText: 'Hi',
      actions: [{ actionName: 'js', actionType: 'pre', inheritsPlugin: 'javascript', code: 'const a = 1;\nreturn a +;' }],
    });
    expect(res.json().status).toBe('02');
    expect(JSON.stringify(res.json().errors)).toMatch(/line 2|"line":2/);
  });

  it('refuses a regular expression RE2 cannot run, saying why and where, and takes one it can', async () => {
    const appId = await seedApp(t, owner.auth);
    const menu = (compareValue: string) => ({
      appId,
      userDefinedName: 'pin',
      displayText: 'PIN?',
      inputValidations: [{ validationMethod: 'regexp', compareValue, errorMessage: 'no' }],
    });
    const res = await post('/api/createMenu', menu('^(?=.*\\d).{4}$'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', field: 'inputValidations.0.compareValue', message: REGEXP_MESSAGES.lookahead });
    // Linear on RE2, so the ambiguous patterns the old check had to refuse are fine.
    expect((await post('/api/createMenu', menu('^(a+)+$'))).json().status).toBe('00');
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
    expect(
      (await post('/api/updateMenu', { appId, uniqueId: id, userDefinedName: 'home', displayText: 'Hacked' }, stranger.auth)).statusCode,
    ).toBe(404);
    expect((await get(`/api/deleteMenu/${id}`, stranger.auth)).statusCode).toBe(404);
    expect((await post('/api/createMenu', { appId, userDefinedName: 'x', displayText: 'x' }, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/deployChanges/${appId}`, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/getAllMenus/${appId}`)).json().data[0].displayText).toBe('Welcome back');
  });

  it("saves the flow map's box positions, keeps them through menu saves, carries them into versions, and refuses bad ones", async () => {
    const appId = await seedApp(t, owner.auth);
    const { first, last } = await seedTwoMenus(
      t,
      owner.auth,
      appId,
      { userDefinedName: 'home', displayText: 'Hi\n1. Go' },
      { userDefinedName: 'bye', displayText: 'Bye' },
    );
    const positions = async () =>
      Object.fromEntries(
        (await get(`/api/getAllMenus/${appId}`))
          .json()
          .data.map((m: { userDefinedName: string; mapPosition?: unknown }) => [m.userDefinedName, m.mapPosition ?? null]),
      );
    expect(await positions()).toEqual({ home: null, bye: null });
    const saved = await post('/api/saveMenuPositions', {
      appId,
      direction: 'LR',
      positions: [
        { uniqueId: first, x: 10.5, y: -20 },
        { uniqueId: last, x: 300, y: 40 },
      ],
    });
    expect(saved.json()).toMatchObject({ status: '00', message: 'Menu positions saved' });
    expect(await positions()).toEqual({ home: { x: 10.5, y: -20, direction: 'LR' }, bye: { x: 300, y: 40, direction: 'LR' } });

    // A menu's save leaves its position (the form does not send it, and a stale one sent is ignored).
    await post('/api/updateMenu', {
      appId,
      uniqueId: last,
      userDefinedName: 'bye',
      displayText: 'Goodbye',
      terminate: true,
      mapPosition: { x: 0, y: 0, direction: 'TB' },
    });
    expect((await positions()).bye).toEqual({ x: 300, y: 40, direction: 'LR' });

    // The deployed version carries them; moving boxes alone is not a change to deploy.
    const version = (await get(`/api/deployChanges/${appId}`)).json().data.version;
    const [row] = await t.db
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.appId, appId), eq(appVersions.number, version)));
    const definition = row!.definition as { menus: { userDefinedName: string; mapPosition?: unknown }[] };
    expect(definition.menus.find((m) => m.userDefinedName === 'home')!.mapPosition).toEqual({ x: 10.5, y: -20, direction: 'LR' });
    await post('/api/saveMenuPositions', { appId, direction: 'TB', positions: [{ uniqueId: first, x: 1, y: 2 }] });
    expect((await get(`/api/deployChanges/${appId}`)).statusCode).toBe(409);
    // Menus left out lose theirs (Tidy up sends none).
    expect(await positions()).toEqual({ home: { x: 1, y: 2, direction: 'TB' }, bye: null });

    // Bad input changes nothing: another app's menu, a menu twice, a position out of range, another account.
    const otherApp = await seedApp(t, owner.auth);
    const foreign = await seedMenu(t, owner.auth, otherApp, { userDefinedName: 'x', displayText: 'x' });
    const refused = [
      await post('/api/saveMenuPositions', { appId, direction: 'TB', positions: [{ uniqueId: foreign, x: 1, y: 1 }] }),
      await post('/api/saveMenuPositions', {
        appId,
        direction: 'TB',
        positions: [
          { uniqueId: first, x: 1, y: 1 },
          { uniqueId: first, x: 2, y: 2 },
        ],
      }),
      await post('/api/saveMenuPositions', { appId, direction: 'TB', positions: [{ uniqueId: first, x: 1e9, y: 1 }] }),
      await post('/api/saveMenuPositions', { appId, direction: 'diagonal', positions: [] }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 400]);
    expect(refused[0]!.json().message).toBe(`No menu ${foreign} in this app.`);
    expect((await post('/api/saveMenuPositions', { appId, direction: 'TB', positions: [] }, stranger.auth)).statusCode).toBe(404);
    expect(await positions()).toEqual({ home: { x: 1, y: 2, direction: 'TB' }, bye: null });
  });

  it('refuses to deploy an app with no menus or a goto to a missing menu, listing the errors', async () => {
    const appId = await seedApp(t, owner.auth);
    const empty = await get(`/api/deployChanges/${appId}`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().status).toBe('02');
    expect(empty.json().errors.length).toBeGreaterThan(0);

    const home = { userDefinedName: 'home', displayText: '1. Go' };
    const { last: target } = await seedTwoMenus(t, owner.auth, appId, home, { userDefinedName: 'target', displayText: 'T' });
    await get(`/api/deleteMenu/${target}`);
    const broken = await get(`/api/deployChanges/${appId}`);
    expect(broken.json().status).toBe('02');
    expect(broken.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'error', menu: 'home' })]));
    expect((await get(`/api/getAppVersions/${appId}`)).json().data).toEqual([]);
  });

  it('a draft run that reaches a deleted menu ends with a screen that says so, and logs the rule and the missing id', async () => {
    const appId = await seedApp(t, owner.auth);
    const home = { userDefinedName: 'home', displayText: '1. Buy\n2. Balance' };
    const ending = { userDefinedName: 'balance', displayText: 'Your balance is GHS 20' };
    const { last: balance } = await seedTwoMenus(t, owner.auth, appId, home, ending, { operator: 'eq', compareVal: '2' });
    expect((await get(`/api/deleteMenu/${balance}`)).json().status).toBe('00');

    const emu = (session_mode: string, userdata: string) =>
      post(`/ussd-emulator/${appId}`, {
        session_id: '20261121101501',
        userdata,
        msisdn: '233241234567',
        session_mode,
        network_id: 'MTN',
        appId,
      });
    const { shortCode } = (await get(`/api/getAppByAppId/${appId}`)).json().data;
    expect((await emu('start', shortCode)).json().text).toContain('2. Balance');
    expect((await emu('continue', '2')).json()).toMatchObject({ session_mode: 'end', text: MISSING_MENU_TEXT });

    await t.app.runtime.flushEvents();
    const errors = await t.db
      .select()
      .from(appLogLines)
      .where(and(eq(appLogLines.appId, appId), eq(appLogLines.level, 'error')));
    expect(errors).toEqual([
      expect.objectContaining({
        type: 'error_logged',
        menu: 'home',
        message: `Rule 1 (eq 2) goes to a menu that no longer exists: ${balance}`,
        data: expect.objectContaining({ target: balance }),
      }),
    ]);
  });

  it('a terminating menu has no Back option: saved with Back Menu off, whatever the form sent', async () => {
    const appId = await seedApp(t, owner.auth);
    const bye = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'bye',
      displayText: 'Goodbye',
      terminate: true,
      allowGoBack: true,
      goBackInputIndicator: '',
    });
    const home = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'home',
      displayText: '1. Leave',
      isFirst: true,
      allowGoBack: true,
      goBackInputIndicator: '0',
    });
    const byId = async () =>
      new Map((await get(`/api/getAllMenus/${appId}`)).json().data.map((m: { uniqueId: string }) => [m.uniqueId, m]));
    expect((await byId()).get(bye)).toMatchObject({ terminate: true, allowGoBack: false });
    // A menu that does not end keeps the Back Menu it was given.
    expect((await byId()).get(home)).toMatchObject({ terminate: false, allowGoBack: true, goBackInputIndicator: '0' });

    const update = await post('/api/updateMenu', {
      appId,
      uniqueId: home,
      userDefinedName: 'home',
      displayText: 'Bye now',
      terminate: true,
      allowGoBack: true,
      goBackInputIndicator: '0',
    });
    expect(update.json().status).toBe('00');
    expect((await byId()).get(home)).toMatchObject({ terminate: true, allowGoBack: false });
  });

  it('deploys numbered versions with warnings, lists them, and rolls back', async () => {
    const appId = await seedApp(t, owner.auth);
    const home = { userDefinedName: 'home', displayText: '1. Leave' };
    await seedTwoMenus(t, owner.auth, appId, home, { userDefinedName: 'bye', displayText: 'Goodbye' });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'orphan', displayText: 'Nobody comes here' });

    const v1 = await get(`/api/deployChanges/${appId}`);
    expect(v1.json()).toMatchObject({ status: '00', data: { version: 1, isLive: true } });
    expect(v1.json().data.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'warning', menu: 'orphan' })]));

    await get(
      `/api/deleteMenu/${(await get(`/api/getAllMenusLite/${appId}`)).json().data.find((m: { userDefinedName: string }) => m.userDefinedName === 'orphan').uniqueId}`,
    );
    const v2 = await get(`/api/deployChanges/${appId}`);
    expect(v2.json().data).toMatchObject({ version: 2, warnings: [], menuCount: 2 });

    const rolled = await post('/api/rollbackVersion', { appId, version: 1 });
    expect(rolled.json()).toMatchObject({ status: '00', data: { version: 3, rolledBackFrom: 1, menuCount: 3, isLive: true } });
    const versions = (await get(`/api/getAppVersions/${appId}`)).json().data;
    expect(versions.map((v: { version: number; isLive: boolean }) => [v.version, v.isLive])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect(versions[0].createdBy).toBe(owner.email);
    expect((await post('/api/rollbackVersion', { appId, version: 3 })).json().status).toBe('02');
    expect((await post('/api/rollbackVersion', { appId, version: 9 })).statusCode).toBe(404);
    // The draft is untouched by a rollback.
    expect(await identifiers(appId)).toEqual(['home', 'bye']);
  });

  it("deploys the README's first app with a warning naming a variable that matches no menu, and none once the menu is named for it", async () => {
    const appId = await seedApp(t, owner.auth);
    const always = { operator: 'always', compareVal: '' };
    const { first } = await seedTwoMenus(
      t,
      owner.auth,
      appId,
      { userDefinedName: 'welcome', displayText: 'Welcome! What is your name?' },
      { userDefinedName: 'bye', displayText: 'Thank you, {{ session.inputs.name }}!' },
      always,
    );
    const v1 = await get(`/api/deployChanges/${appId}`);
    expect(v1.json()).toMatchObject({ status: '00', data: { version: 1 } });
    expect(v1.json().data.warnings).toEqual([
      {
        level: 'warning',
        menuId: expect.any(String),
        menu: 'bye',
        field: 'displayText',
        message: '{{ session.inputs.name }} in displayText names nothing: no menu has the identifier "name". It shows as empty text.',
        code: 'unknown_variable',
      },
    ]);
    const menus = (await get(`/api/getAllMenus/${appId}`)).json().data as Array<Record<string, unknown>>;
    const welcome = menus.find((m) => m.uniqueId === first)!;
    expect((await post('/api/updateMenu', { ...welcome, userDefinedName: 'name' })).json().status).toBe('00');
    const v2 = await get(`/api/deployChanges/${appId}`);
    expect(v2.json().data).toMatchObject({ version: 2, warnings: [] });
  });

  it('a deploy with no change since the last version makes no new version and says so', async () => {
    const appId = await seedApp(t, owner.auth);
    const home = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(1);
    const again = await get(`/api/deployChanges/${appId}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: '02', message: 'No changes since version 1', unchangedSince: 1 });
    expect((await get(`/api/getAppVersions/${appId}`)).json().data).toHaveLength(1);
    // Any change, even of one character, deploys.
    await post('/api/updateMenu', { appId, uniqueId: home, userDefinedName: 'home', displayText: 'Welcome!', terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(2);
    // After a rollback the live version is 1's copy: the draft (2's text) differs from it and deploys again.
    expect((await post('/api/rollbackVersion', { appId, version: 1 })).json().data.version).toBe(3);
    expect((await get(`/api/deployChanges/${appId}`)).json().data.version).toBe(4);
  });
});
