import { Liquid } from 'liquidjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REGEXP_MESSAGES, type MenuInput } from '../shared/app';
import {
  compileApp,
  continueSession,
  lintApp,
  resumeLostSession,
  startSession,
  type ActionRequest,
  type EngineDeps,
  type Hop,
} from './index';
import { buildTestApp } from './test-app';

const hop: Hop = { sessionId: 'gw-1', msisdn: '233200000001', network: 'MTN', serviceCode: '*920#', input: '' };

/** The shop's menus: a pick, then a quantity posted to a REST API. */
const SHOP_MENUS: Array<Partial<MenuInput>> = [
  {
    uniqueId: 'm1',
    userDefinedName: 'home',
    displayText: 'Hi {{ session.mobile }}, {{ actions.who.name }}\n1. Buy',
    actions: [{ actionName: 'who', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return {name: "Ama"}' }],
    inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Numbers only' }],
    switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: 'm2' }],
  },
  {
    uniqueId: 'm2',
    userDefinedName: 'qty',
    allowGoBack: true,
    goBackInputIndicator: '0',
    displayText: 'Quantity for {{ session.inputs.homeLabel }}?',
    actions: [
      {
        actionName: 'price',
        actionType: 'post',
        inheritsPlugin: 'restapi',
        code: { method: 'POST', url: 'https://x/{{ session.inputs.qty }}', payload: '{"q": {{ inRequest.input }}}' },
      },
    ],
    switchOperations: [{ operator: 'always', action: 'Terminate', actionParam: 'Total {{ actions.price.total }}' }],
  },
];

/** The shop, or the given menus in the same app. */
function buildCompiled(menus: Array<Partial<MenuInput>> = SHOP_MENUS) {
  return compileApp(buildTestApp(menus));
}

function buildDeps(runAction: EngineDeps['runAction'] = async () => ({ ok: true, result: { name: 'Ama' } })) {
  let time = 1000;
  let ids = 0;
  const deps: EngineDeps = { now: () => time, newId: () => `e${++ids}`, runAction: vi.fn(runAction) };
  return { deps, tick: (ms: number) => (time += ms) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('startSession and continueSession', () => {
  it('returns a JSON state, a reply and fully described events', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const first = await startSession(compiled, { ...hop, gateway: 'nalo', environment: 'live' }, deps);
    expect(first.reply).toEqual({ text: 'Hi 233200000001, Ama\n1. Buy', end: false });
    expect(JSON.parse(JSON.stringify(first.state))).toEqual(first.state);
    expect(first.state).toMatchObject({
      appId: 'a1',
      versionId: 'v1',
      environment: 'live',
      gateway: 'nalo',
      sessionId: 'gw-1',
      currentMenuId: 'm1',
      hopCount: 1,
      actionResults: { who: { name: 'Ama' } },
    });
    const finished = first.events.find((e) => e.type === 'action_finished');
    expect(finished).toEqual({
      id: expect.any(String),
      type: 'action_finished',
      level: 'info',
      time: 1000,
      appId: 'a1',
      sessionId: 'gw-1',
      menuId: 'm1',
      menu: 'home',
      plugin: 'javascript',
      action: 'who',
      message: 'who finished',
      data: { result: { name: 'Ama' }, elapsedMs: 0 },
    });
    expect(new Set(first.events.map((e) => e.id)).size).toBe(first.events.length);
  });

  it("starts at the hop's entry menu when the app has it (writing first), at the first menu otherwise", async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const entered = await startSession(compiled, { ...hop, entryMenuId: 'm2' }, deps);
    expect(entered.state.currentMenuId).toBe('m2');
    expect(entered.reply.text).toBe('Quantity for ?');
    const next = await continueSession(compiled, entered.state, { ...hop, input: '3' }, deps);
    expect(next.state.inputs.qty).toBe('3');
    const unknown = await startSession(compiled, { ...hop, entryMenuId: 'gone' }, deps);
    expect(unknown.state.currentMenuId).toBe('m1');
  });

  it('never modifies the state the caller passed in', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const first = await startSession(compiled, hop, deps);
    const frozen = JSON.stringify(first.state);
    const second = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(JSON.stringify(first.state)).toBe(frozen);
    expect(second.state.history).toEqual(['m1']);
    expect(second.state.inputs).toEqual({ home: '1', homeLabel: 'Buy' });
    expect(second.state.hopCount).toBe(2);
  });

  it('gives the runner the action, menu, scope, deadline and a template renderer', async () => {
    const compiled = buildCompiled();
    const requests: ActionRequest[] = [];
    const { deps, tick } = buildDeps(async (request) => {
      requests.push(request);
      tick(100);
      if (request.action.actionName === 'price')
        return { ok: true, result: { total: request.renderTemplate('{{ session.inputs.qty | times: 5 }}') } };
      return { ok: true, result: { name: 'Ama' } };
    });
    const first = await startSession(compiled, hop, deps);
    const second = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    const third = await continueSession(compiled, second.state, { ...hop, input: '3' }, deps);
    expect(third.reply).toEqual({ text: 'Total 15', end: true });
    expect(requests.map((r) => r.action.actionName)).toEqual(['who', 'price']);
    const price = requests[1];
    expect(price).toMatchObject({ purpose: 'action', kind: 'restapi', menu: { uniqueId: 'm2', identifier: 'qty' } });
    // The clock stood at 1100 when price started (who took 100 ms); an action has 3 s.
    expect(price.deadline).toBe(1100 + 3000);
    expect(price.scope.inRequest.input).toBe('3');
    expect(price.scope.app).toEqual({ name: 'Shop', shortCode: '*920#' });
    expect(price.renderTemplate(price.action.inheritsPlugin === 'restapi' ? price.action.code.url : '')).toBe('https://x/3');
  });

  it('parses no template during a hop', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const parse = vi.spyOn(Liquid.prototype, 'parse');
    const first = await startSession(compiled, hop, deps);
    await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(parse).not.toHaveBeenCalled();
  });

  it('goes back through the history', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const first = await startSession(compiled, hop, deps);
    const second = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    const back = await continueSession(compiled, second.state, { ...hop, input: '0' }, deps);
    expect(back.reply.text).toBe('Hi 233200000001, Ama\n1. Buy');
    expect(back.state.history).toEqual([]);
    expect(back.events.map((e) => e.type)).toContain('navigated_back');
  });

  it("gives the shown menu's input holder with a screen that waits for input, and none with an end", async () => {
    const [home, qty] = buildCompiled().order.map((m) => m.menu);
    const compiled = buildCompiled([
      home,
      { ...qty, inputHolder: 'e.g. 2', inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Numbers only' }] },
    ]);
    const { deps } = buildDeps();
    const first = await startSession(compiled, hop, deps);
    expect(first.reply).toEqual({ text: 'Hi 233200000001, Ama\n1. Buy', end: false });
    const second = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(second.reply).toEqual({ text: 'Quantity for Buy?', end: false, inputHolder: 'e.g. 2' });
    const refused = await continueSession(compiled, second.state, { ...hop, input: 'two' }, deps);
    expect(refused.reply).toEqual({ text: 'Numbers only\nQuantity for Buy?', end: false, inputHolder: 'e.g. 2' });
    const last = await continueSession(compiled, refused.state, { ...hop, input: '2' }, deps);
    expect(last.reply.end).toBe(true);
    expect(last.reply.inputHolder).toBeUndefined();
  });

  it('starts over when the state is stale, ended, unreadable or points at a removed menu', async () => {
    const compiled = buildCompiled();
    const { deps, tick } = buildDeps();
    const first = await startSession(compiled, hop, deps);
    tick(180_001);
    const expired = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(expired.events[0]).toMatchObject({ type: 'session_expired', level: 'system', data: { reason: 'timeout' } });
    expect(expired.state.currentMenuId).toBe('m1');

    const moved = await continueSession(compiled, { ...expired.state, currentMenuId: 'deleted' }, { ...hop, input: '1' }, deps);
    expect(moved.events[0]).toMatchObject({ type: 'session_restarted', data: { reason: 'menu_missing' } });

    const garbage = await continueSession(compiled, { nonsense: true } as never, { ...hop, input: '1' }, deps);
    expect(garbage.events[0]).toMatchObject({ type: 'session_restarted', data: { reason: 'unreadable_state' } });
    expect(garbage.reply.end).toBe(false);
  });

  it('resumes a lost session without running an action: the first screen when it has no pre action, else an end', async () => {
    const withPre = buildCompiled();
    const { deps } = buildDeps();
    const ended = await resumeLostSession(withPre, { ...hop, input: '' }, deps);
    expect(deps.runAction).not.toHaveBeenCalled();
    expect(ended.reply).toEqual({ text: 'Your session has ended. Please dial again.', end: true });
    expect(ended.state.ended).toBe(true);
    expect(ended.events).toMatchObject([
      { type: 'session_restarted', data: { reason: 'session_lost' } },
      { type: 'session_ended', data: { reason: 'session_lost' } },
    ]);
    expect(ended.events).toHaveLength(2);

    const plain = buildCompiled([
      {
        uniqueId: 'm1',
        appId: 'a1',
        userDefinedName: 'home',
        displayText: 'Welcome\n1. Buy',
        switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: 'm2' }],
      },
      {
        uniqueId: 'm2',
        appId: 'a1',
        userDefinedName: 'qty',
        displayText: 'Quantity?',
        actions: [{ actionName: 'pay', actionType: 'post', inheritsPlugin: 'javascript', code: 'return 1' }],
      },
    ]);
    const restarted = await resumeLostSession(plain, { ...hop, input: '1' }, deps);
    expect(deps.runAction).not.toHaveBeenCalled();
    expect(restarted.reply).toEqual({ text: 'Welcome\n1. Buy', end: false });
    expect(restarted.state).toMatchObject({ currentMenuId: 'm1', hopCount: 1, ended: false, inputs: {} });
    expect(restarted.events.map((e) => e.type)).toEqual(['session_restarted', 'session_started', 'menu_shown']);
  });

  it('honours limit overrides from the caller', async () => {
    const compiled = buildCompiled();
    const { deps, tick } = buildDeps();
    deps.limits = { sessionTimeoutMs: 10 };
    const first = await startSession(compiled, hop, deps);
    tick(11);
    const next = await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    expect(next.events[0].type).toBe('session_expired');
  });

  it('survives a runner that returns nonsense or rejects', async () => {
    const compiled = buildCompiled();
    const nonsense = buildDeps(async () => 42 as never);
    const a = await startSession(compiled, hop, nonsense.deps);
    expect(a.reply).toEqual({ text: 'Hi 233200000001, \n1. Buy', end: false });
    expect(a.state.actionResults.who).toEqual({ error: 'The action runner gave no outcome' });

    const rejecting = buildDeps(async () => {
      throw new Error('pool exhausted');
    });
    const b = await startSession(compiled, hop, rejecting.deps);
    expect(b.events.find((e) => e.type === 'action_failed')?.message).toBe('who failed: pool exhausted');
    expect(b.reply.end).toBe(false);
  });

  it('answers an unexpected engine fault with the unavailable screen', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    let calls = 0;
    deps.now = () => {
      calls += 1;
      if (calls === 3) throw new Error('clock broke');
      return 1000;
    };
    const result = await startSession(compiled, hop, deps);
    expect(result.reply).toEqual({ text: 'Service temporarily unavailable. Please try again.', end: true });
    expect(result.events.some((e) => e.type === 'error_logged' && e.message.includes('clock broke'))).toBe(true);
  });
});

describe('a menu saved before patterns ran on RE2', () => {
  it('skips a validation and never matches a rule whose pattern RE2 cannot run, logging each hop; lint refuses a deploy', async () => {
    const app = buildTestApp(
      [
        {
          uniqueId: 'm1',
          userDefinedName: 'pin',
          isFirst: true,
          displayText: 'PIN?',
          inputValidations: [{ validationMethod: 'regexp', compareValue: '^(?=.*\\d).{4}$', errorMessage: 'Bad PIN' }],
          switchOperations: [
            { operator: 'regexp', compareVal: '^(\\d)\\1{3}$', action: 'Terminate', actionParam: 'Same digits' },
            { operator: 'regexp', compareVal: '^\\d{4}$', action: 'Terminate', actionParam: 'OK' },
          ],
        },
      ],
      { appName: 'Bank' },
    );
    const compiled = compileApp(app);
    const { deps } = buildDeps();
    const first = await startSession(compiled, hop, deps);
    const next = await continueSession(compiled, first.state, { ...hop, input: '1111' }, deps);
    expect(next.reply).toEqual({ text: 'OK', end: true });
    expect(next.events.filter((e) => e.type === 'error_logged').map((e) => e.message)).toEqual([
      `Validation 1 skipped: ${REGEXP_MESSAGES.lookahead}`,
      `Rule 1 skipped: ${REGEXP_MESSAGES.backreference}`,
    ]);
    expect(
      lintApp(app)
        .filter((i) => i.level === 'error')
        .map((i) => i.field),
    ).toEqual(['switchOperations.0.compareVal', 'inputValidations.0.compareValue']);
  });
});

describe('the limits of the gateway a session came through', () => {
  it('ends a hop whose action ran past the hop budget as over budget, one past its own budget as a fault', async () => {
    const compiled = buildCompiled();
    const endReason = (result: Awaited<ReturnType<typeof startSession>>) =>
      result.events.find((e) => e.type === 'session_ended')?.data.reason;
    // The gateway's budget (hopBudgetMs 2,000) is spent before the action's own 3,000.
    const overHop = buildDeps(async () => {
      overHop.tick(2500);
      return { ok: true, result: { name: 'Ama' } };
    });
    overHop.deps.limits = { hopBudgetMs: 2000 };
    const late = await startSession(compiled, hop, overHop.deps);
    expect(late.reply).toEqual({ text: 'Service temporarily unavailable. Please try again.', end: true });
    expect(endReason(late)).toBe('over_budget');
    // Past only the action's own budget (hop budget 5,000, action 3,000): the app's fault.
    const overAction = buildDeps(async () => {
      overAction.tick(3500);
      return { ok: true, result: { name: 'Ama' } };
    });
    expect(endReason(await startSession(compiled, hop, overAction.deps))).toBe('fault');
  });

  it("pages at the gateway's screen limit when the runtime gives one, else at the app's", async () => {
    const options = Array.from({ length: 12 }, (_, i) => `${i + 1}. Option number ${i + 1}`).join('\n');
    const compiled = buildCompiled([{ uniqueId: 'm1', userDefinedName: 'home', displayText: `Pick one\n${options}` }]);
    const wide = buildDeps();
    const narrow = buildDeps();
    narrow.deps.limits = { screenLimit: 120 };
    const atApp = await startSession(compiled, hop, wide.deps);
    const atGateway = await startSession(compiled, hop, narrow.deps);
    expect(atApp.reply.text.length).toBeLessThanOrEqual(160);
    expect(atApp.reply.text.length).toBeGreaterThan(120);
    expect(atGateway.reply.text.length).toBeLessThanOrEqual(120);
    expect(atGateway.reply.text.endsWith('98. More')).toBe(true);
  });
});
