import { Liquid } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import type { MenuInput } from '../shared/app';
import { compileApp, startSession, UNAVAILABLE_TEXT, type EngineDeps } from './index';
import { compileTemplate, FILTER_INPUT_LIMITS, RenderBudgetError, renderTemplate } from './render';
import type { RenderTimeAccount, TemplateScope } from './types';
import { buildTestApp } from './test-app';

// The same options as the engine's Liquid: what the direct lookup must always agree with.
const reference = new Liquid({ templates: {}, ownPropertyOnly: true, strictVariables: false, strictFilters: true });

const scope = {
  session: {
    sessionId: 's1',
    mobile: '233241',
    network: 'MTN',
    serviceCode: '*920#',
    inputs: { amount: '50', name: 'Ama', empty: '' },
    vars: { count: 3, ok: true, no: false, ratio: 0.5 },
  },
  inRequest: { input: '1' },
  actions: { bank: { balance: 120.75, list: [1, 2], nested: { deep: 'yes' }, nothing: null } },
  app: { name: 'Shop', shortCode: '*920*55#' },
} as unknown as TemplateScope;

describe('templates', () => {
  const sources = [
    'You chose {{ session.inputs.name }} for GHS {{ session.inputs.amount }}',
    '{{session.inputs.amount}}',
    'Balance: {{ actions.bank.balance }} ({{ actions.bank.nested.deep }})',
    'Flags {{ session.vars.ok }} {{ session.vars.no }} {{ session.vars.count }} {{ session.vars.ratio }}',
    'Missing: [{{ session.inputs.nothing }}] [{{ nobody.here }}]',
    'List: {{ actions.bank.list }} size {{ actions.bank.list.size }} first {{ actions.bank.list.first }}',
    'Null: [{{ actions.bank.nothing }}] object: {{ actions.bank.nested }}',
    'Size of a string: {{ session.inputs.name.size }}',
    'Filters go to Liquid: {{ session.inputs.name | upcase }}',
    'Trim control: {{- session.inputs.name -}} !',
    '{% if session.vars.ok %}yes{% endif %} {{ session.inputs.amount }}',
    'Prototype: {{ session.inputs.constructor }} {{ app.toString }}',
    'Empty: [{{ session.inputs.empty }}] {{ app.name }}',
  ];
  for (const source of sources) {
    it(`renders as Liquid does: ${source}`, () => {
      const compiled = compileTemplate(source);
      expect(renderTemplate(compiled, scope)).toBe(reference.parseAndRenderSync(source, scope));
    });
  }

  it('takes the direct path only for plain variables', () => {
    expect(compileTemplate('Hi {{ session.inputs.name }}')).toMatchObject({ simple: ['Hi ', ['session', 'inputs', 'name'], ''] });
    expect(compileTemplate('Hi {{ session.inputs.name | upcase }}')).toMatchObject({ simple: undefined });
    expect(compileTemplate('{% if x %}a{% endif %}')).toMatchObject({ simple: undefined });
    expect(compileTemplate('plain text')).toMatchObject({ parts: null });
  });
});

/** An app of one menu, for the hop-level tests below. */
function compileMenuApp(menu: Partial<MenuInput>) {
  return compileApp(buildTestApp([{ uniqueId: 'm1', userDefinedName: 'home', displayText: 'Hi', isFirst: true, ...menu }]));
}

/** A tenant's account as the runtime keeps one: `available` ms, the render time spent recorded. */
function buildAccount(available: number, clock: () => number = () => performance.now()) {
  const spent: number[] = [];
  const account: RenderTimeAccount = {
    now: clock,
    getAvailableMs: () => available - spent.reduce((a, b) => a + b, 0),
    spend: (ms) => spent.push(ms),
  };
  const deps: EngineDeps = { now: () => 1000, newId: () => 'e', runAction: async () => ({ ok: true, result: null }), renderTime: account };
  return { deps, spent };
}

const hop = { sessionId: 's1', msisdn: '233241', network: 'MTN', serviceCode: '*920#', input: '' };

describe('render time', () => {
  it('stops a pathological template within the hop budget: the unavailable screen and an error event', async () => {
    // About a billion loop iterations: the old 250 ms render limit stopped it, per template, after a quarter second.
    const loops = '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}x{% endfor %}{% endfor %}{% endfor %}';
    const { deps, spent } = buildAccount(Infinity);
    const result = await startSession(compileMenuApp({ headerText: loops, displayText: loops, footerText: loops }), hop, deps);
    expect(result.reply).toEqual({ text: UNAVAILABLE_TEXT, end: true });
    const error = result.events.find((e) => e.type === 'error_logged');
    expect(error?.message).toMatch(/^Template rendering exceeded its time budget in headerText: \d+ ms used, the hop's budget is 20 ms$/);
    // One render, stopped by the hop's budget (unstopped, its billion iterations would outlast the test's
    // timeout); the others never started.
    expect(spent).toHaveLength(1);
  });

  it("shares one budget between a hop's templates", async () => {
    let time = 0;
    // Every reading of the clock is 600 ms later: each render takes 600 ms of a 1,000 ms budget. (Liquid also gets
    // the budget left as its own wall-clock limit: 400 ms keeps a loaded machine's real render well inside it.)
    const { deps, spent } = buildAccount(Infinity, () => {
      time += 600;
      return time - 600;
    });
    const upper = '{{ app.name | upcase }}';
    const result = await startSession(compileMenuApp({ headerText: upper, displayText: upper, footerText: upper }), hop, {
      ...deps,
      limits: { renderBudgetMs: 1000 },
    });
    expect(spent).toEqual([600, 600]);
    expect(result.reply).toEqual({ text: UNAVAILABLE_TEXT, end: true });
    expect(result.events.find((e) => e.type === 'error_logged')?.message).toBe(
      "Template rendering exceeded its time budget in footerText: 1200 ms used, the hop's budget is 1000 ms",
    );
  });

  it("refuses Liquid once the account's share is used up; plain screens still answer", async () => {
    const { deps, spent } = buildAccount(0);
    const liquid = await startSession(compileMenuApp({ displayText: 'Hi {{ app.name | upcase }}' }), hop, deps);
    expect(liquid.reply).toEqual({ text: UNAVAILABLE_TEXT, end: true });
    expect(liquid.events.find((e) => e.type === 'error_logged')?.message).toBe(
      "Template rendering exceeded its time budget in displayText: this account's share of render time is used up for now",
    );
    expect(spent).toEqual([]);
    const plain = await startSession(compileMenuApp({ displayText: 'Hi {{ app.name }}' }), hop, deps);
    expect(plain.reply).toEqual({ text: 'Hi Shop', end: false });
  });

  it('refuses a filter an input too large for it, which Liquid could not stop midway', () => {
    const items = Array.from({ length: 25_000 }, (_, i) => ({ k: String(i) }));
    const big = { ...scope, actions: { api: { items, text: 'a '.repeat(FILTER_INPUT_LIMITS.maxTextLength) } } } as unknown as TemplateScope;
    expect(() => renderTemplate(compileTemplate('{{ actions.api.items | where: "k", "7" | size }}'), big)).toThrow(
      'The where filter was given 25000 items; a filter takes at most 1000',
    );
    expect(() => renderTemplate(compileTemplate('{{ actions.api.text | truncatewords: 5 }}'), big)).toThrow(
      /^The truncatewords filter was given 10000 characters/,
    );
    // Filters whose cost does not grow with the input take any.
    expect(
      renderTemplate(
        compileTemplate('{{ actions.api.items | size }} {{ actions.api.items | first | map: "k" }} {{ actions.api.text | truncate: 5 }}'),
        big,
      ),
    ).toBe('25000 0 a ...');
    expect(renderTemplate(compileTemplate('{{ actions.api.items | slice: 0, 3 | map: "k" | join: "," }}'), big)).toBe('0,1,2');
  });

  it('gives a render outside a hop (lint, preview) the same budget', () => {
    const loops = compileTemplate(
      '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}{% endfor %}{% endfor %}{% endfor %}',
    );
    expect(() => renderTemplate(loops, scope)).toThrow(RenderBudgetError);
  });
});
