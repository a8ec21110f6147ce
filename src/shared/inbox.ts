/**
 * Handing a WhatsApp conversation to a person (docs/inbox.md): the bot's own words that ask for a person, and
 * the answer the customer gets, per language. Shared by the bots' settings, the runtime and the inbox.
 */

/** What a handoff tells the customer when the builder wrote nothing (a rule's closing text, the bot's reply). */
export const DEFAULT_HANDOFF_TEXT = 'Thank you. A person will reply to you here shortly.';

/**
 * What a USSD app's handoff tells the caller when the builder wrote nothing: on USSD a handoff is a callback request
 * (docs/inbox.md, "Callback requests"), the agent calls the number back.
 */
export const DEFAULT_CALLBACK_TEXT = 'Thank you. A person will call you back on this number shortly.';

/**
 * What a USSD app's "continue on WhatsApp" tells the caller when the builder wrote nothing; `{whatsappNumber}`
 * (which a closing text may use too) becomes the bot's linked number, as +233...
 */
export const DEFAULT_WHATSAPP_CONTINUE_TEXT = 'Thank you. Message us on WhatsApp at {whatsappNumber} and a person will answer you there.';
export const WHATSAPP_NUMBER_PLACEHOLDER = '{whatsappNumber}';

/** Sent instead of the callback text when the request could not be stored (the database not answering). */
export const CALLBACK_FAILED_TEXT = 'Sorry, we could not take your request just now. Please try again in a few minutes.';

/** The channels a conversation comes from: a WhatsApp chat, or a USSD caller's callback request. */
export const INBOX_CHANNELS = ['whatsapp', 'ussd'] as const;
export type InboxChannel = (typeof INBOX_CHANNELS)[number];

/**
 * Sent when the inbox cannot be read or written (the database not answering): whether a person has the conversation
 * is unknown, so the bot does not answer either, and nothing is lost silently.
 */
export const INBOX_UNAVAILABLE_TEXT = 'Sorry, we could not take your message just now. Please send it again in a few minutes.';

/** Sent instead of the handoff text when the conversation could not be opened: the bot's session has ended. */
export const HANDOFF_FAILED_TEXT = 'Sorry, we could not reach a person just now. Please try again in a few minutes.';

/** A bot's handoff words and answers (docs/inbox.md, "Keywords"), per language code. */
export interface HandoffKeywords {
  /** Words that hand the conversation to a person from any screen: `{ en: ['agent', 'human'] }`. */
  words: Record<string, string[]>;
  /** The answer to a handoff word, per language; DEFAULT_HANDOFF_TEXT when none. */
  reply: Record<string, string>;
}

/** Compared trimmed, inner spaces folded, in any case (as the consent words are). */
const normalizeWord = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Whether a message is one of the bot's handoff words: the word (lower case) and its language, else null.
 * @example readHandoffKeyword(' Agent ', { words: { en: ['agent'] }, reply: {} }) // { word: 'agent', language: 'en' }
 */
export function readHandoffKeyword(text: string, keywords: HandoffKeywords | null): { word: string; language: string } | null {
  const said = normalizeWord(text);
  if (said === '' || !keywords) return null;
  for (const [language, list] of Object.entries(keywords.words))
    for (const word of list) if (normalizeWord(word) === said) return { word: said, language };
  return null;
}

/** The answer to a handoff word: the bot's in the word's language, else its default language's, else the default. */
export function getHandoffReply(keywords: HandoffKeywords | null, language: string | null, fallback: string | null): string {
  const reply = keywords?.reply ?? {};
  return (language && reply[language]?.trim()) || (fallback && reply[fallback]?.trim()) || DEFAULT_HANDOFF_TEXT;
}

/** Where a conversation stands: open (with agents) or closed (handed back to the bot). */
export const INBOX_STATUSES = ['open', 'closed'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/**
 * Who wrote an inbox message: the customer, the bot, an agent (a user), an agent's private note, or an `event`: a
 * line the inbox writes when an agent assigns or closes the conversation ("Ama assigned this to Kofi").
 */
export const INBOX_AUTHORS = ['customer', 'bot', 'agent', 'note', 'event'] as const;
export type InboxAuthor = (typeof INBOX_AUTHORS)[number];
