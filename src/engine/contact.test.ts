import { describe, expect, it } from 'vitest';
import type { MenuInput } from '../shared/app';
import { compileApp, continueSession, lintApp, listTemplateVariables, startSession, type EngineDeps, type Hop } from './index';
import { buildTestApp } from './test-app';

const hop: Hop = { sessionId: 'gw-1', msisdn: '233200000001', network: 'MTN', serviceCode: '*920#', input: '' };
const deps: EngineDeps = { now: () => 1000, newId: () => 'e', runAction: async () => ({ ok: true, result: null }) };

const MENUS: Array<Partial<MenuInput>> = [
  {
    uniqueId: 'm1',
    userDefinedName: 'ask',
    isFirst: true,
    displayText: 'Hi {{ contact.name }} ({{ contact.language }}, {{ contact.tier }}). Name?',
    saveToContact: 'name',
    switchOperations: [{ operator: 'always', action: 'goto', actionParam: 'm2' }],
  },
  {
    uniqueId: 'm2',
    userDefinedName: 'town',
    displayText: 'Where do you live, {{ contact.name }}?',
    saveToContact: 'town',
    switchOperations: [{ operator: 'always', action: 'Terminate', actionParam: 'Bye {{ contact.name }} of {{ contact.town }}' }],
  },
];

describe('the contact in a session', () => {
  const compiled = compileApp(buildTestApp(MENUS));
  const contact = { name: 'Ama', language: 'tw', attributes: { tier: 'gold' } };

  it('renders contact fields from the hop, keeps the contact in the state and reports what inputs saved', async () => {
    const first = await startSession(compiled, { ...hop, contact }, deps);
    expect(first.reply.text).toBe('Hi Ama (tw, gold). Name?');
    expect(first.contactChanges).toBeUndefined();
    const second = await continueSession(compiled, first.state, { ...hop, input: 'Kofi' }, deps);
    expect(second.reply.text).toBe('Where do you live, Kofi?');
    expect(second.contactChanges).toEqual({ name: 'Kofi' });
    const third = await continueSession(compiled, second.state, { ...hop, input: 'Ho' }, deps);
    expect(third.reply).toEqual({ text: 'Bye Kofi of Ho', end: true });
    expect(third.contactChanges).toEqual({ attributes: { town: 'Ho' } });
    expect(third.state.contact).toEqual({ name: 'Kofi', language: 'tw', attributes: { tier: 'gold', town: 'Ho' } });
    // The states handed in are not changed in place.
    expect(first.state.contact).toEqual(contact);
  });

  it('renders unknown contact fields as empty text when there is no contact', async () => {
    expect((await startSession(compiled, hop, deps)).reply.text).toBe('Hi  (, ). Name?');
  });

  it('says which apps use the contact, and lint takes any contact field as known', () => {
    expect(compiled.usesContact).toBe(true);
    expect(compileApp(buildTestApp([{ uniqueId: 'x', displayText: 'Hi {{ session.mobile }}. Contact us on 0800' }])).usesContact).toBe(
      false,
    );
    expect(compileApp(buildTestApp([{ uniqueId: 'x', displayText: '{% if contact.vip %}VIP{% endif %}' }])).usesContact).toBe(true);
    expect(lintApp(buildTestApp(MENUS)).filter((i) => i.code === 'unknown_variable')).toEqual([]);
    const menus = MENUS.map((m) => ({ userDefinedName: m.userDefinedName ?? '', actions: [], saveToContact: m.saveToContact }));
    const paths = listTemplateVariables({ shortCode: '*920#', menus }).map((v) => v.path);
    expect(paths).toEqual(expect.arrayContaining(['contact.name', 'contact.language', 'contact.town']));
  });
});

describe('rules on contact fields', () => {
  const RULED: Array<Partial<MenuInput>> = [
    {
      uniqueId: 'm1',
      userDefinedName: 'start',
      isFirst: true,
      displayText: '1. Go',
      switchOperations: [
        { subject: 'contact.tier', operator: 'eq', compareVal: 'gold', action: 'Terminate', actionParam: 'Gold {{ contact.name }}' },
        { subject: 'contact.name', operator: 'isEmpty', action: 'goto', actionParam: 'm2' },
        { subject: 'contact.language', operator: 'eq', compareVal: 'tw', action: 'Terminate', actionParam: 'Akwaaba' },
        { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Input one' },
      ],
    },
    {
      uniqueId: 'm2',
      userDefinedName: 'ask',
      displayText: 'Your name?',
      saveToContact: 'name',
      switchOperations: [{ subject: 'contact.name', operator: 'isSet', action: 'Terminate', actionParam: 'Thanks {{ contact.name }}' }],
    },
  ];
  const compiled = compileApp(buildTestApp(RULED));
  const answer = async (contact: Hop['contact'], ...inputs: string[]) => {
    let result = await startSession(compiled, { ...hop, contact }, deps);
    for (const input of inputs) result = await continueSession(compiled, result.state, { ...hop, input }, deps);
    return result.reply.text;
  };

  it("tests the contact's attributes, name and language instead of the input, in order", async () => {
    expect(await answer({ name: 'Ama', language: null, attributes: { tier: 'gold' } }, '9')).toBe('Gold Ama');
    expect(await answer({ name: 'Ama', language: 'tw', attributes: {} }, '9')).toBe('Akwaaba');
    expect(await answer({ name: 'Ama', language: 'en', attributes: { tier: 'silver' } }, '1')).toBe('Input one');
  });

  it('reads an unknown field (or no contact) as empty, and a value saved this hop at once', async () => {
    expect(await answer(undefined, '9', 'Kofi')).toBe('Thanks Kofi');
    expect(await answer({ name: null, language: null, attributes: {} }, '9')).toBe('Your name?');
  });

  it('makes the app use the contact; lint tells rules on different fields apart', () => {
    const ruleOnly = buildTestApp([
      {
        uniqueId: 'x',
        displayText: 'Hi',
        switchOperations: [
          { subject: 'contact.vip', operator: 'eq', compareVal: '1', action: 'Terminate' },
          { operator: 'eq', compareVal: '1', action: 'Terminate' },
        ],
      },
    ]);
    expect(compileApp(ruleOnly).usesContact).toBe(true);
    expect(lintApp(ruleOnly).filter((i) => i.code === 'duplicate_rule')).toEqual([]);
  });

  it('makes an app whose scripts call contact.get or contact.set, or that runs a custom function, use the contact', () => {
    const withAction = (action: Record<string, unknown>) =>
      compileApp(
        buildTestApp([{ uniqueId: 'x', displayText: 'Hi', actions: [{ actionName: 'a', actionType: 'pre', ...action } as never] }]),
      ).usesContact;
    expect(withAction({ inheritsPlugin: 'javascript', code: 'contact.set("city", input)' })).toBe(true);
    expect(withAction({ inheritsPlugin: 'javascript', code: 'return 1' })).toBe(false);
    expect(withAction({ inheritsPlugin: 'customAction', code: { uuid: 'u1' } })).toBe(true);
  });
});

describe("a script's contact.set", () => {
  const SCRIPTED: Array<Partial<MenuInput>> = [
    {
      uniqueId: 'm1',
      userDefinedName: 'city',
      isFirst: true,
      displayText: 'City?',
      actions: [{ actionName: 'keep', actionType: 'post', inheritsPlugin: 'javascript', code: 'contact.set("city", input)' }],
      switchOperations: [{ operator: 'always', action: 'Terminate', actionParam: 'Bye from {{ contact.city }}' }],
    },
  ];
  const compiled = compileApp(buildTestApp(SCRIPTED));

  it("joins the hop's contact changes, and later screens read it", async () => {
    const scripted: EngineDeps = {
      ...deps,
      runAction: async (request) => ({
        ok: true,
        result: null,
        contactChanges: { attributes: { city: request.scope.inRequest.input } },
      }),
    };
    const first = await startSession(compiled, { ...hop, contact: { name: null, language: null, attributes: {} } }, scripted);
    const second = await continueSession(compiled, first.state, { ...hop, input: 'Tamale' }, scripted);
    expect(second.reply).toEqual({ text: 'Bye from Tamale', end: true });
    expect(second.contactChanges).toEqual({ attributes: { city: 'Tamale' } });
  });

  it('keeps nothing from a failed run', async () => {
    const failing: EngineDeps = { ...deps, runAction: async () => ({ ok: false, error: 'TypeError: no' }) };
    const first = await startSession(compiled, hop, failing);
    const second = await continueSession(compiled, first.state, { ...hop, input: 'Tamale' }, failing);
    expect(second.contactChanges).toBeUndefined();
  });
});
