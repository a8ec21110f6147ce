import type { ChatReply, WhatsAppMessage } from '../../shared/whatsapp';

/** A reply to one user of a linked number, as the runtime hands it to a connector's `send` (tests). */
export const chatReply = (linkId: string, to: string, ...messages: WhatsAppMessage[]): ChatReply => ({
  linkId,
  conversation: `${linkId}:${to}`,
  to,
  sessionId: 's-1',
  end: false,
  messages,
});
