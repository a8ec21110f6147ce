/**
 * A contact's fields as every writer checks them (docs/contacts.md): the API, a menu's saveToContact and a script's
 * `contact.set`. Free of imports, so the JavaScript sandbox's workers load it at no cost.
 */

/** `name`, `language` or an attribute key: a letter or `_`, then letters, digits or `_` (40 at most). */
export const CONTACT_FIELD_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** The API's bounds on a contact's fields. */
export const CONTACT_NAME_MAX = 200;
export const CONTACT_VALUE_MAX = 500;
export const CONTACT_ATTRIBUTES_MAX = 50;

/** The sandbox's `contact.set` refusals, thrown into the script as a TypeError. */
export const CONTACT_SET_MESSAGES = {
  key: 'contact.set(key, value): key is "name" or an attribute key (a letter or _, then letters, digits or _, at most 40)',
  language: 'contact.set cannot change language: the console and the API set it',
  value: 'contact.set(key, value): value is text',
  nameTooLong: `A contact name is at most ${CONTACT_NAME_MAX} characters`,
  valueTooLong: `A contact attribute value is at most ${CONTACT_VALUE_MAX} characters`,
  tooManyAttributes: `A contact keeps at most ${CONTACT_ATTRIBUTES_MAX} attributes`,
} as const;

/**
 * A script's `contact.set(key, value)` checked as the API checks a contact: `name` or an attribute key, text within
 * the API's bounds, at most 50 attributes (`attributeKeys`: those the contact has now, this run's sets included);
 * `language` is refused, as for saveToContact. The message for the script, or null when the set is kept.
 * @example checkContactSet('language', 'fr', new Set()) // 'contact.set cannot change language: ...'
 */
export function checkContactSet(key: unknown, value: unknown, attributeKeys: ReadonlySet<string>): string | null {
  if (key === 'language') return CONTACT_SET_MESSAGES.language;
  if (typeof key !== 'string' || !CONTACT_FIELD_PATTERN.test(key)) return CONTACT_SET_MESSAGES.key;
  if (typeof value !== 'string') return CONTACT_SET_MESSAGES.value;
  if (key === 'name') return value.trim().length > CONTACT_NAME_MAX ? CONTACT_SET_MESSAGES.nameTooLong : null;
  if (value.length > CONTACT_VALUE_MAX) return CONTACT_SET_MESSAGES.valueTooLong;
  if (!attributeKeys.has(key) && attributeKeys.size >= CONTACT_ATTRIBUTES_MAX) return CONTACT_SET_MESSAGES.tooManyAttributes;
  return null;
}
