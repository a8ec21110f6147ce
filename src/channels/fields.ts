/**
 * Reading a gateway request's fields defensively. Gateways send JSON, forms or query strings; hostile or
 * broken ones send arrays, numbers where text belongs, megabytes, invalid UTF-8 or lone surrogates. Every
 * reader here either returns clean, bounded text or throws a ChannelError that names the gateway and field.
 */
import { ChannelError, type GatewayName, type GatewayRequest, type JsonValue } from './types';

export type Fields = Record<string, unknown>;

/** Bounds on what one hop may carry. A USSD screen or input is at most 182 characters; these leave room. */
export const FIELD_LIMITS = {
  /** Session ids become store keys. */
  id: 256,
  msisdn: 64,
  network: 64,
  serviceCode: 256,
  /**
   * One hop's input. The protocol allows 182 characters, but a user's input is never refused for its
   * length: the engine keeps the first 512 and answers with a screen. The request body limit (1 MB) bounds it.
   */
  input: 1_048_576,
  /** Africa's Talking's cumulative text over a whole session; bounded by the body limit like an input. */
  path: 1_048_576,
  /** Opaque values echoed back (Hubtel ClientState, Southpawslab ussdParameters...). */
  echo: 16_384,
} as const;

const LABELS: Record<GatewayName, string> = {
  africastalking: "Africa's Talking",
  hubtel: 'Hubtel',
  emergent: 'Emergent',
  nalo: 'Nalo',
  arkesel: 'Arkesel',
  beem: 'Beem',
  southpawslab: 'Southpawslab',
  mobiverse: 'Mobiverse',
  emulator: 'Emulator',
  whatsapp: 'WhatsApp',
};

export function malformed(gateway: GatewayName, message: string): ChannelError {
  return new ChannelError('malformed_request', `${LABELS[gateway]} request: ${message}`, gateway);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** Lone surrogates become U+FFFD and NUL is dropped: both break JSON consumers and Postgres text. */
const NEEDS_CLEANING = /[\uD800-\uDFFF\u0000]/;

export function cleanText(text: string): string {
  // Almost every text is clean: test once before running the two replacements.
  if (!NEEDS_CLEANING.test(text)) return text;
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD').replace(/\u0000/g, '');
}

const decoder = new TextDecoder('utf-8'); // not fatal: invalid sequences become U+FFFD

type ReadResult = { fields: Fields } | { error: string };
const cache = new WeakMap<object, ReadResult>();

function fieldsFromText(text: string, contentType: string): ReadResult {
  const trimmed = text.trim();
  if (trimmed === '') return { fields: {} };
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || /json/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return { error: 'the body is not valid JSON' };
    }
    if (Array.isArray(parsed)) return { error: 'the body is a JSON array; expected an object' };
    if (!isPlainObject(parsed)) return { error: 'the body is a bare JSON value; expected an object' };
    return { fields: parsed };
  }
  if (trimmed.includes('=')) {
    // Collected in a Map: on a plain object a field named `__proto__` would read and set the prototype.
    const byName = new Map<string, string | string[]>();
    for (const [key, value] of new URLSearchParams(trimmed)) {
      const previous = byName.get(key);
      byName.set(key, previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value]);
    }
    return { fields: Object.fromEntries(byName) };
  }
  return { error: 'the body is neither JSON nor form fields' };
}

function read(req: GatewayRequest): ReadResult {
  if (!isPlainObject(req)) return { error: 'no request' };
  const cached = cache.get(req);
  if (cached) return cached;
  const result = readUncached(req);
  cache.set(req, result);
  return result;
}

function readUncached(req: GatewayRequest): ReadResult {
  const contentType = typeof req.contentType === 'string' ? req.contentType : '';
  const { body } = req;
  let fromBody: ReadResult = { fields: {} };
  if (Array.isArray(body)) fromBody = { error: 'the body is a JSON array; expected an object' };
  else if (isPlainObject(body)) fromBody = { fields: body };
  else if (typeof body === 'string') fromBody = fieldsFromText(body, contentType);
  else if (body instanceof Uint8Array) fromBody = fieldsFromText(decoder.decode(body), contentType);
  else if (body !== undefined && body !== null) fromBody = { error: `the body is a ${typeof body}; expected an object` };
  if ('error' in fromBody) return fromBody;
  if (Object.keys(fromBody.fields).length > 0) return fromBody;
  // GET gateways (and some misconfigured POSTs) carry everything in the query string.
  if (isPlainObject(req.query) && Object.keys(req.query).length > 0) return { fields: req.query };
  return { error: 'the request carries no fields (empty body and query string)' };
}

/** The request's fields (the body when it has any, else the query string), or null. Never throws. */
export function peekFields(req: GatewayRequest): Fields | null {
  const result = read(req);
  return 'fields' in result ? result.fields : null;
}

export function readFields(req: GatewayRequest, gateway: GatewayName): Fields {
  const result = read(req);
  if ('error' in result) throw malformed(gateway, result.error);
  return result.fields;
}

/** True when every name is an own key of the fields, spelt exactly (detection is case-sensitive). */
export function hasKeys(fields: Fields, names: readonly string[]): boolean {
  return names.every((name) => Object.hasOwn(fields, name));
}

/** A field by its exact name, else by a case-insensitive match (Hubtel documents `serviceCode` and sends `ServiceCode`). */
export function lookup(fields: Fields, name: string): unknown {
  if (Object.hasOwn(fields, name)) return fields[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(fields)) {
    if (key.toLowerCase() === lower) return fields[key];
  }
  return undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

interface TextOptions {
  /** Missing (or null) is an error. */
  required?: boolean;
  /** '' is an error too. */
  nonEmpty?: boolean;
  max: number;
  /** Other spellings to try, in order, when the name is absent. */
  aliases?: readonly string[];
}

/** A text field: strings as given, finite numbers as digits; anything else is a ChannelError. */
export function getText(fields: Fields, gateway: GatewayName, name: string, options: TextOptions): string {
  let value = lookup(fields, name);
  for (const alias of options.aliases ?? []) {
    if (value !== undefined && value !== null) break;
    value = lookup(fields, alias);
  }
  if (value === undefined || value === null) {
    if (options.required || options.nonEmpty) throw malformed(gateway, `missing field "${name}"`);
    return '';
  }
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else throw malformed(gateway, `field "${name}" must be text, got ${describe(value)}`);
  if (text.length > options.max) {
    throw malformed(gateway, `field "${name}" is too long (${text.length} characters; at most ${options.max})`);
  }
  text = cleanText(text);
  if (options.nonEmpty && text.trim() === '') throw malformed(gateway, `field "${name}" is empty`);
  return text;
}

/** A flag sent as a JSON boolean, or as "true"/"false"/"1"/"0" by form and query gateways. */
export function getFlag(fields: Fields, gateway: GatewayName, name: string): boolean {
  const value = lookup(fields, name);
  if (value === undefined || value === null) throw malformed(gateway, `missing field "${name}"`);
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'true' || word === '1') return true;
    if (word === 'false' || word === '0') return false;
  }
  const shown = typeof value === 'string' ? `"${cleanText(value.slice(0, 20))}"` : describe(value);
  throw malformed(gateway, `field "${name}" must be true or false, got ${shown}`);
}

/** An integer sent as a JSON number or as digits. */
export function getInteger(fields: Fields, gateway: GatewayName, name: string): number {
  const value = lookup(fields, name);
  if (value === undefined || value === null) throw malformed(gateway, `missing field "${name}"`);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value)) return Number(value);
  const shown = typeof value === 'string' ? `"${cleanText(value.slice(0, 20))}"` : describe(value);
  throw malformed(gateway, `field "${name}" must be a whole number, got ${shown}`);
}

function cleanJson(value: JsonValue, depth: number): JsonValue {
  if (depth > 32) throw new RangeError('too deeply nested');
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, depth + 1));
  if (isPlainObject(value)) {
    // fromEntries defines own keys, so an echoed `__proto__` stays data instead of becoming the prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [cleanText(key), cleanJson(item as JsonValue, depth + 1)]));
  }
  return value;
}

/** A value echoed back verbatim (opaque to us), bounded in size and depth. Undefined when absent. */
export function getEcho(fields: Fields, gateway: GatewayName, name: string): JsonValue | undefined {
  const value = lookup(fields, name);
  if (value === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) throw malformed(gateway, `field "${name}" is not JSON data`);
  if (json.length > FIELD_LIMITS.echo) {
    throw malformed(gateway, `field "${name}" is too large (${json.length} characters as JSON; at most ${FIELD_LIMITS.echo})`);
  }
  try {
    return cleanJson(JSON.parse(json) as JsonValue, 0);
  } catch {
    throw malformed(gateway, `field "${name}" is nested too deeply`);
  }
}

/** A reply body as JSON. */
export function jsonReply(payload: Record<string, JsonValue>): { contentType: string; body: string } {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(payload) };
}
