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
