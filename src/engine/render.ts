/**
 * LiquidJS rendering. Templates are parsed once per app version (compileApp); a hop only renders.
 * Text without `{{` or `{%` is kept as a plain string and never goes through Liquid at all. Text whose
 * only tags are plain variables (`{{ session.inputs.amount }}`: a dotted path, no filters) is rendered by
 * looking the paths up directly, as Liquid would with `ownPropertyOnly`; when a value is missing or not text,
 * a number or a boolean, Liquid renders it instead, so the output is always Liquid's.
 */
import { Liquid, type Template } from 'liquidjs';
import type { SessionState, TemplateScope } from './types';

// `templates: {}` gives Liquid an empty in-memory file system, so `{% include %}` and `{% render %}`
// can never read the server's disk. strictFilters turns a misspelt filter into a parse error that
// lint reports, instead of silently printing nothing.
const liquid = new Liquid({
  templates: {},
  ownPropertyOnly: true,
  strictVariables: false,
  strictFilters: true,
  parseLimit: 100_000,
});

/**
 * A builder's template cannot stall the runtime: allocation is capped (e.g. `(1..1000000000)` loops),
 * and render time is capped as a backstop for loops over large action results.
 */
const RENDER_OPTIONS = { memoryLimit: 1_000_000, renderLimit: 250 };

/** Text, or a variable's path (`['session', 'inputs', 'amount']`). */
type SimplePart = string | string[];

export type CompiledTemplate =
  | { ok: true; source: string; parts: Template[] | null; simple?: SimplePart[] }
  | { ok: false; source: string; error: string };

const EMPTY_TEMPLATE: CompiledTemplate = { ok: true, source: '', parts: null };

const VARIABLE_TAG = /\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}/g;

/** The text and variable paths of a template made only of plain `{{ a.b.c }}` tags; undefined otherwise. */
function toSimpleParts(source: string): SimplePart[] | undefined {
  const parts: SimplePart[] = [];
  let last = 0;
  for (const match of source.matchAll(VARIABLE_TAG)) {
    parts.push(source.slice(last, match.index), match[1]!.split('.'));
    last = match.index + match[0].length;
  }
  parts.push(source.slice(last));
  // Any other tag, filter or whitespace control left in the text: Liquid renders it.
  return parts.some((p) => typeof p === 'string' && (p.includes('{{') || p.includes('{%'))) ? undefined : parts;
}

export function compileTemplate(source: string): CompiledTemplate {
  if (source === '') return EMPTY_TEMPLATE;
  if (!source.includes('{{') && !source.includes('{%')) return { ok: true, source, parts: null };
  try {
    return { ok: true, source, parts: liquid.parse(source), simple: toSimpleParts(source) };
  } catch (err) {
    return { ok: false, source, error: (err as Error).message };
  }
}

/** A path's value as Liquid prints it, or undefined when Liquid itself should decide (missing, objects, lists). */
function lookupText(scope: unknown, path: string[]): string | undefined {
  let value = scope;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return undefined;
}

function renderSimple(parts: SimplePart[], scope: TemplateScope): string | undefined {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const text = lookupText(scope, part);
    if (text === undefined) return undefined;
    out += text;
  }
  return out;
}

/** Renders a compiled template; throws on a render fault (callers turn it into an error event). */
export function renderTemplate(template: CompiledTemplate, scope: TemplateScope): string {
  if (!template.ok) throw new Error(template.error);
  if (template.parts === null) return template.source;
  const simple = template.simple && renderSimple(template.simple, scope);
  if (simple !== undefined) return simple;
  const out: unknown = liquid.renderSync(template.parts, scope, RENDER_OPTIONS);
  return typeof out === 'string' ? out : String(out ?? '');
}

export function buildScope(state: SessionState, input: string, app: { appName: string; shortCode: string }): TemplateScope {
  return {
    session: {
      sessionId: state.sessionId,
      mobile: state.msisdn,
      network: state.network,
      serviceCode: state.serviceCode,
      inputs: state.inputs,
      vars: state.vars,
    },
    inRequest: { input },
    actions: state.actionResults,
    app: { name: app.appName, shortCode: app.shortCode },
  };
}

/** Header, text and footer, each trimmed, empty parts left out, joined by newlines. */
export function joinScreenParts(parts: string[]): string {
  let screen = '';
  for (const part of parts) {
    const text = part.trim();
    if (text === '') continue;
    screen = screen === '' ? text : `${screen}\n${text}`;
  }
  return screen;
}
