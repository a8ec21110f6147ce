/**
 * The working state of one hop: the session being changed, the events so far, the clock's budget,
 * and the reply once it is decided. Helpers here are the only writers of `reply`.
 */
import type { Action, EngineLabels } from '../shared/app';
import type { CompiledApp, CompiledMenu, CompiledTranslation } from './compile';
import { measureFor, paginateScreen, toMoreLine, truncateScreen } from './pagination';
import type { Received } from './media';
import { buildScope } from './render';
import type {
  EndReason,
  EngineDeps,
  EngineEvent,
  EngineEventData,
  EngineEventType,
  ContactChanges,
  EngineLimits,
  EventLevel,
  RenderTimeAccount,
  Reply,
  SessionState,
  TemplateScope,
} from './types';

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
  /** The hop's Liquid time, for every render of the hop (screens, closing texts, action fields). */
  renderTime: HopRenderTime;
  /** What the hop set on the caller's contact, null while nothing (HopResult.contactChanges). */
  contactChanges: ContactChanges | null;
  /** A rule handed the conversation to a person (HopResult.handoff), null while none. */
  handoff: { reason: string; whatsappBotId?: string } | null;
  /** The file or location the hop carries instead of text (Hop.media, Hop.location), null for text. */
  received: Received;
}

/**
 * A hop's render time: `limits.renderBudgetMs` for the whole hop, within the tenant's share when the caller
 * keeps one (deps.renderTime). A class, not closures: one is made on every hop.
 */
export class HopRenderTime implements RenderTimeAccount {
  spentMs = 0;
  constructor(
    private readonly deps: EngineDeps,
    private readonly budgetMs: number,
  ) {}
  now(): number {
    return this.deps.renderTime ? this.deps.renderTime.now() : this.deps.now();
  }
  getAvailableMs(): number {
    const own = this.budgetMs - this.spentMs;
    return this.deps.renderTime ? Math.min(own, this.deps.renderTime.getAvailableMs()) : own;
  }
  spend(ms: number): void {
    this.spentMs += ms;
    this.deps.renderTime?.spend(ms);
  }
  /** Why a render was refused or stopped: the tenant's share used up, else the hop's own budget. */
  describeOverrun(): string {
    if (this.deps.renderTime && !(this.deps.renderTime.getAvailableMs() > 0))
      return "this account's share of render time is used up for now";
    return `${Math.round(this.spentMs)} ms used, the hop's budget is ${this.budgetMs} ms`;
  }
}

/** What an event concerns, and its data: required for a type that has data, optional where it may have none. */
export type EventAbout<T extends EngineEventType> = {
  menu?: CompiledMenu | null;
  action?: Action | null;
} & (undefined extends EngineEventData[T] ? { data?: EngineEventData[T] } : { data: EngineEventData[T] });

export function emitEvent<T extends EngineEventType>(
  ctx: HopContext,
  type: T,
  level: EventLevel,
  message: string,
  about: EventAbout<T>,
): void {
  // One literal for every type (the union's variants differ only in `type` and `data`).
  const event = {
    id: ctx.deps.newId(),
    type,
    level,
    time: ctx.deps.now(),
    appId: ctx.state.appId,
    sessionId: ctx.state.sessionId,
    menuId: about.menu?.uniqueId ?? null,
    menu: about.menu?.label ?? null,
    plugin: about.action?.inheritsPlugin ?? null,
    action: about.action?.actionName ?? null,
    message,
    data: about.data,
  } as EngineEvent;
  ctx.events.push(event);
}

/** The session's language: the one chosen, else the app's default ('' for an app without languages). */
export function getLanguage(ctx: HopContext): string {
  return ctx.state.language ?? ctx.compiled.defaultLanguage;
}

/** The engine's words in the session's language (English where the app gives none). */
export function getLabels(ctx: HopContext): EngineLabels {
  const { labels } = ctx.compiled;
  return labels.get(getLanguage(ctx)) ?? (labels.get('') as EngineLabels);
}

/** The menu's texts in the session's language, or null when it is the default language (or has no translation). */
export function getTranslation(ctx: HopContext, menu: CompiledMenu): CompiledTranslation | null {
  const { language } = ctx.state;
  return language === undefined ? null : (menu.translations.get(language) ?? null);
}

export function getScope(ctx: HopContext): TemplateScope {
  const scope = buildScope(ctx.state, ctx.input, ctx.compiled.app);
  if (ctx.received !== null) scope.inRequest.media = 'media' in ctx.received ? ctx.received.media : ctx.received.location;
  return scope;
}

export function isHalted(ctx: HopContext): boolean {
  return ctx.reply?.end === true;
}

/** Ends the session with `text`; an END screen cannot page, so an overlong one is cut. */
export function endSession(ctx: HopContext, text: string, reason: EndReason, menu: CompiledMenu | null = null): void {
  const screenLimit = getScreenLimitOf(ctx);
  const { screenCarrier } = ctx.compiled;
  const measured = measureFor(text, screenLimit, screenCarrier);
  let shown = text;
  if (measured.length > measured.limit) {
    shown = truncateScreen(text, screenLimit, screenCarrier);
    const how = measured.encoding === 'UCS-2' && screenCarrier === 'ussd' ? ' (UCS-2)' : '';
    emitEvent(
      ctx,
      'screen_truncated',
      'error',
      `Closing text is ${measured.length} characters${how}; cut to the ${measured.limit}-character screen`,
      {
        menu,
        data: { length: measured.length, limit: measured.limit },
      },
    );
  }
  ctx.state.ended = true;
  ctx.reply = { text: shown, end: true };
  emitEvent(ctx, 'session_ended', 'system', 'Session ended', { menu, data: { reason, text: shown } });
}

/**
 * An authoring fault or a blown budget: logged as an error, and the user gets a defined END screen
 * (`closing`, the unavailable label, UNAVAILABLE_TEXT in English, unless the fault has words of its own) rather than a hung or broken session.
 */
export function failHop(
  ctx: HopContext,
  message: string,
  about: EventAbout<'error_logged'> = {},
  closing: string = getLabels(ctx).unavailable,
): void {
  emitEvent(ctx, 'error_logged', 'error', message, about);
  endSession(ctx, closing, 'fault', about.menu ?? null);
}

/** The hop's budget is spent: as failHop, but the session ends as over its budget (the gateway would not wait longer). */
export function failOverBudget(ctx: HopContext, message: string, about: EventAbout<'error_logged'> = {}): void {
  emitEvent(ctx, 'error_logged', 'error', message, about);
  endSession(ctx, getLabels(ctx).unavailable, 'over_budget', about.menu ?? null);
}

/**
 * The screen limit this hop runs under: the runtime's for the gateway the session came through (EngineLimits.screenLimit),
 * else the app's own (the designer's and the lint's).
 */
export function getScreenLimitOf(ctx: HopContext): number {
  return ctx.limits.screenLimit ?? ctx.compiled.screenLimit;
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
  return paginateScreen(text, getScreenLimitOf(ctx), toMoreLine(getLabels(ctx).more), ctx.compiled.screenCarrier);
}

/** Replies with the current page of the current screen. */
export function showScreen(ctx: HopContext, menu: CompiledMenu): void {
  const pages = getShownPages(ctx);
  const page = Math.min(ctx.state.page, pages.length - 1);
  ctx.state.page = page;
  ctx.reply = { text: pages[page], end: false };
  const inputHolder = getTranslation(ctx, menu)?.inputHolder || menu.menu.inputHolder;
  if (inputHolder) ctx.reply.inputHolder = inputHolder;
  // A bot's screen keeps its link button and location request on every showing (docs/bots.md, "Media").
  if (ctx.state.linkButton) ctx.reply.linkButton = ctx.state.linkButton;
  if (menu.menu.requestLocation && menu.sendsMedia) ctx.reply.requestLocation = true;
  emitEvent(ctx, 'menu_shown', 'info', `Showed ${menu.identifier || menu.uniqueId}`, {
    menu,
    data: { text: pages[page], page, pages: pages.length, notice: ctx.state.notice || undefined },
  });
}

/** Shows the current menu again, from its first page, under `notice`. */
export function showScreenAgain(ctx: HopContext, menu: CompiledMenu, notice: string): void {
  ctx.state.notice = notice;
  ctx.state.page = 0;
  showScreen(ctx, menu);
}
