/**
 * The designer's suggestions of template variables: which variable is being typed at the caret, the variables
 * that match it, and the text once one is picked. The variables themselves come from the engine
 * (listTemplateVariables), so the designer offers what the deploy checks accept.
 */
import { listTemplateVariables, type TemplateVariable, type VariableSource } from '../../../engine';

/** The variable being typed: where its `{{` starts and the path typed so far. */
export interface TypedVariable {
  start: number;
  query: string;
}

/** Suggestions shown at once; typing narrows them. */
export const MAX_SUGGESTIONS = 30;

/**
 * The variable typed just before the caret: an open `{{` followed by nothing but a dotted name so far.
 * @example findTypedVariable('Hi {{ session.in', 16) // { start: 3, query: 'session.in' }
 */
export function findTypedVariable(value: string, caret: number): TypedVariable | null {
  const match = /\{\{-?\s*([\w.]*)$/.exec(value.slice(0, caret));
  return match ? { start: match.index, query: match[1]! } : null;
}

/** The variables whose path holds the typed text, those starting with it first. */
export function filterVariables(variables: TemplateVariable[], query: string): TemplateVariable[] {
  const q = query.toLowerCase();
  const starting = variables.filter((v) => v.path.toLowerCase().startsWith(q));
  const containing = variables.filter((v) => !v.path.toLowerCase().startsWith(q) && v.path.toLowerCase().includes(q));
  return [...starting, ...containing].slice(0, MAX_SUGGESTIONS);
}

/**
 * Puts `{{ path }}` in place of the variable being typed (and of the rest of its tag, when the `}}` is already
 * there); the caret goes after it.
 * @example insertVariable('Hi {{ ses!', 9, { start: 3, query: 'ses' }, 'session.mobile') // { value: 'Hi {{ session.mobile }}!', caret: 23 }
 */
export function insertVariable(value: string, caret: number, typed: TypedVariable, path: string): { value: string; caret: number } {
  const after = value.slice(caret);
  const restOfTag = /^[\w.]*\s*-?\}\}/.exec(after);
  const opener = value.startsWith('{{-', typed.start) ? '{{-' : '{{';
  const tag = `${opener} ${path} }}`;
  return { value: value.slice(0, typed.start) + tag + after.slice(restOfTag ? restOfTag[0].length : 0), caret: typed.start + tag.length };
}

/** The menus of the app as they would be with the open form's identifier and actions: the edited menu counts as typed. */
type SavedMenu = VariableSource['menus'][number] & { uniqueId?: string };

export function listFormVariables(app: { shortCode: string; menus?: readonly SavedMenu[] }, edited: SavedMenu): TemplateVariable[] {
  const saved = app.menus ?? [];
  const isSaved = edited.uniqueId !== undefined && saved.some((m) => m.uniqueId === edited.uniqueId);
  const menus = isSaved ? saved.map((m) => (m.uniqueId === edited.uniqueId ? edited : m)) : [...saved, edited];
  return listTemplateVariables({ shortCode: app.shortCode, menus });
}
