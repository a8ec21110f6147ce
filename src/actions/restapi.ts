// Over 400 lines: the call's rendering by context, redirects and body cap are one security boundary, reviewed as one file.
/**
 * restapi: one HTTP call a builder configured, made from our servers inside a USSD hop. Url, header values,
 * basic auth and payload are templates; each `{{ expression }}` is rendered on its own and placed by context
 * (JSON-escaped in JSON, percent-encoded in the url path and query, XML-escaped in XML), so a user's input
 * stays data. Connections go through the address guard at connect time, every redirect hop again (at most 5);
 * the platform's own servers are never reached, this server itself only on the demo bank's paths; every request
 * carries `Dialflow-Hop` (refused wherever it arrives back) and no forwarding header; the response body is
 * capped; the call ends at the action's deadline.
 *
 * @example
 *   code: { method: 'POST', url: 'https://api.example.com/users/{{ session.mobile }}', contentType: 'application/json',
 *           payload: '{"amount": {{ session.inputs.amount }}, "note": "{{ inRequest.input }}"}', headers: [], basicAuth: null }
 *   actions.<name> = { status: 200, ok: true, headers: { 'content-type': 'application/json' }, body: { ... } }
 *   // A 2xx answer that is a file (a PDF receipt) is handed to the server's keeper and stored:
 *   actions.<name> = { status: 200, ok: true, headers: { 'content-type': 'application/pdf' }, body: '', file: { mediaId, kind: 'document', ... } }
 */
import net, { type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { RestapiCode } from '../shared/app';
import type { ActionInput, ActionLogLine, ActionOutcome, ActionRunner } from '../shared/actions/runner';
import {
  RefusedAddressError,
  assertNotOwnHost,
  assertNotPlatformService,
  createGuardedLookup,
  describeRefusedAddress,
  findAddressProblem,
  isHostAllowed,
  findRefusedAddressError,
  resolveGuarded,
  type AddressRules,
} from './net/address-guard';
import { hasTags, splitTemplate } from './net/template-parts';
import { ACTION_HOP_HEADER, ACTION_HOP_MARK, isForwardingHeader } from './net/outbound-headers';
import { toErrorMessage } from '../shared/errors';
import { MEDIA_KINDS, MEDIA_TYPES, mediaKindOf } from '../shared/media';

export interface RestapiRunnerOptions extends AddressRules {
  /** Largest response body read, in bytes; a larger one fails the action. Default 256 KB. */
  maxBodyBytes?: number;
  /** Upper bound on one call in ms; the action's deadline always applies. Default: the deadline only. */
  timeoutMs?: number;
  /** Redirects followed before the call fails. Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** Certificates trusted for https besides the system's (OUTBOUND_CA_FILE: an internal CA), PEM. */
  ca?: string;
  /**
   * Keeps a response that is a file ({@link findFileResponse}): the server stores it for the app's account and
   * answers its MediaRef, which becomes the result's `file`; a file refused throws its reason (the action fails
   * with it). Without it, every response is a body.
   */
  keepFile?: KeepFile;
  /**
   * The platform's own server: a call to one of the paths it answers actions on (the demo bank) goes through
   * `rules`, which let it reach the server; every other call goes through the runner's own rules, which refuse
   * the server (its address and port in `platformServices`, its public name in `ownHosts`). Chosen again at
   * every redirect.
   */
  ownServer?: { rules: AddressRules; isPathAllowed(pathname: string): boolean };
}

export interface RestapiResult {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: unknown;
  /** The file the response was, as kept (a MediaRef); `body` is then ''. */
  file?: unknown;
}

/** A file's bytes as an address answered them, with the type it claimed (checked against the bytes by the store). */
export interface FetchedFile {
  bytes: Buffer;
  mimeType: string;
  fileName?: string;
}

export type KeepFile = (input: ActionInput<'restapi'>, file: FetchedFile) => Promise<unknown>;

/** Fetches a file by its https address through the runner's guarded path; throws with the reason. */
export type FetchFile = (address: string, limits: { maxBytes: number; timeoutMs: number }) => Promise<FetchedFile>;

export type RestapiRunner = ActionRunner<'restapi'> & { fetchFile: FetchFile; close(): Promise<void> };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers the runner owns; a builder's value for them is ignored. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'accept-encoding',
  'proxy-authorization',
  'expect',
]);

class ActionFailure extends Error {}

/**
 * An undici connector that applies the address rules when the socket is opened: IP literals are checked
 * before connecting, names through a guarded DNS lookup (so the address actually dialled is the one checked),
 * and the connected socket's remote address and port once more. `allowHosts` entries skip the address rules
 * for that host:port, never the platform-service rule.
 */
export function createGuardedConnector(rules: AddressRules, connectTimeoutMs = 10_000, ca?: string): buildConnector.connector {
  // Extra certificates add to the system's, never replace them.
  const tls = ca ? { ca: [...rootCertificates, ca] } : {};
  const open = buildConnector({ timeout: connectTimeoutMs, ...tls });
  // The lookup needs the port (allowHosts entries and platform services are host:port): one connector per
  // port, each keeping its own TLS session cache.
  const byPort = new Map<number, buildConnector.connector>();
  const getGuarded = (port: number) => {
    let connector = byPort.get(port);
    if (!connector) {
      if (byPort.size >= 64) byPort.delete(byPort.keys().next().value!);
      connector = buildConnector({ timeout: connectTimeoutMs, lookup: createGuardedLookup({ ...rules, port }), ...tls });
      byPort.set(port, connector);
    }
    return connector;
  };
  const checkConnected = async (host: string, socket: Socket, isAllowed: boolean): Promise<void> => {
    const remote = socket.remoteAddress;
    if (!remote) throw new RefusedAddressError(`Refused: ${host} connected to an unknown address`);
    const problem = isAllowed ? null : findAddressProblem(remote, rules);
    if (problem) throw new RefusedAddressError(describeRefusedAddress(host, remote, problem, socket.remotePort));
    await assertNotPlatformService(host, socket.remotePort ?? 0, [{ address: remote }], rules);
  };
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const host = options.hostname;
    try {
      assertNotOwnHost(host, port, rules);
    } catch (refused) {
      return callback(refused as Error, null);
    }
    const isAllowed = isHostAllowed(rules.allowHosts, host, port);
    const connect = (dial: buildConnector.connector) =>
      dial(options, (...args) => {
        const [err, socket] = args;
        if (err) return callback(err, null);
        checkConnected(host, socket!, isAllowed).then(
          () => callback(null, socket!),
          (refused: Error) => {
            socket!.destroy();
            callback(refused, null);
          },
        );
      });
    if (!net.isIP(host)) return connect(getGuarded(port));
    // A literal dials no lookup: check it (and whether it is a platform service) before the socket opens.
    resolveGuarded(host, port, rules).then(
      () => connect(open),
      (refused: Error) => callback(refused, null),
    );
  };
}

/** The url without credentials or query string, for messages and logs (query strings often carry keys). */
function describeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** Renders a template, passing each output expression's value through `place` with the text rendered so far. */
function renderPlaced(input: ActionInput<'restapi'>, source: string, place: (value: string, before: string) => string): string {
  if (!source.includes('{{') && !source.includes('{%')) return source;
  const parts = splitTemplate(source);
  if (hasTags(parts)) return input.renderTemplate(source);
  let out = '';
  for (const part of parts) out += part.kind === 'text' ? part.text : place(input.renderTemplate(part.source), out);
  return out;
}

/** Url: expressions in the scheme and authority are raw (a base url in a variable), later ones percent-encoded. */
export function renderUrl(input: ActionInput<'restapi'>, source: string): string {
  return renderPlaced(input, source.trim(), (value, before) => {
    const schemeEnd = before.indexOf('://');
    const inAuthority = schemeEnd === -1 || !/[/?#]/.test(before.slice(schemeEnd + 3));
    return inAuthority ? value : encodeURIComponent(value);
  });
}

/** True when `before` (JSON text) ends inside a string literal. */
function isInsideJsonString(before: string): boolean {
  let inString = false;
  for (let i = 0; i < before.length; i++) {
    const ch = before[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
  }
  return inString;
}

/**
 * JSON payload: an expression inside a string is JSON-escaped; a bare one is inserted as-is when its value
 * is one JSON value (a number, true, an object from `| json`), else as a JSON string. So `"{{ x }}"` with
 * `x = a", "admin": true` stays one string, and `{{ amount }}` with `0244` becomes "0244", not a syntax error.
 */
export function renderJsonPayload(input: ActionInput<'restapi'>, source: string): string {
  return renderPlaced(input, source, (value, before) => {
    if (isInsideJsonString(before)) return JSON.stringify(value).slice(1, -1);
    const trimmed = value.trim();
    if (trimmed !== '') {
      try {
        JSON.parse(trimmed);
        return trimmed;
      } catch {
        // not one JSON value: quoted below
      }
    }
    return JSON.stringify(value);
  });
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function toFormBody(json: unknown): string | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return params.toString();
}

/** The request body for a content type; throws ActionFailure with the builder-facing message. */
export function buildBody(input: ActionInput<'restapi'>, code: RestapiCode): string | null {
  const source = code.payload ?? '';
  if (source.trim() === '') return null;
  switch (code.contentType) {
    case 'application/json': {
      const body = renderJsonPayload(input, source);
      try {
        JSON.parse(body);
      } catch (err) {
        throw new ActionFailure(`Request body must be valid JSON after templates: ${toErrorMessage(err)}`);
      }
      return body;
    }
    case 'application/x-www-form-urlencoded': {
      if (source.trim().startsWith('{')) {
        const json = renderJsonPayload(input, source);
        let parsed: unknown;
        try {
          parsed = JSON.parse(json);
        } catch (err) {
          throw new ActionFailure(`Form payload written as JSON must be valid JSON after templates: ${toErrorMessage(err)}`);
        }
        const form = toFormBody(parsed);
        if (form === null) throw new ActionFailure('Form payload written as JSON must be an object');
        return form;
      }
      return renderPlaced(input, source.trim(), (value) => formEncode(value));
    }
    case 'application/xml':
    case 'text/xml':
      return renderPlaced(input, source, (value) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]));
    default:
      return input.renderTemplate(source);
  }
}

function buildHeaders(input: ActionInput<'restapi'>, code: RestapiCode, userAgent: string, logs: ActionLogLine[]): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, accept: 'application/json, text/plain, */*' };
  for (const { key, value } of code.headers ?? []) {
    const name = key.trim().toLowerCase();
    if (!name) continue;
    if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name)) throw new ActionFailure(`Header name "${key}" is not a valid header name`);
    if (RESERVED_HEADERS.has(name) || name === ACTION_HOP_HEADER) {
      logs.push({ level: 'debug', message: `Header ${key} is set by the runner; the action's value is ignored` });
      continue;
    }
    if (isForwardingHeader(name)) {
      logs.push({ level: 'debug', message: `Header ${key} says where a request came from; it is never sent` });
      continue;
    }
    const rendered = input.renderTemplate(value);
    if (/[\r\n\0]/.test(rendered)) throw new ActionFailure(`Header ${key} contains a line break after templates`);
    headers[name] = rendered;
  }
  if (code.basicAuth && (code.basicAuth.username || code.basicAuth.password)) {
    const user = input.renderTemplate(code.basicAuth.username);
    const pass = input.renderTemplate(code.basicAuth.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`, 'utf8').toString('base64')}`;
  }
  headers[ACTION_HOP_HEADER] = ACTION_HOP_MARK;
  return headers;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Reads a response body up to `max` bytes: past it, the call fails; with `truncate`, the bytes read so far (`max`
 * of them) are answered instead, for a caller that judges the size itself (a file: its store refuses it in words).
 */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
  where: string,
  { truncate = false }: { truncate?: boolean } = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const piece = chunk as Buffer;
    if (size + piece.length > max) {
      body.destroy();
      if (!truncate) throw new ActionFailure(`Response from ${where} is larger than ${max} bytes`);
      chunks.push(piece.subarray(0, max - size));
      return Buffer.concat(chunks);
    }
    size += piece.length;
    chunks.push(piece);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether a successful response is a file to keep (docs/runtime.md, "Actions and files"): its Content-Type is one of the
 * media types WhatsApp takes other than plain text (a PDF, an image, audio, video, an Office document), or it is
 * sent as an attachment (`Content-Disposition: attachment`). Answers the most it may weigh; null for a body.
 */
export function findFileResponse(headers: Record<string, string>): { maxBytes: number } | null {
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const kind = mediaKindOf(contentType);
  if (kind && contentType !== 'text/plain') return { maxBytes: MEDIA_TYPES[kind].maxBytes };
  if (/^\s*attachment\b/i.test(headers['content-disposition'] ?? '')) return { maxBytes: LARGEST_FILE };
  return null;
}

const LARGEST_FILE = Math.max(...MEDIA_KINDS.map((kind) => MEDIA_TYPES[kind].maxBytes));

/** A file's name: Content-Disposition's `filename`, else the address's last path segment (`receipt.pdf`). */
function readFileName(disposition: string | undefined, url: URL): string | undefined {
  const quoted = /filename\s*=\s*"([^"]*)"/i.exec(disposition ?? '') ?? /filename\s*=\s*([^;\s]+)/i.exec(disposition ?? '');
  const fromHeader = quoted?.[1]?.trim();
  if (fromHeader) return fromHeader;
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || undefined;
  } catch {
    return last || undefined;
  }
}

function parseBody(buffer: Buffer, contentType: string | undefined): unknown {
  const text = buffer.toString('utf8');
  if (contentType && /[/+]json\b/i.test(contentType) && text.trim() !== '') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function resolveMethod(code: RestapiCode): string {
  if (code.method) return code.method;
  return code.payload?.trim() ? 'POST' : 'GET';
}

export function createRestapiRunner(options: RestapiRunnerOptions): RestapiRunner {
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const userAgent = options.userAgent ?? 'Dialflow/1.0';
  const keepFile = options.keepFile;
  const createAgent = (rules: AddressRules) =>
    new Agent({ connect: createGuardedConnector(rules, undefined, options.ca), keepAliveTimeout: 4_000, connections: 32 });
  const agent = createAgent({
    allowPrivate: options.allowPrivate,
    allowHosts: options.allowHosts,
    platformServices: options.platformServices,
    ownHosts: options.ownHosts,
  });
  const ownServer = options.ownServer;
  const ownAgent = ownServer ? createAgent(ownServer.rules) : null;
  const chooseAgent = (url: URL) => (ownAgent && ownServer!.isPathAllowed(url.pathname) ? ownAgent : agent);

  /**
   * Sends a request and follows its redirects (at most `maxRedirects`), each hop through the guarded agents:
   * the one path every outbound HTTP call of a builder's takes (the action, a bot's file by address). `httpsOnly`
   * refuses a redirect to anything but https.
   */
  async function sendFollowingRedirects(
    call: { url: URL; method: string; headers: Record<string, string>; body: string | null; signal: AbortSignal; httpsOnly?: boolean },
    logs: ActionLogLine[],
  ): Promise<{ response: Dispatcher.ResponseData; url: URL; method: string }> {
    let { url, method, body } = call;
    const headers = { ...call.headers };
    const visited = new Set<string>([url.href]);
    for (let redirects = 0; ; redirects++) {
      const response = await request(url, {
        dispatcher: chooseAgent(url),
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: call.signal,
      });
      const location = response.headers.location;
      if (!(REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string' && location)) return { response, url, method };
      await response.body.dump();
      if (redirects >= maxRedirects) throw new ActionFailure(`Too many redirects from ${describeUrl(url)} (more than ${maxRedirects})`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ActionFailure(`Redirect from ${describeUrl(url)} to an invalid URL`);
      }
      if (next.protocol !== 'https:' && (call.httpsOnly || next.protocol !== 'http:'))
        throw new ActionFailure(`Redirect from ${describeUrl(url)} to a ${next.protocol} URL refused`);
      if (visited.has(next.href)) throw new ActionFailure(`Redirect loop at ${describeUrl(next)}`);
      visited.add(next.href);
      // 303 always, 301 and 302 for POST, become a GET without a body (as browsers and fetch do).
      if (
        response.statusCode === 303 ? method !== 'HEAD' : (response.statusCode === 301 || response.statusCode === 302) && method === 'POST'
      ) {
        method = 'GET';
        body = null;
        delete headers['content-type'];
      }
      // Credentials are for the origin the builder named, never for wherever it redirects.
      if (next.origin !== url.origin) {
        delete headers.authorization;
        delete headers.cookie;
      }
      logs.push({ level: 'debug', message: `${describeUrl(url)} redirected (${response.statusCode}) to ${describeUrl(next)}` });
      url = next;
    }
  }

  /**
   * A file by its https address, for a bot to send (docs/media.md): the same guarded path as the action (address
   * rules at connect time and on every redirect, which must stay https), a GET with no credentials, read to at
   * most `maxBytes` + 1 so that the store refuses a larger file in its own words. Throws with the reason.
   */
  async function fetchFile(address: string, limits: { maxBytes: number; timeoutMs: number }): Promise<FetchedFile> {
    const url = new URL(address);
    if (url.protocol !== 'https:') throw new Error(`${describeUrl(url)} is not an https:// address`);
    if (url.username || url.password) throw new Error(`${describeUrl(url)} carries credentials, which a file's address may not`);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
    const headers = { 'user-agent': userAgent, accept: '*/*', [ACTION_HOP_HEADER]: ACTION_HOP_MARK };
    try {
      const sent = await sendFollowingRedirects(
        { url, method: 'GET', headers, body: null, signal: controller.signal, httpsOnly: true },
        [],
      );
      const where = describeUrl(sent.url);
      const { response } = sent;
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new ActionFailure(`${where} answered ${response.statusCode}`);
      }
      const bytes = await readCapped(response.body, limits.maxBytes + 1, where, { truncate: true });
      const responseHeaders = flattenHeaders(response.headers);
      const fileName = readFileName(responseHeaders['content-disposition'], sent.url);
      return { bytes, mimeType: responseHeaders['content-type'] ?? '', ...(fileName ? { fileName } : {}) };
    } catch (err) {
      if (controller.signal.aborted) throw new Error(`${describeUrl(url)} did not answer within ${limits.timeoutMs} ms`);
      const refusal = findRefusedAddressError(err);
      if (refusal) throw new Error(refusal.message);
      if (err instanceof ActionFailure) throw new Error(err.message);
      throw new Error(`${describeUrl(url)} could not be fetched: ${describeError(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(input: ActionInput<'restapi'>): Promise<ActionOutcome> {
    const code = input.action.code;
    const logs: ActionLogLine[] = [];
    const started = Date.now();
    const budget = Math.min(input.deadline - started, options.timeoutMs ?? Number.POSITIVE_INFINITY);
    let url: URL | null = null;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, budget));
    try {
      let rendered: string;
      try {
        rendered = renderUrl(input, code.url ?? '');
      } catch (err) {
        throw new ActionFailure(`Request URL template failed: ${toErrorMessage(err)}`);
      }
      if (!rendered) throw new ActionFailure('Request URL is required.');
      try {
        url = new URL(rendered);
      } catch {
        throw new ActionFailure(`Request URL is not a valid URL: ${rendered.slice(0, 200)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new ActionFailure(`Request URL must be http or https, not ${url.protocol}`);

      const method = resolveMethod(code);
      let headers: Record<string, string>;
      let body: string | null;
      try {
        headers = buildHeaders(input, code, userAgent, logs);
        body = method === 'GET' ? null : buildBody(input, code);
      } catch (err) {
        if (err instanceof ActionFailure) throw err;
        throw new ActionFailure(`Template failed: ${toErrorMessage(err)}`);
      }
      if (url.username || url.password) {
        if (!headers.authorization) {
          headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
        }
        url.username = '';
        url.password = '';
      }
      if (body !== null && !headers['content-type']) headers['content-type'] = code.contentType;
      if (budget <= 0) throw Object.assign(new Error('deadline passed'), { name: 'AbortError' });

      const sent = await sendFollowingRedirects({ url, method, headers, body, signal: controller.signal }, logs);
      url = sent.url;
      const { response } = sent;
      const where = describeUrl(url);
      const responseHeaders = flattenHeaders(response.headers);
      const status = response.statusCode;
      const isOk = status >= 200 && status < 300;
      const file = keepFile && isOk ? findFileResponse(responseHeaders) : null;
      if (file) {
        // A file is read to one byte past its kind's limit, so the store refuses it as too large in its own words.
        const bytes = await readCapped(response.body, file.maxBytes + 1, where, { truncate: true });
        const fileName = readFileName(responseHeaders['content-disposition'], url);
        let ref: unknown;
        try {
          ref = await keepFile!(input, { bytes, mimeType: responseHeaders['content-type'] ?? '', ...(fileName ? { fileName } : {}) });
        } catch (err) {
          throw new ActionFailure(`The file ${where} answered with was not kept: ${toErrorMessage(err)}`);
        }
        logs.push({
          level: 'debug',
          message: `${sent.method} ${where} answered ${status} with a file (${bytes.length} bytes) in ${Date.now() - started} ms`,
        });
        const result: RestapiResult = { status, ok: isOk, headers: responseHeaders, body: '', file: ref };
        return { ok: true, result, logs };
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        response.body.destroy();
        throw new ActionFailure(`Response from ${where} is larger than ${maxBodyBytes} bytes`);
      }
      const buffer = await readCapped(response.body, maxBodyBytes, where);
      const result: RestapiResult = {
        status,
        ok: isOk,
        headers: responseHeaders,
        body: parseBody(buffer, responseHeaders['content-type']),
      };
      logs.push({ level: 'debug', message: `${sent.method} ${where} answered ${status} in ${Date.now() - started} ms` });
      return { ok: true, result, logs };
    } catch (err) {
      const where = url ? describeUrl(url) : 'the URL';
      if (controller.signal.aborted || (err as Error).name === 'AbortError') {
        return { ok: false, timedOut: true, error: `Request to ${where} timed out after ${Math.max(0, budget)} ms`, logs };
      }
      const refusal = findRefusedAddressError(err);
      if (refusal) return { ok: false, error: refusal.message, logs };
      if (err instanceof ActionFailure) return { ok: false, error: err.message, logs };
      return { ok: false, error: `Request to ${where} failed: ${describeError(err)}`, logs };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    run,
    fetchFile,
    close: async () => {
      await Promise.all([agent.close(), ownAgent?.close()]);
    },
  };
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
