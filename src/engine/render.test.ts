import { Liquid } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { compileTemplate, renderTemplate } from './render';
import type { TemplateScope } from './types';

// The same options as the engine's Liquid: what the direct lookup must always agree with.
const reference = new Liquid({ templates: {}, ownPropertyOnly: true, strictVariables: false, strictFilters: true });

const scope = {
  session: { sessionId: 's1', mobile: '233241', network: 'MTN', serviceCode: '*920#', inputs: { amount: '50', name: 'Ama', empty: '' }, vars: { count: 3, ok: true, no: false, ratio: 0.5 } },
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
