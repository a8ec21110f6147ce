/**
 * The console's side of a declared call (src/shared/api/contract.ts): `call(declaration, input)` fills the path,
 * encodes the query string, sends the body as `sendRequest` does (token, 401 event, `{}` when the server was never
 * reached) and parses an HTTP 200 reply with the declaration's reply schema, so a screen reads the shape the server
 * promised, not a cast. `queryKey` and `callQuery` give the call's cache key from the same declaration.
 */
import type { z } from 'zod';
import type { AnyCall, CallInput, CallReplyOf, NoFields } from '../../shared/api/contract';
import { type ApiReply, downloadFile, isNetworkFailure, readData, sendRequest } from './api';

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type ValueOfUnion<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * A declared call's reply: the envelope with the reply schema's data and the extras it names (`token`...),
 * each optional, as a refusal (any status but '00') carries only what the server put in it. A bare call's body
 * (`bare`) is the envelope's `data`.
 */
export type CallReply<C extends AnyCall> = ApiReply<CallData<C>> & (C extends { bare: true } ? NoFields : ExtrasOf<C>) & RefusalOf<C>;

/** The reply's data: the envelope's `data`, or a bare call's whole body. */
export type CallData<C extends AnyCall> = C extends { bare: true } ? CallReplyOf<C> : ValueOfUnion<CallReplyOf<C>, 'data'>;

/** The extras an envelope names beyond status, message and data (`token`...). */
type ExtrasOf<C extends AnyCall> = {
  [K in Exclude<KeysOfUnion<CallReplyOf<C>>, 'status' | 'message' | 'data'>]?: ValueOfUnion<CallReplyOf<C>, K>;
};

/** The extras a declared refusal carries (`refusal`), each optional. */
type RefusalOf<C extends AnyCall> = C extends { refusal: z.ZodType } ? Partial<z.output<C['refusal']>> : NoFields;

/** What `call` takes: the declaration's input, and headers of the console's own (a sign-in's proof of work). */
export type CallArgs<C extends AnyCall> = CallInput<C> & { headers?: Record<string, string> };

/** The input argument: optional when the call takes none, or only optional fields. */
type InputArgs<C extends AnyCall> = NoFields extends CallInput<C> ? [input?: CallArgs<C>] : [input: CallArgs<C>];

type Fields = Record<string, unknown>;

const fieldsOf = (value: unknown): Fields => (value && typeof value === 'object' ? (value as Fields) : {});

/** The path with each `:name` segment replaced by its encoded param; a missing param is a bug in the caller. */
export function fillPath(path: string, params: Fields): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_segment, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x` from the query's fields; undefined and null are left out, an array repeats its name. */
export function encodeQuery(query: Fields): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The call's URL: its path with the input's params filled in, then the input's query string. */
function toUrl(declaration: AnyCall, input: unknown): string {
  const { params, query } = fieldsOf(input);
  return fillPath(declaration.path, fieldsOf(params)) + encodeQuery(fieldsOf(query));
}

/**
 * Status '99' when a 200 reply is not the shape the declaration names: the console and the server disagree
 * (usually a console older than the server), so the screen shows its failure text rather than reading a wrong
 * shape; the mismatch is logged in development, where it is a bug to fix in the declaration or the route.
 */
export const UNEXPECTED_REPLY_MESSAGE = 'The server answered in a shape this console does not know. Reload the page and try again.';

function unexpectedReply(declaration: AnyCall, issues: unknown): ApiReply {
  if (import.meta.env.DEV) console.error(`${declaration.method} ${declaration.path}: the reply does not match its declaration`, issues);
  return { status: '99', message: UNEXPECTED_REPLY_MESSAGE };
}

/** A refusal as the server sent it, its declared extras parsed; extras that do not match are dropped. */
function readRefusal(declaration: AnyCall, reply: ApiReply): ApiReply {
  if (!declaration.refusal || isNetworkFailure(reply)) return reply;
  const extras = declaration.refusal.safeParse(reply);
  return extras.success
    ? { status: reply.status, message: reply.message, ...(extras.data as object) }
    : { status: reply.status, message: reply.message };
}

/** Sends a declared call and returns its envelope, a 200 reply parsed with the declaration's reply schema. */
export async function call<C extends AnyCall>(declaration: C, ...[input]: InputArgs<C>): Promise<CallReply<C>> {
  const { body, headers } = fieldsOf(input);
  const sent = await sendRequest(toUrl(declaration, input), {
    method: declaration.method,
    body: declaration.body ? (body ?? {}) : undefined,
    auth: declaration.auth,
    headers: headers as Record<string, string> | undefined,
  });
  if (sent.httpStatus !== 200) return readRefusal(declaration, sent.reply) as CallReply<C>;
  const parsed = declaration.reply.safeParse(sent.reply);
  if (!parsed.success) return unexpectedReply(declaration, parsed.error.issues) as CallReply<C>;
  return (declaration.bare ? { status: '00', message: 'OK', data: parsed.data } : parsed.data) as CallReply<C>;
}

/**
 * The call's cache key: its declared `key`, each `:name` segment filled from the input field of that name
 * (params, then query, then body), then one object of the input fields the key did not name, if any.
 */
export function queryKey<C extends AnyCall & { key: readonly string[] }>(declaration: C, ...[input]: InputArgs<C>): unknown[] {
  const { params, query, body } = fieldsOf(input);
  const fields: Fields = { ...fieldsOf(body), ...fieldsOf(query), ...fieldsOf(params) };
  const named = new Set<string>();
  const key: unknown[] = declaration.key.map((segment) => {
    if (!segment.startsWith(':')) return segment;
    const name = segment.slice(1);
    named.add(name);
    return fields[name];
  });
  const rest = Object.fromEntries(Object.entries(fields).filter(([name, value]) => !named.has(name) && value !== undefined));
  return Object.keys(rest).length > 0 ? [...key, rest] : key;
}

/**
 * A query's options for a declared call: its key and a function that answers the reply's data, or throws an
 * Error with the server's message (`fallback` when it gave none, with a hint when it was never reached).
 * @example useQuery(callQuery(findSmsMessages, { query: { limit: 500 } }, 'The SMS outbox could not be loaded.'))
 */
export function callQuery<C extends AnyCall & { key: readonly string[] }>(declaration: C, input: CallInput<C>, fallback: string) {
  return {
    queryKey: queryKey(declaration, ...([input] as InputArgs<C>)),
    queryFn: async () => readData(await call(declaration, ...([input] as InputArgs<C>)), fallback),
  };
}

/**
 * Sends a declared file call (`file: true`, an export) and saves its reply under `fileName`; a refusal comes back
 * as the envelope, for the caller to show its message.
 */
export function downloadCall<C extends AnyCall & { file: true }>(declaration: C, input: CallInput<C>, fileName: string): Promise<ApiReply> {
  const method = declaration.method === 'GET' ? 'GET' : 'POST';
  return downloadFile(toUrl(declaration, input), fieldsOf(input).body ?? {}, fileName, method);
}
