import { describe, expect, it } from 'vitest';
import type { MenuInput } from '../shared/app';
import { validateMenu } from '../shared/app/menu.validation';
import { DEFAULT_CALLBACK_TEXT, DEFAULT_HANDOFF_TEXT, getHandoffReply, readHandoffKeyword } from '../shared/inbox';
import { compileApp, continueSession, startSession, type EngineDeps, type Hop } from './index';
import { buildTestApp } from './test-app';

const hop: Hop = { sessionId: 'wa-1', msisdn: '233200000001', network: '', serviceCode: '', input: '' };
const deps: EngineDeps = { now: () => 1000, newId: () => 'e', runAction: async () => ({ ok: true, result: null }) };

const MENUS: Array<Partial<MenuInput>> = [
  {
    uniqueId: 'm1',
    userDefinedName: 'home',
    isFirst: true,
    displayText: '1. Balance\n2. A person\n3. A person, in words',
    switchOperations: [
      { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Your balance is 10' },
      { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '', handoff: { reason: 'asked' } },
      {
        operator: 'eq',
        compareVal: '3',
        action: 'Terminate',
        actionParam: 'Kofi will answer, {{ session.inputs.home }}',
        handoff: { reason: '' },
      },
    ],
  },
];

describe("a rule's handoff (docs/inbox.md)", () => {
  const compiled = compileApp(buildTestApp(MENUS, { channel: 'whatsapp' }));

  it('ends the session on the default text, reports the handoff and its reason, and says so in its events', async () => {
    const first = await startSession(compiled, hop, deps);
    const handed = await continueSession(compiled, first.state, { ...hop, input: '2' }, deps);
    expect(handed.reply).toEqual({ text: DEFAULT_HANDOFF_TEXT, end: true });
    expect(handed.handoff).toEqual({ reason: 'asked' });
    expect(handed.state.inputs).toEqual({ home: '2', homeLabel: 'A person' });
    expect(handed.events.find((e) => e.type === 'handed_off')?.data).toEqual({ reason: 'asked' });
    expect(handed.events.find((e) => e.type === 'session_ended')?.data).toEqual({ reason: 'handoff', text: DEFAULT_HANDOFF_TEXT });
  });

  it('on USSD the default text says a person will call back (a callback request)', async () => {
    const ussd = compileApp(buildTestApp(MENUS));
    const first = await startSession(ussd, hop, deps);
    const handed = await continueSession(ussd, first.state, { ...hop, input: '2' }, deps);
    expect(handed.reply).toEqual({ text: DEFAULT_CALLBACK_TEXT, end: true });
    expect(handed.handoff).toEqual({ reason: 'asked' });
  });

  it("takes the rule's closing text when it has one; a rule without handoff reports none", async () => {
    const first = await startSession(compiled, hop, deps);
    const worded = await continueSession(compiled, first.state, { ...hop, input: '3' }, deps);
    expect(worded.reply.text).toBe('Kofi will answer, 3');
    expect(worded.handoff).toEqual({ reason: '' });
    const plain = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(plain.reply.text).toBe('Your balance is 10');
    expect(plain.handoff).toBeUndefined();
  });

  it('is refused on a rule that goes to a menu (a handoff ends the session)', () => {
    const menu = buildTestApp([
      {
        uniqueId: 'a',
        isFirst: true,
        switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: 'a', handoff: { reason: 'x' } }],
      },
    ]).menus[0]!;
    expect(validateMenu(menu, [])).toContainEqual(
      expect.objectContaining({
        field: 'switchOperations.0.action',
        message: 'A rule that hands the conversation to a person ends the session: its action must be Terminate.',
      }),
    );
  });
});

describe('handoff words', () => {
  const keywords = { words: { en: ['agent', 'talk to a human'], fr: ['conseiller'] }, reply: { fr: 'Un conseiller arrive.' } };
  it('match trimmed, in any case, inner spaces folded; anything else is no handoff', () => {
    expect(readHandoffKeyword('  Talk   To a HUMAN ', keywords)).toEqual({ word: 'talk to a human', language: 'en' });
    expect(readHandoffKeyword('conseiller', keywords)).toEqual({ word: 'conseiller', language: 'fr' });
    expect(readHandoffKeyword('an agent please', keywords)).toBeNull();
    expect(readHandoffKeyword('agent', null)).toBeNull();
  });
  it("answer in the word's language, else the default language's, else the default text", () => {
    expect(getHandoffReply(keywords, 'fr', 'en')).toBe('Un conseiller arrive.');
    expect(getHandoffReply(keywords, 'en', 'fr')).toBe('Un conseiller arrive.');
    expect(getHandoffReply(keywords, 'en', 'en')).toBe(DEFAULT_HANDOFF_TEXT);
  });
});
