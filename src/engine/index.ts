/**
 * The Dialflow engine: a pure library with a small surface (after goflow).
 *
 *   const compiled = compileApp(appVersion);            // once per version, cache it
 *   const first = await startSession(compiled, hop, deps);
 *   const next = await continueSession(compiled, first.state, hop2, deps);
 *   const issues = lintApp(appVersion);                  // before a deploy
 *
 * It imports only src/shared and liquidjs: no clock, ids, network, database or environment of its own.
 */
export { compileApp, findOwnMenu, type CompiledApp } from './compile';
export { startSession, continueSession, resumeLostSession, offerResume } from './session';
export { extendDialOfApp, isDialOfApp } from './dial';
export { duplicateRuleMessage, formatLintIssue, lintApp, NO_EXIT_MESSAGE, unknownVariableMessage } from './lint';
export { findKnownVariables, listTemplateVariables, explainUnknownVariable, type TemplateVariable, type VariableSource } from './variables';
export { previewMenu, type PreviewSample } from './preview';
export {
  DEFAULT_LIMITS,
  UNAVAILABLE_TEXT,
  MISSING_MENU_TEXT,
  INVALID_CHOICE_TEXT,
  DEFAULT_END_TEXT,
  SESSION_LOST_TEXT,
  RESUME_OFFER_TEXT,
} from './limits';
export { isMediaRef } from './media';
export { MORE_LINE, NEXT_PAGE_INPUT, paginateScreen } from './pagination';
export type {
  ActionLogLine,
  ActionOutcome,
  ActionRequest,
  ContactChanges,
  ContactFields,
  EngineDeps,
  EndReason,
  EngineEvent,
  EngineEventData,
  EngineEventType,
  EngineLimits,
  EventLevel,
  Hop,
  HopResult,
  LintIssue,
  LintLevel,
  RenderTimeAccount,
  ReceivedMedia,
  Reply,
  ReplyAttachment,
  ResumeOffer,
  RestartReason,
  RuleData,
  SessionState,
  TemplateScope,
} from './types';
