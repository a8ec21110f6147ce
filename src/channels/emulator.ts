/**
 * The browser emulator's channel (spec 000, "Emulator request" / "Emulator response"; `POST /ussd-emulator/{appId}`).
 *
 * Request: JSON `session_id, userdata, msisdn, session_mode, network_id, appId`. `session_mode` is `start`
 * (dialling; `userdata` is the number on the dial pad, e.g. `*920*1#`), `continue` (`userdata` is the reply
 * typed) or `end`. Reply: JSON `{ text, session_mode: "continue" | "end" }`. (The error form, with `error,
 * message, status`, is the server's: it is not a screen.)
 *
 * Example:
 *   { "session_id": "20240131100000", "userdata": "*920*1#", "msisdn": "0244000000", "session_mode": "start", "network_id": "MTN", "appId": "a1" }
 *     -> { kind: 'start', serviceCode: '*920*1#', dialString: '*920*1#', input: '' }
 *   formatReply({ text: 'Welcome', end: false }) -> { "text": "Welcome", "session_mode": "continue" }
 */
import { FIELD_LIMITS, cleanText, getText, hasKeys, jsonReply, malformed, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, HopKind, InboundHop, OutboundReply } from './types';

const NAME = 'emulator' as const;

const KINDS: Record<string, HopKind> = { start: 'start', continue: 'continue', end: 'end' };

export const emulator: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'session_id, userdata, msisdn, session_mode',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['session_id', 'session_mode']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'session_id', { nonEmpty: true, max: FIELD_LIMITS.id });
    const mode = getText(fields, NAME, 'session_mode', { nonEmpty: true, max: 32 });
    const kind = KINDS[mode.trim().toLowerCase()];
    if (!kind) throw malformed(NAME, `field "session_mode" is "${mode}"; expected start, continue or end`);
    const userdata = getText(fields, NAME, 'userdata', { max: kind === 'continue' ? FIELD_LIMITS.input : FIELD_LIMITS.serviceCode });
    const appId = getText(fields, NAME, 'appId', { max: FIELD_LIMITS.id });
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'msisdn', { nonEmpty: kind !== 'end', max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'network_id', { max: FIELD_LIMITS.network }),
      serviceCode: kind === 'start' ? userdata : '',
      input: kind === 'continue' ? userdata : '',
      kind,
      raw: appId ? { appId } : {},
    };
    if (kind === 'start' && userdata.trim() !== '') hop.dialString = userdata;
    return hop;
  },

  formatReply(reply: OutboundReply): { contentType: string; body: string } {
    return jsonReply({ text: cleanText(reply.text), session_mode: reply.end ? 'end' : 'continue' });
  },
};
