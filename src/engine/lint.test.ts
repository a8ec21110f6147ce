import { describe, expect, it } from 'vitest';
import { countOperations } from '../../tests/support/count-operations';
import type { AppVersionInput, MenuInput } from '../shared/app';
import { compileApp } from './compile';
import { duplicateRuleMessage, formatLintIssue, lintApp, NO_EXIT_MESSAGE, unknownVariableMessage } from './lint';
import { listTemplateVariables } from './variables';
import { previewMenu } from './preview';
import { buildTestApp } from './test-app';

/** Menus named by userDefinedName (their ids id-<name>), with a plain text unless given one. */
function buildApp(menus: Array<Partial<MenuInput>>, extra: Partial<AppVersionInput> = {}) {
  return buildTestApp(
    menus.map((m) => ({ uniqueId: `id-${String(m.userDefinedName)}`, displayText: 'Text', ...m })),
    extra,
  );
}
const goto = (target: string, compareVal = '1') => ({ operator: 'eq', compareVal, action: 'goto', actionParam: `id-${target}` }) as const;

describe('lintApp', () => {
  it('renders the screens within the render time it is given, and warns for a screen past it', () => {
    const upper = '{{ app.name | upcase }}';
    const app = buildApp([
      { userDefinedName: 'home', isFirst: true, displayText: upper, switchOperations: [goto('end')] },
      { userDefinedName: 'end', terminate: true, displayText: upper },
    ]);
    // Each render takes 1,000 ms by this clock, and the lint may take 1,000 in all: the second screen is refused.
    // (Liquid also gets the budget left as its own wall-clock limit: 1,000 ms keeps a loaded machine's first
    // render, which compiles the filter, well inside it.)
    let time = 0;
    let left = 1000;
    // Every reading of the clock is 1,000 ms later.
    const now = () => {
      time += 1000;
      return time - 1000;
    };
    const renderTime = {
      now,
      getAvailableMs: () => left,
      spend: (ms: number) => {
        left -= ms;
      },
    };
    expect(lintApp(app, renderTime)).toEqual([
      {
        level: 'warning',
        menuId: 'id-end',
        menu: 'end',
        field: 'displayText',
        message: 'The screen fails to render with empty inputs: Template rendering exceeded its time budget',
      },
    ]);
  });

  it('flags a rule with the same condition as an earlier one, and a second Always rule', () => {
    const app = buildApp([
      {
        userDefinedName: 'home',
        isFirst: true,
        switchOperations: [
          goto('end', '1'),
          goto('end', '2'),
          goto('other', ' 1 '),
          { operator: 'always', action: 'goto', actionParam: 'id-end' },
          { operator: 'always', action: 'goto', actionParam: 'id-other' },
        ],
      },
      { userDefinedName: 'other', terminate: true },
      { userDefinedName: 'end', terminate: true },
    ]);
    const duplicates = lintApp(app).filter((i) => i.code === 'duplicate_rule');
    expect(duplicates).toEqual([
      {
        level: 'warning',
        menuId: 'id-home',
        menu: 'home',
        field: 'switchOperations.2',
        message: duplicateRuleMessage(3, 1),
        code: 'duplicate_rule',
      },
      {
        level: 'warning',
        menuId: 'id-home',
        menu: 'home',
        field: 'switchOperations.4',
        message: duplicateRuleMessage(5, 4),
        code: 'duplicate_rule',
      },
    ]);
    expect(duplicates[0]!.message).toBe('Rule 3 has the same condition as rule 1 and never runs.');
  });

  it('flags the menus of a loop with no way to an end, and not a loop with one', () => {
    const loop = buildApp([
      { userDefinedName: 'home', isFirst: true, switchOperations: [goto('a', '1'), goto('done', '2')] },
      { userDefinedName: 'a', switchOperations: [goto('b')] },
      { userDefinedName: 'b', switchOperations: [goto('a')] },
      { userDefinedName: 'done', terminate: true },
    ]);
    const stuck = lintApp(loop).filter((i) => i.code === 'no_exit');
    expect(stuck.map((i) => i.menu)).toEqual(['a', 'b']);
    expect(stuck[0]!.message).toBe(NO_EXIT_MESSAGE);
    // home is on no loop and can end; a self-loop with nothing else is a loop too.
    const withExit = buildApp([
      { userDefinedName: 'home', isFirst: true, switchOperations: [goto('a', '1')] },
      {
        userDefinedName: 'a',
        switchOperations: [goto('b', '1'), { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: 'Bye' }],
      },
      { userDefinedName: 'b', switchOperations: [goto('a'), goto('b', '2')] },
    ]);
    expect(lintApp(withExit).filter((i) => i.code === 'no_exit')).toEqual([]);
    const selfLoop = buildApp([{ userDefinedName: 'home', isFirst: true, switchOperations: [goto('home')] }]);
    expect(
      lintApp(selfLoop)
        .filter((i) => i.code === 'no_exit')
        .map((i) => i.menu),
    ).toEqual(['home']);
    // A script may end the session: its menu counts as a way out.
    const scripted = buildApp([
      {
        userDefinedName: 'home',
        isFirst: true,
        switchOperations: [goto('home')],
        actions: [{ actionName: 'x', actionType: 'post', inheritsPlugin: 'javascript', code: '' }],
      },
    ]);
    expect(lintApp(scripted).filter((i) => i.code === 'no_exit')).toEqual([]);
  });

  it('passes a sound app', () => {
    const app = buildApp([
      { userDefinedName: 'home', isFirst: true, switchOperations: [goto('end')] },
      { userDefinedName: 'end', terminate: true },
    ]);
    expect(lintApp(app)).toEqual([]);
  });

  it('reports no menus and no first menu as errors', () => {
    expect(lintApp(buildApp([]))).toEqual([{ level: 'error', menuId: null, menu: null, message: 'The app has no menus.' }]);
    expect(lintApp(buildApp([{ userDefinedName: 'home', terminate: true }]))).toContainEqual({
      level: 'error',
      menuId: null,
      menu: null,
      message: 'No menu is marked as the first menu.',
    });
  });

  it('reports a goto to a missing menu, invalid javascript and invalid templates, naming the menu', () => {
    const issues = lintApp(
      buildApp([
        {
          userDefinedName: 'home',
          isFirst: true,
          displayText: 'Hi {{ session.mobile | nosuchfilter }}',
          switchOperations: [goto('ghost'), goto('end', '2')],
          actions: [{ actionName: 'calc', inheritsPlugin: 'javascript', code: 'return (' }],
        },
        { userDefinedName: 'end', terminate: true, footerText: '{% if %}' },
      ]),
    );
    const errors = issues.filter((i) => i.level === 'error');
    expect(errors.map((i) => [i.menuId, i.menu, i.field])).toEqual([
      ['id-home', 'home', 'switchOperations.0.actionParam'],
      ['id-home', 'home', 'actions.0.code'],
      ['id-home', 'home', 'actions.0'],
      ['id-home', 'home', 'displayText'],
      ['id-end', 'end', 'footerText'],
    ]);
    expect(formatLintIssue(errors[0])).toBe('Menu "home": The target menu does not exist in this app.');
    // Tools mark it by its stable code (the flow map, the designer's cards), not by its wording.
    expect(errors[0]).toMatchObject({ code: 'missing_target' });
    expect(errors.slice(1).every((i) => i.code === undefined)).toBe(true);
  });

  it('warns about unreachable menus, overlong screens and dead ends', () => {
    const issues = lintApp(
      buildApp(
        [
          { userDefinedName: 'home', isFirst: true, displayText: 'x'.repeat(200), switchOperations: [goto('bye')] },
          { userDefinedName: 'bye', terminate: true, displayText: 'y'.repeat(100) },
          { userDefinedName: 'lost', displayText: 'Lost' },
          { userDefinedName: 'steered', terminate: true, actions: [] },
          {
            userDefinedName: 'router',
            actions: [{ actionName: 'go', inheritsPlugin: 'javascript', code: 'return { goto: "steered" }' }],
            switchOperations: [goto('home')],
          },
        ],
        { screenLimit: 80 },
      ),
    );
    expect(issues.filter((i) => i.level === 'error')).toEqual([]);
    expect(issues.map((i) => [i.menu, i.message.slice(0, 40)])).toEqual([
      ['home', 'The screen is 200 characters, over the 8'],
      ['bye', 'The closing screen is 100 characters, ov'],
      ['lost', 'No navigation rule and no end: every inp'],
      ['lost', 'No rule, Back or script leads to this me'],
      ['router', 'No rule, Back or script leads to this me'],
    ]);
  });

  it('holds screens to the strictest connected gateway, and names it: Nalo carries 120 of a 160 app', () => {
    const home = { userDefinedName: 'home', isFirst: true, terminate: true, displayText: 'x'.repeat(130) };
    expect(lintApp(buildApp([home])).filter((i) => i.code === 'over_length')).toEqual([]);
    const connected = lintApp(
      buildApp([home], {
        screenLimit: 160,
        gatewayConnections: [
          { gateway: 'africastalking', screenLimit: null, budgetMs: null },
          { gateway: 'nalo', screenLimit: null, budgetMs: null },
        ],
      }),
    );
    expect(connected.filter((i) => i.code === 'over_length').map((i) => i.message)).toEqual([
      'The closing screen is 130 characters, over the 120-character limit (Nalo carries 120 characters); it will be cut.',
    ]);
    // The app's own limit, when it is the strictest, is named by no gateway.
    const own = lintApp(
      buildApp([home], { screenLimit: 100, gatewayConnections: [{ gateway: 'nalo', screenLimit: null, budgetMs: null }] }),
    );
    expect(own.find((i) => i.code === 'over_length')?.message).toBe(
      'The closing screen is 130 characters, over the 100-character limit; it will be cut.',
    );
  });

  it('warns when the template-tag flag and the shortcode disagree', () => {
    const menus = [{ userDefinedName: 'home', isFirst: true, terminate: true }];
    expect(lintApp(buildApp(menus, { useTemplateTag: true })).map((i) => i.message)).toEqual([
      'The app is template formatted but its shortcode has no {tags}.',
    ]);
    expect(lintApp(buildApp(menus, { shortCode: '*920*{code}#' })).map((i) => i.level)).toEqual(['warning']);
  });
});

describe('lintApp on a large app', () => {
  /**
   * Menus that each go to the next and back to the first, with no end (every menu is on a loop without exit),
   * each with a script naming a menu: what makes the identifier, reachability and loop checks scan all menus.
   */
  const buildLargeApp = (count: number) =>
    buildTestApp(
      Array.from({ length: count }, (_, i) => ({
        uniqueId: `m${i}`,
        userDefinedName: `menu${i}`,
        displayText: `Menu ${i}`,
        isFirst: i === 0,
        switchOperations: [
          { operator: 'eq' as const, compareVal: '1', action: 'goto' as const, actionParam: `m${(i + 1) % count}` },
          { operator: 'eq' as const, compareVal: '0', action: 'goto' as const, actionParam: 'm0' },
        ],
        inputValidations: [
          { validationMethod: 'javascript' as const, validationFunction: `return input !== "menu${i}";`, errorMessage: 'No' },
        ],
      })),
    );

  it('does work linear in the number of menus (twice the menus, about twice the lookups)', async () => {
    const small = buildLargeApp(300);
    const large = buildLargeApp(600);
    const issues: ReturnType<typeof lintApp>[] = [];
    const smallCount = await countOperations(() => issues.push(lintApp(small)));
    const largeCount = await countOperations(() => issues.push(lintApp(large)));
    // Each menu is on a loop with no way to an end, and nothing else is wrong.
    expect(issues[1]!.filter((i) => i.code !== 'no_exit')).toEqual([]);
    expect(issues[1]!.filter((i) => i.code === 'no_exit')).toHaveLength(600);
    // Quadratic work (each menu checked against a list of all the others) would be about 4 times as much.
    expect(largeCount / smallCount).toBeLessThan(2.5);
  });
});

describe('lintApp: template variables', () => {
  const always = (target: string) => ({ operator: 'always', action: 'goto', actionParam: `id-${target}` }) as const;
  const unknownVariables = (app: ReturnType<typeof buildApp>) => lintApp(app).filter((i) => i.code === 'unknown_variable');

  it("warns for the README's first app when the first menu's identifier is not the name the closing text reads", () => {
    const app = buildApp([
      { userDefinedName: 'welcome', isFirst: true, displayText: 'Welcome! What is your name?', switchOperations: [always('bye')] },
      { userDefinedName: 'bye', terminate: true, displayText: 'Thank you, {{ session.inputs.name }}! {{ session.inputs.name }}' },
    ]);
    expect(unknownVariables(app)).toEqual([
      {
        level: 'warning',
        menuId: 'id-bye',
        menu: 'bye',
        field: 'displayText',
        message: unknownVariableMessage('session.inputs.name', 'displayText', 'no menu has the identifier "name"'),
        code: 'unknown_variable',
      },
    ]);
    expect(formatLintIssue(unknownVariables(app)[0]!)).toBe(
      'Menu "bye": {{ session.inputs.name }} in displayText names nothing: no menu has the identifier "name". It shows as empty text.',
    );
    // Named as the README says, nothing is flagged (the option label too).
    const named = buildApp([
      { userDefinedName: 'name', isFirst: true, displayText: 'Welcome! What is your name?', switchOperations: [always('bye')] },
      { userDefinedName: 'bye', terminate: true, displayText: 'Thank you, {{ session.inputs.name }} ({{ session.inputs.nameLabel }})!' },
    ]);
    expect(unknownVariables(named)).toEqual([]);
  });

  it('flags every root, field and action it can decide, in every templated field, and says where', () => {
    const app = buildApp(
      [
        {
          userDefinedName: 'home',
          isFirst: true,
          headerText: '{{ session.phone }}',
          displayText: '{{ actions.lookup.name }} {{ actions.missing.name }} {{ inRequest.text }} {{ app.title }} {{ user.name }}',
          footerText: '{% if session.vars.amount %}{{ session.vars.code }}{% endif %}',
          switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Bye {{ session.inputs.nme }}' }],
          actions: [
            {
              actionName: 'lookup',
              actionType: 'pre',
              inheritsPlugin: 'sendsms',
              code: { smsSender: 'Shop', mobile: '{{ session.mobile }}', smsMessage: 'Hi {{ session.inputs.who }}' },
            },
            {
              actionName: 'query',
              actionType: 'post',
              inheritsPlugin: 'dbaccess',
              code: { dburl: 'db.example.com:5432', dialect: 'postgres', query: 'select 1 where a = {{ session.inputs.gone }}' },
            },
          ],
        },
      ],
      { shortCode: '*920*{amount}#', useTemplateTag: true },
    );
    expect(unknownVariables(app).map((i) => [i.field, i.message])).toEqual([
      [
        'headerText',
        unknownVariableMessage(
          'session.phone',
          'headerText',
          'a session has no "phone"; it has "mobile", "network", "serviceCode", "sessionId", "language", "inputs", "media", "vars"',
        ),
      ],
      ['displayText', unknownVariableMessage('actions.missing.name', 'displayText', 'no action is named "missing"')],
      ['displayText', unknownVariableMessage('inRequest.text', 'displayText', 'inRequest has only "input"')],
      ['displayText', unknownVariableMessage('app.title', 'displayText', 'app has only "name", "shortCode"')],
      [
        'displayText',
        unknownVariableMessage('user.name', 'displayText', 'templates read "session", "actions", "inRequest", "app", "contact"'),
      ],
      [
        'footerText',
        unknownVariableMessage(
          'session.vars.code',
          'footerText',
          'the shortcode has no {code} tag and no script in the app sets variables',
        ),
      ],
      [
        'switchOperations.0.actionParam',
        unknownVariableMessage('session.inputs.nme', 'switchOperations.0.actionParam', 'no menu has the identifier "nme"'),
      ],
      ['actions.0.code', unknownVariableMessage('session.inputs.who', 'actions.0.code', 'no menu has the identifier "who"')],
      ['actions.1.code', unknownVariableMessage('session.inputs.gone', 'actions.1.code', 'no menu has the identifier "gone"')],
    ]);
    // Warnings: the version can still be deployed.
    expect(lintApp(app).filter((i) => i.level === 'error')).toEqual([]);
  });

  it('takes what it cannot know as it comes: locals, computed keys, action results, variables a script sets', () => {
    const app = buildApp([
      {
        userDefinedName: 'home',
        isFirst: true,
        displayText: [
          '{% assign first = actions.script.items | first %}{{ first.label }}',
          '{% for item in actions.script.items %}{{ forloop.index }}. {{ item.name }}{% endfor %}',
          '{% capture greeting %}Hi{% endcapture %}{{ greeting }}',
          '{{ session.inputs[session.vars.which] }} {{ session.vars.tier }} {{ session.inputs.home | default: "none" }}',
          '{{ session.mobile }} {{ session.network }} {{ session.serviceCode }} {{ session.sessionId }} {{ session.language }}',
          '{{ inRequest.input }} {{ app.name }} {{ app.shortCode }} {{ session.inputs.homeLabel }}',
        ].join('\n'),
        switchOperations: [always('home')],
        actions: [{ actionName: 'script', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return { vars: { tier: "gold" } };' }],
      },
    ]);
    expect(unknownVariables(app)).toEqual([]);
    // Translations are checked as the default texts are.
    const translated = buildApp(
      [
        {
          userDefinedName: 'home',
          isFirst: true,
          terminate: true,
          displayText: 'Hi {{ session.inputs.home }}',
          translations: { fr: { displayText: 'Salut {{ session.inputs.nom }}' } },
        },
      ],
      { languages: { defaultLanguage: 'en', otherLanguages: ['fr'] } },
    );
    expect(unknownVariables(translated).map((i) => i.field)).toEqual(['translations.fr.displayText']);
  });

  it('lists the variables that exist for the designer', () => {
    const app = buildApp(
      [
        {
          userDefinedName: 'name',
          isFirst: true,
          actions: [{ actionName: 'pay', actionType: 'post', inheritsPlugin: 'paymentprompt', code: {} }],
        },
        { userDefinedName: '  ', terminate: true },
      ],
      { shortCode: '*920*{code}#' },
    );
    const paths = listTemplateVariables(app).map((v) => v.path);
    expect(paths.slice(0, 4)).toEqual(['session.inputs.name', 'session.inputs.nameLabel', 'actions.pay', 'session.vars.code']);
    expect(paths).toContain('session.mobile');
    expect(paths).toContain('inRequest.input');
  });
});

describe('previewMenu', () => {
  it('renders and pages a menu over sample values', () => {
    const compiled = compileApp(
      buildApp([{ userDefinedName: 'home', displayText: 'Hi {{ session.inputs.name }}\n{{ actions.q.text }}' }], { screenLimit: 60 }),
    );
    expect(previewMenu(compiled, 'id-home', { inputs: { name: 'Ama' }, actions: { q: { text: 'x'.repeat(70) } } })).toEqual({
      ok: true,
      pages: ['Hi Ama\n98. More', `${'x'.repeat(70).slice(0, 51)}\n98. More`, 'x'.repeat(19)],
    });
    expect(previewMenu(compiled, 'nope')).toEqual({ ok: false, error: 'No such menu' });
  });
});

describe('lintApp on sub-flows', () => {
  const pin = (menus: Array<Partial<MenuInput>>, extra: Record<string, unknown> = {}) => ({
    id: 'sf1',
    name: 'PIN check',
    version: 0,
    inputs: [{ name: 'amount' }],
    outputs: [{ name: 'pinOk', value: 'yes' }],
    menus: menus.map((m) => ({ appId: 'sf1', uniqueId: `id-${String(m.userDefinedName)}`, displayText: 'Text', ...m })),
    ...extra,
  });
  const enter = (target: string, inputs: Record<string, string> = { amount: '5' }) =>
    ({ ...goto(target), subflow: { id: 'sf1', inputs } }) as const;
  const returns = { operator: 'eq', compareVal: '1', action: 'Return', actionParam: '' } as const;

  it('checks the sub-flow as the app runs it, naming its menus by the sub-flow', () => {
    const long = 'x'.repeat(200);
    const app = buildApp(
      [
        { userDefinedName: 'home', isFirst: true, switchOperations: [enter('end')] },
        { userDefinedName: 'end', terminate: true },
      ],
      {
        subflows: [
          pin([{ userDefinedName: 'ask', isFirst: true, displayText: long, switchOperations: [returns] }, { userDefinedName: 'lost' }]),
        ],
      },
    );
    const issues = lintApp(app);
    expect(issues.filter((i) => i.level === 'error')).toEqual([]);
    const named = issues.filter((i) => i.menu?.startsWith('PIN check › '));
    expect(named.map((i) => [i.menu, i.code])).toEqual(
      expect.arrayContaining([
        ['PIN check › ask', 'over_length'],
        ['PIN check › lost', 'unreachable'],
      ]),
    );
    expect(named.every((i) => i.menuId?.startsWith('sf1/'))).toBe(true);
  });

  it('refuses Return in an app, a sub-flow it does not carry, and a sub-flow entered from a sub-flow', () => {
    const app = buildApp(
      [
        {
          userDefinedName: 'home',
          isFirst: true,
          switchOperations: [returns, { ...goto('end', '2'), subflow: { id: 'gone', inputs: {} } }, enter('end')],
        },
        { userDefinedName: 'end', terminate: true },
      ],
      { subflows: [pin([{ userDefinedName: 'ask', isFirst: true, switchOperations: [{ ...enter('ask'), compareVal: '3' }, returns] }])] },
    );
    const errors = lintApp(app)
      .filter((i) => i.level === 'error')
      .map((i) => `${i.menu}: ${i.message}`);
    expect(errors).toEqual([
      "home: Return leaves a sub-flow: only a sub-flow's menus have it.",
      'home: This sub-flow does not exist in your account.',
      'PIN check › ask: A sub-flow cannot enter another sub-flow (or itself): enter them one after the other from the app.',
    ]);
  });

  it('warns for inputs passed and not taken, taken and not passed, a sub-flow that never returns, and shared identifiers', () => {
    const app = buildApp(
      [
        { userDefinedName: 'home', isFirst: true, switchOperations: [enter('end', { amount: '5', extra: 'x' }), enter('end', {})] },
        { userDefinedName: 'end', terminate: true },
      ],
      { subflows: [pin([{ userDefinedName: 'home', isFirst: true, switchOperations: [goto('home')] }])] },
    );
    const warnings = lintApp(app)
      .filter((i) => i.level === 'warning')
      .map((i) => i.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        'Rule 1 passes "extra", which the sub-flow PIN check does not take.',
        'Rule 2 gives the sub-flow PIN check no "amount": session.vars.amount keeps what it had.',
        'The sub-flow PIN check never returns: a session that enters it ends inside it.',
        'The app has a menu "home" too: both keep session.inputs.home, the later overwriting the earlier.',
        NO_EXIT_MESSAGE,
      ]),
    );
  });

  it("checks only the rules into a sub-flow when its menus are not at hand (the console's designer of an app)", () => {
    const app = buildApp(
      [
        { userDefinedName: 'home', isFirst: true, switchOperations: [enter('end', {})] },
        { userDefinedName: 'end', terminate: true },
      ],
      {
        subflows: [pin([])],
      },
    );
    expect(lintApp(app, undefined, { hasSubflowMenus: false }).map((i) => i.message)).toEqual([
      'Rule 1 gives the sub-flow PIN check no "amount": session.vars.amount keeps what it had.',
    ]);
    expect(lintApp(app).map((i) => i.message)).toContain('The sub-flow PIN check has no menus.');
  });

  it("knows a sub-flow's inputs and outputs as session variables, in the app and in the sub-flow's own draft", () => {
    const app = buildApp(
      [
        { userDefinedName: 'home', isFirst: true, switchOperations: [enter('end')] },
        { userDefinedName: 'end', terminate: true, displayText: '{{ session.vars.pinOk }} {{ session.vars.nope }}' },
      ],
      {
        subflows: [pin([{ userDefinedName: 'ask', isFirst: true, displayText: '{{ session.vars.amount }}', switchOperations: [returns] }])],
      },
    );
    const unknown = lintApp(app).filter((i) => i.code === 'unknown_variable');
    expect(unknown.map((i) => i.message)).toEqual([
      unknownVariableMessage('session.vars.nope', 'displayText', 'the shortcode has no {nope} tag and no script in the app sets variables'),
    ]);
    const own = buildApp(
      [{ userDefinedName: 'ask', isFirst: true, displayText: '{{ session.vars.amount }}', switchOperations: [returns] }],
      {
        subflowInterface: { inputs: [{ name: 'amount' }], outputs: [] },
      },
    );
    expect(lintApp(own)).toEqual([]);
  });
});
