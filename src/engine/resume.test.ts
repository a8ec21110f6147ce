import { describe, expect, it } from 'vitest';
import type { MenuInput } from '../shared/app';
import {
  compileApp,
  continueSession,
  offerResume,
  RESUME_OFFER_TEXT,
  startSession,
  type EngineDeps,
  type Hop,
  type SessionState,
} from './index';
import { buildTestApp } from './test-app';

/** Name, then city, then a closing screen; the city menu's pre action counts how often it runs. */
const MENUS: Array<Partial<MenuInput>> = [
  {
    uniqueId: 'm1',
    userDefinedName: 'name',
    displayText: 'Your name?',
    switchOperations: [{ operator: 'always', action: 'goto', actionParam: 'm2' }],
  },
  {
    uniqueId: 'm2',
    userDefinedName: 'city',
    displayText: 'City for {{ session.inputs.name }}?\n1. Accra\n2. Kumasi',
    actions: [{ actionName: 'count', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return { vars: { seen: 1 } }' }],
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: 'm3' }],
  },
  {
    uniqueId: 'm3',
    userDefinedName: 'done',
    displayText: '{{ session.inputs.name }} in {{ session.inputs.cityLabel }}',
    terminate: true,
  },
];

function buildDeps() {
  let time = 1_700_000_000_000;
  let ids = 0;
  let actionRuns = 0;
  const deps: EngineDeps = {
    now: () => time,
    newId: () => `id-${++ids}`,
    runAction: async () => {
      actionRuns += 1;
      return { ok: true, result: { vars: { seen: actionRuns } }, logs: [] };
    },
  };
  return { deps, advance: (ms: number) => (time += ms), getActionRuns: () => actionRuns };
}

const compiled = compileApp(buildTestApp(MENUS));
const first: Hop = {
  sessionId: 'old',
  msisdn: '233200000001',
  network: 'MTN',
  serviceCode: '*920#',
  input: '',
  gateway: 'hubtel',
  environment: 'test',
};
const redial: Hop = { ...first, sessionId: 'new' };

/** A session left on the city menu after the name Ama. */
async function dropOnCity(deps: EngineDeps): Promise<SessionState> {
  const started = await startSession(compiled, first, deps);
  const named = await continueSession(compiled, started.state, { ...first, input: 'Ama' }, deps);
  expect(named.reply.text).toBe('City for Ama?\n1. Accra\n2. Kumasi');
  return named.state;
}

describe('resume on redial', () => {
  it('offers the dropped session, and 1 shows the menu it was on with its inputs, without running its actions again', async () => {
    const { deps, advance, getActionRuns } = buildDeps();
    const dropped = await dropOnCity(deps);
    advance(60_000);
    const offer = await offerResume(compiled, redial, dropped, deps);
    expect(offer.reply).toEqual({ text: RESUME_OFFER_TEXT, end: false });
    expect(offer.reply.text).toBe('1. Continue where you left off\n2. Start again');
    expect(offer.events.map((e) => e.type)).toEqual(['session_started', 'resume_offered', 'menu_shown']);
    expect(offer.events[1]).toMatchObject({ sessionId: 'new', message: 'Offered to resume session old', data: { fromSessionId: 'old' } });

    const resumed = await continueSession(compiled, offer.state, { ...redial, input: '1' }, deps);
    expect(resumed.reply).toEqual({ text: 'City for Ama?\n1. Accra\n2. Kumasi', end: false });
    expect(resumed.events.map((e) => e.type)).toEqual(['input_received', 'session_resumed', 'menu_shown']);
    expect(resumed.events[1]).toMatchObject({ sessionId: 'new', menu: 'city', message: 'Resumed from session old' });
    expect(resumed.state).toMatchObject({ sessionId: 'new', currentMenuId: 'm2', history: ['m1'], inputs: { name: 'Ama' }, hopCount: 2 });
    expect(resumed.state.resumeOffer).toBeUndefined();
    expect(resumed.state.vars).toEqual({ seen: 1 });
    expect(getActionRuns()).toBe(1);

    const done = await continueSession(compiled, resumed.state, { ...redial, input: '2' }, deps);
    expect(done.reply).toEqual({ text: 'Ama in Kumasi', end: true });
    expect(dropped.sessionId).toBe('old'); // the saved state is read, never changed
  });

  it('starts again on 2, from the first menu and with what was dialled now', async () => {
    const { deps } = buildDeps();
    const dropped = await dropOnCity(deps);
    const offer = await offerResume(compiled, redial, dropped, deps);
    const fresh = await continueSession(compiled, offer.state, { ...redial, input: '2' }, deps);
    expect(fresh.reply).toEqual({ text: 'Your name?', end: false });
    expect(fresh.events.map((e) => e.type)).toEqual(['input_received', 'resume_declined', 'menu_shown']);
    expect(fresh.events[1]?.message).toBe('Started again instead of resuming session old');
    expect(fresh.state).toMatchObject({ sessionId: 'new', currentMenuId: 'm1', history: [], inputs: {} });
    expect(fresh.state.resumeOffer).toBeUndefined();
  });

  it('repeats the offer under Invalid choice for any other input, then still takes 1', async () => {
    const { deps } = buildDeps();
    const offer = await offerResume(compiled, redial, await dropOnCity(deps), deps);
    const again = await continueSession(compiled, offer.state, { ...redial, input: '3' }, deps);
    expect(again.reply).toEqual({ text: `Invalid choice\n${RESUME_OFFER_TEXT}`, end: false });
    expect(again.events.map((e) => e.type)).toEqual(['input_received', 'navigation_failed', 'menu_shown']);
    expect(again.state.resumeOffer?.from.sessionId).toBe('old');
    const resumed = await continueSession(compiled, again.state, { ...redial, input: '1' }, deps);
    expect(resumed.reply.text).toBe('City for Ama?\n1. Accra\n2. Kumasi');
  });

  it('fits the offer and its notice on the smallest screen', async () => {
    expect(`Invalid choice\n${RESUME_OFFER_TEXT}`.length).toBeLessThanOrEqual(60);
  });

  it("does not offer an ended session, another app's, or one whose menu is gone: the session just starts", async () => {
    const { deps } = buildDeps();
    const dropped = await dropOnCity(deps);
    for (const state of [
      { ...dropped, ended: true },
      { ...dropped, appId: 'other' },
      { ...dropped, currentMenuId: 'gone' },
    ]) {
      const result = await offerResume(compiled, redial, state, deps);
      expect(result.reply).toEqual({ text: 'Your name?', end: false });
      expect(result.events.map((e) => e.type)).not.toContain('resume_offered');
    }
  });

  it('starts again when the menu left the app while the offer was on screen', async () => {
    const { deps } = buildDeps();
    const offer = await offerResume(compiled, redial, await dropOnCity(deps), deps);
    const edited = compileApp(buildTestApp(MENUS.filter((m) => m.uniqueId !== 'm2')));
    const result = await continueSession(edited, offer.state, { ...redial, input: '1' }, deps);
    expect(result.reply).toEqual({ text: 'Your name?', end: false });
    expect(result.events[1]).toMatchObject({ type: 'resume_declined', data: { fromSessionId: 'old' } });
  });

  it('lets the offer time out like any screen', async () => {
    const { deps, advance } = buildDeps();
    const offer = await offerResume(compiled, redial, await dropOnCity(deps), deps);
    advance(181_000);
    const result = await continueSession(compiled, offer.state, { ...redial, input: '1' }, deps);
    expect(result.events.map((e) => e.type)).toEqual(['session_expired', 'session_started', 'menu_shown']);
    expect(result.reply.text).toBe('Your name?');
  });
});
