/**
 * A menu's screen as the user would see it, for the designer's preview: same rendering and pagination
 * as a live hop, over sample values instead of a session.
 */
import type { CompiledApp } from './compile';
import { paginateScreen } from './pagination';
import { buildScope, joinScreenParts, renderTemplate } from './render';
import type { SessionState } from './types';
import { toErrorMessage } from '../shared/errors';

export interface PreviewSample {
  inputs?: Record<string, string>;
  vars?: Record<string, unknown>;
  actions?: Record<string, unknown>;
  mobile?: string;
  network?: string;
}

/** @example previewMenu(compiled, 'm1', { inputs: { home: '2', homeLabel: 'Data' } }) // { ok: true, pages: [...] } */
export function previewMenu(
  compiled: CompiledApp,
  menuId: string,
  sample: PreviewSample = {},
): { ok: true; pages: string[] } | { ok: false; error: string } {
  const menu = compiled.menus.get(menuId);
  if (!menu) return { ok: false, error: 'No such menu' };
  const state = {
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
      renderTemplate(menu.header, scope),
      renderTemplate(menu.text, scope),
      renderTemplate(menu.footer, scope),
    ]);
    return { ok: true, pages: menu.menu.terminate ? [screen] : paginateScreen(screen, compiled.screenLimit) };
  } catch (err) {
    return { ok: false, error: toErrorMessage(err) };
  }
}
