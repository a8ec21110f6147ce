/**
 * The working state of one hop: the session being changed, the events so far, the clock's budget,
 * and the reply once it is decided. Helpers here are the only writers of `reply`.
 */
import type { Action } from '../shared/app';
import type { CompiledApp, CompiledMenu } from './compile';
import { INVALID_CHOICE_TEXT, UNAVAILABLE_TEXT } from './limits';
import { paginateScreen, truncateScreen } from './pagination';
import { buildScope } from './render';
import type { EngineDeps, EngineEvent, EngineLimits, EventLevel, Reply, SessionState, TemplateScope } from './types';

export interface HopContext {
  compiled: CompiledApp;
  deps: EngineDeps;
  limits: EngineLimits;
  state: SessionState;
  events: EngineEvent[];
  /** Absolute time by which the hop must be answered. */
  deadline: number;
  /** `inRequest.input`: the input being handled, '' while none. */
  input: string;
  menuEntries: number;
  reply: Reply | null;
}

export interface EventAbout {
  menu?: CompiledMenu | null;
  action?: Action | null;
  data?: Record<string, unknown>;
}

export function emitEvent(ctx: HopContext, type: string, level: EventLevel, message: string, about: EventAbout = {}): void {
  const event: EngineEvent = {
    id: ctx.deps.newId(),
    type,
    level,
    time: ctx.deps.now(),
    appId: ctx.state.appId,
    sessionId: ctx.state.sessionId,
    menuId: about.menu?.uniqueId ?? null,
    menu: about.menu?.identifier ?? null,
    plugin: about.action?.inheritsPlugin ?? null,
    action: about.action?.actionName ?? null,
    message,
  };
  if (about.data) event.data = about.data;
  ctx.events.push(event);
}

export function getScope(ctx: HopContext): TemplateScope {
  return buildScope(ctx.state, ctx.input, ctx.compiled.app);
}

export function isHalted(ctx: HopContext): boolean {
  return ctx.reply !== null && ctx.reply.end;
}

/** Ends the session with `text`; an END screen cannot page, so an overlong one is cut. */
export function endSession(ctx: HopContext, text: string, reason: string, menu: CompiledMenu | null = null): void {
  const limit = ctx.compiled.app.screenLimit;
  let shown = text;
  if (text.length > limit) {
    shown = truncateScreen(text, limit);
    emitEvent(ctx, 'screen_truncated', 'error', `Closing text is ${text.length} characters; cut to the ${limit}-character screen`, {
      menu,
      data: { length: text.length, limit },
    });
  }
  ctx.state.ended = true;
  ctx.reply = { text: shown, end: true };
  emitEvent(ctx, 'session_ended', 'system', 'Session ended', { menu, data: { reason, text: shown } });
}

/**
 * An authoring fault or a blown budget: logged as an error, and the user gets a defined END screen
 * rather than a hung or broken session.
 */
export function failHop(ctx: HopContext, message: string, about: EventAbout = {}): void {
  emitEvent(ctx, 'error_logged', 'error', message, about);
  endSession(ctx, UNAVAILABLE_TEXT, 'fault', about.menu ?? null);
}

export function isOverBudget(ctx: HopContext): boolean {
  return ctx.deps.now() > ctx.deadline;
}

export function getCurrentMenu(ctx: HopContext): CompiledMenu | null {
  const id = ctx.state.currentMenuId;
  return id === null ? null : (ctx.compiled.menus.get(id) ?? null);
}

export function getShownPages(ctx: HopContext): string[] {
  const { notice, screen } = ctx.state;
  const text = notice === '' ? screen : screen === '' ? notice : `${notice}\n${screen}`;
  return paginateScreen(text, ctx.compiled.app.screenLimit);
}

/** Replies with the current page of the current screen. */
export function showScreen(ctx: HopContext, menu: CompiledMenu): void {
  const pages = getShownPages(ctx);
  const page = Math.min(ctx.state.page, pages.length - 1);
  ctx.state.page = page;
  ctx.reply = { text: pages[page], end: false };
  emitEvent(ctx, 'menu_shown', 'info', `Showed ${menu.identifier || menu.uniqueId}`, {
    menu,
    data: { text: pages[page], page, pages: pages.length, notice: ctx.state.notice || undefined },
  });
}

/** Shows the current menu again, from its first page, under `notice`. */
export function showScreenAgain(ctx: HopContext, menu: CompiledMenu, notice: string = INVALID_CHOICE_TEXT): void {
  ctx.state.notice = notice;
  ctx.state.page = 0;
  showScreen(ctx, menu);
}
