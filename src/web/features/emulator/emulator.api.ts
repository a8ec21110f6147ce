/**
 * Every call the emulator makes (docs/product.md, Design and testing: Calls), in one place.
 *
 * `POST /ussd-emulator/{appId}` runs the app's draft. The log stream and the two debug lists (`POST /streamLogs`,
 * `POST /debug/userInputs`, `POST /debug/actionResults`) are polled every 2.5 s and need a signed-in user; a
 * featured template's data is readable one session at a time, and only for sessions the user ran, so those
 * calls carry the session id when one exists. The server binds each emulator session to its caller: the
 * signed-in user (the bearer token), or for a visitor a browser id it sets as an HttpOnly cookie, which
 * fetch sends back on its own. `toPollResult` turns a 404 or any other non-'00' answer into `unavailable` (the panels show their
 * empty state with a note instead of an error per poll) and keeps `failed` for calls that got no answer,
 * which the log panel shows as the 'Error getting logs>>{detail}' line.
 */
import type { App } from '../../../shared/api/apps.schema';
import type { z } from 'zod';
import { type actionResultEntrySchema, LOG_LEVELS, type userInputEntrySchema } from '../../../shared/api/monitoring.schema';
import { sendEmulatorRequest } from '../../../shared/api/emulator.calls';
import { isNetworkFailure, isOk, type ApiReply } from '../../lib/api';
import { call } from '../../lib/call';
import { getApp } from '../apps/apps.api';
import { findActionResults, findStreamLogs, findUserInputs } from '../logs/logs.api';
import { findFeaturedTemplates } from '../templates/templates.api';
import { toEmulatorErrorText } from './emulator-session';

/** App (read here): the fields the emulator shows. */
export type EmulatorApp = Pick<App, 'appId' | 'appName' | 'shortCode'>;

export type AppLookup = { kind: 'found'; app: EmulatorApp } | { kind: 'not-found' } | { kind: 'failed'; detail: string };

const NETWORK_DETAIL = 'the server could not be reached';

function toEmulatorApp(value: unknown): EmulatorApp | null {
  if (!value || typeof value !== 'object') return null;
  const { appId, appName, shortCode } = value as Record<string, unknown>;
  if (typeof appId !== 'string') return null;
  return { appId, appName: typeof appName === 'string' ? appName : appId, shortCode: typeof shortCode === 'string' ? shortCode : '' };
}

/** A signed-in user's app: GET /api/getAppByAppId/{appId} with the bearer token. */
export async function getEmulatorApp(appId: string): Promise<AppLookup> {
  const reply = await getApp(appId);
  if (isNetworkFailure(reply)) return { kind: 'failed', detail: NETWORK_DETAIL };
  const app = isOk(reply) ? toEmulatorApp(reply.data) : null;
  if (app) return { kind: 'found', app };
  // Someone else's app answers like a missing one: either way there is nothing to open.
  if (reply.status === '04' || reply.status === '05' || reply.status === '02') return { kind: 'not-found' };
  return { kind: 'failed', detail: reply.message ?? 'unexpected reply' };
}

/** A featured template, from the public GET /featuredTemplates list (no sign-in needed). */
export async function getTemplateApp(appId: string): Promise<AppLookup> {
  const reply = await findFeaturedTemplates();
  if (isNetworkFailure(reply)) return { kind: 'failed', detail: NETWORK_DETAIL };
  if (!isOk(reply) || !Array.isArray(reply.data)) return { kind: 'failed', detail: reply.message ?? 'unexpected reply' };
  const app = reply.data.map(toEmulatorApp).find((candidate) => candidate?.appId === appId);
  return app ? { kind: 'found', app } : { kind: 'not-found' };
}

/** Emulator request. */
export interface EmulatorRequest {
  session_id: string;
  userdata: string;
  msisdn: string;
  session_mode: 'start' | 'continue' | 'end';
  network_id: string;
  appId: string;
}

/** What the menu display modal shows; an error is an ended session whose text is the error text. */
export interface EmulatorScreen {
  text: string;
  sessionMode: 'continue' | 'end';
  isError: boolean;
  /** The shown menu's input holder (the server's optional `inputHolder`), '' when it has none. */
  inputHolder: string;
}

/**
 * POST /ussd-emulator/{appId} (sendEmulatorRequest, emulator.calls.ts). The reply's optional `inputHolder` (ours,
 * beside text and session_mode) is the reply box's placeholder. A network failure or an error reply (HTTP 400
 * `{status:'02', message}`, 404 `{status:'04', message:'App not found'}`, or a 200 not in the adapter's shape)
 * becomes `Error making webservice call : {detail}` with mode 'end'.
 */
export async function requestEmulatorScreen(request: EmulatorRequest): Promise<EmulatorScreen> {
  const reply = await call(sendEmulatorRequest, { params: { appId: request.appId }, body: request });
  if (isNetworkFailure(reply)) return { text: toEmulatorErrorText(NETWORK_DETAIL), sessionMode: 'end', isError: true, inputHolder: '' };
  if (isOk(reply) && reply.data) {
    const { text, session_mode, inputHolder = '' } = reply.data;
    return { text, sessionMode: session_mode, isError: false, inputHolder };
  }
  return { text: toEmulatorErrorText(reply.message ?? 'unexpected reply'), sessionMode: 'end', isError: true, inputHolder: '' };
}

/** Ends the session on the server when the user presses Cancel; nobody waits for the answer. */
export function endEmulatorSession(request: Omit<EmulatorRequest, 'session_mode' | 'userdata'>): void {
  void call(sendEmulatorRequest, { params: { appId: request.appId }, body: { ...request, userdata: '', session_mode: 'end' } });
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
  typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value, null, 2)
        : String(value);

export type LogLevel = (typeof LOG_LEVELS)[number];
const isLogLevel = (level: string): level is LogLevel => (LOG_LEVELS as readonly string[]).includes(level);

/** Emulator log entry. `timestamp` is passed back as the next poll's `timeStamp` untouched. */
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
  const level = String(logLevel ?? '').toLowerCase();
  return {
    id: typeof id === 'number' ? id : undefined,
    logLevel: isLogLevel(level) ? level : 'info',
    message: asText(message),
    timestamp: typeof timestamp === 'number' || typeof timestamp === 'string' ? timestamp : '',
  };
}

/**
 * POST /streamLogs `{appId, timeStamp}`: entries newer than `timeStamp`. The server's optional
 * `sessionId` narrows the stream to the emulator's session (and is what lets a signed-in visitor read a template's lines).
 */
export async function pollStreamLogs(
  appId: string,
  cursor: { timeStamp: string | number; afterId?: number },
  sessionId: string | null,
): Promise<PollResult<EmulatorLogEntry>> {
  const body = { appId, ...cursor, ...(sessionId ? { sessionId } : {}) };
  return toPollResult(await findStreamLogs(body), toLogEntry);
}

/** User input entry, as the debug panel shows it. */
export type UserInputEntry = Pick<z.infer<typeof userInputEntrySchema>, 'fieldName' | 'fieldValue'>;

/** Action result entry, as the debug panel shows it: the result as text. */
export type ActionResultEntry = Pick<z.infer<typeof actionResultEntrySchema>, 'actionName' | 'menuName'> & {
  actionResult: string;
  /** Ours, beyond the entry's three fields; the server says whether the action succeeded, and the panel shows it when given. */
  isOk?: boolean;
};

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

/** POST /debug/userInputs `{appId, sessionId}`. */
export async function pollUserInputs(appId: string, sessionId: string): Promise<PollResult<UserInputEntry>> {
  return toPollResult(await findUserInputs({ appId, sessionId }), toUserInput);
}

/** POST /debug/actionResults `{appId, sessionId}`. */
export async function pollActionResults(appId: string, sessionId: string): Promise<PollResult<ActionResultEntry>> {
  return toPollResult(await findActionResults({ appId, sessionId }), toActionResult);
}
