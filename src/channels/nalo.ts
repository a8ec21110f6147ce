/**
 * Nalo Solutions USSD (summary in docs/gateway-formats.md; source: "USSD API DOCUMENTATION", Postman collection 7705958/UyrEhaLQ at
 * https://documenter.gw.postman.com/api/collections/7705958/UyrEhaLQ; field table as quoted by the
 * nunyakata SDK's docs/ussd_api_compliance.md).
 *
 * Request: JSON `USERID, MSISDN, USERDATA, MSGTYPE, NETWORK, SESSIONID`. `MSGTYPE: true` is the first
 * request of a session and `USERDATA` is then the dialled string (`*920*7868#`); `MSGTYPE: false` carries
 * the new input. Nalo sends no end signal. Reply: JSON `{ USERID, MSISDN, MSG, MSGTYPE }`, `MSGTYPE: true`
 * to continue and `false` to end. Key the session on `SESSIONID`, never on `MSISDN`.
 * Nalo's docs cap `USERDATA` and `MSG` at 120 characters; the engine's screen limit governs `MSG`.
 *
 * Example:
 *   { "USERID": "NALOTest", "MSISDN": "233XXXXXXXXX", "USERDATA": "*920*7868#", "MSGTYPE": true, "NETWORK": "MTN", "SESSIONID": "16590115252429751" }
 *     -> { kind: 'start', serviceCode: '*920*7868#', raw: { USERID: 'NALOTest' } }
 *   formatReply({ text: 'Bye', end: true }) -> { "USERID": "NALOTest", "MSISDN": "233XXXXXXXXX", "MSG": "Bye", "MSGTYPE": false }
 */
import { FIELD_LIMITS, cleanText, getFlag, getText, hasKeys, jsonReply, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, InboundHop, Reply } from './types';

const NAME = 'nalo' as const;

export const nalo: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'USERID, MSISDN, USERDATA, MSGTYPE, SESSIONID',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['USERID', 'MSISDN', 'MSGTYPE']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'SESSIONID', { nonEmpty: true, max: FIELD_LIMITS.id });
    const userId = getText(fields, NAME, 'USERID', { nonEmpty: true, max: FIELD_LIMITS.id });
    const msisdn = getText(fields, NAME, 'MSISDN', { nonEmpty: true, max: FIELD_LIMITS.msisdn });
    const isNew = getFlag(fields, NAME, 'MSGTYPE');
    const userData = getText(fields, NAME, 'USERDATA', { max: isNew ? FIELD_LIMITS.serviceCode : FIELD_LIMITS.input });
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn,
      network: getText(fields, NAME, 'NETWORK', { max: FIELD_LIMITS.network }),
      serviceCode: isNew ? userData : '',
      input: isNew ? '' : userData,
      kind: isNew ? 'start' : 'continue',
      raw: { USERID: userId },
    };
    if (isNew && userData.trim() !== '') hop.dialString = userData;
    return hop;
  },

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    const userId = hop.raw.USERID;
    return jsonReply({
      USERID: typeof userId === 'string' ? userId : '',
      MSISDN: hop.msisdn,
      MSG: cleanText(reply.text),
      MSGTYPE: !reply.end,
    });
  },
};
