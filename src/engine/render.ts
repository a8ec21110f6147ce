/**
 * LiquidJS rendering. Templates are parsed once per app version (compileApp); a hop only renders.
 * Text without `{{` or `{%` is kept as a plain string and never goes through Liquid at all.
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

export type CompiledTemplate =
  | { ok: true; source: string; parts: Template[] | null }
  | { ok: false; source: string; error: string };

const EMPTY_TEMPLATE: CompiledTemplate = { ok: true, source: '', parts: null };

export function compileTemplate(source: string): CompiledTemplate {
  if (source === '') return EMPTY_TEMPLATE;
  if (!source.includes('{{') && !source.includes('{%')) return { ok: true, source, parts: null };
  try {
    return { ok: true, source, parts: liquid.parse(source) };
  } catch (err) {
    return { ok: false, source, error: (err as Error).message };
  }
}

/** Renders a compiled template; throws on a render fault (callers turn it into an error event). */
export function renderTemplate(template: CompiledTemplate, scope: TemplateScope): string {
  if (!template.ok) throw new Error(template.error);
  if (template.parts === null) return template.source;
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
