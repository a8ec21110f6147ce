import { newQuickJSWASMModuleFromVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { beforeAll, describe, expect, it } from 'vitest';
import { JAVASCRIPT_SDK } from '../../shared/app';
import { DEFAULT_JAVASCRIPT_CODE } from './default-code';
import { DEFAULT_JS_LIMITS, type JsOutcome } from './limits';
import { CONTACT_SET_MESSAGES } from '../../shared/contact-fields';
import { runInSandbox } from './sandbox';

const scope = {
  session: {
    sessionId: 's-1',
    mobile: '233241234567',
    network: 'MTN',
    serviceCode: '*123#',
    inputs: { amount: '20' },
    media: {},
    vars: {},
  },
  input: '2',
  actions: {},
};

let module: QuickJSWASMModule;
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);
});

function run(code: string): JsOutcome {
  return runInSandbox(module, { code, scopeJson: JSON.stringify(scope), limits: DEFAULT_JS_LIMITS, deadline: Date.now() + 3000 }).outcome;
}

function errorOf(code: string): string {
  const outcome = run(code);
  expect(outcome.ok).toBe(false);
  return outcome.ok ? '' : outcome.error;
}

describe('the sandbox SDK', () => {
  it('log(...) writes an info line, as log.info(...) does', () => {
    expect(run('log("for", session.mobile); log.info("again"); return 1')).toEqual({
      ok: true,
      result: 1,
      logs: [
        { level: 'info', message: 'for 233241234567' },
        { level: 'info', message: 'again' },
      ],
    });
  });

  it('gives every expression the editors offer, as the kind they say', () => {
    const expressions = JAVASCRIPT_SDK.filter((e) => e.kind !== 'snippet');
    const code = `return [${expressions.map((e) => `typeof (${e.label})`).join(', ')}];`;
    const outcome = run(code);
    expect(outcome.ok).toBe(true);
    const types = outcome.ok ? (outcome.result as string[]) : [];
    const expected = { object: 'object', function: 'function', value: 'string' } as const;
    expect(Object.fromEntries(expressions.map((e, i) => [e.label, types[i]]))).toEqual(
      Object.fromEntries(expressions.map((e) => [e.label, expected[e.kind as keyof typeof expected]])),
    );
  });

  it('has every log and console function the default code mentions, and the editors offer them', () => {
    const named = [...new Set(DEFAULT_JAVASCRIPT_CODE.match(/\b(?:log(?:\.\w+)?(?=\()|console\.\w+)/g))];
    expect(named.length).toBeGreaterThan(3);
    const outcome = run(`return [${named.map((n) => `typeof ${n}`).join(', ')}];`);
    expect(outcome).toMatchObject({ ok: true, result: named.map(() => 'function') });
    const offered = new Set(JAVASCRIPT_SDK.map((e) => e.label));
    expect(named.filter((n) => !offered.has(n))).toEqual([]);
  });
});

describe('errors in builder code', () => {
  it('name the function that is not one, and the line', () => {
    expect(errorOf('const total = 1;\nlog.warn("low balance")')).toBe(
      'log.warn is not a function: use log(), log.info(), log.debug() or log.error() (line 2)',
    );
    expect(errorOf('session.mobile()')).toBe('session.mobile is not a function (line 1)');
    expect(errorOf('const api = { get: 1 };\n\nreturn api\n  .get ("x")')).toBe('get is not a function (line 4)');
    expect(errorOf('const rows = [{}];\nrows[0].total()')).toBe('total is not a function (line 2)');
    expect(errorOf('const opt = {};\nopt?.run()')).toBe('opt?.run is not a function (line 2)');
    expect(errorOf('function inner() { const q = {}; return q.go(); }\nreturn inner();')).toBe('q.go is not a function (line 1)');
    expect(errorOf('const Thing = 1;\nreturn new Thing()')).toBe('Thing is not a constructor (line 2)');
  });

  it('keep the plain words when the call is not in the builder code or names nothing', () => {
    // The bad callback is called by the native map: the call at the column is map's, which is a function.
    expect(errorOf('return [1].map(5)')).toBe('TypeError: not a function (line 1)');
    expect(errorOf('return (1)()')).toBe('TypeError: not a function (line 1)');
    expect(errorOf('return missing()')).toBe("ReferenceError: 'missing' is not defined (line 1)");
  });
});

describe("the sandbox's contact", () => {
  const withContact = (code: string, contact: Record<string, string> = { name: 'Ama', language: 'tw', city: 'Kumasi' }) =>
    runInSandbox(module, {
      code,
      scopeJson: JSON.stringify({ ...scope, contact }),
      limits: DEFAULT_JS_LIMITS,
      deadline: Date.now() + 3000,
    }).outcome;

  it('contact.get reads the contact as loaded: name, language, attributes; null where unset', () => {
    const outcome = withContact('return [contact.get("name"), contact.get("language"), contact.get("city"), contact.get("tier")]');
    expect(outcome).toEqual({ ok: true, result: ['Ama', 'tw', 'Kumasi', null], logs: [] });
    expect(run('return contact.get("name")')).toEqual({ ok: true, result: null, logs: [] });
  });

  it('contact.set keeps name and attributes, later gets read them, and the outcome carries the changes', () => {
    const outcome = withContact(
      'contact.set("city", "Accra"); contact.set("name", "Ama Mensah"); return contact.get("city") + "/" + contact.get("name")',
    );
    expect(outcome).toEqual({
      ok: true,
      result: 'Accra/Ama Mensah',
      logs: [],
      contactChanges: { name: 'Ama Mensah', attributes: { city: 'Accra' } },
    });
  });

  it('refuses as the API does, with the error thrown into the code (which may catch it)', () => {
    expect(withContact('contact.set("language", "fr")').ok).toBe(false);
    expect(errorOf('contact.set("language", "fr")')).toBe(`TypeError: ${CONTACT_SET_MESSAGES.language} (line 1)`);
    expect(errorOf('contact.set("1city", "Accra")')).toBe(`TypeError: ${CONTACT_SET_MESSAGES.key} (line 1)`);
    expect(errorOf('contact.set("city", 5)')).toBe(`TypeError: ${CONTACT_SET_MESSAGES.value} (line 1)`);
    expect(errorOf(`contact.set("city", "${'x'.repeat(501)}")`)).toBe(`TypeError: ${CONTACT_SET_MESSAGES.valueTooLong} (line 1)`);
    expect(errorOf(`contact.set("name", "${'x'.repeat(201)}")`)).toBe(`TypeError: ${CONTACT_SET_MESSAGES.nameTooLong} (line 1)`);
    const full = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(withContact('contact.set("k0", "w"); contact.set("k50", "v")', full)).toMatchObject({
      ok: false,
      error: `TypeError: ${CONTACT_SET_MESSAGES.tooManyAttributes} (line 1)`,
    });
    expect(withContact('try { contact.set("language", "fr") } catch (e) { return e.message }')).toEqual({
      ok: true,
      result: CONTACT_SET_MESSAGES.language,
      logs: [],
    });
  });

  it('a run that fails keeps none of its sets', () => {
    const outcome = withContact('contact.set("city", "Accra"); throw new Error("no")');
    expect(outcome.ok).toBe(false);
    expect('contactChanges' in outcome).toBe(false);
  });
});
