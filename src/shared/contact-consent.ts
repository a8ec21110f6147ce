/**
 * A contact's consent per channel (docs/contacts.md): whether the person opted in or out of messages on a channel,
 * when, and how. Nothing outbound (templates, campaigns) goes to a channel without an opt in.
 */
export const CONSENT_CHANNELS = ['ussd', 'whatsapp', 'sms'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/**
 * How a consent was given or withdrawn: a keyword the person sent (STOP, an app's opt-out words), a menu's opt-in
 * choice, a CSV import (with the source the importer stated), the API, or the console.
 */
export const CONSENT_SOURCES = ['keyword', 'menu', 'import', 'api', 'console'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface ContactConsent {
  status: 'in' | 'out';
  /** ISO time of the change. */
  at: string;
  source: ConsentSource;
  /** What the source says: the keyword sent, the menu, the import's stated source, the API key's name. */
  detail: string | null;
}

export type ContactConsentMap = Partial<Record<ConsentChannel, ContactConsent>>;

/**
 * The opt-out words every WhatsApp bot honours (compared trimmed, in any case), as carriers and Meta's policy
 * expect: the person is opted out of `whatsapp` and told so once, and the bot does not run.
 */
export const STOP_WORDS = ['stop', 'unsubscribe', 'cancel', 'end', 'quit', 'stopall'] as const;
/** The opt-in words every bot honours: the person is opted back in to `whatsapp`. */
export const START_WORDS = ['start', 'unstop', 'subscribe'] as const;

/** The sentence an opt out is answered with when the bot gives none; `{app}` is the bot's name. */
export const DEFAULT_OPT_OUT_REPLY = 'You will get no more messages from {app}. Send START to get them again.';
/** The sentence an opt in is answered with when the bot gives none. */
export const DEFAULT_OPT_IN_REPLY = 'You will get messages from {app} again. Send STOP to stop them.';

/** A bot's own consent words and answers, per language code (docs/contacts.md, "Consent"). */
export interface ConsentKeywords {
  /** Words that opt out, beside STOP_WORDS: `{ en: ['stop please'], fr: ['arrêt'] }`. */
  optOutWords: Record<string, string[]>;
  /** Words that opt in, beside START_WORDS. */
  optInWords: Record<string, string[]>;
  /** The answer to an opt out, per language (`{app}` is the bot's name); DEFAULT_OPT_OUT_REPLY when none. */
  optOutReply: Record<string, string>;
  /** The answer to an opt in, per language; DEFAULT_OPT_IN_REPLY when none. */
  optInReply: Record<string, string>;
}

/** What a message says about consent: opt out or in, the word as matched (lower case), and its language, if the bot's own. */
export interface ConsentKeyword {
  status: 'in' | 'out';
  word: string;
  language: string | null;
}

/** Compared trimmed, inner spaces folded, in any case. */
const normalizeWord = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

function findOwnWord(words: Record<string, string[]> | undefined, said: string): { word: string; language: string } | null {
  for (const [language, list] of Object.entries(words ?? {}))
    for (const word of list) if (normalizeWord(word) === said) return { word: said, language };
  return null;
}

/**
 * Whether a message is a consent keyword: STOP_WORDS and the bot's opt-out words opt out, START_WORDS and its
 * opt-in words opt in; anything else (null) goes to the bot.
 * @example readConsentKeyword(' Stop ', null) // { status: 'out', word: 'stop', language: null }
 */
export function readConsentKeyword(text: string, keywords: ConsentKeywords | null): ConsentKeyword | null {
  const said = normalizeWord(text);
  if (said === '') return null;
  const ownOut = findOwnWord(keywords?.optOutWords, said);
  if (ownOut) return { status: 'out', ...ownOut };
  const ownIn = findOwnWord(keywords?.optInWords, said);
  if (ownIn) return { status: 'in', ...ownIn };
  if ((STOP_WORDS as readonly string[]).includes(said)) return { status: 'out', word: said, language: null };
  if ((START_WORDS as readonly string[]).includes(said)) return { status: 'in', word: said, language: null };
  return null;
}

/**
 * The answer to a consent keyword: the bot's sentence in the word's language, else in `fallbackLanguage` (the
 * bot's default), else its first, else the default sentence; `{app}` becomes the bot's name.
 */
export function getConsentReply(
  keyword: ConsentKeyword,
  keywords: ConsentKeywords | null,
  appName: string,
  fallbackLanguage: string | null,
): string {
  const replies = (keyword.status === 'out' ? keywords?.optOutReply : keywords?.optInReply) ?? {};
  const given =
    (keyword.language ? replies[keyword.language] : undefined) ??
    (fallbackLanguage ? replies[fallbackLanguage] : undefined) ??
    Object.values(replies)[0];
  const sentence = given?.trim() || (keyword.status === 'out' ? DEFAULT_OPT_OUT_REPLY : DEFAULT_OPT_IN_REPLY);
  return sentence.replaceAll('{app}', appName);
}
