/**
 * Arkesel USSD (summary in docs/gateway-formats.md). Arkesel's own page was not found among the sources searched; the
 * shape below is the one integrations built against Arkesel's sandbox send (public code quoting the payload).
 *
 * Request: JSON `sessionID, userID, newSession, msisdn, userData, network`. `newSession: true` starts a
 * session and `userData` is then the dialled string (`*920*24#`); afterwards `userData` is the new input
 * only. Arkesel sends no end signal (a session times out after about 2.5 minutes of silence).
 * Reply: JSON `{ sessionID, userID, msisdn, message, continueSession }`.
 *
 * Example:
 *   { "sessionID": "s1", "userID": "app1", "newSession": false, "msisdn": "233271231234", "userData": "1", "network": "MTN" }
 *     -> { kind: 'continue', input: '1' }
 *   formatReply({ text: 'Pick', end: false }) -> { "sessionID": "s1", "userID": "app1", "msisdn": "233271231234", "message": "Pick", "continueSession": true }
 */
import { FIELD_LIMITS, cleanText, getFlag, getText, hasKeys, jsonReply, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, InboundHop, Reply } from './types';

const NAME = 'arkesel' as const;

export const arkesel: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'sessionID, userID, newSession, msisdn, userData',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['sessionID', 'newSession', 'msisdn']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'sessionID', { nonEmpty: true, max: FIELD_LIMITS.id });
    const isNew = getFlag(fields, NAME, 'newSession');
    const userData = getText(fields, NAME, 'userData', { max: isNew ? FIELD_LIMITS.serviceCode : FIELD_LIMITS.input });
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'msisdn', { nonEmpty: true, max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'network', { max: FIELD_LIMITS.network }),
      serviceCode: isNew ? userData : '',
      input: isNew ? '' : userData,
      kind: isNew ? 'start' : 'continue',
      raw: { userID: getText(fields, NAME, 'userID', { max: FIELD_LIMITS.id }) },
    };
    if (isNew && userData.trim() !== '') hop.dialString = userData;
    return hop;
  },

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    const userId = hop.raw.userID;
    return jsonReply({
      sessionID: hop.sessionId,
      userID: typeof userId === 'string' ? userId : '',
      msisdn: hop.msisdn,
      message: cleanText(reply.text),
      continueSession: !reply.end,
    });
  },
};
