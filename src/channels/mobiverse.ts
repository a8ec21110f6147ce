/**
 * Mobiverse Uzo USSD (summary in docs/gateway-formats.md; source: github.com/mobiverse-solutions/uzo-documentation, index.markdown). The codes are
 * SMPP's `ussd_service_op` values.
 *
 * Request: JSON `ussdString, msisdn, ussdServiceOp, sessionID, network (the MNC), code (the dialled code),
 * country`. `ussdServiceOp` 1 begins a session (`ussdString` is then the dialled string), 18 continues
 * (`ussdString` is the new input), 29 or more terminates. The documented sample sends it as text ("1").
 * Reply: JSON `{ message, ussdServiceOp: 2 (continue) | 17 (end) }`. (The doc's sample reply shows
 * `ussdServiceOp: 1`, contradicting its own table; the table's 2/17 are the SMPP values and are used.)
 *
 * Example:
 *   { "ussdString": "*1234#", "msisdn": "+233111111111", "ussdServiceOp": "1", "sessionID": "12341235123", "network": "06", "code": "*1234#", "country": "GH" }
 *     -> { kind: 'start', serviceCode: '*1234#', dialString: '*1234#' }
 */
import { FIELD_LIMITS, cleanText, getInteger, getText, hasKeys, jsonReply, malformed, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, HopKind, InboundHop, Reply } from './types';

const NAME = 'mobiverse' as const;

function kindOf(op: number): HopKind {
  if (op === 1) return 'start';
  if (op === 18) return 'continue';
  if (op >= 29) return 'end';
  throw malformed(NAME, `field "ussdServiceOp" is ${op}; expected 1 (begin), 18 (continue) or 29 and above (end)`);
}

export const mobiverse: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'sessionID, msisdn, ussdString, ussdServiceOp',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['ussdServiceOp', 'sessionID']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'sessionID', { nonEmpty: true, max: FIELD_LIMITS.id });
    const op = getInteger(fields, NAME, 'ussdServiceOp');
    const kind = kindOf(op);
    const ussdString = getText(fields, NAME, 'ussdString', { max: kind === 'continue' ? FIELD_LIMITS.input : FIELD_LIMITS.serviceCode });
    const code = getText(fields, NAME, 'code', { max: FIELD_LIMITS.serviceCode });
    const country = getText(fields, NAME, 'country', { max: 16 });
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'msisdn', { nonEmpty: kind !== 'end', max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'network', { max: FIELD_LIMITS.network }),
      serviceCode: code || (kind === 'start' ? ussdString : ''),
      input: kind === 'continue' ? ussdString : '',
      kind,
      raw: { ussdServiceOp: op, ...(country ? { country } : {}) },
    };
    if (kind === 'start' && ussdString.trim() !== '') hop.dialString = ussdString;
    // An abort (29 and above) does not say who ended the session.
    if (kind === 'end') hop.ending = { cause: 'gateway_ended' };
    return hop;
  },

  formatReply(reply: Reply): { contentType: string; body: string } {
    return jsonReply({ message: cleanText(reply.text), ussdServiceOp: reply.end ? 17 : 2 });
  },
};
