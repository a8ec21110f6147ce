/**
 * Pre-deploy checks. Errors (no menus, no first menu, a goto to a missing menu, invalid javascript, a
 * template that does not parse, any rule validateMenu refuses) block a deploy; warnings (unreachable
 * menus, screens over the length limit, dead ends) are shown to the builder.
 */
import {
  ALWAYS_OPERATOR,
  DEFAULT_ENGINE_LABELS,
  describeLanguage,
  getInputKind,
  hasMedia,
  listAppLanguages,
  MEDIA_VARIABLE_PATTERN,
  toMediaVariablePath,
  TRANSLATED_FIELDS,
  createMenuRefIndex,
  MENU_MESSAGES,
  validateMenu,
  type AppVersion,
} from '../shared/app';
import {
  compileApp,
  findActionTemplates,
  findMediaTemplates,
  getActionTemplate,
  type CompiledApp,
  type CompiledMenu,
  type CompiledSubflow,
} from './compile';
import { measureFor, paginateScreen, toMoreLine } from './pagination';
import { describeNonGsm, type ScreenMeasure } from '../shared/ussd-encoding';
import { designScreenLimit, GATEWAY_PROFILES } from '../shared/gateway-profiles';
import { buildScope, compileTemplate, findTemplateVariables, joinScreenParts, renderTemplate, type CompiledTemplate } from './render';
import { explainUnknownVariable, findKnownVariables, formatVariablePath, type KnownVariables } from './variables';
import type { LintIssue, RenderTimeAccount, SessionState } from './types';
import { toErrorMessage } from '../shared/errors';

/** The unreachable-menu warning; `code: 'unreachable'` marks it for tools such as the flow map. */
export const UNREACHABLE_MESSAGE = 'No rule, Back or script leads to this menu.';
/** A loop of menus none of which leads to an end (`code: 'no_exit'`): allowed, but callers can only hang up. */
export const NO_EXIT_MESSAGE = 'This menu is in a loop with no way to an end: callers can only hang up.';
/** `Rule 3 has the same condition as rule 1 and never runs.` (`code: 'duplicate_rule'`). */
/**
 * `{{ session.inputs.name }} in displayText names nothing: no menu has the identifier "name". It shows as empty text.`
 * (`code: 'unknown_variable'`).
 */
export const unknownVariableMessage = (variable: string, field: string, reason: string) =>
  `{{ ${variable} }} in ${field} names nothing: ${reason}. It shows as empty text.`;
export const duplicateRuleMessage = (rule: number, earlier: number) =>
  `Rule ${rule} has the same condition as rule ${earlier} and never runs.`;

function issueAt(level: LintIssue['level'], menu: CompiledMenu | null, message: string, field?: string): LintIssue {
  return { level, menuId: menu?.uniqueId ?? null, menu: menu?.identifier ?? null, ...(field ? { field } : {}), message };
}

/** `Menu "checkBalance": Template error in displayText: ...` for a deploy refusal message. */
export function formatLintIssue(issue: LintIssue): string {
  return issue.menu !== null || issue.menuId !== null ? `Menu "${issue.menu || issue.menuId}": ${issue.message}` : issue.message;
}

/**
 * `renderTime`, when given, is what all the screens rendered here may take together (the server's deploy
 * gives one, so a deploy of many heavy menus holds its thread no longer than a few hops); a screen past it
 * gets a warning instead of its length check. Without it each render has a hop's budget.
 * @example lintApp(version).filter((i) => i.level === 'error') // empty: the version can be deployed
 */
export interface LintOptions {
  /**
   * Whether the sub-flows the version carries hold their menus (a deploy's, a run's): the console's designer of an
   * app knows the account's sub-flows by their inputs and outputs only, and checks the rules that enter them.
   */
  hasSubflowMenus?: boolean;
}

export function lintApp(app: AppVersion, renderTime?: RenderTimeAccount, { hasSubflowMenus = true }: LintOptions = {}): LintIssue[] {
  const issues: LintIssue[] = [];
  if (app.menus.length === 0) return [issueAt('error', null, 'The app has no menus.')];
  const compiled = compileApp(app);

  const isSubflow = app.subflowInterface !== undefined;
  const firsts = compiled.order.filter((m) => m.menu.isFirst);
  if (firsts.length === 0) issues.push(issueAt('error', null, 'No menu is marked as the first menu.'));
  if (firsts.length > 1) {
    for (const m of firsts.slice(1))
      issues.push(issueAt('warning', m, `Also marked first; the session starts at ${firsts[0].identifier}.`, 'isFirst'));
  }
  const seenIds = new Set<string>();
  for (const m of compiled.order) {
    if (seenIds.has(m.uniqueId)) issues.push(issueAt('error', m, 'Two menus share this uniqueId.'));
    seenIds.add(m.uniqueId);
  }

  // One index for all the menus: checking each against a list of the others would be quadratic in the app's size.
  // The sub-flows' menus are known too: a sub-flow reads the app's inputs, and the app the sub-flow's.
  const known = findKnownVariables({ ...app, menus: [...app.menus, ...(app.subflows ?? []).flatMap((sf) => sf.menus)] });
  issues.push(...lintMenus(compiled, compiled.order, known, isSubflow, renderTime));
  for (const m of findUnreachableMenus(compiled, compiled.order, compiled.first))
    issues.push({ ...issueAt('warning', m, UNREACHABLE_MESSAGE), code: 'unreachable' });
  for (const m of findLoopsWithoutExit(compiled, compiled.order, isSubflow))
    issues.push({ ...issueAt('warning', m, NO_EXIT_MESSAGE), code: 'no_exit' });
  if (hasSubflowMenus) for (const subflow of compiled.subflows.values()) issues.push(...lintSubflow(compiled, subflow, known, renderTime));

  const hasTags = compiled.dial.hasTags;
  if (app.useTemplateTag && !hasTags)
    issues.push(issueAt('warning', null, 'The app is template formatted but its shortcode has no {tags}.'));
  if (!app.useTemplateTag && hasTags)
    issues.push(issueAt('warning', null, 'The shortcode has {tags} but the app is not marked template formatted.'));
  return issues;
}

/** Each menu's own checks, against the menus of its app or sub-flow (`order`). */
function lintMenus(
  compiled: CompiledApp,
  order: CompiledMenu[],
  known: KnownVariables,
  isSubflow: boolean,
  renderTime: RenderTimeAccount | undefined,
): LintIssue[] {
  const issues: LintIssue[] = [];
  // One index for all the menus: checking each against a list of the others would be quadratic in the app's size.
  const refs = createMenuRefIndex(order.map((m) => m.menu));
  for (const m of order) {
    for (const error of validateMenu(m.menu, refs))
      issues.push({ ...issueAt('error', m, error.message, error.field), ...(error.code ? { code: error.code } : {}) });
    issues.push(...lintTemplates(compiled, m, known));
    issues.push(...lintMedia(compiled, m, known));
    issues.push(...lintScreens(compiled, m, renderTime));
    issues.push(...lintTranslations(compiled, m));
    issues.push(...lintDuplicateRules(m));
    issues.push(...lintSubflowRules(compiled, m, isSubflow));
    const hasScriptAfter = m.postActions.some((a) => a.inheritsPlugin === 'javascript' || a.inheritsPlugin === 'customAction');
    if (!m.menu.terminate && !m.alwaysRule && m.rules.length === 0 && !hasScriptAfter) {
      issues.push(issueAt('warning', m, 'No navigation rule and no end: every input gets "Invalid choice".', 'switchOperations'));
    }
  }
  return issues;
}

/**
 * A menu's rules that enter or leave a sub-flow (docs/sub-flows.md): Return only in a sub-flow, no sub-flow entered
 * from inside one, the sub-flow entered present in the version, and the inputs passed the ones it declares.
 */
function lintSubflowRules(compiled: CompiledApp, m: CompiledMenu, isSubflow: boolean): LintIssue[] {
  const issues: LintIssue[] = [];
  m.menu.switchOperations.forEach((rule, i) => {
    const at = `switchOperations.${i}`;
    if (rule.action === 'Return' && !isSubflow) issues.push(issueAt('error', m, MENU_MESSAGES.returnOutsideSubflow, `${at}.action`));
    if (rule.subflow === undefined) return;
    if (isSubflow) {
      issues.push(issueAt('error', m, MENU_MESSAGES.subflowInSubflow, `${at}.subflow`));
      return;
    }
    const subflow = compiled.subflows.get(rule.subflow.id);
    if (!subflow) {
      // A broken target as a deleted menu is: the designer marks it on the rule and its card before any deploy.
      issues.push({ ...issueAt('error', m, MENU_MESSAGES.subflowNotFound, `${at}.subflow.id`), code: 'missing_target' });
      return;
    }
    for (const name of Object.keys(rule.subflow.inputs))
      if (!subflow.inputs.includes(name))
        issues.push(
          issueAt(
            'warning',
            m,
            `Rule ${i + 1} passes "${name}", which the sub-flow ${subflow.name} does not take.`,
            `${at}.subflow.inputs`,
          ),
        );
    for (const name of subflow.inputs)
      if (!Object.hasOwn(rule.subflow.inputs, name))
        issues.push(
          issueAt(
            'warning',
            m,
            `Rule ${i + 1} gives the sub-flow ${subflow.name} no "${name}": session.vars.${name} keeps what it had.`,
            `${at}.subflow.inputs`,
          ),
        );
  });
  return issues;
}

/**
 * A sub-flow the app enters, checked as the app runs it: its menus with the app's screen limit and languages, its
 * outputs' templates, menus it never reaches, loops with no way out (a Return is one), and a sub-flow that never
 * returns. Its issues name the menu as `<sub-flow> › <menu>`.
 */
function lintSubflow(compiled: CompiledApp, subflow: CompiledSubflow, known: KnownVariables, renderTime?: RenderTimeAccount): LintIssue[] {
  if (!subflow.entry) return [issueAt('error', null, `The sub-flow ${subflow.name} has no menus.`)];
  const issues = lintMenus(compiled, subflow.order, known, true, renderTime);
  for (const m of findUnreachableMenus(compiled, subflow.order, subflow.entry))
    issues.push({ ...issueAt('warning', m, UNREACHABLE_MESSAGE), code: 'unreachable' });
  for (const m of findLoopsWithoutExit(compiled, subflow.order, true))
    issues.push({ ...issueAt('warning', m, NO_EXIT_MESSAGE), code: 'no_exit' });
  for (const output of subflow.outputs)
    if (!output.value.ok)
      issues.push(issueAt('error', null, `The sub-flow ${subflow.name}'s output ${output.name}: template error: ${output.value.error}`));
  if (!subflow.order.some((m) => m.menu.switchOperations.some((r) => r.action === 'Return')))
    issues.push(issueAt('warning', null, `The sub-flow ${subflow.name} never returns: a session that enters it ends inside it.`));
  const appIdentifiers = new Set(compiled.order.map((m) => m.identifier.toLowerCase()));
  for (const m of subflow.order)
    if (m.identifier !== '' && appIdentifiers.has(m.identifier.toLowerCase()))
      issues.push(
        issueAt(
          'warning',
          m,
          `The app has a menu "${m.identifier}" too: both keep session.inputs.${m.identifier}, the later overwriting the earlier.`,
          'userDefinedName',
        ),
      );
  return issues.map((issue) => (issue.menu !== null ? { ...issue, menu: `${subflow.name} › ${issue.menu}` } : issue));
}

/** Templates that do not parse (errors), and variables in them that name nothing (warnings, one per variable and field). */
function lintTemplates(compiled: CompiledApp, m: CompiledMenu, known: KnownVariables): LintIssue[] {
  const issues: LintIssue[] = [];
  const flagged = new Set<string>();
  const checkVariables = (template: CompiledTemplate, field: string) => {
    for (const path of findTemplateVariables(template)) {
      const reason = explainUnknownVariable(known, path);
      if (reason === null) continue;
      const variable = formatVariablePath(path);
      if (flagged.has(`${field}\u0000${variable}`)) continue;
      flagged.add(`${field}\u0000${variable}`);
      issues.push({ ...issueAt('warning', m, unknownVariableMessage(variable, field, reason), field), code: 'unknown_variable' });
    }
  };
  const check = (template: CompiledTemplate | null, field: string) => {
    if (template && !template.ok) issues.push(issueAt('error', m, `Template error in ${field}: ${template.error}`, field));
    else if (template) checkVariables(template, field);
  };
  check(m.header, 'headerText');
  check(m.text, 'displayText');
  check(m.footer, 'footerText');
  for (const rule of [m.alwaysRule, ...m.rules]) if (rule) check(rule.closing, `switchOperations.${rule.index}.actionParam`);
  for (const [field, source] of findMediaTemplates(m.menu)) check(getActionTemplate(compiled, source), field);
  for (const [language, t] of m.translations) {
    check(t.header, `translations.${language}.headerText`);
    check(t.text, `translations.${language}.displayText`);
    check(t.footer, `translations.${language}.footerText`);
    for (const [i, closing] of t.closing.entries()) check(closing, `translations.${language}.closingTexts.${i}`);
  }
  m.menu.actions.forEach((action, i) => {
    for (const source of findActionTemplates(action)) check(getActionTemplate(compiled, source), `actions.${i}.code`);
    // A query's expressions are rendered one by one into bind parameters: the same names, though the SQL is no template.
    if (action.inheritsPlugin === 'dbaccess') checkVariables(compileTemplate(action.code.query), `actions.${i}.code`);
  });
  return issues;
}

/**
 * A bot's media where it cannot be shown (docs/bots.md, "Media"): a menu asking for a file or a location, or sending
 * attachments, a link button or a location request, in an app that runs on USSD (built as a bot, or copied or
 * imported from one). Such a menu takes typed text there and shows its text alone.
 */
export const MEDIA_ON_USSD_MESSAGE =
  'This menu asks for or sends media (a file, a location, a link button), which USSD cannot show: on USSD it takes typed text and shows its text alone.';

/** Media on USSD (a warning, `code: 'media_on_ussd'`), and a file attachment's variable that names nothing. */
function lintMedia(compiled: CompiledApp, m: CompiledMenu, known: KnownVariables): LintIssue[] {
  const issues: LintIssue[] = [];
  if (compiled.app.channel !== 'whatsapp' && hasMedia(m.menu)) {
    const field = getInputKind(m.menu) !== 'text' ? 'inputKind' : m.menu.attachments?.length ? 'attachments' : undefined;
    issues.push({ ...issueAt('warning', m, MEDIA_ON_USSD_MESSAGE, field), code: 'media_on_ussd' });
  }
  (m.menu.attachments ?? []).forEach((a, i) => {
    if (a.type !== 'file' || a.source !== 'variable' || !MEDIA_VARIABLE_PATTERN.test(a.value)) return;
    const path = toMediaVariablePath(a.value);
    const reason = explainUnknownVariable(known, path);
    if (reason !== null)
      issues.push({
        ...issueAt(
          'warning',
          m,
          `${formatVariablePath(path)} in attachments.${i}.value names nothing: ${reason}. The file is not sent.`,
          `attachments.${i}.value`,
        ),
        code: 'unknown_variable',
      });
  });
  return issues;
}

/** Rules after an earlier one with the same operator and value: the earlier always matches first. */
function lintDuplicateRules(m: CompiledMenu): LintIssue[] {
  const issues: LintIssue[] = [];
  const seen = new Map<string, number>();
  m.menu.switchOperations.forEach((rule, i) => {
    const key =
      rule.operator === ALWAYS_OPERATOR ? ALWAYS_OPERATOR : `${rule.subject ?? ''}\u0000${rule.operator}\u0000${rule.compareVal.trim()}`;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, i);
    else
      issues.push({ ...issueAt('warning', m, duplicateRuleMessage(i + 1, earlier + 1), `switchOperations.${i}`), code: 'duplicate_rule' });
  });
  return issues;
}

/**
 * Renders the screen with empty inputs, in the default language and in each other language of the app (a field
 * without translation falls back as in a session): its length is a floor on what users will see.
 */
function lintScreens(compiled: CompiledApp, m: CompiledMenu, renderTime: RenderTimeAccount | undefined): LintIssue[] {
  const issues: LintIssue[] = [];
  const languages = ['', ...(compiled.app.languages?.otherLanguages ?? [])];
  for (const language of languages) {
    const t = language ? m.translations.get(language) : undefined;
    const issue = lintScreen(compiled, m, language, [t?.header ?? m.header, t?.text ?? m.text, t?.footer ?? m.footer], renderTime);
    if (issue) issues.push(issue);
  }
  return issues;
}

function lintScreen(
  compiled: CompiledApp,
  m: CompiledMenu,
  language: string,
  templates: CompiledTemplate[],
  renderTime: RenderTimeAccount | undefined,
): LintIssue | null {
  if (templates.some((t) => !t.ok)) return null;
  const state = {
    sessionId: '',
    msisdn: '',
    network: '',
    serviceCode: '',
    language: language || undefined,
    inputs: {},
    vars: {},
    actionResults: {},
  } as unknown as SessionState;
  const scope = buildScope(state, '', compiled.app);
  const field = language ? `translations.${language}.displayText` : 'displayText';
  const what = language ? `The ${describeLanguage(language)} screen` : 'The screen';
  let screen: string;
  try {
    screen = joinScreenParts(templates.map((t) => renderTemplate(t, scope, renderTime)));
  } catch (err) {
    return issueAt('warning', m, `${what} fails to render with empty inputs: ${toErrorMessage(err)}`, field);
  }
  const { screenLimit, screenCarrier } = compiled;
  const measured = measureFor(screen, screenLimit, screenCarrier);
  if (measured.length <= measured.limit) return null;
  const size = `${measured.length} characters${describeEncoding(measured)}, over the ${measured.limit}-character limit${describeNarrowing(compiled)}`;
  if (m.menu.terminate) {
    const message = `${language ? what.replace('screen', 'closing screen') : 'The closing screen'} is ${size}; it will be cut.`;
    return { ...issueAt('warning', m, message, field), code: 'over_length' };
  }
  const more = toMoreLine((compiled.labels.get(language) ?? DEFAULT_ENGINE_LABELS).more);
  const pages = paginateScreen(screen, screenLimit, more, screenCarrier).length;
  const message = `${what} is ${size}; it will be split into ${pages} pages.`;
  return { ...issueAt('warning', m, message, field), code: 'over_length' };
}

/** The connected gateway that holds the app's screens below its own limit (' (Nalo carries 120 characters)'), if one does. */
function describeNarrowing(compiled: CompiledApp): string {
  if (compiled.screenCarrier !== 'ussd') return '';
  const { limit, gateway } = designScreenLimit(compiled.app.screenLimit, compiled.app.gatewayConnections ?? []);
  return gateway ? ` (${GATEWAY_PROFILES[gateway].label} carries ${limit} characters)` : '';
}

/**
 * Why a USSD screen holds fewer characters than the app's limit: the letters that send it as UCS-2, and the GSM
 * look-alikes the builder may use instead (' in UCS-2 because of "ɛ", "ɔ" (GSM look-alikes: ɛ → e, ɔ → o)'); nothing
 * for a GSM-7 screen or a chat.
 */
function describeEncoding(measured: ScreenMeasure): string {
  // A chat's measure names no characters: only a USSD screen is ever sent as UCS-2 for them.
  if (measured.encoding !== 'UCS-2' || measured.nonGsm.length === 0) return '';
  const { because, swaps } = describeNonGsm(measured, 5);
  return ` in UCS-2 because of ${because}${swaps ? ` (GSM look-alikes: ${swaps})` : ''}`;
}

/**
 * For each other language of the app, the menu's texts that have a default-language text but no translation
 * (`code: 'missing_translation'`, one warning per menu and language naming the fields): those screens show the
 * default language's words. Also a rule switching to a language the app does not have.
 */
function lintTranslations(compiled: CompiledApp, m: CompiledMenu): LintIssue[] {
  const issues: LintIssue[] = [];
  const { menu } = m;
  const others = compiled.app.languages?.otherLanguages ?? [];
  for (const language of others) {
    const t = menu.translations?.[language] ?? {};
    const missing: string[] = [];
    for (const field of TRANSLATED_FIELDS) if (menu[field].trim() !== '' && !t[field]?.trim()) missing.push(field);
    menu.inputValidations.forEach((v, i) => {
      if (v.errorMessage.trim() !== '' && !t.errorMessages?.[i]?.trim()) missing.push(`inputValidations.${i}.errorMessage`);
    });
    menu.switchOperations.forEach((rule, i) => {
      if (rule.action === 'Terminate' && rule.actionParam.trim() !== '' && !t.closingTexts?.[i]?.trim())
        missing.push(`switchOperations.${i}.actionParam`);
    });
    if (missing.length > 0) {
      const message = `No ${describeLanguage(language)} text for ${missing.join(', ')}: the default language's is shown.`;
      issues.push({ ...issueAt('warning', m, message, `translations.${language}`), code: 'missing_translation' });
    }
  }
  const known = new Set(listAppLanguages(compiled.app.languages));
  menu.switchOperations.forEach((rule, i) => {
    if (rule.setLanguage !== undefined && !known.has(rule.setLanguage))
      issues.push(
        issueAt(
          'warning',
          m,
          `Rule ${i + 1} switches to ${describeLanguage(rule.setLanguage)}, which is not one of the app's languages: it is ignored.`,
          `switchOperations.${i}.setLanguage`,
        ),
      );
  });
  return issues;
}

/** The menus a rule of `m` goes to (gotos to known menus only). */
function findGotoTargets(compiled: CompiledApp, m: CompiledMenu): CompiledMenu[] {
  const targets: CompiledMenu[] = [];
  for (const rule of m.menu.switchOperations) {
    if (rule.action !== 'goto') continue;
    const target = compiled.menus.get(rule.actionParam) ?? compiled.byIdentifier.get(rule.actionParam);
    if (target) targets.push(target);
  }
  return targets;
}

/**
 * Menus on a loop from which no path of rules reaches an end: a terminating menu, a Terminate rule, or a menu
 * with a script or custom function (which may end the session or steer anywhere, unseen here).
 */
function findLoopsWithoutExit(compiled: CompiledApp, order: CompiledMenu[], canReturn: boolean): CompiledMenu[] {
  const isExit = (m: CompiledMenu) =>
    m.menu.terminate ||
    m.menu.switchOperations.some((r) => r.action === 'Terminate' || (canReturn && r.action === 'Return')) ||
    m.menu.actions.some((a) => a.inheritsPlugin === 'javascript' || a.inheritsPlugin === 'customAction');
  const targets = new Map(order.map((m) => [m.uniqueId, findGotoTargets(compiled, m)]));
  // Walk backwards from every exit: whatever reaches one has a way out.
  const leadsTo = new Map<string, CompiledMenu[]>();
  for (const m of order)
    for (const t of targets.get(m.uniqueId)!) {
      const from = leadsTo.get(t.uniqueId);
      if (from) from.push(m);
      else leadsTo.set(t.uniqueId, [m]);
    }
  const canEnd = new Set<string>();
  const queue = order.filter(isExit);
  for (const m of queue) canEnd.add(m.uniqueId);
  while (queue.length > 0) {
    for (const from of leadsTo.get(queue.pop()!.uniqueId) ?? []) {
      if (!canEnd.has(from.uniqueId)) {
        canEnd.add(from.uniqueId);
        queue.push(from);
      }
    }
  }
  // Of the rest, those on a loop: a menu that can reach itself again, that is one in a strongly connected
  // component of two or more menus, or with a rule to itself (one pass over the graph, not a walk per menu).
  const onLoop = findMenusOnLoops(order, targets);
  return order.filter((m) => !canEnd.has(m.uniqueId) && onLoop.has(m.uniqueId));
}

/**
 * The menus that can reach themselves again by their rules: Tarjan's strongly connected components, walked with
 * an explicit stack so a long chain of menus cannot exhaust the call stack.
 */
function findMenusOnLoops(order: CompiledMenu[], targets: Map<string, CompiledMenu[]>): Set<string> {
  const onLoop = new Set<string>();
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const component: string[] = [];
  const inComponent = new Set<string>();
  let next = 0;
  for (const root of order) {
    if (indexOf.has(root.uniqueId)) continue;
    const walk: Array<{ id: string; edges: CompiledMenu[]; at: number }> = [];
    const enter = (id: string) => {
      indexOf.set(id, next);
      lowLink.set(id, next);
      next += 1;
      component.push(id);
      inComponent.add(id);
      walk.push({ id, edges: targets.get(id) ?? [], at: 0 });
    };
    enter(root.uniqueId);
    while (walk.length > 0) {
      const frame = walk[walk.length - 1]!;
      if (frame.at < frame.edges.length) {
        const target = frame.edges[frame.at++]!.uniqueId;
        if (target === frame.id) onLoop.add(target);
        if (!indexOf.has(target)) enter(target);
        else if (inComponent.has(target)) lowLink.set(frame.id, Math.min(lowLink.get(frame.id)!, indexOf.get(target)!));
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent) lowLink.set(parent.id, Math.min(lowLink.get(parent.id)!, lowLink.get(frame.id)!));
      if (lowLink.get(frame.id) !== indexOf.get(frame.id)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = component.pop()!;
        inComponent.delete(member);
        members.push(member);
      } while (member !== frame.id);
      if (members.length > 1) for (const id of members) onLoop.add(id);
    }
  }
  return onLoop;
}

/**
 * Menus no path reaches from the first menu. A script may steer by identifier, so a menu whose
 * identifier appears as a quoted string in any script counts as reachable.
 */
function findUnreachableMenus(compiled: CompiledApp, order: CompiledMenu[], first: CompiledMenu | null): CompiledMenu[] {
  if (!first) return [];
  const scripts = order
    .flatMap((m) => [
      ...m.menu.actions.map((a) => (a.inheritsPlugin === 'javascript' ? a.code : '')),
      ...m.menu.inputValidations.map((v) => v.validationFunction),
    ])
    .join('\n');
  const hasCustomActions = order.some((m) => m.menu.actions.some((a) => a.inheritsPlugin === 'customAction'));
  const quoted = findQuotedNames(scripts);
  // A menu named in quotes by any script counts as reached (a script may steer to it from anywhere).
  const isSteeredTo = (m: CompiledMenu) =>
    m.identifier !== '' &&
    (NAME.test(m.identifier)
      ? quoted.has(m.identifier)
      : [`"${m.identifier}"`, `'${m.identifier}'`, `\`${m.identifier}\``].some((q) => scripts.includes(q)));
  const reached = new Set<string>([first.uniqueId]);
  const queue = [first];
  for (const m of order) {
    if (reached.has(m.uniqueId) || !isSteeredTo(m)) continue;
    reached.add(m.uniqueId);
    queue.push(m);
  }
  while (queue.length > 0) {
    const m = queue.pop() as CompiledMenu;
    for (const rule of [m.alwaysRule, ...m.rules]) {
      if (rule?.rule.action !== 'goto') continue;
      const target = compiled.menus.get(rule.rule.actionParam) ?? compiled.byIdentifier.get(rule.rule.actionParam);
      if (target && !reached.has(target.uniqueId)) {
        reached.add(target.uniqueId);
        queue.push(target);
      }
    }
  }
  // A saved custom function can steer anywhere, and we cannot read it here.
  if (hasCustomActions) return [];
  return order.filter((m) => !reached.has(m.uniqueId));
}

/** A menu identifier as the designer allows it (validateMenu); others are looked for in the scripts one by one. */
const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Every identifier the scripts hold between matching quotes (`"home"`, `'home'`, `` `home` ``), in one pass: the
 * closing quote is only looked at, so it may open the next (`"a"b"` holds `a` and `b`, as a substring search finds).
 */
function findQuotedNames(scripts: string): Set<string> {
  const names = new Set<string>();
  for (const match of scripts.matchAll(/(["'`])([A-Za-z_$][A-Za-z0-9_$]*)(?=\1)/g)) names.add(match[2]!);
  return names;
}
