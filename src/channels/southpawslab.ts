/**
 * Southpawslab USSD (summary in docs/gateway-formats.md). Its documentation is not public (none was found among the
 * sources searched); this follows the shape integrations built against it use.
 *
 * Request: `sessionId, msisdn, menuId, ussdString, inputOption, network, ussdParameters`. A session is new
 * when `inputOption` equals `ussdString` (both are then the dialled string); afterwards `inputOption` is the
 * new input. No end signal. Reply: JSON `{ message, state: "CONTINUE" | "END", menuId, ussdString, option,
 * ussdParameter }`, echoing the request's `menuId`, `ussdString`, `inputOption` and `ussdParameters`.
 *
 * Example:
 *   { "sessionId": "s9", "msisdn": "233200000000", "menuId": "m1", "ussdString": "*365*1#", "inputOption": "*365*1#", "network": "MTN" }
 *     -> { kind: 'start', serviceCode: '*365*1#', dialString: '*365*1#' }
 */
import { FIELD_LIMITS, cleanText, getEcho, getText, hasKeys, jsonReply, peekFields, readFields } from './fields';
import type { ChannelAdapter, GatewayRequest, InboundHop, JsonValue, Reply } from './types';

const NAME = 'southpawslab' as const;

export const southpawslab: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'sessionId, msisdn, menuId, ussdString, inputOption',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    return !!fields && hasKeys(fields, ['sessionId', 'msisdn', 'inputOption']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'sessionId', { nonEmpty: true, max: FIELD_LIMITS.id });
    const ussdString = getText(fields, NAME, 'ussdString', { max: FIELD_LIMITS.serviceCode });
    const inputOption = getText(fields, NAME, 'inputOption', { required: true, max: FIELD_LIMITS.input });
    const isNew = inputOption === ussdString;
    const raw: Record<string, JsonValue> = {
      menuId: getText(fields, NAME, 'menuId', { max: FIELD_LIMITS.id }),
      ussdString,
      inputOption,
    };
    const parameters = getEcho(fields, NAME, 'ussdParameters');
    if (parameters !== undefined) raw.ussdParameters = parameters;
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      msisdn: getText(fields, NAME, 'msisdn', { nonEmpty: true, max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'network', { max: FIELD_LIMITS.network }),
      serviceCode: isNew ? ussdString : '',
      input: isNew ? '' : inputOption,
      kind: isNew ? 'start' : 'continue',
      raw,
    };
    if (isNew && ussdString.trim() !== '') hop.dialString = ussdString;
    return hop;
  },

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    return jsonReply({
      message: cleanText(reply.text),
      state: reply.end ? 'END' : 'CONTINUE',
      menuId: hop.raw.menuId ?? '',
      ussdString: hop.raw.ussdString ?? '',
      option: hop.raw.inputOption ?? '',
      ussdParameter: hop.raw.ussdParameters ?? null,
    });
  },
};
