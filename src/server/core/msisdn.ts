/**
 * Phone numbers as they reach us: every gateway's MSISDN (`233241234567`, `+233 24-123 4567`, `0241234567`),
 * WhatsApp's (`233241234567@s.whatsapp.net`, with a device `:5` before the `@`), and what a person types.
 * A contact is keyed by the number in E.164 form (`+233241234567`), so one caller is one contact whichever
 * way they come (docs/contacts.md, "The number rule").
 */

/** `+233 20-123 4567` -> `+233201234567`; answers null when it is not 7 to 15 digits with an optional +. */
export function normalizeMsisdn(value: string): string | null {
  const compact = value.trim().replace(/[\s\-().]/g, '');
  return /^\+?\d{7,15}$/.test(compact) ? compact : null;
}

/** The country calling code (digits, no +) of each app country (APP_COUNTRIES): a national number's prefix. */
export const COUNTRY_CALLING_CODES: Readonly<Record<string, string>> = {
  ghana: '233',
  nigeria: '234',
  swaziland: '268',
  kenya: '254',
  'sierra-leone': '232',
  rwanda: '250',
  liberia: '231',
  gabon: '241',
  guinea: '224',
  gambia: '220',
  malawi: '265',
  burundi: '257',
  mauritius: '230',
  eritrea: '291',
  'dr-congo': '243',
  niger: '227',
  tunisia: '216',
  algeria: '213',
  'south-africa': '27',
  'cape-verde': '238',
  'ivory-coast': '225',
  togo: '228',
  lesotho: '266',
  morocco: '212',
  zimbabwe: '263',
  namibia: '264',
  chad: '235',
  seychelles: '248',
  'equitorial-guinea': '240',
};

/** What an E.164 number is: +, a first digit that is not 0, 8 to 15 digits in all (the ITU's maximum is 15). */
const E164 = /^\+[1-9]\d{7,14}$/;
/** A WhatsApp user id: the number, an optional device (`:12`), and a user server. Groups, lists and LIDs are not people's numbers. */
const WHATSAPP_JID = /^(\d+)(?::\d+)?@(?:s\.whatsapp\.net|c\.us)$/;
/** Spacing people and gateways put in numbers. */
const SEPARATORS = /[\s\-().\u00a0/]/g;
/** A national number without its trunk 0 (what some gateways send): 6 to 10 digits. */
const NATIONAL_DIGITS = /^\d{6,10}$/;

/**
 * A number in E.164 form, or null when it is not a phone number. `country` is the app's (an APP_COUNTRIES value)
 * or a calling code (`233`); it is needed only for a national number (`0241234567`, `241234567`).
 * @example toE164('0241234567', 'ghana') // '+233241234567'
 * @example toE164('233241234567@s.whatsapp.net') // '+233241234567'
 * @example toE164('hello') // null
 */
export function toE164(value: string, country?: string | null): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  let text = value.trim();
  if (/^tel:/i.test(text)) text = text.slice(4);
  if (text.includes('@')) {
    const jid = WHATSAPP_JID.exec(text);
    if (!jid) return null;
    text = `+${jid[1]}`;
  }
  text = text.replace(SEPARATORS, '');
  if (text.startsWith('+')) return E164.test(text) ? text : null;
  if (!/^\d+$/.test(text)) return null;
  if (text.startsWith('00')) return checked(`+${text.slice(2)}`);
  const callingCode = toCallingCode(country);
  if (text.startsWith('0')) return callingCode ? checked(`+${callingCode}${text.slice(1)}`) : null;
  // Bare digits: the app's calling code and a national number, a national number without its trunk 0, or
  // another country's number written internationally without its +.
  if (callingCode && text.startsWith(callingCode) && text.length >= callingCode.length + 7) return checked(`+${text}`);
  if (callingCode && NATIONAL_DIGITS.test(text)) return checked(`+${callingCode}${text}`);
  return text.length >= 11 ? checked(`+${text}`) : null;
}

const checked = (e164: string) => (E164.test(e164) ? e164 : null);

/** An app country's calling code, a calling code as given, or null. */
function toCallingCode(country: string | null | undefined): string | null {
  if (!country) return null;
  if (/^\+?[1-9]\d{0,3}$/.test(country)) return country.replace('+', '');
  return COUNTRY_CALLING_CODES[country.toLowerCase()] ?? null;
}

/**
 * The ways a number may be stored in session records written before they carried the contact's number
 * (`mobile` as the gateway sent it): E.164, without its +, and national with and without the trunk 0.
 */
export function toStoredForms(msisdn: string): string[] {
  const digits = msisdn.slice(1);
  const forms = [msisdn, digits];
  for (const code of new Set(Object.values(COUNTRY_CALLING_CODES)))
    if (digits.startsWith(code)) forms.push(`0${digits.slice(code.length)}`, digits.slice(code.length));
  return forms;
}
