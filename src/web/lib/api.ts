/**
 * The console's one API client. Every call is declared in src/shared/api (`defineCall`, contract.ts) and goes
 * through `call` (lib/call.ts), which sends it with `sendRequest` and parses the reply; a file goes through
 * `downloadFile`. The helpers below read a reply the same way on every screen.
 */
import { saveBlob } from './save-blob';
import { getToken } from './session';

/** Every reply is the envelope (docs/product.md, Conventions): `status` '00' is success; other fields depend on the call. */
export interface ApiReply<T = unknown> {
  status?: string;
  message?: string;
  data?: T;
  [extra: string]: unknown;
}

export const isOk = (reply: ApiReply) => reply.status === '00';

/** The envelope's 'not found' status: another account's record, or one deleted since. */
export const isNotFound = (reply: ApiReply) => reply.status === '04';

/** The request never reached the server (offline, refused): `sendRequest` then answers an empty object, never the server. */
export const isNetworkFailure = (reply: ApiReply) => Object.keys(reply).length === 0;

/** The server's message, or the fallback when it gave none (or was never reached). */
export const replyMessage = (reply: ApiReply, fallback: string) => reply.message || fallback;

/** The server's message, or the fallback, with a hint to check the connection when the server was never reached. */
export const failureText = (reply: ApiReply, fallback: string) =>
  isNetworkFailure(reply) ? `${fallback} Check your connection and try again.` : replyMessage(reply, fallback);

/** A reply's data, or an Error with the server's message (the fallback when it gave none): what a query function returns. */
export function readData<T>(reply: ApiReply<T>, fallback: string): T {
  if (isOk(reply) && reply.data !== undefined) return reply.data;
  throw new Error(failureText(reply, fallback));
}

/** Fired when the server answers 401: the stored token is no longer valid. */
export const UNAUTHORIZED_EVENT = 'dialflow:unauthorized';

type SendOptions = { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; auth?: boolean; headers?: Record<string, string> };

/** A sent request's envelope and its HTTP status (0: the server was never reached, and the envelope is `{}`). */
export interface SentReply {
  httpStatus: number;
  reply: ApiReply;
}

/**
 * Sends one request the console's way: the stored token as a bearer header (unless `auth` is false), a JSON
 * body, and the 401 event when the server no longer takes the token. A network error answers `{}`, so callers
 * show their fallback message; a reply that is not JSON answers status '99'.
 */
export async function sendRequest(path: string, options: SendOptions = {}): Promise<SentReply> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, auth = true } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = auth ? getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { httpStatus: 0, reply: {} };
  }
  if (res.status === 401 && token) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  try {
    return { httpStatus: res.status, reply: (await res.json()) as ApiReply };
  } catch {
    return { httpStatus: res.status, reply: { status: '99', message: `Unexpected reply (HTTP ${res.status})` } };
  }
}

/**
 * Sends a file as the request's body, typed with its own Content-Type (POST /api/media takes it so), with the
 * bearer token; answers the envelope, `{}` when the server was never reached.
 */
export async function uploadFile(path: string, file: Blob): Promise<ApiReply> {
  const token = getToken();
  const headers: Record<string, string> = { 'content-type': file.type || 'application/octet-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers, body: file });
  } catch {
    return {};
  }
  if (res.status === 401 && token) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  try {
    return (await res.json()) as ApiReply;
  } catch {
    return { status: '99', message: `Unexpected reply (HTTP ${res.status})` };
  }
}

/**
 * A file the server builds (an export): POSTs the body (or GETs, for an export without one) with the bearer token
 * and saves the reply under `fileName`. A refusal comes back as the envelope; it is returned so the caller can show
 * its message.
 */
export async function downloadFile(path: string, body: unknown, fileName: string, method: 'GET' | 'POST' = 'POST'): Promise<ApiReply> {
  const token = getToken();
  const headers: Record<string, string> = method === 'POST' ? { 'content-type': 'application/json' } : {};
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, method === 'POST' ? { method, headers, body: JSON.stringify(body) } : { method, headers });
  } catch {
    return {};
  }
  if (res.status === 401 && token) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      return (await res.json()) as ApiReply;
    } catch {
      return { status: '99', message: `Unexpected reply (HTTP ${res.status})` };
    }
  }
  saveBlob(fileName, await res.blob());
  return { status: '00', message: 'OK' };
}
