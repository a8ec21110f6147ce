import { saveBlob } from './save-blob';
import { getToken } from './session';

/** Every reply is the spec's envelope: `status` '00' is success; other fields depend on the call. */
export interface ApiReply<T = unknown> {
  status?: string;
  message?: string;
  data?: T;
  [extra: string]: unknown;
}

export const isOk = (reply: ApiReply) => reply.status === '00';

/** Fired when the server answers 401: the stored token is no longer valid. */
export const UNAUTHORIZED_EVENT = 'dialflow:unauthorized';

/**
 * The spec's shared helper: sends the stored token as a bearer header and returns the envelope.
 * A network error returns an empty object, as the spec says, so callers show their fallback message.
 */
export async function api<T = unknown>(
  path: string,
  options: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; auth?: boolean } = {},
): Promise<ApiReply<T>> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, auth = true } = options;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = auth ? getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return {};
  }
  if (res.status === 401 && token) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  try {
    return (await res.json()) as ApiReply<T>;
  } catch {
    return { status: '99', message: `Unexpected reply (HTTP ${res.status})` };
  }
}

/**
 * A file the server builds (an export): POSTs the body with the bearer token and saves the reply under
 * `fileName`. A refusal comes back as the envelope; it is returned so the caller can show its message.
 */
export async function downloadFile(path: string, body: unknown, fileName: string): Promise<ApiReply> {
  const token = getToken();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
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
