import { Liquid } from 'liquidjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appVersionSchema } from '../shared/app';
import { compileApp, continueSession, startSession, type ActionRequest, type EngineDeps, type Hop } from './index';

const hop: Hop = { sessionId: 'gw-1', msisdn: '233200000001', network: 'MTN', serviceCode: '*920#', input: '' };

function buildCompiled() {
  return compileApp(
    appVersionSchema.parse({
      appId: 'a1',
      versionId: 'v1',
      appName: 'Shop',
      shortCode: '*920#',
      menus: [
        {
          uniqueId: 'm1',
          appId: 'a1',
          userDefinedName: 'home',
          displayText: 'Hi {{ session.mobile }}, {{ actions.who.name }}\n1. Buy',
          actions: [{ actionName: 'who', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return {name: "Ama"}' }],
          inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Numbers only' }],
          switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: 'm2' }],
        },
        {
          uniqueId: 'm2',
          appId: 'a1',
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
      ],
    }),
  );
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
      if (request.action.actionName === 'price') return { ok: true, result: { total: request.renderTemplate('{{ session.inputs.qty | times: 5 }}') } };
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

  it('serves hops quickly once compiled', async () => {
    const compiled = buildCompiled();
    const { deps } = buildDeps();
    const started = performance.now();
    for (let i = 0; i < 2000; i++) {
      const first = await startSession(compiled, hop, deps);
      await continueSession(compiled, first.state, { ...hop, input: '1' }, deps);
    }
    const perHop = (performance.now() - started) / 4000;
    // A generous bound for CI machines; the real throughput figure comes from `npm run bench`.
    expect(perHop).toBeLessThan(1);
  });
});
