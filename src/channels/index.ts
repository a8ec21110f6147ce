/**
 * The gateway adapters and how a request finds its adapter. Each gateway's wire format: docs/gateway-formats.md.
 *
 * A hop through the runtime (src/server/features/runtime/hop-steps.ts):
 *   const { adapter, hop } = readGatewayRequest(req, query.gateway); // by shape, or forced with ?gateway=<name>
 *   if (hop.kind === 'end') -> close the session, answer an empty 200 (Africa's Talking's end notice is one too)
 *   const stored = await sessions.get(key(adapter.name, hop.sessionId));
 *   if (hop.hopId !== undefined && hop.hopId === stored?.lastHopId) -> answer the stored reply again (a retry)
 *   if (adapter.resumeHop) hop = adapter.resumeHop(hop, stored?.channelState); // read against the session
 *   run the engine, then send adapter.formatReply(reply, hop) with status 200 (store hop.channelState)
 */
import { africastalking } from './africastalking';
import { arkesel } from './arkesel';
import { beem } from './beem';
import { emergent } from './emergent';
import { emulator } from './emulator';
import { hubtel } from './hubtel';
import { mobiverse } from './mobiverse';
import { nalo } from './nalo';
import { southpawslab } from './southpawslab';
import { whatsapp } from './whatsapp';
import { cleanText, peekFields } from './fields';
import {
  ChannelError,
  GATEWAY_NAMES,
  isGatewayName,
  type ChannelAdapter,
  type GatewayName,
  type GatewayRequest,
  type InboundHop,
} from './types';

export const channelAdapters = {
  africastalking,
  hubtel,
  emergent,
  nalo,
  arkesel,
  beem,
  southpawslab,
  mobiverse,
  emulator,
  whatsapp,
} satisfies { [Name in GatewayName]: ChannelAdapter<Name> };

/**
 * The order shapes are tried in. Africa's Talking, the commonest gateway, first: its `phoneNumber` is sent by no
 * other gateway, so no other's request has its shape. Then the most specific first, so that a request matching two
 * shapes goes to the stricter one (Emergent is Hubtel's shape plus USERID; Nalo also sends USERID).
 */
const DETECTION_ORDER: readonly ChannelAdapter[] = [
  africastalking,
  emulator,
  nalo,
  emergent,
  hubtel,
  mobiverse,
  beem,
  arkesel,
  southpawslab,
];

export function getChannelAdapter(name: GatewayName): ChannelAdapter {
  return channelAdapters[name];
}

function expected(): string {
  return DETECTION_ORDER.map((adapter) => `${adapter.name} (${adapter.signature})`).join('; ');
}

function fieldNames(req: GatewayRequest): string {
  const fields = peekFields(req);
  if (!fields) return 'no readable fields';
  const names = Object.keys(fields);
  if (names.length === 0) return 'no fields';
  const shown = names.slice(0, 12).map((name) => cleanText(name.length > 40 ? `${name.slice(0, 40)}...` : name));
  return `fields ${shown.join(', ')}${names.length > 12 ? `, and ${names.length - 12} more` : ''}`;
}

/**
 * The adapter for a request. `override` (the `?gateway=` query value) forces one by name; otherwise the
 * request's shape decides. Throws a ChannelError naming what was expected when the name is unknown or no
 * shape matches.
 *
 * Example: detectGateway({ method: 'POST', query: {}, contentType: 'application/json',
 *   body: { USERID: 'NALOTest', MSISDN: '233200000000', USERDATA: '*920#', MSGTYPE: true, SESSIONID: '1' } }).name === 'nalo'
 */
export function detectGateway(req: GatewayRequest, override?: unknown): ChannelAdapter {
  if (override !== undefined && override !== null && override !== '') {
    if (typeof override !== 'string') {
      throw new ChannelError('unknown_gateway', `Give ?gateway= once, as one of: ${GATEWAY_NAMES.join(', ')}`);
    }
    const name = override.trim().toLowerCase();
    if (!isGatewayName(name)) {
      const shown = cleanText(override.length > 40 ? `${override.slice(0, 40)}...` : override);
      throw new ChannelError('unknown_gateway', `Unknown gateway "${shown}"; expected one of: ${GATEWAY_NAMES.join(', ')}`);
    }
    const adapter = channelAdapters[name];
    // A chat channel's requests are built by the bots service, never sent by a gateway to a USSD URL.
    if (adapter.conversation)
      throw new ChannelError(
        'unknown_gateway',
        `"${name}" is not a USSD gateway; WhatsApp messages reach bots through their linked numbers`,
      );
    return adapter;
  }
  for (const adapter of DETECTION_ORDER) {
    if (adapter.matches(req)) return adapter;
  }
  throw new ChannelError(
    'unrecognised_request',
    `Unrecognised USSD request (${fieldNames(req)}). Expected the fields of one of: ${expected()}. Add ?gateway=<name> to choose one.`,
  );
}

/** A gateway request as read: the adapter that reads and answers it, and the hop it carries. */
export interface GatewayHop {
  adapter: ChannelAdapter;
  hop: InboundHop;
}

/**
 * A gateway request in one call: its adapter (forced with `?gateway=`, else by shape) and the hop it carries, an
 * `end` hop when the gateway closes the session (Africa's Talking's end-of-session notice included). Throws a
 * ChannelError when no adapter can read it.
 *
 * Example: readGatewayRequest({ method: 'POST', query: {}, contentType: 'application/x-www-form-urlencoded',
 *   body: 'sessionId=ATUid_1&status=Success&phoneNumber=%2B254711000111' }) -> { adapter: africastalking, hop: { kind: 'end', ... } }
 */
export function readGatewayRequest(req: GatewayRequest, override?: unknown): GatewayHop {
  const adapter = detectGateway(req, override);
  return { adapter, hop: adapter.parseRequest(req) };
}

export { deriveNewInput } from './africastalking';
export { FIELD_LIMITS } from './fields';
export { africastalking, arkesel, beem, emergent, emulator, hubtel, mobiverse, nalo, southpawslab, whatsapp };
export { readChatMessage, toChatReply, toWhatsAppMessages } from './whatsapp';
export * from './types';
