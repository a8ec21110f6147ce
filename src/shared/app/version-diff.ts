import type { AppVersion } from './app-version.schema';
import type { Menu } from './menu.schema';
import { toSubflowMenuId } from './subflow.schema';

/**
 * What changed between two snapshots of an app (two deployed versions, or a version and the draft), as the versions
 * list and its Changes view show it (docs/versions.md). Pure, so the console and the server read the same diff.
 * Menus are matched by uniqueId: a menu whose identifier changed is renamed, not removed and added. The flow map's
 * box positions are not a change (a deploy ignores them too).
 */

/** The kinds of change the summary counts: "1 text changed, 2 rules changed". */
export const CHANGE_KINDS = ['text', 'rule', 'action', 'validation', 'media', 'setting'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One changed field, its values as shown side by side; null where the field (a rule, an action) did not exist. */
export interface FieldChange {
  /** The field's path in the menu (`displayText`, `translations.fr.displayText`, `switchOperations.1`). */
  field: string;
  /** As the console names it: "Menu text (fr)", "Rule 2". */
  label: string;
  kind: ChangeKind;
  before: string | null;
  after: string | null;
}

export interface MenuChange {
  uniqueId: string;
  /** The menu's identifier in the newer snapshot (the older one's for a removed menu). */
  name: string;
  status: 'added' | 'removed' | 'changed';
  /** The identifier it had before, when it was renamed. */
  renamedFrom?: string;
  /** Every field of an added or removed menu that holds something; the changed ones of a changed menu. */
  fields: FieldChange[];
}

export interface VersionDiff {
  /** App-wide fields: name, shortcode, screen limit, languages, gateways. */
  app: FieldChange[];
  /** The menus' order changed (the first menu is the one a session starts on). */
  isReordered: boolean;
  menus: MenuChange[];
}

/** The counts the versions list shows for a diff. */
export interface ChangeSummary {
  menusAdded: number;
  menusRemoved: number;
  menusRenamed: number;
  /** Changed fields of menus present in both snapshots, by kind. */
  fields: Record<ChangeKind, number>;
  /** App-wide fields changed. */
  app: number;
  isReordered: boolean;
}

const TEXT_FIELDS = [
  ['headerText', 'Header'],
  ['displayText', 'Menu text'],
  ['footerText', 'Footer'],
  ['inputHolder', 'Input holder'],
] as const;

const TRANSLATED_TEXTS = [...TEXT_FIELDS, ['errorMessages', 'Error messages'], ['closingTexts', 'Closing texts']] as const;

const SETTING_FIELDS = [
  ['terminate', 'Terminate'],
  ['allowGoBack', 'Back menu'],
  ['goBackInputIndicator', 'Back menu input'],
  ['parentMenuId', 'Parent menu'],
  ['saveToContact', 'Save to contact'],
] as const;

const MEDIA_FIELDS = [
  ['inputKind', 'Input kind'],
  ['mediaInput', 'Media input'],
  ['attachments', 'Attachments'],
  ['linkButton', 'Link button'],
  ['requestLocation', 'Request location'],
] as const;

const LISTS = [
  ['switchOperations', 'Rule', 'rule'],
  ['actions', 'Action', 'action'],
  ['inputValidations', 'Validation', 'validation'],
] as const;

const APP_FIELDS = [
  ['appName', 'App name'],
  ['shortCode', 'Shortcode'],
  ['useTemplateTag', 'Template tags'],
  ['screenLimit', 'Screen limit'],
  ['channel', 'Channel'],
  ['languages', 'Languages'],
  ['gatewayConnections', 'Gateways'],
] as const;

/** Stored versions are jsonb, which keeps no key order: objects are compared and shown with their keys sorted. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) sorted[key] = sortKeys(v);
    }
    return sorted;
  }
  return value;
}

/** A value as the Changes view shows it; null for nothing (absent, empty text, an empty list). */
export function showValue(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(sortKeys(value), null, 2);
}

function compare(out: FieldChange[], field: string, label: string, kind: ChangeKind, before: unknown, after: unknown): void {
  const [b, a] = [showValue(before), showValue(after)];
  if (b !== a) out.push({ field, label, kind, before: b, after: a });
}

/** Every field of one menu side by side with another's; `before` or `after` absent for an added or removed menu. */
function compareMenus(before: Menu | undefined, after: Menu | undefined): FieldChange[] {
  const out: FieldChange[] = [];
  // An added or removed menu shows what it holds: a switch that is off is nothing to show.
  const isOneSided = !before || !after;
  const read = (menu: Menu | undefined, key: string): unknown => {
    const value = (menu as Record<string, unknown> | undefined)?.[key];
    return isOneSided && value === false ? undefined : value;
  };
  for (const [key, label] of TEXT_FIELDS) compare(out, key, label, 'text', read(before, key), read(after, key));
  const languages = new Set([...Object.keys(before?.translations ?? {}), ...Object.keys(after?.translations ?? {})]);
  for (const code of [...languages].sort()) {
    for (const [key, label] of TRANSLATED_TEXTS) {
      const b = (before?.translations?.[code] as Record<string, unknown> | undefined)?.[key];
      const a = (after?.translations?.[code] as Record<string, unknown> | undefined)?.[key];
      compare(out, `translations.${code}.${key}`, `${label} (${code})`, 'text', b, a);
    }
  }
  for (const [key, label, kind] of LISTS) {
    const b = (read(before, key) as unknown[] | undefined) ?? [];
    const a = (read(after, key) as unknown[] | undefined) ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) compare(out, `${key}.${i}`, `${label} ${i + 1}`, kind, b[i], a[i]);
  }
  for (const [key, label] of MEDIA_FIELDS) compare(out, key, label, 'media', read(before, key), read(after, key));
  for (const [key, label] of SETTING_FIELDS) compare(out, key, label, 'setting', read(before, key), read(after, key));
  return out;
}

/** The sub-flows a version enters, as the Changes view names them: `PIN check, version 2`. */
const listSubflows = (version: AppVersion) =>
  (version.subflows ?? []).map((sf) => (sf.version > 0 ? `${sf.name}, version ${sf.version}` : `${sf.name} (draft)`));

/** The app's menus, then its sub-flows' under their ids in the app and named `<sub-flow> › <menu>`, so their changes show too. */
function withSubflowMenus(version: AppVersion): Menu[] {
  return [
    ...version.menus,
    ...(version.subflows ?? []).flatMap((sf) =>
      sf.menus.map((m) => ({ ...m, uniqueId: toSubflowMenuId(sf.id, m.uniqueId), userDefinedName: `${sf.name} › ${m.userDefinedName}` })),
    ),
  ];
}

/** What changed from `before` to `after`; `before` null is the first version, every menu of which is added. */
export function diffVersions(before: AppVersion | null, after: AppVersion): VersionDiff {
  const app: FieldChange[] = [];
  if (before) {
    for (const [key, label] of APP_FIELDS) compare(app, key, label, 'setting', before[key], after[key]);
    compare(app, 'subflows', 'Sub-flows', 'setting', listSubflows(before), listSubflows(after));
  }
  const old = new Map((before ? withSubflowMenus(before) : []).map((m) => [m.uniqueId, m]));
  const afterMenus = withSubflowMenus(after);
  const kept = new Set(afterMenus.map((m) => m.uniqueId));
  const menus: MenuChange[] = [];
  for (const menu of afterMenus) {
    const was = old.get(menu.uniqueId);
    if (!was) {
      menus.push({ uniqueId: menu.uniqueId, name: menu.userDefinedName, status: 'added', fields: compareMenus(undefined, menu) });
      continue;
    }
    const fields = compareMenus(was, menu);
    const isRenamed = was.userDefinedName !== menu.userDefinedName;
    if (fields.length === 0 && !isRenamed) continue;
    menus.push({
      uniqueId: menu.uniqueId,
      name: menu.userDefinedName,
      status: 'changed',
      ...(isRenamed ? { renamedFrom: was.userDefinedName } : {}),
      fields,
    });
  }
  for (const menu of before ? withSubflowMenus(before) : []) {
    if (!kept.has(menu.uniqueId))
      menus.push({ uniqueId: menu.uniqueId, name: menu.userDefinedName, status: 'removed', fields: compareMenus(menu, undefined) });
  }
  const order = (v: AppVersion) => v.menus.map((m) => m.uniqueId).filter((id) => old.has(id) && kept.has(id));
  const isReordered = !!before && order(before).join() !== order(after).join();
  return { app, isReordered, menus };
}

export function summarizeDiff(diff: VersionDiff): ChangeSummary {
  const fields = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  for (const menu of diff.menus) {
    if (menu.status !== 'changed') continue;
    for (const change of menu.fields) fields[change.kind]++;
  }
  const count = (status: MenuChange['status']) => diff.menus.filter((m) => m.status === status).length;
  return {
    menusAdded: count('added'),
    menusRemoved: count('removed'),
    menusRenamed: diff.menus.filter((m) => m.renamedFrom !== undefined).length,
    fields,
    app: diff.app.length,
    isReordered: diff.isReordered,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The summary in words: "2 menus added, 1 text changed"; "No changes" when nothing did. */
export function describeSummary(summary: ChangeSummary): string {
  const parts: string[] = [];
  if (summary.menusAdded) parts.push(`${plural(summary.menusAdded, 'menu')} added`);
  if (summary.menusRemoved) parts.push(`${plural(summary.menusRemoved, 'menu')} removed`);
  if (summary.menusRenamed) parts.push(`${plural(summary.menusRenamed, 'menu')} renamed`);
  for (const kind of CHANGE_KINDS) {
    const n = summary.fields[kind];
    if (n) parts.push(`${plural(n, kind)} changed`);
  }
  if (summary.app) parts.push(`${plural(summary.app, 'app setting')} changed`);
  if (summary.isReordered) parts.push('menus reordered');
  return parts.length ? parts.join(', ') : 'No changes';
}

/** How a message names a version: `version 3 "Easter promo"`, or `version 3` when it has no name. */
export function nameVersion(number: number, name: string | null): string {
  return name ? `version ${number} "${name}"` : `version ${number}`;
}
