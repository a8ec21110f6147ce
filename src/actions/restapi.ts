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
 */
import net, { type Socket } from 'node:net';
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

export interface RestapiRunnerOptions extends AddressRules {
  /** Largest response body read, in bytes; a larger one fails the action. Default 256 KB. */
  maxBodyBytes?: number;
  /** Upper bound on one call in ms; the action's deadline always applies. Default: the deadline only. */
  timeoutMs?: number;
  /** Redirects followed before the call fails. Default 5. */
  maxRedirects?: number;
  userAgent?: string;
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
}

export type RestapiRunner = ActionRunner<'restapi'> & { close(): Promise<void> };

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
export function createGuardedConnector(rules: AddressRules, connectTimeoutMs = 10_000): buildConnector.connector {
  const open = buildConnector({ timeout: connectTimeoutMs });
  // The lookup needs the port (allowHosts entries and platform services are host:port): one connector per
  // port, each keeping its own TLS session cache.
  const byPort = new Map<number, buildConnector.connector>();
  const getGuarded = (port: number) => {
    let connector = byPort.get(port);
    if (!connector) {
      if (byPort.size >= 64) byPort.delete(byPort.keys().next().value!);
      connector = buildConnector({ timeout: connectTimeoutMs, lookup: createGuardedLookup({ ...rules, port }) });
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

async function readCapped(body: Dispatcher.ResponseData['body'], max: number, where: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new ActionFailure(`Response from ${where} is larger than ${max} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
  const createAgent = (rules: AddressRules) =>
    new Agent({ connect: createGuardedConnector(rules), keepAliveTimeout: 4_000, connections: 32 });
  const agent = createAgent({
    allowPrivate: options.allowPrivate,
    allowHosts: options.allowHosts,
    platformServices: options.platformServices,
    ownHosts: options.ownHosts,
  });
  const ownServer = options.ownServer;
  const ownAgent = ownServer ? createAgent(ownServer.rules) : null;
  const chooseAgent = (url: URL) => (ownAgent && ownServer!.isPathAllowed(url.pathname) ? ownAgent : agent);

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

      let method = resolveMethod(code);
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

      const visited = new Set<string>([url.href]);
      for (let redirects = 0; ; redirects++) {
        const response = await request(url, {
          dispatcher: chooseAgent(url),
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: controller.signal,
        });
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string' && location) {
          await response.body.dump();
          if (redirects >= maxRedirects) throw new ActionFailure(`Too many redirects from ${describeUrl(url)} (more than ${maxRedirects})`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new ActionFailure(`Redirect from ${describeUrl(url)} to an invalid URL`);
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:')
            throw new ActionFailure(`Redirect from ${describeUrl(url)} to a ${next.protocol} URL refused`);
          if (visited.has(next.href)) throw new ActionFailure(`Redirect loop at ${describeUrl(next)}`);
          visited.add(next.href);
          // 303 always, 301 and 302 for POST, become a GET without a body (as browsers and fetch do).
          if (
            response.statusCode === 303
              ? method !== 'HEAD'
              : (response.statusCode === 301 || response.statusCode === 302) && method === 'POST'
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
          continue;
        }
        const where = describeUrl(url);
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBodyBytes) {
          response.body.destroy();
          throw new ActionFailure(`Response from ${where} is larger than ${maxBodyBytes} bytes`);
        }
        const buffer = await readCapped(response.body, maxBodyBytes, where);
        const responseHeaders = flattenHeaders(response.headers);
        const result: RestapiResult = {
          status: response.statusCode,
          ok: response.statusCode >= 200 && response.statusCode < 300,
          headers: responseHeaders,
          body: parseBody(buffer, responseHeaders['content-type']),
        };
        logs.push({ level: 'debug', message: `${method} ${where} answered ${response.statusCode} in ${Date.now() - started} ms` });
        return { ok: true, result, logs };
      }
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
