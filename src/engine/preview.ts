/**
 * A menu's screen as the user would see it, for the designer's preview: same rendering and pagination
 * as a live hop, over sample values instead of a session.
 */
import type { CompiledApp } from './compile';
import { MORE_LINE, paginateScreen, toMoreLine } from './pagination';
import { buildScope, joinScreenParts, renderTemplate } from './render';
import type { SessionState } from './types';
import { toErrorMessage } from '../shared/errors';

export interface PreviewSample {
  inputs?: Record<string, string>;
  vars?: Record<string, unknown>;
  actions?: Record<string, unknown>;
  mobile?: string;
  network?: string;
  /** One of the app's other languages: the menu's texts in it, each falling back to the default language's. */
  language?: string;
}

/** @example previewMenu(compiled, 'm1', { inputs: { home: '2', homeLabel: 'Data' } }) // { ok: true, pages: [...] } */
export function previewMenu(
  compiled: CompiledApp,
  menuId: string,
  sample: PreviewSample = {},
): { ok: true; pages: string[] } | { ok: false; error: string } {
  const menu = compiled.menus.get(menuId);
  if (!menu) return { ok: false, error: 'No such menu' };
  const t = sample.language ? menu.translations.get(sample.language) : undefined;
  const labels = compiled.labels.get(sample.language ?? '') ?? compiled.labels.get('');
  const state = {
    language: t ? sample.language : undefined,
    sessionId: 'preview',
    msisdn: sample.mobile ?? '',
    network: sample.network ?? '',
    serviceCode: compiled.app.shortCode,
    inputs: sample.inputs ?? {},
    vars: sample.vars ?? {},
    actionResults: sample.actions ?? {},
  } as SessionState;
  try {
    const scope = buildScope(state, '', compiled.app);
    const screen = joinScreenParts([
      renderTemplate(t?.header ?? menu.header, scope),
      renderTemplate(t?.text ?? menu.text, scope),
      renderTemplate(t?.footer ?? menu.footer, scope),
    ]);
    const moreLine = labels ? toMoreLine(labels.more) : MORE_LINE;
    return {
      ok: true,
      pages: menu.menu.terminate ? [screen] : paginateScreen(screen, compiled.screenLimit, moreLine, compiled.screenCarrier),
    };
  } catch (err) {
    return { ok: false, error: toErrorMessage(err) };
  }
}
