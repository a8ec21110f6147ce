/**
 * The channel layer's own contract: what a gateway adapter reads (`GatewayRequest`), what it produces
 * (`InboundHop`), and what it formats (`OutboundReply` -> `FormattedReply`). Gateway-neutral on purpose:
 * nothing gateway-specific reaches the engine except through `InboundHop`.
 */
import { AppError } from '../shared/errors';

export const GATEWAY_NAMES = [
  'africastalking',
  'hubtel',
  'emergent',
  'nalo',
  'arkesel',
  'beem',
  'southpawslab',
  'mobiverse',
  'emulator',
] as const;

export type GatewayName = (typeof GATEWAY_NAMES)[number];

/**
 * - `start`: a new session (the user dialled the code).
 * - `continue`: the user answered the screen on display.
 * - `end`: the gateway says the session is over (released, timed out, aborted). The app must not answer
 *   with a screen: close the session and acknowledge with an empty 200.
 */
export type HopKind = 'start' | 'continue' | 'end';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One request from a gateway, normalised. */
export interface InboundHop {
  gateway: GatewayName;
  /** The gateway's session id: key the session on this, never on the msisdn. */
  sessionId: string;
  /** The subscriber's number as the gateway gives it (`233246912184`, `+254711000111`). May be '' on `end`. */
  msisdn: string;
  /** The network as the gateway names it (`mtn`, `63902`, `06`...); '' when not given. */
  network: string;
  /**
   * The service code or dialled string as the gateway gives it (`*920#`, `713`, `*920*7868#`). Gateways
   * that only send it on the first hop (Nalo, Arkesel, Mobiverse, emulator...) leave it '' afterwards:
   * the runtime keeps the one from the start.
   */
  serviceCode: string;
  /** Only what the user typed on this hop; '' on `start` and `end`. */
  input: string;
  kind: HopKind;
  /**
   * On `start`: the whole string the user dialled (`*920*12*50#`), when the gateway gives it. Its parts
   * after the app's code are template-tag values or deep-dial inputs (engine `Hop.dialString`).
   */
  dialString?: string;
  /**
   * Cumulative gateways only (Africa's Talking): every input so far, joined by `*`. The runtime stores it
   * with the session and passes it back as `previousPath` on the next hop.
   */
  path?: string;
  /** Per-gateway values the reply must echo (Nalo USERID, Beem request_id, Southpawslab menuId...). */
  raw: Record<string, JsonValue>;
}

/** What the app answers. Length is not enforced here: the engine paginates. */
export interface OutboundReply {
  text: string;
  /** True to end the session (`END`, `Release`, `MSGTYPE: false`...). */
  end: boolean;
}

/** An HTTP request as the server hands it over; `body` already parsed (object for JSON or form, else string). */
export interface GatewayRequest {
  method: string;
  query: unknown;
  body: unknown;
  contentType: string;
}

/** An HTTP reply body, ready to send with status 200. */
export interface FormattedReply {
  contentType: string;
  body: string;
}

export interface ChannelAdapter<Name extends GatewayName = GatewayName> {
  readonly name: Name;
  /** The fields that identify this gateway's requests, for error messages. */
  readonly signature: string;
  /** True when the request has this gateway's shape. Never throws. */
  matches(req: GatewayRequest): boolean;
  /**
   * Reads one hop; throws a ChannelError naming the field on malformed input. `previousPath` is only used
   * by cumulative gateways (Africa's Talking): the `path` stored with the session, or undefined when no
   * session exists yet for this session id.
   */
  parseRequest(req: GatewayRequest, previousPath?: string): InboundHop;
  /**
   * Cumulative gateways: a hop read without the session (`parseRequest(req)`), read again against the
   * session's stored `path` without parsing the request twice. Same result as `parseRequest(req, previousPath)`.
   */
  resumePath?(hop: InboundHop, previousPath: string | undefined): InboundHop;
  formatReply(reply: OutboundReply, hop: InboundHop): FormattedReply;
}

export type ChannelErrorCode = 'unknown_gateway' | 'unrecognised_request' | 'malformed_request' | 'path_mismatch';

/**
 * A request no adapter can read. An AppError of kind `invalid`, so the server's one error handler answers
 * 400 with status '02' and no session is created.
 * Example: `new ChannelError('malformed_request', 'Hubtel request: missing field "SessionId"', 'hubtel')`.
 */
export class ChannelError extends AppError {
  readonly code: ChannelErrorCode;
  readonly gateway?: GatewayName;

  constructor(code: ChannelErrorCode, message: string, gateway?: GatewayName) {
    super('invalid', message);
    this.name = 'ChannelError';
    this.code = code;
    this.gateway = gateway;
  }
}

export function isGatewayName(value: string): value is GatewayName {
  return (GATEWAY_NAMES as readonly string[]).includes(value);
}
