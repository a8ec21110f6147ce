/**
 * LiquidJS rendering. Templates are parsed once per app version (compileApp); a hop only renders.
 * Text without `{{` or `{%` is kept as a plain string and never goes through Liquid at all. Text whose
 * only tags are plain variables (`{{ session.inputs.amount }}`: a dotted path, no filters) is rendered by
 * looking the paths up directly, as Liquid would with `ownPropertyOnly`; when a value is missing or not text,
 * a number or a boolean, Liquid renders it instead, so the output is always Liquid's.
 *
 * A builder's template runs on the thread that answers every hop, so Liquid gets a time budget: the hop's
 * (limits.renderBudgetMs, shared by all its templates) within the tenant's share (EngineDeps.renderTime).
 * Liquid checks its renderLimit before each node it renders (each tag, output and loop iteration), so a render
 * stops within one node of its budget; a node's own cost is bounded by the filter input caps below and by
 * the memory limit (characters and items allocated by filters, ranges and strings in one render).
 */
import { Liquid, type Template } from 'liquidjs';
import { DEFAULT_LIMITS } from './limits';
import type { RenderTimeAccount, SessionState, TemplateScope } from './types';
import { toErrorMessage } from '../shared/errors';

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

/** Allocation in one render, e.g. `(1..1000000)` or a string doubled in a loop. */
const MEMORY_LIMIT = 1_000_000;

/**
 * What one filter call may be given. Liquid cannot stop a filter midway, and some cost a lot per item
 * (`where` about 6 µs, `sort` n log n): 25,000 items from an API result took 150 ms in one call, and
 * `strip_html`'s own regular expression is quadratic on some text (15 ms for 10,000 characters). A screen
 * shows a few lines, so larger inputs are refused. size, first, last, slice, truncate and default cost the
 * same whatever the input and take any.
 */
export const FILTER_INPUT_LIMITS = { maxItems: 1000, maxTextLength: 5000 } as const;
const UNCAPPED_FILTERS = new Set(['size', 'first', 'last', 'slice', 'truncate', 'default']);

for (const [name, filter] of Object.entries(liquid.filters)) {
  if (UNCAPPED_FILTERS.has(name)) continue;
  const handler = typeof filter === 'function' ? filter : filter.handler;
  if (!handler) continue;
  const raw = typeof filter === 'function' ? false : filter.raw;
  liquid.registerFilter(name, {
    raw,
    handler(this: unknown, value: unknown, ...args: unknown[]) {
      checkFilterInput(name, value);
      for (const arg of args) if (Array.isArray(arg)) checkFilterInput(name, arg);
      return handler.call(this as never, value, ...args);
    },
  });
}

function checkFilterInput(name: string, value: unknown): void {
  if (Array.isArray(value) && value.length > FILTER_INPUT_LIMITS.maxItems) {
    throw new Error(`The ${name} filter was given ${value.length} items; a filter takes at most ${FILTER_INPUT_LIMITS.maxItems}`);
  }
  if (typeof value === 'string' && value.length > FILTER_INPUT_LIMITS.maxTextLength) {
    throw new Error(`The ${name} filter was given ${value.length} characters; a filter takes at most ${FILTER_INPUT_LIMITS.maxTextLength}`);
  }
}

export const RENDER_BUDGET_MESSAGE = 'Template rendering exceeded its time budget';

/** A render refused or stopped for time (not a fault of the template's text). */
export class RenderBudgetError extends Error {
  constructor() {
    super(RENDER_BUDGET_MESSAGE);
  }
}

/** Renders outside a hop (lint, the designer preview): each render alone has a hop's budget. */
const UNMETERED: RenderTimeAccount = { now: () => 0, getAvailableMs: () => DEFAULT_LIMITS.renderBudgetMs, spend: () => {} };

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
    return { ok: false, source, error: toErrorMessage(err) };
  }
}

/** A variable a template reads: its path (`['session', 'inputs', 'name']`); a computed key (`a[b]`) is a nested path. */
export type TemplateVariablePath = Array<string | number | TemplateVariablePath>;

/**
 * The session values a template reads, each once: locals (`assign`, `capture`, `for`) are left out, as Liquid's
 * static analysis sees them. None for a template that does not parse.
 * @example findTemplateVariables(compileTemplate('Hi {{ session.inputs.name }}')) // [['session', 'inputs', 'name']]
 */
export function findTemplateVariables(template: CompiledTemplate): TemplateVariablePath[] {
  if (!template.ok || template.parts === null) return [];
  if (template.simple) return template.simple.filter((p): p is string[] => Array.isArray(p));
  try {
    return liquid.globalVariableSegmentsSync(template.parts);
  } catch {
    return [];
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

/**
 * Renders a compiled template; throws on a render fault (callers turn it into an error event), and
 * RenderBudgetError when `time` has none left or the render runs out of it. Only Liquid renders are timed.
 */
export function renderTemplate(template: CompiledTemplate, scope: TemplateScope, time: RenderTimeAccount = UNMETERED): string {
  if (!template.ok) throw new Error(template.error);
  if (template.parts === null) return template.source;
  const simple = template.simple && renderSimple(template.simple, scope);
  if (simple !== undefined) return simple;
  const availableMs = time.getAvailableMs();
  if (!(availableMs > 0)) throw new RenderBudgetError();
  const started = time.now();
  try {
    const out: unknown = liquid.renderSync(template.parts, scope, { memoryLimit: MEMORY_LIMIT, renderLimit: availableMs });
    return typeof out === 'string' ? out : String(out ?? '');
  } catch (err) {
    throw isRenderLimitError(err) ? new RenderBudgetError() : err;
  } finally {
    time.spend(time.now() - started);
  }
}

/** Liquid's renderLimit error, as its RenderError wraps it. */
function isRenderLimitError(err: unknown): boolean {
  const cause = (err as { originalError?: unknown } | null)?.originalError ?? err;
  return cause instanceof Error && cause.message.startsWith('template render limit exceeded');
}

export function buildScope(
  state: SessionState,
  input: string,
  app: { appName: string; shortCode: string; languages?: { defaultLanguage: string } },
): TemplateScope {
  return {
    session: {
      language: state.language ?? app.languages?.defaultLanguage ?? '',
      sessionId: state.sessionId,
      mobile: state.msisdn,
      network: state.network,
      serviceCode: state.serviceCode,
      inputs: state.inputs,
      media: state.media ?? NO_MEDIA,
      vars: state.vars,
    },
    inRequest: { input },
    actions: state.actionResults,
    app: { name: app.appName, shortCode: app.shortCode },
    contact: toContactScope(state.contact),
  };
}

const NO_MEDIA: Readonly<Record<string, never>> = Object.freeze({});

const NO_CONTACT: Readonly<Record<string, string>> = Object.freeze({});

/** `contact.name`, `contact.language` and `contact.<attribute>` as templates read them: '' where unknown. */
function toContactScope(contact: SessionState['contact']): Readonly<Record<string, string>> {
  if (!contact) return NO_CONTACT;
  return { ...contact.attributes, name: contact.name ?? '', language: contact.language ?? '' };
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
