/**
 * Every call the emulator makes (spec 000 section 7), in one place.
 *
 * `POST /ussd-emulator/{appId}` runs the app's draft. The log stream and the two debug lists (`POST /streamLogs`,
 * `POST /debug/userInputs`, `POST /debug/actionResults`) are polled every 2.5 s and need a signed-in user; a
 * featured template's data is readable one session at a time, so those calls carry the session id when one
 * exists. `toPollResult` turns a 404 or any other non-'00' answer into `unavailable` (the panels show their
 * empty state with a note instead of an error per poll) and keeps `failed` for calls that got no answer,
 * which the log panel shows as the spec's 'Error getting logs>>{detail}' line.
 */
import { api, isOk, type ApiReply } from '../../lib/api';
import { toEmulatorErrorText } from './emulator-session';

/** App (read here): the fields the emulator shows. */
export interface EmulatorApp {
  appId: string;
  appName: string;
  shortCode: string;
}

export type AppLookup = { kind: 'found'; app: EmulatorApp } | { kind: 'not-found' } | { kind: 'failed'; detail: string };

const NETWORK_DETAIL = 'the server could not be reached';

/** An empty object is what the shared helper returns when the request never reached the server. */
const isNetworkFailure = (reply: ApiReply) => Object.keys(reply).length === 0;

function toEmulatorApp(value: unknown): EmulatorApp | null {
  if (!value || typeof value !== 'object') return null;
  const { appId, appName, shortCode } = value as Record<string, unknown>;
  if (typeof appId !== 'string') return null;
  return { appId, appName: typeof appName === 'string' ? appName : appId, shortCode: typeof shortCode === 'string' ? shortCode : '' };
}

/** A signed-in user's app: GET /api/getAppByAppId/{appId} with the bearer token. */
export async function getEmulatorApp(appId: string): Promise<AppLookup> {
  const reply = await api(`/api/getAppByAppId/${encodeURIComponent(appId)}`);
  if (isNetworkFailure(reply)) return { kind: 'failed', detail: NETWORK_DETAIL };
  const app = isOk(reply) ? toEmulatorApp(reply.data) : null;
  if (app) return { kind: 'found', app };
  // Someone else's app answers like a missing one: either way there is nothing to open.
  if (reply.status === '04' || reply.status === '05' || reply.status === '02') return { kind: 'not-found' };
  return { kind: 'failed', detail: reply.message ?? 'unexpected reply' };
}

/** A featured template, from the public GET /featuredTemplates list (no sign-in needed). */
export async function getTemplateApp(appId: string): Promise<AppLookup> {
  const reply = await api<unknown[]>('/featuredTemplates', { auth: false });
  if (isNetworkFailure(reply)) return { kind: 'failed', detail: NETWORK_DETAIL };
  if (!isOk(reply) || !Array.isArray(reply.data)) return { kind: 'failed', detail: reply.message ?? 'unexpected reply' };
  const app = reply.data.map(toEmulatorApp).find((candidate) => candidate?.appId === appId);
  return app ? { kind: 'found', app } : { kind: 'not-found' };
}

/** Emulator request (spec section 3). */
export interface EmulatorRequest {
  session_id: string;
  userdata: string;
  msisdn: string;
  session_mode: 'start' | 'continue' | 'end';
  network_id: string;
  appId: string;
}

/** What the menu display modal shows; an error is an ended session whose text is the spec's error text. */
export interface EmulatorScreen {
  text: string;
  sessionMode: 'continue' | 'end';
  isError: boolean;
}

/**
 * POST /ussd-emulator/{appId}. A network failure or an error reply (HTTP 400 `{status:'02', message}`,
 * 404 `{status:'04', message:'App not found'}`, or a reply carrying `error`) becomes
 * `Error making webservice call : {detail}` with mode 'end' (spec section 8).
 */
export async function sendEmulatorRequest(request: EmulatorRequest): Promise<EmulatorScreen> {
  const reply = await api(`/ussd-emulator/${encodeURIComponent(request.appId)}`, { body: request });
  if (isNetworkFailure(reply)) return { text: toEmulatorErrorText(NETWORK_DETAIL), sessionMode: 'end', isError: true };
  if (typeof reply.text === 'string' && !reply.error) {
    return { text: reply.text, sessionMode: reply.session_mode === 'end' ? 'end' : 'continue', isError: false };
  }
  const detail = reply.message ?? (typeof reply.error === 'string' ? reply.error : 'unexpected reply');
  return { text: toEmulatorErrorText(detail), sessionMode: 'end', isError: true };
}

/** Ends the session on the server when the user presses Cancel; nobody waits for the answer. */
export function endEmulatorSession(request: Omit<EmulatorRequest, 'session_mode' | 'userdata'>): void {
  void api(`/ussd-emulator/${encodeURIComponent(request.appId)}`, { body: { ...request, userdata: '', session_mode: 'end' } });
}

/** The result of one poll of a log or debug endpoint. */
export type PollResult<T> = { kind: 'ok'; data: T[] } | { kind: 'unavailable'; message: string } | { kind: 'failed'; detail: string };

function toPollResult<T>(reply: ApiReply<unknown>, read: (item: unknown) => T | null): PollResult<T> {
  if (isNetworkFailure(reply)) return { kind: 'failed', detail: NETWORK_DETAIL };
  if (!isOk(reply)) return { kind: 'unavailable', message: reply.message ?? '' };
  const items = Array.isArray(reply.data) ? reply.data : [];
  return { kind: 'ok', data: items.map(read).filter((item): item is T => item !== null) };
}

/** A value as text; objects (an action's JSON result) are pretty-printed. */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);

export type LogLevel = 'system' | 'info' | 'error' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['system', 'info', 'error', 'debug'];

/** Emulator log entry (spec section 3). `timestamp` is passed back as the next poll's `timeStamp` untouched. */
export interface EmulatorLogEntry {
  /** The server's line id: the exact cursor for the next poll (`afterId`). */
  id?: number;
  logLevel: LogLevel;
  message: string;
  timestamp: string | number;
}

function toLogEntry(item: unknown): EmulatorLogEntry | null {
  if (!item || typeof item !== 'object') return null;
  const { id, logLevel, message, timestamp } = item as Record<string, unknown>;
  const level = String(logLevel ?? '').toLowerCase() as LogLevel;
  return {
    id: typeof id === 'number' ? id : undefined,
    logLevel: LOG_LEVELS.includes(level) ? level : 'info',
    message: asText(message),
    timestamp: typeof timestamp === 'number' || typeof timestamp === 'string' ? timestamp : '',
  };
}

/**
 * POST /streamLogs `{appId, timeStamp}`: entries newer than `timeStamp` (spec section 7). The server's optional
 * `sessionId` narrows the stream to the emulator's session (and is what lets a signed-in visitor read a template's lines).
 */
export async function findStreamLogs(
  appId: string,
  cursor: { timeStamp: string | number; afterId?: number },
  sessionId: string | null,
): Promise<PollResult<EmulatorLogEntry>> {
  const body = { appId, ...cursor, ...(sessionId ? { sessionId } : {}) };
  return toPollResult(await api('/streamLogs', { body }), toLogEntry);
}

/** User input entry (spec section 3). */
export interface UserInputEntry {
  fieldName: string;
  fieldValue: string;
}

/** Action result entry (spec section 3). */
export interface ActionResultEntry {
  actionName: string;
  menuName: string;
  actionResult: string;
  /** Not in the spec's entity; the server says whether the action succeeded, and the panel shows it when given. */
  isOk?: boolean;
}

function toUserInput(item: unknown): UserInputEntry | null {
  if (!item || typeof item !== 'object') return null;
  const { fieldName, fieldValue } = item as Record<string, unknown>;
  return { fieldName: asText(fieldName), fieldValue: asText(fieldValue) };
}

function toActionResult(item: unknown): ActionResultEntry | null {
  if (!item || typeof item !== 'object') return null;
  const { actionName, menuName, actionResult, isOk } = item as Record<string, unknown>;
  const entry: ActionResultEntry = { actionName: asText(actionName), menuName: asText(menuName), actionResult: asText(actionResult) };
  if (typeof isOk === 'boolean') entry.isOk = isOk;
  return entry;
}

/** POST /debug/userInputs `{appId, sessionId}` (spec section 7). */
export async function findUserInputs(appId: string, sessionId: string): Promise<PollResult<UserInputEntry>> {
  return toPollResult(await api('/debug/userInputs', { body: { appId, sessionId } }), toUserInput);
}

/** POST /debug/actionResults `{appId, sessionId}` (spec section 7). */
export async function findActionResults(appId: string, sessionId: string): Promise<PollResult<ActionResultEntry>> {
  return toPollResult(await api('/debug/actionResults', { body: { appId, sessionId } }), toActionResult);
}
