/**
 * The names a template can read, worked out from the app's definition: the lint flags a variable that names
 * nothing (it would render as empty text, silently), and the designer offers the ones that exist.
 *
 *   session.inputs.<menu identifier>, session.inputs.<menu identifier>Label   what the caller typed at that menu
 *   session.media.<menu identifier>.url, .kind, .mimeType, .size, .caption, .fileName, .mediaId; .latitude,
 *                                 .longitude, .name, .address   the file or location a bot's menu received
 *   session.vars.<tag>            a shortcode tag (`*920*{amount}#`), or any name a script sets (`{ vars: {...} }`)
 *   session.mobile, .network, .serviceCode, .sessionId, .language
 *   actions.<action name>...      an action's result (its inner fields are the action's own: not checked)
 *   inRequest.input               the input being handled
 *   app.name, app.shortCode
 *   contact.name, contact.language, contact.<attribute>   the caller's contact (docs/contacts.md); attributes
 *                                 are the account's, not the app's, so any key may exist
 */
import type { Action } from '../shared/app';
import { compileDialPattern } from './dial';
import type { TemplateVariablePath } from './render';

/** The session's own fields besides `inputs` and `vars` (buildScope). */
export const SESSION_FIELDS = ['mobile', 'network', 'serviceCode', 'sessionId', 'language'] as const;
const APP_FIELDS = ['name', 'shortCode'] as const;
export const TEMPLATE_ROOTS = ['session', 'actions', 'inRequest', 'app', 'contact'] as const;

/** What listTemplateVariables needs of an app: its shortcode and its menus' identifiers, actions and contact fields. */
export interface VariableSource {
  shortCode: string;
  menus: ReadonlyArray<{
    userDefinedName: string;
    actions: ReadonlyArray<Pick<Action, 'actionName' | 'inheritsPlugin'>>;
    saveToContact?: string;
    inputKind?: string;
    switchOperations?: ReadonlyArray<{ subject?: string }>;
  }>;
  /** The sub-flows the app enters, whose inputs and outputs are session.vars (docs/sub-flows.md). */
  subflows?: ReadonlyArray<{ name: string; inputs: ReadonlyArray<{ name: string }>; outputs: ReadonlyArray<{ name: string }> }>;
  /** A sub-flow's own: the inputs it is given and the outputs it sets, session.vars too. */
  subflowInterface?: { inputs: ReadonlyArray<{ name: string }>; outputs: ReadonlyArray<{ name: string }> };
}

export interface KnownVariables {
  /** Menu identifiers (each also names `<identifier>Label`). */
  inputs: Set<string>;
  /** Identifiers of the menus that ask for a file or a location (`session.media.<identifier>`), by their kind. */
  media: Map<string, string>;
  actions: Set<string>;
  /** The shortcode's tags, set as session.vars. */
  tags: Set<string>;
  /** session.vars a sub-flow's inputs and outputs set (the app's sub-flows', or a sub-flow's own), with what sets each. */
  subflowVars: Map<string, string>;
  /** A javascript action or custom function may set any session.vars name: those are not checked. */
  hasScripts: boolean;
  /** The contact attributes the app's menus save to (others may exist: the console and the API set any). */
  contactFields: Set<string>;
}

export function findKnownVariables(app: VariableSource): KnownVariables {
  const known: KnownVariables = {
    inputs: new Set(),
    media: new Map(),
    actions: new Set(),
    tags: new Set(),
    hasScripts: false,
    contactFields: new Set(),
    subflowVars: new Map(),
  };
  for (const subflow of app.subflows ?? []) {
    for (const input of subflow.inputs) known.subflowVars.set(input.name, `The sub-flow ${subflow.name}'s input ${input.name}`);
    for (const output of subflow.outputs) known.subflowVars.set(output.name, `The sub-flow ${subflow.name}'s output ${output.name}`);
  }
  for (const input of app.subflowInterface?.inputs ?? []) known.subflowVars.set(input.name, `This sub-flow's input ${input.name}`);
  for (const output of app.subflowInterface?.outputs ?? []) known.subflowVars.set(output.name, `This sub-flow's output ${output.name}`);
  for (const menu of app.menus) {
    const identifier = menu.userDefinedName.trim();
    if (identifier !== '') known.inputs.add(identifier);
    if (identifier !== '' && menu.inputKind !== undefined && menu.inputKind !== 'text') known.media.set(identifier, menu.inputKind);
    if (menu.saveToContact && menu.saveToContact !== 'name') known.contactFields.add(menu.saveToContact);
    for (const rule of menu.switchOperations ?? []) {
      const field = rule.subject?.slice('contact.'.length);
      if (field && field !== 'name' && field !== 'language') known.contactFields.add(field);
    }
    for (const action of menu.actions) {
      if (action.actionName.trim() !== '') known.actions.add(action.actionName);
      if (action.inheritsPlugin === 'javascript' || action.inheritsPlugin === 'customAction') known.hasScripts = true;
    }
  }
  for (const segment of compileDialPattern(app.shortCode).segments)
    if ('names' in segment) for (const name of segment.names) known.tags.add(name);
  return known;
}

const quoted = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');

/**
 * Why a variable names nothing (`no menu has the identifier "name"`), or null when it may exist. Only what the app's
 * definition decides is checked: a computed key, an action result's inner fields and, when a script may set them,
 * session.vars are taken as they come.
 */
export function explainUnknownVariable(known: KnownVariables, path: TemplateVariablePath): string | null {
  const [root, key, name] = path;
  if (typeof root !== 'string') return null;
  if (root === 'session') {
    if (typeof key !== 'string') return null;
    if (key === 'inputs') {
      if (typeof name !== 'string') return null;
      if (known.inputs.has(name) || (name.endsWith('Label') && known.inputs.has(name.slice(0, -'Label'.length)))) return null;
      return `no menu has the identifier "${name}"`;
    }
    if (key === 'media') {
      if (typeof name !== 'string' || known.media.has(name)) return null;
      return known.inputs.has(name) ? `menu "${name}" asks for text, not a file or a location` : `no menu has the identifier "${name}"`;
    }
    if (key === 'vars') {
      if (typeof name !== 'string' || known.hasScripts || known.tags.has(name) || known.subflowVars.has(name)) return null;
      return `the shortcode has no {${name}} tag and no script in the app sets variables`;
    }
    if ((SESSION_FIELDS as readonly string[]).includes(key)) return null;
    return `a session has no "${key}"; it has ${quoted([...SESSION_FIELDS, 'inputs', 'media', 'vars'])}`;
  }
  if (root === 'actions') {
    if (typeof key !== 'string' || known.actions.has(key)) return null;
    return `no action is named "${key}"`;
  }
  if (root === 'inRequest') {
    if (typeof key !== 'string' || key === 'input') return null;
    return 'inRequest has only "input"';
  }
  if (root === 'app') {
    if (typeof key !== 'string' || (APP_FIELDS as readonly string[]).includes(key)) return null;
    return `app has only ${quoted(APP_FIELDS)}`;
  }
  // Any contact field may exist: attributes are set by the console, the API and any app of the account.
  if (root === 'contact') return null;
  return `templates read ${quoted(TEMPLATE_ROOTS)}`;
}

/** `session.inputs.name`, `actions["my action"]`: the path as a template would write it, up to its first computed key. */
export function formatVariablePath(path: TemplateVariablePath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'string')
      out += /^[A-Za-z_][\w-]*$/.test(segment) ? `${out ? '.' : ''}${segment}` : `[${JSON.stringify(segment)}]`;
    else if (typeof segment === 'number') out += `[${segment}]`;
    else break;
  }
  return out;
}

export interface TemplateVariable {
  /** What goes between the braces: `session.inputs.name`. */
  path: string;
  /** Where its value comes from, for the designer's list. */
  detail: string;
}

/**
 * Every variable a template of the app can read, for the designer's suggestions: the menus' inputs and labels, the
 * actions' results, the shortcode's tags, then the session's and app's own fields.
 * @example listTemplateVariables({ shortCode: '*920*77#', menus: [{ userDefinedName: 'name', actions: [] }] })[0]
 *   // { path: 'session.inputs.name', detail: 'What the caller typed at menu name' }
 */
export function listTemplateVariables(app: VariableSource): TemplateVariable[] {
  const known = findKnownVariables(app);
  const variables: TemplateVariable[] = [];
  for (const id of known.inputs) {
    variables.push({ path: formatVariablePath(['session', 'inputs', id]), detail: `What the caller typed at menu ${id}` });
    variables.push({
      path: formatVariablePath(['session', 'inputs', `${id}Label`]),
      detail: `The text of the option picked at menu ${id}`,
    });
  }
  for (const [id, kind] of known.media) {
    const fields = kind === 'location' ? ['latitude', 'longitude', 'name', 'address'] : ['url', 'mimeType', 'size', 'caption', 'fileName'];
    for (const field of fields)
      variables.push({
        path: formatVariablePath(['session', 'media', id, field]),
        detail: `The ${field} of the ${kind} received at menu ${id}`,
      });
  }
  for (const name of known.actions) variables.push({ path: formatVariablePath(['actions', name]), detail: `The result of action ${name}` });
  for (const tag of known.tags) variables.push({ path: `session.vars.${tag}`, detail: `The shortcode's {${tag}} tag` });
  for (const [name, detail] of known.subflowVars) variables.push({ path: formatVariablePath(['session', 'vars', name]), detail });
  for (const key of known.contactFields)
    variables.push({ path: formatVariablePath(['contact', key]), detail: `The contact's ${key}, saved or tested by a menu` });
  variables.push(
    { path: 'contact.name', detail: "The caller's name, kept on their contact" },
    { path: 'contact.language', detail: "The caller's language, kept on their contact" },
    { path: 'session.mobile', detail: "The caller's number" },
    { path: 'session.network', detail: "The caller's network" },
    { path: 'session.serviceCode', detail: 'The code dialled' },
    { path: 'session.sessionId', detail: "The gateway's session id" },
    { path: 'session.language', detail: "The session's language" },
    { path: 'inRequest.input', detail: 'The input being handled' },
    { path: 'app.name', detail: "The app's name" },
    { path: 'app.shortCode', detail: "The app's shortcode" },
  );
  return variables;
}
