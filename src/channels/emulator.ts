/**
 * The browser emulator's channel (`POST /ussd-emulator/{appId}`; docs/gateway-formats.md, and the emulator in docs/product.md).
 *
 * Request: JSON `session_id, userdata, msisdn, session_mode, network_id, appId`. `session_mode` is `start`
 * (dialling; `userdata` is the number on the dial pad, e.g. `*920*1#`), `continue` (`userdata` is the reply
 * typed) or `end`. Reply: JSON `{ text, session_mode: "continue" | "end" }`, plus `inputHolder` (ours, beyond
 * the emulator's `{text, session_mode}`) when the screen waits for input and its menu has an input holder: the console shows it
 * in the reply box. (The error form, with `error, message, status`, is the server's: it is not a screen.)
 *
 * The emulator is the phone's network too: a dialled string that is not the app's code gets UNKNOWN_CODE_TEXT
 * as an ended screen (ChannelAdapter.network), and the app never sees the session.
 *
 * Example:
 *   { "session_id": "20240131100000", "userdata": "*920*1#", "msisdn": "0244000000", "session_mode": "start", "network_id": "MTN", "appId": "a1" }
 *     -> { kind: 'start', serviceCode: '*920*1#', dialString: '*920*1#', input: '' }
 *   formatReply({ text: 'Welcome', end: false }) -> { "text": "Welcome", "session_mode": "continue" }
 *   formatReply({ text: 'Your name?', end: false, inputHolder: 'e.g. Ama' })
 *     -> { "text": "Your name?", "session_mode": "continue", "inputHolder": "e.g. Ama" }
 */
import { FIELD_LIMITS, cleanText, getText, hasKeys, jsonReply, malformed, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, HopKind, InboundHop, Reply } from './types';

const NAME = 'emulator' as const;

/** What the network answers to a USSD code with no application behind it (MTN's networks word it so). */
export const UNKNOWN_CODE_TEXT = 'UNKNOWN APPLICATION';

// A Map, not an object literal: `__proto__`, `constructor` or `toString` must not name a kind.
const KINDS = new Map<string, HopKind>([
  ['start', 'start'],
  ['continue', 'continue'],
  ['end', 'end'],
]);

export const emulator: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'session_id, userdata, msisdn, session_mode',
  network: { unknownCodeText: UNKNOWN_CODE_TEXT },

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['session_id', 'session_mode']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'session_id', { nonEmpty: true, max: FIELD_LIMITS.id });
    const mode = getText(fields, NAME, 'session_mode', { nonEmpty: true, max: 32 });
    const kind = KINDS.get(mode.trim().toLowerCase());
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
    // The emulator's Cancel. It is not marked isEndedByUser: it also stands in for a drop, so resume on redial can
    // be tried in the console.
    if (kind === 'end') hop.ending = { cause: 'user_cancelled' };
    return hop;
  },

  formatReply(reply: Reply): { contentType: string; body: string } {
    const body: Record<string, string> = { text: cleanText(reply.text), session_mode: reply.end ? 'end' : 'continue' };
    if (!reply.end && reply.inputHolder) body.inputHolder = cleanText(reply.inputHolder);
    return jsonReply(body);
  },
};
