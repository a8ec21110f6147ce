import { describe, expect, it } from 'vitest';
import { lintApp } from '../../../engine';
import { createMenuDraft, type Menu, type SwitchOperation } from '../../../shared/app';
import {
  buildFlowGraph,
  endNodeId,
  layoutFlowGraph,
  missingNodeId,
  ruleLabel,
  screenLines,
  subflowNodeId,
  type FlowDirection,
} from './flow-graph';

const goto = (target: string, operator: SwitchOperation['operator'] = 'eq', compareVal = '1'): SwitchOperation => ({
  operator,
  compareVal,
  action: 'goto',
  actionParam: target,
});
const end = (closing: string, operator: SwitchOperation['operator'] = 'eq', compareVal = '9'): SwitchOperation => ({
  operator,
  compareVal,
  action: 'Terminate',
  actionParam: closing,
});

function menu(id: string, overrides: Partial<Menu> = {}): Menu {
  return {
    ...createMenuDraft('app1'),
    allowGoBack: false,
    goBackInputIndicator: '',
    uniqueId: id,
    userDefinedName: id,
    displayText: `${id} screen`,
    ...overrides,
  };
}

const lint = (menus: Menu[]) =>
  lintApp({
    appId: 'app1',
    versionId: 'draft',
    appName: 'A',
    shortCode: '*1#',
    useTemplateTag: false,
    screenLimit: 160,
    channel: 'ussd',
    menus,
  });

describe('buildFlowGraph', () => {
  const menus = [
    menu('home', {
      isFirst: true,
      displayText: 'Welcome\n1. Balance\n2. Airtime\n3. Data\n4. Help\n5. Exit',
      switchOperations: [goto('balance'), goto('airtime', 'valueIn', '2,3'), end('Goodbye {{session.msisdn}}', 'eq', '5')],
    }),
    menu('balance', { terminate: true, displayText: 'Your balance is 10' }),
    menu('airtime', { allowGoBack: true, goBackInputIndicator: '0', switchOperations: [goto('confirm', 'always', '')] }),
    menu('confirm', { switchOperations: [goto('deleted-id')] }),
    menu('orphan'),
  ];
  const graph = buildFlowGraph(menus, lint(menus));
  const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
  const edge = (id: string) => graph.edges.find((e) => e.id === id)!;

  it('has a node per menu plus End and missing menu nodes', () => {
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'home',
      'balance',
      'airtime',
      'confirm',
      'orphan',
      endNodeId('home'),
      missingNodeId('deleted-id'),
    ]);
    expect(node(endNodeId('home')).data.kind).toBe('end');
    expect(node(missingNodeId('deleted-id')).data).toMatchObject({ kind: 'missing', title: 'Missing menu', menuId: 'confirm' });
  });

  it('labels an edge per rule with its condition; Terminate goes to End with the closing text', () => {
    expect(edge('rule:home:0')).toMatchObject({ source: 'home', target: 'balance', label: '= 1', kind: 'rule' });
    expect(edge('rule:home:1')).toMatchObject({ target: 'airtime', label: 'in 2,3' });
    expect(edge('rule:home:2')).toMatchObject({ target: endNodeId('home'), kind: 'terminate', label: '= 5 → Goodbye {{session.msisdn}}' });
    expect(edge('rule:airtime:0')).toMatchObject({ target: 'confirm', label: 'always' });
    expect(edge('rule:confirm:0')).toMatchObject({ target: missingNodeId('deleted-id'), kind: 'broken' });
  });

  it('draws Back edges from a back-enabled menu to the menus leading to it', () => {
    const back = graph.edges.filter((e) => e.kind === 'back');
    expect(back).toEqual([
      {
        id: 'back:airtime:home',
        source: 'airtime',
        target: 'home',
        label: 'back 0',
        kind: 'back',
        description: 'Back (0) from airtime to home',
      },
    ]);
    expect(graph.edges).toHaveLength(6);
  });

  it('marks First, Terminate, Back, Unreachable and Broken target', () => {
    expect(node('home').data.badges).toEqual(['First']);
    expect(node('balance').data.badges).toEqual(['Terminate']);
    expect(node('airtime').data).toMatchObject({ badges: ['Back'], backIndicator: '0' });
    expect(node('orphan').data.badges).toEqual(['Unreachable']);
    expect(node('confirm').data.badges).toContain('Broken target');
  });

  it('cuts the screen to a few lines', () => {
    expect(node('home').data.lines).toEqual(['Welcome', '1. Balance', '2. Airtime', '3. Data …']);
    expect(screenLines('a\n\n  b  ')).toEqual(['a', 'b']);
    expect(screenLines('x'.repeat(80))[0]).toHaveLength(34);
  });

  it('uses the rendered screen when given, the raw text when rendering throws', () => {
    const rendered = buildFlowGraph([menu('a', { displayText: 'Hi {{x}}' })], [], () => 'Hi Ama');
    expect(rendered.nodes[0]!.data.lines).toEqual(['Hi Ama']);
    const failed = buildFlowGraph([menu('a', { displayText: 'Hi {{x}}' })], [], () => {
      throw new Error('bad');
    });
    expect(failed.nodes[0]!.data.lines).toEqual(['Hi {{x}}']);
  });

  it('draws no Back link and no Back mark out of a terminating menu, even one stored with Back Menu on', () => {
    const ending = [
      menu('home', { isFirst: true, switchOperations: [goto('bye')] }),
      menu('bye', { terminate: true, allowGoBack: true, goBackInputIndicator: '0', displayText: 'Goodbye' }),
    ];
    const graph = buildFlowGraph(ending, lint(ending));
    expect(graph.edges.filter((e) => e.kind === 'back')).toEqual([]);
    expect(graph.nodes.find((n) => n.id === 'bye')!.data).toMatchObject({ badges: ['Terminate'] });
    expect(graph.nodes.find((n) => n.id === 'bye')!.data.backIndicator).toBeUndefined();
  });

  it('marks a broken target from the lint code, not its wording', () => {
    const graph = buildFlowGraph(
      [menu('a')],
      [{ level: 'error', menuId: 'a', field: 'switchOperations.0.actionParam', message: 'anything', code: 'missing_target' }],
    );
    expect(graph.nodes[0]!.data.badges).toContain('Broken target');
  });

  it('labels operators', () => {
    expect(ruleLabel({ operator: 'always', compareVal: '' })).toBe('always');
    expect(ruleLabel({ operator: 'valueIn', compareVal: '1,2,3' })).toBe('in 1,2,3');
    expect(ruleLabel({ operator: 'gte', compareVal: '10' })).toBe('≥ 10');
    expect(ruleLabel({ operator: 'startsWith', compareVal: '024' })).toBe('starts with 024');
  });
});

/** 50 menus: a home menu with 5 branches, each a chain with sub-choices, some Terminate and Back. */
function fiftyMenus(): Menu[] {
  const menus: Menu[] = [];
  const ids = Array.from({ length: 50 }, (_, i) => `m${i}`);
  ids.forEach((id, i) => {
    const children = [i * 3 + 1, i * 3 + 2, i * 3 + 3].filter((c) => c < 50).map((c) => ids[c]!);
    const rules = children.map((c, k) => goto(c, 'eq', String(k + 1)));
    if (i % 4 === 0) rules.push(end('Thank you for using the service', 'eq', '9'));
    menus.push(
      menu(id, {
        isFirst: i === 0,
        allowGoBack: i % 2 === 1,
        goBackInputIndicator: '0',
        displayText: `Menu ${i}\n1. First choice\n2. Second choice\n3. Third choice\n0. Back`,
        switchOperations: rules,
      }),
    );
  });
  return menus;
}

describe('layoutFlowGraph', () => {
  it.each<FlowDirection>(['TB', 'LR'])('places 50 menus without overlapping boxes (%s)', (direction) => {
    const menus = fiftyMenus();
    const graph = buildFlowGraph(menus, lint(menus));
    const placed = layoutFlowGraph(graph, direction);
    expect(placed.length).toBeGreaterThanOrEqual(50);
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) {
        const a = placed[i]!;
        const b = placed[j]!;
        const apart =
          a.position.x + a.data.width <= b.position.x ||
          b.position.x + b.data.width <= a.position.x ||
          a.position.y + a.data.height <= b.position.y ||
          b.position.y + b.data.height <= a.position.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
    for (const n of placed) expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true);
  });

  it('puts the first menu above the menus it leads to (TB)', () => {
    const menus = fiftyMenus();
    const placed = layoutFlowGraph(buildFlowGraph(menus, []), 'TB');
    const y = (id: string) => placed.find((n) => n.id === id)!.position.y;
    expect(y('m0')).toBeLessThan(y('m1'));
    expect(y('m1')).toBeLessThan(y('m4'));
  });
});

describe('edge descriptions (what a screen reader hears)', () => {
  it('name the option by its words and the menus by their identifiers, never their ids', () => {
    const menus = [
      menu('m-1', {
        userDefinedName: 'welcome',
        displayText: 'Welcome\n1. Balance\n2) Send money',
        switchOperations: [goto('m-2'), goto('m-3', 'eq', '2'), goto('m-2', 'valueIn', '3,4'), end('Goodbye'), goto('gone', 'always', '')],
      }),
      menu('m-2', { userDefinedName: 'balance', allowGoBack: true, goBackInputIndicator: '0' }),
      menu('m-3', { userDefinedName: '' }),
    ];
    expect(buildFlowGraph(menus, []).edges.map((e) => e.description)).toEqual([
      "Option 1 'Balance' from welcome to balance",
      "Option 2 'Send money' from welcome to m-3",
      'Rule in 3,4 from welcome to balance',
      'Rule = 9 from welcome ends the session: Goodbye',
      'Always from welcome to a missing menu',
      'Back (0) from balance to welcome',
    ]);
  });
});

describe('a box measures its screen as a USSD network carries it', () => {
  it('GSM-7 in septets (an extension character two), UCS-2 in characters once a Twi letter is in it', () => {
    const graph = buildFlowGraph(
      [menu('a', { displayText: 'Pay €5' }), menu('b', { displayText: 'Hwɛ wo sika' })],
      [],
      (m) => m.displayText,
    );
    const measures = Object.fromEntries(graph.nodes.map((n) => [n.id, n.data.screenMeasure]));
    expect(measures.a).toEqual({ encoding: 'GSM-7', length: 7 });
    expect(measures.b).toEqual({ encoding: 'UCS-2', length: 11 });
  });
});

describe('a rule through a sub-flow', () => {
  it('draws a collapsed box of the sub-flow between the menu and the menu it returns to, Back from there to the menu', () => {
    const menus = [
      menu('home', { isFirst: true, switchOperations: [{ ...goto('paid'), subflow: { id: 'sf1', inputs: { amount: '50' } } }] }),
      menu('paid', { allowGoBack: true, goBackInputIndicator: '0' }),
    ];
    const graph = buildFlowGraph(menus, [], undefined, new Map([['sf1', { name: 'PIN check', menus: 2 }]]));
    const box = graph.nodes.find((n) => n.id === subflowNodeId('home', 0));
    expect(box?.data).toMatchObject({
      kind: 'subflow',
      title: 'PIN check',
      lines: ['Sub-flow · 2 menus', 'in: amount'],
      subflowId: 'sf1',
      menuId: 'home',
    });
    expect(graph.edges.map((e) => [e.source, e.target, e.label, e.kind])).toEqual([
      ['home', subflowNodeId('home', 0), '= 1', 'rule'],
      [subflowNodeId('home', 0), 'paid', 'returns', 'rule'],
      ['paid', 'home', 'back 0', 'back'],
    ]);
  });

  it('names no box missing while the sub-flows are read', () => {
    const menus = [menu('home', { isFirst: true, switchOperations: [{ ...goto('home'), subflow: { id: 'sf1', inputs: {} } }] })];
    const graph = buildFlowGraph(menus, [], undefined, null);
    expect(graph.nodes.find((n) => n.data.kind === 'subflow')?.data).toMatchObject({ title: 'Sub-flow', badges: [], lines: ['…'] });
    expect(graph.edges[0]).toMatchObject({ kind: 'rule' });
  });

  it('marks a sub-flow the account does not have', () => {
    const menus = [menu('home', { isFirst: true, switchOperations: [{ ...goto('home'), subflow: { id: 'gone', inputs: {} } }] })];
    const box = buildFlowGraph(menus, []).nodes.find((n) => n.data.kind === 'subflow');
    expect(box?.data).toMatchObject({ title: 'Missing sub-flow', badges: ['Broken target'], lines: ['id gone'] });
    expect(buildFlowGraph(menus, []).edges[0]).toMatchObject({ kind: 'broken' });
  });
});
