/**
 * The runtime's side of handing a WhatsApp conversation to a person (docs/inbox.md). The runtime finds a handoff (a
 * rule's, or one of the bot's handoff words) and asks the inbox to open a conversation; while one is open, the
 * contact's messages go to it instead of the bot. The contract is here, in the core, so the runtime, the bots'
 * connectors and the inbox share it without importing each other; buildApp hands the inbox's implementation to the
 * connectors, which give it to the runtime with each linked number's message.
 */
import type { ChatMessage } from '../../shared/whatsapp';

/** Whose conversation it is: the bot's account and app, the linked number, and the contact (E.164). */
export interface HandoffTarget {
  ownerId: string;
  appId: string;
  linkId: string;
  msisdn: string;
}

/** A handoff, as the runtime found it. */
export interface Handoff extends HandoffTarget {
  /** The rule's reason, or `keyword: <word>`. */
  reason: string;
  /** The session's inputs at the handoff ({} when no session was open). */
  inputs: Record<string, string>;
  /** What the customer wrote last (the message that led to the handoff), and the bot's answer to it. */
  customerText: string;
  botText: string;
}

export interface ChatHandoffs {
  /**
   * The contact's message, when a conversation with this bot is open: stored there (the agents see it), and true,
   * so the bot does not run; false when none is open.
   */
  holdMessage(target: HandoffTarget, message: ChatMessage): Promise<boolean>;
  /** Opens the contact's conversation (or adds to the one open) with the reason and the session's inputs. */
  openConversation(handoff: Handoff): Promise<void>;
}
