/**
 * The conditions that pick an account's contacts by the Contacts list's filters (docs/contacts.md, "The API"): the
 * list, its export and a campaign's audience read them from here.
 */
import { and, eq, ilike, isNotNull, like, sql, type SQL } from 'drizzle-orm';
import { contacts } from '../../db/schema';
import { CONTACT_NAME_START_MAX, type ContactFilter } from '../../shared/api/contacts.schema';

/** `%` and `_` typed in a search are searched for, not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A search is a number's start when it is digits (a +, spaces, dashes allowed); else a name's start when it is one
 * or two characters (CONTACT_NAME_START_MAX: too short for the trigram index, so the (owner, lower(name)) index
 * serves it), else a part of a name (the trigram index).
 */
function toSearchCondition(search: string): SQL {
  const digits = search.replace(/[\s\-().]/g, '');
  if (/^\+?\d+$/.test(digits)) return like(contacts.msisdn, `+${escapeLike(digits.replace('+', ''))}%`);
  if ([...search].length <= CONTACT_NAME_START_MAX)
    return and(isNotNull(contacts.name), sql`lower(${contacts.name}) like ${`${escapeLike(search.toLowerCase())}%`}`) as SQL;
  return ilike(contacts.name, `%${escapeLike(search)}%`);
}

const FIRST_SEEN = { ussd: contacts.firstSeenUssd, whatsapp: contacts.firstSeenWhatsapp, sms: contacts.firstSeenSms } as const;

/** The Contacts list's, its export's and an audience's conditions: the account, then each filter given (attributes and consent are jsonb). */
export function toContactConditions(ownerId: string, filter: ContactFilter): SQL[] {
  const conditions = [eq(contacts.ownerId, ownerId)];
  if (filter.search) conditions.push(toSearchCondition(filter.search));
  for (const pair of filter.attribute ?? []) {
    const at = pair.indexOf('=');
    conditions.push(sql`${contacts.attributes} @> ${JSON.stringify({ [pair.slice(0, at)]: pair.slice(at + 1) })}::jsonb`);
  }
  if (filter.consentChannel && filter.consentStatus) {
    const consent = sql`${contacts.consent} -> ${filter.consentChannel}`;
    // `@>` so that the consent index serves it (src/db/schema/contacts.ts).
    const given = JSON.stringify({ [filter.consentChannel]: { status: filter.consentStatus } });
    conditions.push(filter.consentStatus === 'never' ? sql`${consent} is null` : sql`${contacts.consent} @> ${given}::jsonb`);
  }
  // The first time seen is set with the first last seen and then stays: its partial indexes serve the filter.
  if (filter.seenOn) conditions.push(isNotNull(FIRST_SEEN[filter.seenOn]));
  return conditions;
}
