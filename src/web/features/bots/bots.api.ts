/**
 * Every call of the WhatsApp bots area (docs/product.md, WhatsApp bots), one function each, typed by
 * src/shared/api/bots.schema.ts and src/shared/whatsapp.ts:
 * - the bots and their linked numbers (`/api/chatbot/...`, and `POST /chatbot/app/update` without `/api`, as the
 *   product names it);
 * - the console's chat simulator, `POST /whatsapp-emulator/{appId}`, which runs the bot's draft and answers
 *   `{ sessionId, end, messages }` (not the envelope; a refusal is the envelope with a 4xx);
 * - the simulated phone that the simulator connector's QR code opens (`/api/whatsapp-simulator/{linkId}`,
 *   public: the link's secret is the key);
 * - the admins' switch that lets an account build bots.
 */
import type { z } from 'zod';
import type {
  Bot,
  ChatSimulatorBody,
  createBotBodySchema,
  LinkedNumber,
  LinkNumberBody,
  SimulatedMessageBody,
  SimulatedPhone,
  UpdateBotBody,
} from '../../../shared/api/bots.schema';
import type { WhatsAppConnectorName, WhatsAppMessage } from '../../../shared/whatsapp';
import { api, type ApiReply } from '../../lib/api';

// ---- bots ----

export const findBots = () => api<Bot[]>('/api/chatbot/apps');

export const getBot = (appId: string) => api<Bot>(`/api/chatbot/app/${encodeURIComponent(appId)}`);

export const createBot = (body: z.input<typeof createBotBodySchema>) => api<Bot>('/api/chatbot/app/create', { body });

/** The bot data object, edits included (the call's contract: no `/api` prefix). */
export const updateBot = (bot: UpdateBotBody) => api<Bot>('/chatbot/app/update', { body: bot });

export const deleteBot = (appId: string) => api(`/api/chatbot/app/${encodeURIComponent(appId)}`, { method: 'DELETE' });

// ---- linked numbers ----

export const findLinkedNumbers = (appId: string) => api<LinkedNumber[]>(`/api/chatbot/whatsapp/list-numbers/${encodeURIComponent(appId)}`);

/** Starts linking a number to the bot; the reply's top-level `linkId` is what the link status is asked with. */
export const linkNumber = (body: LinkNumberBody) => api<LinkedNumber>('/api/chatbot/whatsapp/link', { body });

export const unlinkNumber = (linkId: string) => api(`/api/chatbot/whatsapp/unlink/${encodeURIComponent(linkId)}`);

/** The link's state at the top level: `linkStatus`, and `qrCode` (the QR's content) while it is QR. */
export const getLinkStatus = (linkId: string) => api(`/api/chatbot/whatsapp/link-status/${encodeURIComponent(linkId)}`);

/** Which connector links numbers on this installation: the simulator, Baileys (linked devices) or the Cloud API. */
export const getWhatsAppConnector = () => api<{ connector: WhatsAppConnectorName }>('/api/chatbot/whatsapp/connector');

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

// ---- admins ----

/** Lets an account build bots, or stops it (`POST /api/admin/chatbot-access`). */
export const setChatbotAccess = (body: { email: string; enabled: boolean }) => api('/api/admin/chatbot-access', { body });
