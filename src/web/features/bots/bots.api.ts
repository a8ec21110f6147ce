/**
 * The WhatsApp bots' calls not yet declared in src/shared/api/bots.calls.ts (the bots, their linked numbers and
 * the admins' access switch are), typed by src/shared/api/bots.schema.ts and src/shared/whatsapp.ts:
 * - the console's chat simulator, `POST /whatsapp-emulator/{appId}`, which runs the bot's draft and answers
 *   `{ sessionId, end, messages }` (not the envelope; a refusal is the envelope with a 4xx);
 * - the simulated phone that the simulator connector's QR code opens (`/api/whatsapp-simulator/{linkId}`,
 *   public: the link's secret is the key).
 * Both ride the WhatsApp chat path, which is being reworked; they move to declarations after it.
 */
import type { ChatSimulatorBody, SimulatedMessageBody, SimulatedPhone } from '../../../shared/api/bots.schema';
import type { WhatsAppMessage } from '../../../shared/whatsapp';
import { api, type ApiReply } from '../../lib/api';

// ---- the chat simulator (console) ----

export type ChatSimulatorRequest = ChatSimulatorBody;

/** The bot's answer (chatReplySchema), its messages typed as the adapter builds them. */
export interface ChatSimulatorReply {
  sessionId: string;
  /** The conversation ended (a terminating menu): the next message starts again. */
  end: boolean;
  messages: WhatsAppMessage[];
}

export type ChatSimulatorAnswer = { ok: true; reply: ChatSimulatorReply } | { ok: false; reply: ApiReply };

export async function sendChatSimulatorMessage(appId: string, request: ChatSimulatorRequest): Promise<ChatSimulatorAnswer> {
  const reply = await api(`/whatsapp-emulator/${encodeURIComponent(appId)}`, { body: request });
  const { sessionId, end, messages } = reply as Partial<ChatSimulatorReply>;
  if (typeof sessionId === 'string' && Array.isArray(messages)) return { ok: true, reply: { sessionId, end: end === true, messages } };
  return { ok: false, reply };
}

// ---- the simulated phone (public: the link's secret is the key) ----

export type SimulatedPhoneLink = SimulatedPhone;

/** One message of a simulated phone's chat (transcriptEntrySchema): `in` came from the customer, `out` is the bot's. */
export interface TranscriptEntry {
  direction: 'in' | 'out';
  message: WhatsAppMessage;
  at: string;
}

const phoneUrl = (linkId: string, tail = '') => `/api/whatsapp-simulator/${encodeURIComponent(linkId)}${tail}`;

export const simulatedPhonePath = (linkId: string, secret: string) =>
  `/whatsapp-simulator/${encodeURIComponent(linkId)}?secret=${encodeURIComponent(secret)}`;

export const getSimulatedPhone = (linkId: string, secret: string) =>
  api<SimulatedPhoneLink>(phoneUrl(linkId, `?secret=${encodeURIComponent(secret)}`), { auth: false });

/** "Scans" the QR: the number becomes CONNECTED as `mobileNumber`. */
export const scanSimulatedPhone = (linkId: string, body: { secret: string; mobileNumber: string }) =>
  api<SimulatedPhoneLink>(phoneUrl(linkId, '/scan'), { body, auth: false });

/** A customer's message to the linked number; the bot's replies come back. */
export const sendSimulatedPhoneMessage = (linkId: string, body: SimulatedMessageBody) =>
  api<{ messages: WhatsAppMessage[] }>(phoneUrl(linkId, '/messages'), { body, auth: false });

export const findSimulatedPhoneTranscript = (linkId: string, secret: string, from: string) =>
  api<{ transcript: TranscriptEntry[] }>(
    phoneUrl(linkId, `/messages?secret=${encodeURIComponent(secret)}&from=${encodeURIComponent(from)}`),
    { auth: false },
  );

/** The testing buttons: the link fails before it connects, or the phone logs the linked device out. */
export const setSimulatedPhoneState = (linkId: string, body: { secret: string; status: 'FAILED' | 'DISCONNECTED' }) =>
  api<SimulatedPhoneLink>(phoneUrl(linkId, '/state'), { body, auth: false });
