/**
 * Hubtel Programmable Services (summary in docs/gateway-formats.md; sources: https://developers.hubtel.com/docs/api-reference-prog-services; the
 * official .NET SDK github.com/hubtel/programmable-services-sdk-dotnet).
 *
 * Request: JSON `SessionId, Type, Message, ServiceCode, Operator, ClientState, Mobile, Sequence, Platform`.
 * `Type` is `initiation` (new session; `Message` is the whole dialled string, e.g. `*714*5*3*100*1#`),
 * `response` (`Message` is the new input), `release` (the user ended it) or `timeout` (we were too slow;
 * a reply is ignored). The docs write the values lower-case, the SDK capitalised: compare without case.
 * Reply: JSON `{ SessionId, Type: "Response" | "Release", Message, Label, ClientState, DataType, FieldType }`.
 *
 * Example:
 *   { "Type": "Initiation", "Message": "*713*4#", "ServiceCode": "713", "Mobile": "233200585542", ... }
 *     -> { kind: 'start', serviceCode: '713', dialString: '*713*4#', input: '' }
 *   formatReply({ text: 'Thanks', end: true }) -> { "Type": "Release", "Message": "Thanks", "DataType": "display", ... }
 */
import { FIELD_LIMITS, cleanText, getEcho, getText, hasKeys, jsonReply, malformed, peekFields, readFields, type Fields } from './fields';
import type { ChannelAdapter, GatewayName, GatewayRequest, HopKind, InboundHop, JsonValue, Reply } from './types';

const NAME = 'hubtel' as const;

/**
 * Hubtel's request types (SDK `ProgrammableServiceActionType`). `Favorite` is documented by the SDK as an
 * initiation that skips steps; `Query` and `AddToCart` are not USSD hops. A Map, not an object literal:
 * `__proto__`, `constructor` or `toString` must not name a kind.
 */
const KINDS = new Map<string, HopKind>([
  ['initiation', 'start'],
  ['favorite', 'start'],
  ['response', 'continue'],
  ['release', 'end'],
  ['timeout', 'end'],
]);

/** Shared with Emergent, whose requests copy Hubtel's. */
export function readHubtelStyleType(fields: Fields, gateway: GatewayName): { kind: HopKind; type: string } {
  const type = getText(fields, gateway, 'Type', { nonEmpty: true, max: 32 });
  const kind = KINDS.get(type.trim().toLowerCase());
  if (!kind) throw malformed(gateway, `field "Type" is "${type}"; expected Initiation, Response, Release or Timeout`);
  return { kind, type };
}

/** `Release` is the user ending the session (`Timeout` is not): read for resume on redial (InboundHop.isEndedByUser). */
const isHubtelStyleRelease = (type: string) => type.trim().toLowerCase() === 'release';

/** An end hop of Hubtel's shape, marked with why it ended: `Release` the user, `Timeout` the gateway's clock. */
export function markHubtelStyleEnd(hop: InboundHop, type: string): void {
  if (hop.kind !== 'end') return;
  if (isHubtelStyleRelease(type)) {
    hop.isEndedByUser = true;
    hop.ending = { cause: 'user_cancelled' };
  } else {
    hop.ending = { cause: 'timed_out' };
  }
}

/** The first line of the screen, for the `Label` the Hubtel app and web show as a title. */
function labelOf(text: string): string {
  const first = text.split('\n', 1)[0].trim();
  return first.length > 100 ? `${first.slice(0, 97)}...` : first;
}

export const hubtel: ChannelAdapter<typeof NAME> = {
  name: NAME,
  signature: 'SessionId, Type, Mobile, Message',

  matches(req: GatewayRequest): boolean {
    const fields = peekFields(req);
    if (!fields) return false;
    // Emergent copies this shape and adds USERID; Nalo uses USERID too.
    return hasKeys(fields, ['SessionId', 'Type']) && !hasKeys(fields, ['USERID']);
  },

  parseRequest(req: GatewayRequest): InboundHop {
    const fields = readFields(req, NAME);
    const sessionId = getText(fields, NAME, 'SessionId', { nonEmpty: true, max: FIELD_LIMITS.id });
    const { kind, type } = readHubtelStyleType(fields, NAME);
    const message = getText(fields, NAME, 'Message', { max: kind === 'continue' ? FIELD_LIMITS.input : FIELD_LIMITS.serviceCode });
    const serviceCode = getText(fields, NAME, 'ServiceCode', { max: FIELD_LIMITS.serviceCode });
    const raw: Record<string, JsonValue> = { Type: type };
    const clientState = getEcho(fields, NAME, 'ClientState');
    if (clientState !== undefined) raw.ClientState = clientState;
    const platform = getText(fields, NAME, 'Platform', { max: 64 });
    if (platform) raw.Platform = platform;
    const sequence = getText(fields, NAME, 'Sequence', { max: 16 });
    if (sequence) raw.Sequence = sequence;
    const hop: InboundHop = {
      gateway: NAME,
      sessionId,
      // A Timeout or Release may come without the subscriber's details.
      msisdn: getText(fields, NAME, 'Mobile', { nonEmpty: kind !== 'end', max: FIELD_LIMITS.msisdn }),
      network: getText(fields, NAME, 'Operator', { max: FIELD_LIMITS.network }),
      serviceCode: serviceCode || (kind === 'start' ? message : ''),
      input: kind === 'continue' ? message : '',
      kind,
      raw,
    };
    // On the Hubtel app and web the initiation Message may be blank: there is no dial string then.
    if (kind === 'start' && message.trim() !== '') hop.dialString = message;
    markHubtelStyleEnd(hop, type);
    return hop;
  },

  formatReply(reply: Reply, hop: InboundHop): { contentType: string; body: string } {
    const text = cleanText(reply.text);
    const clientState = hop.raw.ClientState;
    return jsonReply({
      SessionId: hop.sessionId,
      Type: reply.end ? 'Release' : 'Response',
      Message: text,
      Label: labelOf(text),
      ClientState: typeof clientState === 'string' ? clientState : '',
      DataType: reply.end ? 'display' : 'input',
      FieldType: 'text',
    });
  },
};
