import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import { apps, appVersions, menus } from '../../../db/schema';
import { seedUser, useTestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedApp, seedMenu, updateAppSettings } from '../../../../tests/support/seed-app';

const LANGUAGES = {
  defaultLanguage: 'en',
  otherLanguages: ['fr'],
  labels: { fr: { invalidChoice: 'Choix invalide', more: 'Plus' } },
  prefixLanguages: [],
};

/** Africa's Talking: cumulative text, the session's every answer joined by `*`. */
const atHop = (app: FastifyInstance, appId: string, sessionId: string, text: string, phoneNumber = '+233241110000', env = 'test') =>
  app
    .inject({
      method: 'POST',
      url: `/ussd/${appId}/${env}`,
      payload: { sessionId, serviceCode: '*920*66#', phoneNumber, networkCode: '62001', text },
    })
    .then((r) => r.body);

describeDb('app languages and menu translations', () => {
  const t = useTestApp();
  let auth: Record<string, string>;
  // Each test its own account: every one builds its app on *920*66#, and an account's apps have different dial strings.
  beforeEach(async () => {
    auth = (await seedUser(t)).auth;
  });

  /** A language menu (1 English, 2 French) leading to a home menu translated into French, with a closing rule. */
  async function seedBank(appId: string) {
    const home = await seedMenu(t, auth, appId, {
      userDefinedName: 'home',
      headerText: 'MyBank',
      displayText: 'Welcome\n1. Balance',
      inputValidations: [{ validationMethod: 'isNumeric', compareValue: '', errorMessage: 'Numbers only' }],
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Your balance is 5' }],
      translations: {
        fr: { displayText: 'Bienvenue\n1. Solde', errorMessages: ['Chiffres seulement'], closingTexts: ['Votre solde est 5'] },
      },
    });
    const language = await seedMenu(t, auth, appId, {
      userDefinedName: 'language',
      isFirst: true,
      displayText: '1. English\n2. Francais',
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: home, setLanguage: 'en' },
        { operator: 'eq', compareVal: '2', action: 'goto', actionParam: home, setLanguage: 'fr' },
      ],
    });
    return { home, language };
  }

  it('saves the languages on the app and the translations on a menu, runs French after choosing it, and deploys them', async () => {
    const appId = await seedApp(t, auth, { customShortCode: '*920*66#' });
    const saved = await updateAppSettings(t, auth, appId, { languages: LANGUAGES });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.languages).toEqual(LANGUAGES);
    const { home } = await seedBank(appId);

    const listed = (await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${appId}`, headers: auth })).json().data;
    const homeMenu = listed.find((m: { uniqueId: string }) => m.uniqueId === home);
    expect(homeMenu.translations).toEqual({
      fr: { displayText: 'Bienvenue\n1. Solde', errorMessages: ['Chiffres seulement'], closingTexts: ['Votre solde est 5'] },
    });
    expect(homeMenu.switchOperations[0]).not.toHaveProperty('setLanguage');
    const language = listed.find((m: { userDefinedName: string }) => m.userDefinedName === 'language');
    expect(language).not.toHaveProperty('translations');
    expect(language.switchOperations[1].setLanguage).toBe('fr');

    expect(await atHop(t.app, appId, 's-fr', '')).toBe('CON 1. English\n2. Francais');
    expect(await atHop(t.app, appId, 's-fr', '2')).toBe('CON MyBank\nBienvenue\n1. Solde');
    expect(await atHop(t.app, appId, 's-fr', '2*x')).toBe('CON Chiffres seulement\nMyBank\nBienvenue\n1. Solde');
    expect(await atHop(t.app, appId, 's-fr', '2*x*7')).toBe('CON Choix invalide\nMyBank\nBienvenue\n1. Solde');
    expect(await atHop(t.app, appId, 's-fr', '2*x*7*1')).toBe('END Votre solde est 5');
    expect(await atHop(t.app, appId, 's-en', '')).toBe('CON 1. English\n2. Francais');
    expect(await atHop(t.app, appId, 's-en', '1')).toBe('CON MyBank\nWelcome\n1. Balance');
    expect(await atHop(t.app, appId, 's-en', '1*7')).toBe('CON Invalid choice\nMyBank\nWelcome\n1. Balance');

    const deploy = await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: auth });
    expect(deploy.json().status).toBe('00');
    const [version] = await t.db.select({ definition: appVersions.definition }).from(appVersions).where(eq(appVersions.appId, appId));
    const definition = version!.definition as { languages: unknown; menus: Array<{ uniqueId: string; translations?: unknown }> };
    expect(definition.languages).toEqual(LANGUAGES);
    expect(definition.menus.find((m) => m.uniqueId === home)?.translations).toEqual(homeMenu.translations);
    expect(await atHop(t.app, appId, 'live-fr', '', '+233241110000', 'live')).toBe('CON 1. English\n2. Francais');
    expect(await atHop(t.app, appId, 'live-fr', '2', '+233241110000', 'live')).toBe('CON MyBank\nBienvenue\n1. Solde');

    // A copy of the app has its languages, and its menus their translations and rule languages.
    const clone = await t.app.inject({
      method: 'POST',
      url: '/api/cloneApp',
      headers: auth,
      payload: { appId, appName: 'Copy', description: 'Copied' },
    });
    expect(clone.json().data.languages).toEqual(LANGUAGES);
    const copyId = clone.json().data.appId as string;
    expect(await atHop(t.app, copyId, 'copy-fr', '')).toBe('CON 1. English\n2. Francais');
    expect(await atHop(t.app, copyId, 'copy-fr', '2')).toBe('CON MyBank\nBienvenue\n1. Solde');

    // A language change is a change worth a version; turning the languages off keeps the menus' translations.
    const off = await updateAppSettings(t, auth, appId, { languages: null });
    expect(off.json().data.languages).toBeNull();
    const [row] = await t.db.select({ translations: menus.translations }).from(menus).where(eq(menus.id, home));
    expect(row!.translations).toEqual(homeMenu.translations);
    expect((await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: auth })).json().status).toBe('00');
  });

  it('starts a dialler from +225 in French when the calling code is mapped, others in the default', async () => {
    const appId = await seedApp(t, auth, { customShortCode: '*920*66#' });
    await updateAppSettings(t, auth, appId, { languages: { ...LANGUAGES, prefixLanguages: [{ prefix: '225', language: 'fr' }] } });
    await seedMenu(t, auth, appId, {
      userDefinedName: 'home',
      displayText: 'Welcome ({{ session.language }})\n1. Balance',
      translations: { fr: { displayText: 'Bienvenue ({{ session.language }})\n1. Solde' } },
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '' }],
    });
    expect(await atHop(t.app, appId, 'ci-1', '', '+2250701020304')).toBe('CON Bienvenue (fr)\n1. Solde');
    expect(await atHop(t.app, appId, 'ci-1', '1', '+2250701020304')).toBe('END Thank you.');
    expect(await atHop(t.app, appId, 'gh-1', '', '+233241110000')).toBe('CON Welcome (en)\n1. Balance');

    // The mapping off: a +225 dialler starts in the default language too.
    await updateAppSettings(t, auth, appId, { languages: LANGUAGES });
    expect(await atHop(t.app, appId, 'ci-2', '', '+2250701020304')).toBe('CON Welcome (en)\n1. Balance');
  });

  it('refuses unknown codes, languages the app lacks and texts too long, with a clear message, and saves nothing', async () => {
    const appId = await seedApp(t, auth, { customShortCode: '*920*66#' });
    await updateAppSettings(t, auth, appId, { languages: LANGUAGES });
    const menuCount = async () => (await t.db.select({ id: menus.id }).from(menus).where(eq(menus.appId, appId))).length;
    const create = (menu: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/createMenu',
        headers: auth,
        payload: { appId, userDefinedName: 'home', displayText: 'Hi', ...menu },
      });

    const unknown = await create({ translations: { xx: { displayText: 'Hi' } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Unknown language code "xx": pick one from the list of languages.');
    const notInApp = await create({ translations: { ha: { displayText: 'Sannu' } } });
    expect(notInApp.statusCode).toBe(400);
    expect(notInApp.json()).toMatchObject({
      message: "Hausa (ha) is not one of this app's languages: add it in the app settings first.",
      field: 'translations.ha',
    });
    const rule = await create({
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', setLanguage: 'yo' }],
    });
    expect(rule.json()).toMatchObject({ message: "Yoruba (yo) is not one of this app's languages: add it in the app settings first." });
    const long = await create({ translations: { fr: { displayText: 'x'.repeat(4001) } } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      message: 'A translated menu text is at most 4000 characters, as in the default language.',
      field: 'translations.fr.displayText',
    });
    expect(await menuCount()).toBe(0);

    // updateMenu refuses the same way and keeps the stored menu.
    const id = await seedMenu(t, auth, appId, {
      userDefinedName: 'home',
      displayText: 'Hi',
      translations: { fr: { displayText: 'Salut' } },
    });
    const update = await t.app.inject({
      method: 'POST',
      url: '/api/updateMenu',
      headers: auth,
      payload: { appId, uniqueId: id, userDefinedName: 'home', displayText: 'Hello', translations: { sw: { displayText: 'Habari' } } },
    });
    expect(update.statusCode).toBe(400);
    const [row] = await t.db
      .select({ displayText: menus.displayText, translations: menus.translations })
      .from(menus)
      .where(eq(menus.id, id));
    expect(row).toEqual({ displayText: 'Hi', translations: { fr: { displayText: 'Salut' } } });

    // App languages: an unknown code, the default repeated, a calling code badly written; the stored ones stay.
    for (const [languages, message] of [
      [{ defaultLanguage: 'english' }, 'Unknown language code "english": pick one from the list of languages.'],
      [{ defaultLanguage: 'en', otherLanguages: ['en'] }, 'The default language cannot also be one of the other languages.'],
      [
        { ...LANGUAGES, prefixLanguages: [{ prefix: '+225', language: 'fr' }] },
        'A country calling code is 1 to 4 digits, without + or 00 (e.g. 225).',
      ],
    ] as const) {
      const res = await updateAppSettings(t, auth, appId, { languages });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const [app] = await t.db.select({ languages: apps.languages }).from(apps).where(eq(apps.id, appId));
    expect(app!.languages).toEqual(LANGUAGES);

    // Another account's app: 404.
    const stranger = await seedUser(t);
    const current = (await t.app.inject({ method: 'GET', url: `/api/getAppByAppId/${appId}`, headers: auth })).json().data;
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/updateApp',
      headers: stranger.auth,
      payload: { ...current, languages: null },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
