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
