import { describe, expect, it } from 'vitest';
import { appLanguagesSchema, appVersionSchema, findPrefixLanguage, menuSchema, type AppVersionInput } from '../shared/app';
import { compileApp } from './compile';
import { lintApp } from './lint';
import { previewMenu } from './preview';
import { startSession } from './session';
import { buildTestApp } from './test-app';

const languages: AppVersionInput['languages'] = {
  defaultLanguage: 'en',
  otherLanguages: ['fr', 'ha'],
  labels: { fr: { more: 'Plus' } },
  prefixLanguages: [{ prefix: '225', language: 'fr' }],
};

const deps = { now: () => 1000, newId: () => 'id', runAction: async () => ({ ok: true as const, result: null }) };
const hop = (msisdn: string) => ({ sessionId: 's1', msisdn, network: 'MTN', serviceCode: '*920#', input: '' });

describe('languages in the engine', () => {
  const app = buildTestApp(
    [
      {
        uniqueId: 'home',
        userDefinedName: 'home',
        headerText: 'Shop',
        displayText: 'Hello {{ session.language }}\n1. Buy',
        footerText: 'Thanks',
        inputHolder: 'e.g. 1',
        translations: { fr: { displayText: 'Bonjour {{ session.language }}\n1. Acheter', inputHolder: 'ex. 1' } },
      },
    ],
    { languages },
  );
  const compiled = compileApp(app);

  it('starts a dialler from a mapped calling code in its language, each untranslated field in the default', async () => {
    const { reply, state } = await startSession(compiled, hop('+2250701020304'), deps);
    expect(reply).toEqual({ text: 'Shop\nBonjour fr\n1. Acheter\nThanks', end: false, inputHolder: 'ex. 1' });
    expect(state.language).toBe('fr');
  });

  it('starts any other number in the default language, with no language in the state', async () => {
    const { reply, state } = await startSession(compiled, hop('233244000000'), deps);
    expect(reply.text).toBe('Shop\nHello en\n1. Buy\nThanks');
    expect(state.language).toBeUndefined();
  });

  it('previews a menu in each language, with the language of the page label', () => {
    const long = buildTestApp(
      [{ uniqueId: 'm', userDefinedName: 'm', displayText: 'x '.repeat(100), translations: { fr: { displayText: 'y '.repeat(100) } } }],
      { languages, screenLimit: 60 },
    );
    const fr = previewMenu(compileApp(long), 'm', { language: 'fr' });
    expect(fr.ok && fr.pages[0]).toMatch(/^y y .*\n98\. Plus$/s);
    const ha = previewMenu(compileApp(long), 'm', { language: 'ha' });
    expect(ha.ok && ha.pages[0]).toMatch(/^x x .*\n98\. More$/s);
  });
});

describe('lintApp and languages', () => {
  it('warns once per menu and language about the untranslated fields, naming them', () => {
    const app = buildTestApp(
      [
        {
          uniqueId: 'home',
          userDefinedName: 'home',
          displayText: 'Pick\n1. End',
          footerText: 'Footer',
          inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Numbers only' }],
          switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Bye' }],
          translations: { fr: { displayText: 'Choisir\n1. Fin', errorMessages: ['Chiffres'] } },
        },
      ],
      { languages },
    );
    const missing = lintApp(app).filter((i) => i.code === 'missing_translation');
    expect(missing).toEqual([
      {
        level: 'warning',
        menuId: 'home',
        menu: 'home',
        field: 'translations.fr',
        code: 'missing_translation',
        message: "No French (fr) text for footerText, switchOperations.0.actionParam: the default language's is shown.",
      },
      {
        level: 'warning',
        menuId: 'home',
        menu: 'home',
        field: 'translations.ha',
        code: 'missing_translation',
        message:
          "No Hausa (ha) text for displayText, footerText, inputValidations.0.errorMessage, switchOperations.0.actionParam: the default language's is shown.",
      },
    ]);
  });

  it('warns about a screen over the limit in another language, naming the language', () => {
    const app = buildTestApp(
      [{ uniqueId: 'home', userDefinedName: 'home', displayText: 'Short', translations: { fr: { displayText: 'Long '.repeat(40) } } }],
      { languages: { defaultLanguage: 'en', otherLanguages: ['fr'] } },
    );
    const over = lintApp(app).filter((i) => i.code === 'over_length');
    expect(over).toEqual([
      {
        level: 'warning',
        menuId: 'home',
        menu: 'home',
        field: 'translations.fr.displayText',
        code: 'over_length',
        message: 'The French (fr) screen is 199 characters, over the 160-character limit; it will be split into 2 pages.',
      },
    ]);
  });

  it('measures a Twi screen as the network carries it: UCS-2 because of its letters, with GSM look-alikes offered', () => {
    const twi = ['Yɛma wo akwaaba!', '1. Tɔ airtime', '2. Hwɛ wo sika', '3. Fa sika kɔma obi', '4. Bɔ ka', '5. Mmoa', '6. Sesa wo PIN'];
    const app = buildTestApp(
      [
        {
          uniqueId: 'home',
          userDefinedName: 'home',
          displayText: 'Welcome!\n1. Buy airtime',
          translations: { tw: { displayText: twi.join('\n') } },
        },
      ],
      { languages: { defaultLanguage: 'en', otherLanguages: ['tw'] } },
    );
    const over = lintApp(app).filter((i) => i.code === 'over_length');
    // 97 characters fit the app's 160 in GSM-7; in UCS-2 the same screen holds 70.
    expect(over).toEqual([
      expect.objectContaining({
        field: 'translations.tw.displayText',
        message:
          'The Twi (tw) screen is 97 characters in UCS-2 because of "ɛ", "ɔ" (GSM look-alikes: ɛ → e, ɔ → o), over the 70-character limit; it will be split into 2 pages.',
      }),
    ]);
  });

  it('refuses a translated template that does not parse, and warns about a rule switching to a language the app lacks', () => {
    const app = buildTestApp(
      [
        {
          uniqueId: 'home',
          userDefinedName: 'home',
          displayText: 'Hi\n1. Go',
          switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: 'home', setLanguage: 'yo' }],
          translations: { fr: { displayText: 'Salut {{ x | nope }}' } },
        },
      ],
      { languages: { defaultLanguage: 'en', otherLanguages: ['fr'] } },
    );
    const issues = lintApp(app);
    expect(issues.find((i) => i.field === 'translations.fr.displayText')?.level).toBe('error');
    expect(issues.find((i) => i.field === 'switchOperations.0.setLanguage')?.message).toBe(
      "Rule 1 switches to Yoruba (yo), which is not one of the app's languages: it is ignored.",
    );
  });
});

describe('language schemas', () => {
  it('refuses an unknown language code in translations, with the code in the message', () => {
    const result = menuSchema.safeParse({ uniqueId: 'm', appId: 'a', translations: { xx: { displayText: 'Hi' } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Unknown language code "xx": pick one from the list of languages.');
  });

  it('refuses a default language repeated, a calling code mapped twice or to a language the app lacks', () => {
    const result = appLanguagesSchema.safeParse({
      defaultLanguage: 'en',
      otherLanguages: ['en'],
      prefixLanguages: [
        { prefix: '225', language: 'fr' },
        { prefix: '225', language: 'en' },
      ],
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'The default language cannot also be one of the other languages.',
      "French (fr) is not one of this app's languages.",
      'The calling code 225 is mapped twice.',
    ]);
    expect(appVersionSchema.safeParse({ appId: 'a', menus: [], languages: { defaultLanguage: 'zz' } }).success).toBe(false);
  });

  it('finds the longest calling code a number starts with, ignoring + and 00', () => {
    const prefixes = [
      { prefix: '2', language: 'en' },
      { prefix: '225', language: 'fr' },
    ];
    expect(findPrefixLanguage(prefixes, '+225 07 01')).toBe('fr');
    expect(findPrefixLanguage(prefixes, '002250701')).toBe('fr');
    expect(findPrefixLanguage(prefixes, '233244')).toBe('en');
    expect(findPrefixLanguage(prefixes, '0244000000')).toBeNull();
    expect(findPrefixLanguage(prefixes, 'unknown')).toBeNull();
  });
});
