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
import { getApp } from '../../../shared/api/apps.calls';
import { sendEmulatorRequest } from '../../../shared/api/emulator.calls';
import { findActionResults, findStreamLogs, findUserInputs } from '../../../shared/api/logs.calls';
import { type actionResultEntrySchema, LOG_LEVELS, type userInputEntrySchema } from '../../../shared/api/monitoring.schema';
import { findFeaturedTemplates } from '../../../shared/api/templates.calls';
import { isNetworkFailure, isOk, type ApiReply } from '../../lib/api';
import { call, queryKey } from '../../lib/call';
import { toEmulatorErrorText } from './emulator-session';

/** App (read here): the fields the emulator shows. */
export type EmulatorApp = Pick<App, 'appId' | 'appName' | 'shortCode'>;

export type AppLookup = { kind: 'found'; app: EmulatorApp } | { kind: 'not-found' } | { kind: 'failed'; detail: string };

const NETWORK_DETAIL = 'the server could not be reached';
/** The app lookup's answers that mean there is no app to open: not found, not allowed, or an id that cannot be one. */
const NOT_FOUND_STATUSES = ['04', '05', '02'];

/** Why the emulator has no app to open: `not-found` (missing, or another account's), or `failed` with the detail shown. */
export class AppLookupError extends Error {
  constructor(
    readonly kind: 'not-found' | 'failed',
    detail: string,
  ) {
    super(detail);
  }
}

function failedLookup(reply: ApiReply): AppLookupError {
  return new AppLookupError('failed', isNetworkFailure(reply) ? NETWORK_DETAIL : (reply.message ?? 'unexpected reply'));
}

/**
 * A signed-in user's app (GET /api/getAppByAppId/{appId}), cached under the call's own key, which the console's
 * screens of the app share: an edit there refreshes the emulator's copy.
 */
export function emulatorAppQuery(appId: string) {
  const input = { params: { appId } };
  return {
    queryKey: queryKey(getApp, input),
    queryFn: async (): Promise<App> => {
      const reply = await call(getApp, input);
      if (isOk(reply) && reply.data) return reply.data;
      // Someone else's app answers like a missing one: either way there is nothing to open.
      if (NOT_FOUND_STATUSES.includes(reply.status ?? '')) throw new AppLookupError('not-found', reply.message ?? '');
      throw failedLookup(reply);
    },
  };
}

/** The featured templates (the public GET /featuredTemplates), cached under the call's key, as the gallery reads them. */
export function templateAppsQuery() {
  return {
    queryKey: queryKey(findFeaturedTemplates),
    queryFn: async (): Promise<App[]> => {
      const reply = await call(findFeaturedTemplates);
      if (isOk(reply) && reply.data) return reply.data;
      throw failedLookup(reply);
    },
  };
}

const toEmulatorApp = ({ appId, appName, shortCode }: App): EmulatorApp => ({ appId, appName: appName || appId, shortCode });

/** What the emulator opens: the app (one, or found among the templates), or why there is none. */
export function toAppLookup(appId: string, data: App | App[] | undefined, error: Error | null): AppLookup {
  if (error instanceof AppLookupError && error.kind === 'not-found') return { kind: 'not-found' };
  if (error) return { kind: 'failed', detail: error.message };
  const app = Array.isArray(data) ? data.find((candidate) => candidate.appId === appId) : data;
  return app ? { kind: 'found', app: toEmulatorApp(app) } : { kind: 'not-found' };
}

/** Emulator request. */
export interface EmulatorRequest {
  session_id: string;
  userdata: string;
  msisdn: string;
  session_mode: 'start' | 'continue' | 'end';
  network_id: string;
  appId: string;
  /** A deployed version to run instead of the draft (`?version=N`, the versions list's "Try in emulator"). */
  version?: number;
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
 * POST /ussd-emulator/{appId}[?version=N] (sendEmulatorRequest, emulator.calls.ts). The reply's optional `inputHolder` (ours,
 * beside text and session_mode) is the reply box's placeholder. A network failure or an error reply (HTTP 400
 * `{status:'02', message}`, 404 `{status:'04', message:'App not found'}`, or a 200 not in the adapter's shape)
 * becomes `Error making webservice call : {detail}` with mode 'end'.
 */
export async function requestEmulatorScreen(request: EmulatorRequest): Promise<EmulatorScreen> {
  const reply = await call(sendEmulatorRequest, toEmulatorCall(request));
  if (isNetworkFailure(reply)) return { text: toEmulatorErrorText(NETWORK_DETAIL), sessionMode: 'end', isError: true, inputHolder: '' };
  if (isOk(reply) && reply.data) {
    const { text, session_mode, inputHolder = '' } = reply.data;
    return { text, sessionMode: session_mode, isError: false, inputHolder };
  }
  return { text: toEmulatorErrorText(reply.message ?? 'unexpected reply'), sessionMode: 'end', isError: true, inputHolder: '' };
}

/** Ends the session on the server when the user presses Cancel; nobody waits for the answer. */
export function endEmulatorSession(request: Omit<EmulatorRequest, 'session_mode' | 'userdata'>): void {
  void call(sendEmulatorRequest, toEmulatorCall({ ...request, userdata: '', session_mode: 'end' }));
}

/** A request as the call sends it: the version, when there is one, in the query string, the rest in the body. */
function toEmulatorCall({ version, ...body }: EmulatorRequest) {
  return { params: { appId: body.appId }, query: version ? { version } : {}, body };
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
  return toPollResult(await call(findStreamLogs, { body }), toLogEntry);
}

/** User input entry, as the debug panel shows it; `media`: the file a photo or document input received. */
export type UserInputEntry = Pick<z.infer<typeof userInputEntrySchema>, 'fieldName' | 'fieldValue' | 'media'>;

/** Action result entry, as the debug panel shows it: the result as text. */
export type ActionResultEntry = Pick<z.infer<typeof actionResultEntrySchema>, 'actionName' | 'menuName'> & {
  actionResult: string;
  /** Ours, beyond the entry's three fields; the server says whether the action succeeded, and the panel shows it when given. */
  isOk?: boolean;
};

function toUserInput(item: unknown): UserInputEntry | null {
  if (!item || typeof item !== 'object') return null;
  const { fieldName, fieldValue, media } = item as UserInputEntry;
  return { fieldName: asText(fieldName), fieldValue: asText(fieldValue), ...(media ? { media } : {}) };
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
  return toPollResult(await call(findUserInputs, { body: { appId, sessionId } }), toUserInput);
}

/** POST /debug/actionResults `{appId, sessionId}`. */
export async function pollActionResults(appId: string, sessionId: string): Promise<PollResult<ActionResultEntry>> {
  return toPollResult(await call(findActionResults, { body: { appId, sessionId } }), toActionResult);
}
