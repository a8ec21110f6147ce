/**
 * Beem Africa USSD hub (summary in docs/gateway-formats.md). Beem's own page was not found among the sources
 * searched; this follows the payload quoted by integrations built against the hub.
 *
 * Request: JSON `{ command: "initiate" | "continue" | "terminate", msisdn, session_id, operator,
 * payload: { request_id, response } }`. `payload.response` is the new input (`0` on initiate, ignored).
 * Reply: JSON `{ msisdn, operator, session_id, command: "continue" | "terminate", payload: { request_id,
 * request: <screen> } }`, echoing the request's `request_id` as it came (number or text).
 *
 * Example:
 *   { "command": "continue", "msisdn": "255762089337", "session_id": "4574", "operator": "vodacom", "payload": { "request_id": 1, "response": "2" } }
 *     -> { kind: 'continue', input: '2', raw: { request_id: 1 } }
 */
import {
  FIELD_LIMITS,
  cleanText,
  getEcho,
  getText,
  hasKeys,
  isPlainObject,
  jsonReply,
  lookup,
  malformed,
  peekFields,
  readFields,
} from './fields';
import type { ChannelAdapter, GatewayRequest, HopKind, InboundHop, JsonValue, Reply } from './types';

const NAME = 'beem' as const;

// A Map, not an object literal: `__proto__`, `constructor` or `toString` must not name a kind.
const KINDS = new Map<string, HopKind>([
  ['initiate', 'start'],
  ['continue', 'continue'],
  ['terminate', 'end'],
]);

function readPayload(fields: Record<string, unknown>): Record<string, unknown> {
  let payload = lookup(fields, 'payload');
  // Tolerate a payload sent as a JSON string (form-encoded posts).
  if (typeof payload === 'string' && payload.trim().startsWith('{')) {
    try {
      payload = JSON.parse(payload);
    } catch {
      throw malformed(NAME, 'field "payload" is not valid JSON');
    }
  }
  if (payload === undefined || payload === null) return {};
  if (!isPlainObject(payload))
    throw malformed(NAME, `field "payload" must be an object, got ${Array.isArray(payload) ? 'a list' : `a ${typeof payload}`}`);
  return payload;
}

export const beem: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'command, msisdn, session_id, payload { request_id, response }',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['command', 'session_id']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'session_id', { nonEmpty: true, max: FIELD_LIMITS.id });
    const command = getText(fields, NAME, 'command', { nonEmpty: true, max: 32 });
    const kind = KINDS.get(command.trim().toLowerCase());
    if (!kind) throw malformed(NAME, `field "command" is "${command}"; expected initiate, continue or terminate`);
    const payload = readPayload(fields);
    if (kind !== 'end' && Object.keys(payload).length === 0) throw malformed(NAME, 'missing field "payload"');
    const requestId = getEcho(payload, NAME, 'request_id');
    const input = kind === 'continue' ? getText(payload, NAME, 'response', { max: FIELD_LIMITS.input }) : '';
    const raw: Record<string, JsonValue> = {};
    if (requestId !== undefined) raw.request_id = requestId;
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'msisdn', { nonEmpty: kind !== 'end', max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'operator', { max: FIELD_LIMITS.network }),
      // Beem sends no service code: the hub routes by the code already.
      serviceCode: '',
      input,
      kind,
      raw,
    };
    // `terminate` does not say who ended the session.
    if (kind === 'end') hop.ending = { cause: 'gateway_ended' };
    return hop;
  },

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    return jsonReply({
      msisdn: hop.msisdn,
      operator: hop.network,
      session_id: hop.sessionId,
      command: reply.end ? 'terminate' : 'continue',
      payload: { request_id: hop.raw.request_id ?? null, request: cleanText(reply.text) },
    });
  },
};
