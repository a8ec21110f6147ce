/**
 * Africa's Talking USSD (summary in docs/gateway-formats.md). Sources: AT's USSD docs as copied in github.com/DanNduati/at-ussd (AT-USSD.md),
 * the end-of-session notification fields as typed by AT SDK wrappers (pkg.go.dev/github.com/astianmuchui/at-ussd-gofiber)
 * and https://www.mintlify.com/DaggieBlanqx/Google-Africastalking-AI-Course/api/ussd-endpoints.
 *
 * Request: a form POST `sessionId, serviceCode, phoneNumber, networkCode, text`. `text` is cumulative: every
 * input so far joined by `*` ("" on the first hop, then "1", then "1*2*4"), so the new input is what follows
 * the previous hop's text. Reply: `text/plain`, `CON <screen>` to continue or `END <screen>` to end.
 *
 * Example:
 *   previous path "1", text "1*2*3" -> input "2*3" (the user typed `2*3`; splitting on `*` would be wrong)
 *   formatReply({ text: 'Pick one\n1. Airtime', end: false }) -> "CON Pick one\n1. Airtime"
 *
 * The end of a session arrives as a separate notification POST (`parseSessionEndNotification`): the adapter
 * reads it as an `end` hop, which the runtime closes as any gateway's end, and answers with an empty body.
 *
 * Retries and lost sessions: AT sends a hop again, unchanged, when our answer is late. The text grows on every
 * hop, so it names the hop (`hopId`) and the runtime answers a repeat with the reply it already gave. AT's docs
 * say `text` "is an empty string in the first notification of a session", so a non-empty text with no stored
 * session is never a new session (a dialled extension such as `*384*1234*2#` arrives as the `serviceCode`):
 * it continues a session we lost (a restart, an eviction) or one that already ended, and is read as a
 * `continue` whose input is unknown. Replaying it as a deep dial would run its actions a second time.
 */
import { FIELD_LIMITS, cleanText, getText, hasKeys, peekFields, readFields, type Fields } from './fields';
import { ChannelError, type ChannelAdapter, type GatewayRequest, type InboundHop, type Reply } from './types';
import type { EndCause, GatewayEnding } from '../shared/session-ends';

const NAME = 'africastalking' as const;
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The input typed on this hop, given the previous hop's cumulative text and this one's. The previous text
 * is a prefix followed by `*`; whatever follows is the new input, `*` included. Throws when `path` does
 * not continue `previousPath` (a corrupt session, or a late copy of a hop older than the last one).
 *
 * Example: deriveNewInput('1', '1*2*3') === '2*3'; deriveNewInput('', '5') === '5'; deriveNewInput('1', '1*') === ''.
 */
export function deriveNewInput(previousPath: string, path: string): string {
  if (previousPath === '') return path;
  const prefix = `${previousPath}*`;
  if (path.startsWith(prefix)) return path.slice(prefix.length);
  throw refuseMismatch(previousPath, path);
}

function refuseMismatch(previousPath: string, path: string): ChannelError {
  return new ChannelError(
    'path_mismatch',
    `Africa's Talking request: text "${preview(path)}" does not continue the previous hop's text "${preview(previousPath)}"`,
    NAME,
  );
}

function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function readCommon(req: GatewayRequest) {
  const fields = readFields(req, NAME);
  return {
    fields,
    sessionId: getText(fields, NAME, 'sessionId', { nonEmpty: true, max: FIELD_LIMITS.id }),
    serviceCode: getText(fields, NAME, 'serviceCode', { max: FIELD_LIMITS.serviceCode }),
    network: getText(fields, NAME, 'networkCode', { max: FIELD_LIMITS.network }),
  };
}

/**
 * A hop's kind and input from its cumulative text (`channelState`) and the previous hop's, kept with the
 * session (undefined when none is stored). An empty text starts a session whose dial string is the
 * `serviceCode` (where a dialled extension such as `*384*1234*2#` arrives); a non-empty one continues a
 * session, with no known input when no previous text is stored.
 */
function resumeHop(hop: InboundHop, previousPath: string | undefined): InboundHop {
  // The end-of-session notice carries the session's whole text but no new input: it stays an end.
  if (hop.kind === 'end') return hop;
  const { sessionId, msisdn, network, serviceCode, raw } = hop;
  const path = hop.channelState ?? '';
  if (path === '') {
    // An empty text on a session already past its first hop: a late copy of that first hop, not a new session.
    if (previousPath) throw refuseMismatch(previousPath, path);
    return {
      gateway: NAME,
      sessionId,
      msisdn,
      network,
      serviceCode,
      channelState: path,
      hopId: path,
      raw,
      kind: 'start',
      input: '',
      dialString: serviceCode,
    };
  }
  // Not a first request (its text would be empty): a session we no longer have. Its input is unknown.
  const input = previousPath === undefined ? '' : deriveNewInput(previousPath, path);
  return { gateway: NAME, sessionId, msisdn, network, serviceCode, channelState: path, hopId: path, raw, kind: 'continue', input };
}

export const africastalking: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'sessionId, serviceCode, phoneNumber, text',

  /** A hop (`sessionId, phoneNumber` and `text` or `serviceCode`, no `status`), or the end-of-session notice. */
  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    if (!fields) return false;
    if (isNotice(fields)) return true;
    return (
      hasKeys(fields, ['sessionId', 'phoneNumber']) &&
      (hasKeys(fields, ['text']) || hasKeys(fields, ['serviceCode'])) &&
      !hasKeys(fields, ['status'])
    );
  },

  /**
   * Reads the hop as if no session were stored; `resumeHop` reads it again against the session's previous text.
   * The end-of-session notice is an `end` hop (`sessionEndHop`).
   */
  parseRequest(req: GatewayRequest): InboundHop {
    if (isSessionEndNotification(req)) return sessionEndHop(parseSessionEndNotification(req));
    const { fields, sessionId, serviceCode, network } = readCommon(req);
    const msisdn = getText(fields, NAME, 'phoneNumber', { nonEmpty: true, max: FIELD_LIMITS.msisdn });
    const path = getText(fields, NAME, 'text', { max: FIELD_LIMITS.path });
    return resumeHop(
      { gateway: NAME, sessionId, msisdn, network, serviceCode, channelState: path, raw: {}, kind: 'start', input: '' },
      undefined,
    );
  },

  resumeHop,

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    // The only end hop is the end-of-session notice, sent once the session is over: no screen answers it, even a
    // refusal (the runtime answers an end it closes with an empty 200 too).
    if (hop.kind === 'end') return { contentType: TEXT_TYPE, body: '' };
    // Plain text: nothing to escape. AT ends the session gracefully on anything not starting CON/END.
    return { contentType: TEXT_TYPE, body: `${reply.end ? 'END' : 'CON'} ${cleanText(reply.text)}` };
  },
};

/** The end-of-session notification Africa's Talking POSTs once a session is over. */
export interface SessionEndNotification {
  gateway: 'africastalking';
  sessionId: string;
  msisdn: string;
  network: string;
  serviceCode: string;
  /** `Success` (reached its end), `Incomplete` (the user left a screen waiting for input), `Failed` (our error). */
  status: 'Success' | 'Incomplete' | 'Failed' | (string & {});
  /** As given, currency included: "KES 0.0100". */
  cost: string;
  durationMs: number | null;
  hopsCount: number | null;
  /** The session's cumulative text. */
  input: string;
  lastAppResponse: string;
  errorMessage: string;
  /** As given: "2024-01-31 10:00:00". */
  date: string;
}

const isNotice = (fields: Fields) => hasKeys(fields, ['sessionId', 'status']) && !hasKeys(fields, ['text']);

/** True when the request is an end-of-session notification rather than a hop. Never throws. */
export function isSessionEndNotification(req: GatewayRequest): boolean {
  const fields = peekFields(req);
  return !!fields && isNotice(fields);
}

function toCount(text: string): number | null {
  if (!/^\d{1,15}$/.test(text.trim())) return null;
  return Number(text.trim());
}

/**
 * Reads Africa's Talking's end-of-session notification: `date, sessionId, serviceCode, networkCode,
 * phoneNumber, status, cost, durationInMillis, hopsCount, input, lastAppResponse, errorMessage`.
 * Answer it with an empty 200.
 *
 * Example: { sessionId: 'ATUid_1', status: 'Incomplete', durationInMillis: '4500', ... }
 *   -> { sessionId: 'ATUid_1', status: 'Incomplete', durationMs: 4500, ... }
 */
export function parseSessionEndNotification(req: GatewayRequest): SessionEndNotification {
  const { fields, sessionId, serviceCode, network } = readCommon(req);
  const text = (name: string, max: number = FIELD_LIMITS.echo) => getText(fields, NAME, name, { max });
  return {
    gateway: NAME,
    sessionId,
    msisdn: text('phoneNumber', FIELD_LIMITS.msisdn),
    network,
    serviceCode,
    status: getText(fields, NAME, 'status', { nonEmpty: true, max: 64 }),
    cost: text('cost', 64),
    durationMs: toCount(text('durationInMillis', 64)),
    hopsCount: toCount(text('hopsCount', 64)),
    input: text('input', FIELD_LIMITS.path),
    lastAppResponse: text('lastAppResponse'),
    errorMessage: text('errorMessage'),
    date: text('date', 64),
  };
}

/** How Africa's Talking's end statuses read as end causes; any other status says only that the gateway ended it. */
const END_CAUSE_BY_STATUS = new Map<string, EndCause>([
  ['success', 'completed'],
  ['incomplete', 'timed_out'],
  ['failed', 'network_error'],
]);

/** The network's words as a session record keeps them: the error message, at most 500 characters. */
const MAX_WORDS = 500;

/** What the notice says about the session's end, for its record (InboundHop.ending). */
export function toGatewayEnding(notification: SessionEndNotification): GatewayEnding {
  const ending: GatewayEnding = { cause: END_CAUSE_BY_STATUS.get(notification.status.trim().toLowerCase()) ?? 'gateway_ended' };
  if (notification.durationMs !== null) ending.durationMs = notification.durationMs;
  const cost = notification.cost.trim();
  if (cost) ending.cost = cost;
  const words = notification.errorMessage.trim();
  if (words) ending.words = words.length > MAX_WORDS ? words.slice(0, MAX_WORDS) : words;
  return ending;
}

/** The notification as an `end` hop (what `parseRequest` reads it as), so the session closes as any gateway's end. */
export function sessionEndHop(notification: SessionEndNotification): InboundHop {
  return {
    gateway: NAME,
    sessionId: notification.sessionId,
    msisdn: notification.msisdn,
    network: notification.network,
    serviceCode: notification.serviceCode,
    input: '',
    kind: 'end',
    raw: { status: notification.status },
    ending: toGatewayEnding(notification),
  };
}
