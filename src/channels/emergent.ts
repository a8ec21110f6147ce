/**
 * Emergent Technology / InterPay (also sold as "cross-switch") USSD. No public documentation was found;
 * this follows the Hubtel-derived shape its integrations send (docs/gateway-formats.md).
 *
 * Request: JSON `SessionId, Mobile, USERID (the service code), Operator, Type, Message`, with `Type`
 * `Initiation` (`Message` is the dialled string), `Response` (`Message` is the new input), `Release` or
 * `Timeout` (compared without case, as for Hubtel). Reply: JSON `{ Message, Type: "Response" | "Release",
 * MaskNextRoute: true }`.
 *
 * Example:
 *   { "SessionId": "a1", "Mobile": "233244000000", "USERID": "*718*22#", "Operator": "MTN", "Type": "Response", "Message": "2" }
 *     -> { kind: 'continue', input: '2', serviceCode: '*718*22#' }
 */
import { FIELD_LIMITS, cleanText, getText, hasKeys, jsonReply, peekFields, readFields } from './fields';
import { markHubtelStyleEnd, readHubtelStyleType } from './hubtel';
import type { ChannelAdapter, GatewayRequest, InboundHop, Reply } from './types';

const NAME = 'emergent' as const;

export const emergent: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'SessionId, Type, Mobile, USERID, Message',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    // Nalo also sends USERID, but with SESSIONID and MSGTYPE rather than SessionId and Type.
    return !!fields && hasKeys(fields, ['SessionId', 'Type', 'USERID']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'SessionId', { nonEmpty: true, max: FIELD_LIMITS.id });
    const { kind, type } = readHubtelStyleType(fields, NAME);
    const message = getText(fields, NAME, 'Message', { max: kind === 'continue' ? FIELD_LIMITS.input : FIELD_LIMITS.serviceCode });
    const userId = getText(fields, NAME, 'USERID', { max: FIELD_LIMITS.serviceCode, aliases: ['ServiceCode'] });
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'Mobile', { nonEmpty: kind !== 'end', max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'Operator', { max: FIELD_LIMITS.network }),
      serviceCode: userId || (kind === 'start' ? message : ''),
      input: kind === 'continue' ? message : '',
      kind,
      raw: { Type: type, USERID: userId },
    };
    if (kind === 'start' && message.trim() !== '') hop.dialString = message;
    markHubtelStyleEnd(hop, type);
    return hop;
  },

  formatReply(reply: Reply): { contentType: string; body: string } {
    // MaskNextRoute: true asks the gateway to mask the next input in its own logs.
    return jsonReply({ Message: cleanText(reply.text), Type: reply.end ? 'Release' : 'Response', MaskNextRoute: true });
  },
};
