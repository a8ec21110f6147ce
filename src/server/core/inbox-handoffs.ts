/**
 * The runtime's side of handing a conversation to a person (docs/inbox.md). The runtime finds a handoff (a rule's,
 * or one of a bot's handoff words) and asks the inbox to open a conversation; while one is open, a WhatsApp
 * contact's messages go to it instead of the bot. On USSD a rule's handoff is a callback request: a conversation
 * with the caller's number and answers, which an agent calls back and marks done. The contract is here, in the core,
 * so the runtime, the bots' connectors and the inbox share it without importing each other; buildApp hands the
 * inbox's implementation to the runtime (USSD) and to the connectors, which give it to the runtime with each linked
 * number's message.
 */
import type { InboxChannel } from '../../shared/inbox';
import type { ChatMessage } from '../../shared/whatsapp';

/**
 * Whose conversation it is: the app's account and the app, the contact (E.164), and where it came from: a WhatsApp
 * linked number (replies go from it), or a USSD caller (`linkId` null: the agent calls back).
 */
export interface HandoffTarget {
  ownerId: string;
  appId: string;
  channel: InboxChannel;
  linkId: string | null;
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
  /**
   * Whether the handoff came with the contact's own message on this channel: WhatsApp's 24-hour window opens with it.
   * False for a USSD caller asked to continue on WhatsApp, who has not written there yet.
   */
  inbound: boolean;
}

/** The linked number a USSD caller is asked to message to continue on WhatsApp (docs/inbox.md). */
export interface ContinueOnWhatsApp {
  linkId: string;
  /** The number as people dial it, E.164 (+233...). */
  number: string;
}

export interface ChatHandoffs {
  /**
   * The contact's message, when a conversation with this bot is open: stored there (the agents see it), and true,
   * so the bot does not run; false when none is open.
   */
  holdMessage(target: HandoffTarget, message: ChatMessage): Promise<boolean>;
  /**
   * Opens the contact's conversation (or adds to the one open) with the reason and the session's inputs. Throws
   * when it could not be stored (the database): the caller tells the customer.
   */
  openConversation(handoff: Handoff): Promise<void>;
  /**
   * The connected linked number of the account's bot `botId` a USSD caller may continue on, or null (not the
   * account's bot, no number connected, a number without its own): the caller then gets a callback request.
   */
  findWhatsAppNumber(ownerId: string, botId: string): Promise<ContinueOnWhatsApp | null>;
}
