import { beforeAll, describe, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedMenu, seedShop, updateAppSettings } from '../../../../tests/support/seed-app';
import { APP_IMPORT_MAX_BYTES, type AppExport } from '../../../shared/api/app-transfer.schema';
import type { ActionOf, Menu } from '../../../shared/app';

describeDb('app import and export', () => {
  // These tests import more than 10 files a minute from one account; the rate limit has its own test.
  const t = useTestApp({ IMPORT_RATE_LIMIT: 1000 });
  const owner = useUser(t);
  const stranger = useUser(t);
  const trial = useUser(t, { plan: 'TRIAL' });
  const { get, post } = createApiClient(t, owner);
  let appId: string;
  let file: AppExport;

  beforeAll(async () => {
    appId = await seedShop(t, owner.auth, { customShortCode: '*920*77#' });
    const menus = (await get(`/api/getAllMenus/${appId}`)).json().data;
    const done = menus.find((m: { userDefinedName: string }) => m.userDefinedName === 'done').uniqueId;
    // A menu whose actions hold secrets: a basic-auth password, an Authorization header, a database password in two places.
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'lookup',
      displayText: 'Looking up',
      parentMenuId: done,
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
      actions: [
        {
          actionName: 'balance',
          actionType: 'pre',
          inheritsPlugin: 'restapi',
          code: {
            method: 'GET',
            url: 'https://api.example.com/balance',
            headers: [
              { key: 'Authorization', value: 'Bearer sk_live_HEADER_SECRET' },
              { key: 'Accept', value: 'application/json' },
            ],
            basicAuth: { username: 'shop', password: 'BASIC_SECRET' },
          },
        },
        {
          actionName: 'customer',
          inheritsPlugin: 'dbaccess',
          code: { dburl: 'postgres://shop:URL_SECRET@db.example.com:5432/shop', dbpass: 'DB_SECRET', query: 'select 1' },
        },
      ],
    });
    // Boxes placed on the flow map stay with the draft: an import is laid out afresh.
    const placed = await post('/api/saveMenuPositions', { appId, direction: 'TB', positions: [{ uniqueId: done, x: 5, y: 6 }] });
    expect(placed.json().status).toBe('00');
    const res = await get(`/api/exportApp/${appId}`);
    expect(res.statusCode, res.body).toBe(200);
    file = res.json().data;
  });

  const countApps = async (auth: Record<string, string>) => (await get('/api/getAllApps', auth)).json().data.length;
  const importApp = (payload: object, auth = owner.auth) => post('/api/importApp', payload, auth);

  it('exports the settings and the menus in order, every secret blanked and listed', () => {
    expect(file).toMatchObject({
      format: 'dialflow.app',
      version: 1,
      app: { appName: 'Shop', country: 'ghana', shortCode: '*920*77#', connectionMode: 'existing-shortcode', screenLimit: 160 },
    });
    expect(file.menus.map((m) => m.userDefinedName)).toEqual(['product', 'done', 'lookup', 'amount']);
    const text = JSON.stringify(file);
    for (const secret of ['HEADER_SECRET', 'BASIC_SECRET', 'URL_SECRET', 'DB_SECRET']) expect(text).not.toContain(secret);
    expect(file.secretsRemoved).toEqual([
      'menus.2.actions.0.code.basicAuth.password',
      'menus.2.actions.0.code.headers.0.value',
      'menus.2.actions.1.code.dbpass',
      'menus.2.actions.1.code.dburl',
    ]);
    // What is not a secret stays: the Accept header, the user names, the database host.
    const [restapi, dbaccess] = file.menus[2]!.actions as [ActionOf<'restapi'>, ActionOf<'dbaccess'>];
    expect(restapi.code.headers[1]).toEqual({ key: 'Accept', value: 'application/json' });
    expect(dbaccess.code.dburl).toBe('postgres://shop@db.example.com:5432/shop');
    expect(file.menus[0]).not.toHaveProperty('appId');
    expect(file.menus.some((m) => 'mapPosition' in m)).toBe(false);
  });

  it('imports into another account as a new app equal to the original, menu ids new and gotos rewritten', async () => {
    const before = await countApps(stranger.auth);
    const res = await importApp({ document: file, appName: 'Shop (imported)' }, stranger.auth);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: '00', data: { appName: 'Shop (imported)', shortCode: '*920*77#', description: 'A shop' } });
    expect(body.data.appId).not.toBe(appId);
    expect(body.warnings).toEqual(expect.arrayContaining([{ field: 'menus.2.actions.1.code.dbpass', message: expect.any(String) }]));
    expect(await countApps(stranger.auth)).toBe(before + 1);

    const original = (await get(`/api/getAllMenus/${appId}`)).json().data as Menu[];
    const copy = (await get(`/api/getAllMenus/${body.data.appId}`, stranger.auth)).json().data as Menu[];
    const originalIds = new Set(original.map((m) => m.uniqueId));
    const nameOf = (menus: Menu[], id: string | null) => menus.find((m) => m.uniqueId === id)?.userDefinedName;
    expect(copy.map((m) => m.userDefinedName)).toEqual(original.map((m) => m.userDefinedName));
    for (const [i, menu] of copy.entries()) {
      const source = original[i]!;
      expect(originalIds.has(menu.uniqueId)).toBe(false);
      expect(menu.appId).toBe(body.data.appId);
      expect(menu.isFirst).toBe(source.isFirst);
      expect(menu.displayText).toBe(source.displayText);
      expect(menu.inputValidations).toEqual(source.inputValidations);
      // Each goto leads to the copy of the menu the original led to.
      expect(menu.switchOperations.map((r) => nameOf(copy, r.actionParam))).toEqual(
        source.switchOperations.map((r) => nameOf(original, r.actionParam)),
      );
      expect(nameOf(copy, menu.parentMenuId)).toBe(nameOf(original, source.parentMenuId));
    }
    // The secrets stayed behind: the copy's actions have them blank.
    const [restapi, dbaccess] = copy[2]!.actions as [ActionOf<'restapi'>, ActionOf<'dbaccess'>];
    expect(restapi.code.basicAuth).toEqual({ username: 'shop', password: '' });
    expect(dbaccess.code.dbpass).toBe('');

    // Exported again, the copy is the same file but for the time and the menu ids.
    const again = (await get(`/api/exportApp/${body.data.appId}`, stranger.auth)).json().data;
    const strip = (doc: AppExport) => ({
      ...doc,
      exportedAt: '',
      app: { ...doc.app, appName: '' },
      menus: doc.menus.map((m) => ({ ...m, uniqueId: '', parentMenuId: null, switchOperations: [] })),
      secretsRemoved: [],
    });
    expect(strip(again)).toEqual(strip(file));
  });

  it('refuses a shortcode another of the account apps uses, and takes a new one', async () => {
    const before = await countApps(owner.auth);
    const clash = await importApp({ document: file });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().errors).toEqual([{ field: 'shortCode', message: expect.stringContaining('*920*77#') }]);
    expect(await countApps(owner.auth)).toBe(before);

    const badCode = await importApp({ document: file, shortCode: '920' });
    expect(badCode.json().errors).toEqual([{ field: 'shortCode', message: expect.stringContaining('Shortcode must start with *') }]);

    const res = await importApp({ document: file, shortCode: '*920*78#' });
    expect(res.json()).toMatchObject({ status: '00', data: { shortCode: '*920*78#', connectionMode: 'existing-shortcode' } });
    expect(await countApps(owner.auth)).toBe(before + 1);
  });

  describe('bad input is refused with a clear reason, and nothing is created', () => {
    const withMenu = (i: number, change: Record<string, unknown>) => ({
      ...file,
      menus: file.menus.map((m: object, j: number) => (j === i ? { ...m, ...change } : m)),
    });
    const cases: Array<[string, () => object, number, string, Array<{ field: string; message: unknown }>?]> = [
      ['a file that is not an export', () => ({ document: { hello: 'world' } }), 400, 'This is not a Dialflow app export'],
      ['another format version', () => ({ document: { ...file, version: 2 } }), 400, 'This file is version 2'],
      ['a document that is not an object', () => ({ document: [1, 2, 3] }), 400, 'This is not a Dialflow app export'],
      [
        'deeply nested JSON',
        // Written as text: 5,000 levels are more than JSON.stringify (or a recursive reader) can walk.
        () => ({ document: { ...file, app: { ...file.app, deep: '#DEEP#' } } }),
        400,
        'nested more than',
      ],
      [
        'unknown fields, at the top and deep in an action',
        () => ({
          document: {
            ...withMenu(2, {
              actions: [{ ...file.menus[2]!.actions[0]!, code: { ...(file.menus[2]!.actions[0]!.code as object), evil: true } }],
            }),
            extra: 1,
          },
        }),
        400,
        'The file was not imported: 2 problems',
        [
          { field: 'menus.2.actions.0.code.evil', message: expect.stringContaining('Unknown field') },
          { field: 'extra', message: expect.stringContaining('Unknown field') },
        ],
      ],
      [
        'a menu that breaks the designer rules',
        () => ({ document: withMenu(1, { displayText: ' ', userDefinedName: '1amount' }) }),
        400,
        'The file was not imported: 2 problems',
        [
          { field: 'menus.1.userDefinedName', message: expect.stringContaining('cannot begin with a number') },
          { field: 'menus.1.displayText', message: expect.stringContaining('Menu Text cannot be empty') },
        ],
      ],
      [
        'a goto to a menu the file does not hold (an id of another app or account)',
        () => ({
          document: withMenu(0, {
            switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: '0c6f3e4e-6c1a-4b5e-9d7a-2f1f1b8d2a10' }],
          }),
        }),
        400,
        'The file was not imported: 1 problem',
        [{ field: 'menus.0.switchOperations.0.actionParam', message: 'product: The target menu does not exist in this app.' }],
      ],
      [
        'a custom function of another account',
        () => ({
          document: withMenu(2, {
            actions: [
              {
                actionName: 'fee',
                inheritsPlugin: 'customAction',
                code: { uuid: '0c6f3e4e-6c1a-4b5e-9d7a-2f1f1b8d2a10', actionName: 'fee' },
              },
            ],
          }),
        }),
        400,
        'The file was not imported: 1 problem',
        [{ field: 'menus.2.actions.0.code.uuid', message: expect.stringContaining('not one of your account') }],
      ],
      ['two menus with one id', () => ({ document: withMenu(1, { uniqueId: file.menus[0].uniqueId }) }), 400, 'The file was not imported'],
      ['a wrong shape', () => ({ document: { ...file, menus: 'none' } }), 400, 'The file was not imported: 1 problem'],
      ['an unknown field beside the document', () => ({ document: file, owner: 'someone' }), 400, 'Unrecognized key'],
      [
        'a file larger than the limit',
        () => ({ document: { ...file, app: { ...file.app, description: 'x'.repeat(APP_IMPORT_MAX_BYTES) } } }),
        413,
        'The request is too large (at most 2 MB).',
      ],
    ];
    it.each(cases)('%s', async (_name, payload, httpStatus, message, errors) => {
      const before = await countApps(stranger.auth);
      const text = JSON.stringify({ shortCode: '*920*99#', ...payload() }).replace(
        '"#DEEP#"',
        `${'{"deep":'.repeat(5000)}1${'}'.repeat(5000)}`,
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/importApp',
        headers: { ...stranger.auth, 'content-type': 'application/json' },
        payload: text,
      });
      expect(res.statusCode, res.body).toBe(httpStatus);
      expect(res.json().status).toBe('02');
      expect(res.json().message).toContain(message);
      if (errors) expect(res.json().errors).toEqual(errors);
      expect(await countApps(stranger.auth)).toBe(before);
    });
  });

  it('refuses a file with more menus than the plan allows, creating nothing (TRIAL: 20 menus an app)', async () => {
    const menus = Array.from({ length: 21 }, (_, i) => ({
      uniqueId: `m${i}`,
      userDefinedName: `menu${i}`,
      displayText: `Menu ${i}`,
      terminate: true,
    }));
    const res = await importApp({ document: { ...file, menus, secretsRemoved: [] }, shortCode: '*920*98#' }, trial.auth);
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().message).toContain('20');
    expect(await countApps(trial.auth)).toBe(0);
    const fits = await importApp(
      { document: { ...file, menus: menus.slice(0, 20), secretsRemoved: [] }, shortCode: '*920*98#' },
      trial.auth,
    );
    expect(fits.json(), fits.body).toMatchObject({ status: '00' });
    expect((await get(`/api/getAllMenus/${fits.json().data.appId}`, trial.auth)).json().data).toHaveLength(20);
  });

  it("carries the app's languages and the menus' translations, and refuses a translation into a language the file's app lacks", async () => {
    const langApp = (
      await post('/api/createApp', {
        appName: 'Banque',
        description: 'Two languages',
        country: 'ghana',
        connectionMode: 'existing-shortcode',
        customShortCode: '*920*76#',
        useTemplateTag: false,
      })
    ).json().data.appId;
    const languages = { defaultLanguage: 'en', otherLanguages: ['fr'], labels: {}, prefixLanguages: [{ prefix: '225', language: 'fr' }] };
    expect((await updateAppSettings(t, owner.auth, langApp, { languages })).json().status).toBe('00');
    const home = await seedMenu(t, owner.auth, langApp, {
      userDefinedName: 'home',
      displayText: 'Welcome',
      terminate: true,
      translations: { fr: { displayText: 'Bienvenue' } },
    });
    await seedMenu(t, owner.auth, langApp, {
      userDefinedName: 'language',
      isFirst: true,
      displayText: '1. English\n2. Francais',
      switchOperations: [{ operator: 'eq', compareVal: '2', action: 'goto', actionParam: home, setLanguage: 'fr' }],
    });
    const exported = (await get(`/api/exportApp/${langApp}`)).json().data;
    expect(exported.app.languages).toMatchObject({ defaultLanguage: 'en', otherLanguages: ['fr'] });
    const made = await importApp({ document: exported, shortCode: '*920*79#' }, stranger.auth);
    expect(made.json(), made.body).toMatchObject({ status: '00' });
    const copy = made.json().data.appId;
    expect((await get(`/api/getAppByAppId/${copy}`, stranger.auth)).json().data.languages).toMatchObject({ otherLanguages: ['fr'] });
    const copied = (await get(`/api/getAllMenus/${copy}`, stranger.auth)).json().data;
    expect(copied.find((m: { userDefinedName: string }) => m.userDefinedName === 'home').translations).toEqual({
      fr: { displayText: 'Bienvenue' },
    });

    // Without its languages the file's French texts and rule have no language to belong to: refused, nothing made.
    const before = await countApps(stranger.auth);
    const refused = await importApp(
      { document: { ...exported, app: { ...exported.app, languages: null } }, shortCode: '*920*80#' },
      stranger.auth,
    );
    expect(refused.statusCode).toBe(400);
    const fields = refused.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['menus.0.switchOperations.0.setLanguage', 'menus.1.translations.fr']));
    expect(await countApps(stranger.auth)).toBe(before);
  });

  it('blanks credentials in Rest API URLs (userinfo, key parameters), payloads and any key, token or auth header, and lists them', async () => {
    const secretApp = await seedShop(t, owner.auth, { customShortCode: '*920*79#' });
    await seedMenu(t, owner.auth, secretApp, {
      userDefinedName: 'call',
      displayText: 'Calling',
      terminate: true,
      actions: [
        {
          actionName: 'charge',
          inheritsPlugin: 'restapi',
          code: {
            method: 'POST',
            url: 'https://shop:URL_PASS@api.example.com/charge?account=42&api_key=QUERY_KEY&Access_Token=QUERY_TOKEN&sig=QUERY_SIG&note={{ session.mobile }}#top',
            contentType: 'application/json',
            payload:
              '{"amount": {{ session.inputs.amount }}, "client_secret": "PAYLOAD_SECRET", "password":"PAYLOAD_PASS", "memo": "keep", "token": "{{ vars.token }}"}',
            headers: [
              { key: 'X-Client-Key', value: 'HEADER_KEY' },
              { key: 'X-Auth', value: 'HEADER_AUTH' },
              { key: 'X-Request-Source', value: 'ussd' },
              { key: 'X-Session-Token', value: '{{ vars.sessionToken }}' },
            ],
          },
        },
        {
          actionName: 'notify',
          inheritsPlugin: 'restapi',
          code: {
            method: 'POST',
            url: 'https://KEY_AS_USER@hooks.example.com/notify',
            contentType: 'application/x-www-form-urlencoded',
            payload: 'to={{ session.mobile }}&apikey=FORM_KEY&text=Hello',
          },
        },
      ],
    });
    const res = await get(`/api/exportApp/${secretApp}`);
    expect(res.statusCode, res.body).toBe(200);
    const exported: AppExport = res.json().data;
    const text = JSON.stringify(exported);
    for (const secret of [
      'URL_PASS',
      'QUERY_KEY',
      'QUERY_TOKEN',
      'QUERY_SIG',
      'PAYLOAD_SECRET',
      'PAYLOAD_PASS',
      'HEADER_KEY',
      'HEADER_AUTH',
      'KEY_AS_USER',
      'FORM_KEY',
    ])
      expect(text).not.toContain(secret);
    const at = exported.menus.findIndex((m) => m.userDefinedName === 'call');
    const [charge, notify] = exported.menus[at]!.actions as [ActionOf<'restapi'>, ActionOf<'restapi'>];
    // What is not a credential stays, and so does a value that is only a template tag (it holds no secret).
    expect(charge.code.url).toBe('https://api.example.com/charge?account=42&api_key=&Access_Token=&sig=&note={{ session.mobile }}#top');
    expect(charge.code.payload).toBe(
      '{"amount": {{ session.inputs.amount }}, "client_secret": "", "password":"", "memo": "keep", "token": "{{ vars.token }}"}',
    );
    expect(charge.code.headers).toEqual([
      { key: 'X-Client-Key', value: '' },
      { key: 'X-Auth', value: '' },
      { key: 'X-Request-Source', value: 'ussd' },
      { key: 'X-Session-Token', value: '{{ vars.sessionToken }}' },
    ]);
    expect(notify.code.url).toBe('https://hooks.example.com/notify');
    expect(notify.code.payload).toBe('to={{ session.mobile }}&apikey=&text=Hello');
    const path = `menus.${at}.actions`;
    expect(exported.secretsRemoved).toEqual([
      `${path}.0.code.url`,
      `${path}.0.code.headers.0.value`,
      `${path}.0.code.headers.1.value`,
      `${path}.0.code.payload`,
      `${path}.1.code.url`,
      `${path}.1.code.payload`,
    ]);
  });

  it("answers 404 for another account's app, and for an app that does not exist", async () => {
    for (const id of [appId, 'no-such-app']) {
      const res = await get(`/api/exportApp/${id}`, stranger.auth);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: '04', message: 'App not found' });
    }
  });
});
