import { z } from 'zod';
import { CONTACT_FIELD_PATTERN } from '../app/menu.schema';
import { CONSENT_CHANNELS, CONSENT_SOURCES } from '../contact-consent';
import { CONTACT_ATTRIBUTES_MAX, CONTACT_NAME_MAX, CONTACT_VALUE_MAX } from '../contact-fields';
import { DELIVERY_STATUSES } from '../whatsapp-status';

/**
 * An account's contacts (docs/contacts.md): the people its apps talk to, one per phone number in E.164 form,
 * whichever app or channel they came by.
 */
export const CONTACT_MESSAGES = {
  notFound: 'Contact not found',
  attributeKey: 'An attribute key is a letter or _, then letters, digits or _ (at most 40); name and language are fields of their own',
  tooManyAttributes: 'A contact keeps at most 50 attributes',
} as const;

/** Attribute keys: what a menu's saveToContact may name, but not the contact's own fields. */
const attributeKeySchema = z
  .string()
  .regex(CONTACT_FIELD_PATTERN, { message: CONTACT_MESSAGES.attributeKey })
  .refine((key) => key !== 'name' && key !== 'language', { message: CONTACT_MESSAGES.attributeKey });

export const contactAttributesSchema = z
  .record(attributeKeySchema, z.string().max(CONTACT_VALUE_MAX))
  .refine((attributes) => Object.keys(attributes).length <= CONTACT_ATTRIBUTES_MAX, { message: CONTACT_MESSAGES.tooManyAttributes });

const seenSchema = z.object({ firstSeen: z.string().nullable(), lastSeen: z.string().nullable() });

/** The latest opt in or out on a channel (null: never asked, so nothing outbound goes there). */
export const contactConsentSchema = z.object({
  status: z.enum(['in', 'out']),
  at: z.string(),
  source: z.enum(CONSENT_SOURCES),
  detail: z.string().nullable(),
});

export const contactSchema = z.object({
  contactId: z.string(),
  /** E.164: `+233241234567`. */
  msisdn: z.string(),
  name: z.string().nullable(),
  language: z.string().nullable(),
  attributes: z.record(z.string(), z.string()),
  /** First and last seen on each channel (null: never). */
  seen: z.object({ ussd: seenSchema, whatsapp: seenSchema, sms: seenSchema }),
  /** Consent per channel. */
  consent: z.object({
    ussd: contactConsentSchema.nullable(),
    whatsapp: contactConsentSchema.nullable(),
    sms: contactConsentSchema.nullable(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

/** One of the contact's sessions, from the stored session records of every app of the account. */
export const contactSessionSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  /** `ussd` or `whatsapp`: the app's channel. */
  channel: z.string(),
  sessionId: z.string(),
  environment: z.string(),
  gateway: z.string(),
  status: z.string(),
  hopCount: z.number(),
  startedAt: z.string(),
  endedAt: z.string(),
});
export type ContactSession = z.infer<typeof contactSessionSchema>;

/**
 * A WhatsApp message the account sent this contact first (docs/bots.md, "Writing first"): a template (outside the
 * 24-hour window) or the entry menu (inside it), from which bot and linked number, and what was recorded: `sending`,
 * `sent` or `failed` with the provider's words. `delivery`: a template's status as WhatsApp reported it (the same
 * ticks as the chat simulator's); null for an entry menu, a failed send, or before the send was recorded.
 */
export const contactFirstMessageSchema = z.object({
  id: z.string(),
  appId: z.string(),
  appName: z.string(),
  linkId: z.string(),
  /** The linked number it went from ('' when the link has none yet). */
  mobileNumber: z.string(),
  kind: z.enum(['template', 'menu']),
  entryMenuId: z.string(),
  templateName: z.string().nullable(),
  templateLanguage: z.string().nullable(),
  status: z.enum(['sending', 'sent', 'failed']),
  error: z.string(),
  createdAt: z.string(),
  delivery: z.object({ status: z.enum(DELIVERY_STATUSES), failureReason: z.string() }).nullable(),
});
export type ContactFirstMessage = z.infer<typeof contactFirstMessageSchema>;

export const contactDetailSchema = contactSchema.extend({
  recentSessions: z.array(contactSessionSchema),
  /** The 20 latest messages the account sent this contact first, newest first. */
  firstMessages: z.array(contactFirstMessageSchema),
});
export type ContactDetail = z.infer<typeof contactDetailSchema>;

/** An attribute filter: `key=value` (the value matched exactly). */
const attributeFilterSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,39}=[\s\S]{0,500}$/, { message: 'An attribute filter is key=value, the key as an attribute key' });

/**
 * The filters of the list and its export: `search` is a number's start (`+23324`, `23324`: digits, spaces and
 * dashes allowed) or a part of a name; `attribute` (repeatable) `key=value`; `consentChannel` with
 * `consentStatus` (opted in, opted out, never asked); `seenOn` a channel the contact was ever seen on.
 */
export const contactFilterSchema = z.object({
  search: z.string().trim().max(100).optional(),
  attribute: z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(attributeFilterSchema).max(5)).optional(),
  consentChannel: z.enum(CONSENT_CHANNELS).optional(),
  consentStatus: z.enum(['in', 'out', 'never']).optional(),
  seenOn: z.enum(CONSENT_CHANNELS).optional(),
});
export type ContactFilter = z.infer<typeof contactFilterSchema>;

const CONTACT_CURSOR_MESSAGE = 'Page after a number or before one, not both';
export const CONSENT_FILTER_MESSAGE = 'A consent filter names both a channel and a status (in, out or never)';
export const hasWholeConsentFilter = (f: { consentChannel?: string; consentStatus?: string }) =>
  (f.consentChannel === undefined) === (f.consentStatus === undefined);

/**
 * A search of at most this many characters (not a number) matches a name's start; a longer one any part of a name
 * (docs/contacts.md, "Searching").
 */
export const CONTACT_NAME_START_MAX = 2;

const cursorSchema = z.string().trim().min(1).max(32);

/**
 * GET /api/contacts: the filters above, in number order, `limit` at a time. Pages by number (keyset, as the console
 * does): `after` the reply's `nextAfter`, or `before` its `previousBefore`, as fast a million deep as on the first
 * page; `offset` skips that many contacts (from the start or the cursor), slower the deeper it goes.
 */
export const contactListQuerySchema = contactFilterSchema
  .extend({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    after: cursorSchema.optional(),
    before: cursorSchema.optional(),
  })
  .refine(hasWholeConsentFilter, { message: CONSENT_FILTER_MESSAGE })
  .refine((q) => q.after === undefined || q.before === undefined, { message: CONTACT_CURSOR_MESSAGE });
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

/** POST /api/contacts/export: every contact the filters match, as a CSV file. */
export const contactExportBodySchema = contactFilterSchema.refine(hasWholeConsentFilter, { message: CONSENT_FILTER_MESSAGE });

export const contactListSchema = z.object({
  contacts: z.array(contactSchema),
  /** Whether more follow this page. */
  hasMore: z.boolean(),
  /** The next page is `after` this number (null: this is the last page). */
  nextAfter: z.string().nullable(),
  /** The previous page is `before` this number (null: this is the first page). */
  previousBefore: z.string().nullable(),
});
export type ContactList = z.infer<typeof contactListSchema>;

/** How many attribute keys `GET /api/contacts/attribute-keys` answers at most, the most used first. */
export const CONTACT_ATTRIBUTE_KEYS_MAX = 100;
/**
 * How many of the account's contacts (in number order) that call reads to find its keys: a bounded sample, so the
 * call costs the same on a million contacts as on twenty thousand (docs/contacts.md, "The account's attribute keys").
 */
export const CONTACT_ATTRIBUTE_KEYS_SAMPLE = 20_000;

/** GET /api/contacts/attribute-keys: the attribute keys the account's contacts use, the most used first. */
export const contactAttributeKeysSchema = z.object({
  keys: z.array(z.object({ key: z.string(), contacts: z.number().int() })),
  /** True when the account has more contacts than were read: the keys and counts are those of the sample. */
  isSampled: z.boolean(),
});
export type ContactAttributeKeys = z.infer<typeof contactAttributeKeysSchema>;

/** A contact's language: a code such as `en`, `tw`, `pt-BR`. */
export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

const consentChangeSchema = z.enum(['in', 'out']).optional();

/** POST /api/contacts/:contactId: the fields given change (null clears name or language); `attributes` replaces them all. */
export const updateContactBodySchema = z
  .object({
    name: z.string().trim().max(CONTACT_NAME_MAX).nullable().optional(),
    language: z.string().trim().regex(LANGUAGE_CODE, { message: 'A language is a code such as en, fr or tw' }).nullable().optional(),
    attributes: contactAttributesSchema.optional(),
    /**
     * Opt the contact in or out per channel; recorded with source `console` (the user's email) when signed in,
     * `api` (the key's name) with an API key.
     */
    consent: z.object({ ussd: consentChangeSchema, whatsapp: consentChangeSchema, sms: consentChangeSchema }).strict().optional(),
  })
  .strict();
export type UpdateContactBody = z.infer<typeof updateContactBodySchema>;
