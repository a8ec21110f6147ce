/**
 * The channel layer's own contract: what a gateway adapter reads (`GatewayRequest`), what it produces
 * (`InboundHop`), and what it formats (`Reply` -> `FormattedReply`). Gateway-neutral on purpose:
 * nothing gateway-specific reaches the engine except through `InboundHop`.
 */
import { AppError } from '../shared/errors';
import type { Reply } from '../engine/types';
import type { LocationRef, MediaRef } from '../shared/media';
import type { GatewayEnding } from '../shared/session-ends';

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
  'whatsapp',
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
  /**
   * Only what the user typed on this hop; '' on `start` and `end`, and on a `continue` whose input cannot be
   * known without the session (see `resumeHop`: with no session stored, the runtime resumes it as lost).
   */
  input: string;
  kind: HopKind;
  /**
   * On `start`: the whole string the user dialled (`*920*12*50#`), when the gateway gives it. Its parts
   * after the app's code are template-tag values or deep-dial inputs (engine `Hop.dialString`).
   */
  dialString?: string;
  /**
   * Set by an adapter with `resumeHop`: what it needs from this hop to read the session's next one (Africa's
   * Talking: the cumulative text). The runtime stores it with the session, as it is, and hands it back.
   */
  channelState?: string;
  /**
   * Names this hop within its session, for gateways that resend a hop unchanged when our answer is late: the
   * same request again carries the same hopId, the next hop a different one. The runtime answers a repeated
   * hopId with the reply it already gave instead of running the hop twice. Set only where the gateway's
   * documentation makes it unique per hop (Africa's Talking: the cumulative text, which grows on every hop);
   * a wrong one would swallow a real input, so gateways without such a field leave it undefined.
   */
  hopId?: string;
  /**
   * On `end`: the gateway says the user ended the session themselves (Hubtel's and Emergent's `Release`), as
   * against a timeout or a drop. Resume on redial does not offer such a session back.
   */
  isEndedByUser?: true;
  /**
   * On `end`: why the gateway says the session ended, and what else its notice gives (duration, cost, the network's
   * words), kept on the session's record (shared/session-ends.ts). Left out by a gateway whose end says nothing.
   */
  ending?: GatewayEnding;
  /** Per-gateway values the reply must echo (Nalo USERID, Beem request_id, Southpawslab menuId...). */
  raw: Record<string, JsonValue>;
  /**
   * A chat's hop when the business wrote first (docs/bots.md, "Writing first"): the menu a new session starts at
   * instead of the first (engine `Hop.entryMenuId`). Set by the runtime, never read off a wire.
   */
  entryMenuId?: string;
  /** A file the user sent (a bot's), once the runtime has stored it (engine `Hop.media`); never read off a wire. */
  media?: MediaRef;
  /** A location the user shared (engine `Hop.location`). */
  location?: LocationRef;
}

/**
 * What the app answers: the engine's reply as it is (`end` is `END`, `Release`, `MSGTYPE: false`...; only a
 * channel with a reply box of its own shows `inputHolder`). Length is not enforced here: the engine paginates.
 */
export type { Reply };

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
  /** Reads one hop; throws a ChannelError naming the field on malformed input. */
  parseRequest(req: GatewayRequest): InboundHop;
  /**
   * For a gateway whose request cannot be read without its session (Africa's Talking sends every input so
   * far, not the new one): the hop `parseRequest` read, read again against the `channelState` its session's
   * previous hop left (undefined when no session is stored). Its kind and input are then final. The runtime
   * looks the session up for every hop of such a gateway.
   */
  resumeHop?(hop: InboundHop, channelState: string | undefined): InboundHop;
  formatReply(reply: Reply, hop: InboundHop): FormattedReply;
  /**
   * Set when the channel stands in for the mobile network as well as a gateway (the emulator). A network only
   * hands an app the sessions dialled on its code, so a new session whose dialled string is not the app's
   * code (or an extension of it) is answered with `unknownCodeText` as an ended screen and never reaches the app.
   */
  readonly network?: { unknownCodeText: string };
  /**
   * Set for a chat channel (WhatsApp), whose messages carry no session id and no start signal. The runtime keys
   * the session on the conversation (number and user) and the hop's `sessionId` is '' until its session is found:
   * a `continue` with no open session starts one, a `start` (a restart word) starts over even when one is open,
   * and each session gets an id of its own so its logs and records never mix with the conversation's earlier
   * sessions. Sessions wait `timeoutSeconds` for the next message.
   */
  readonly conversation?: { timeoutSeconds: number };
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
