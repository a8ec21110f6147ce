import { APP_COUNTRIES } from '../../../shared/api/apps.schema';
import { hasCountryFlag, isFlagImage } from '../../components/country-flag';

type AppCountry = (typeof APP_COUNTRIES)[number];

/** Readable names for the country values; the values themselves (even 'equitorial-guinea') are the API's. */
const COUNTRY_LABELS: Record<AppCountry, string> = {
  ghana: 'Ghana',
  nigeria: 'Nigeria',
  swaziland: 'Eswatini (Swaziland)',
  kenya: 'Kenya',
  'sierra-leone': 'Sierra Leone',
  rwanda: 'Rwanda',
  liberia: 'Liberia',
  gabon: 'Gabon',
  guinea: 'Guinea',
  gambia: 'The Gambia',
  malawi: 'Malawi',
  burundi: 'Burundi',
  mauritius: 'Mauritius',
  eritrea: 'Eritrea',
  'dr-congo': 'DR Congo',
  niger: 'Niger',
  tunisia: 'Tunisia',
  algeria: 'Algeria',
  'south-africa': 'South Africa',
  'cape-verde': 'Cape Verde',
  'ivory-coast': "Côte d'Ivoire",
  togo: 'Togo',
  lesotho: 'Lesotho',
  morocco: 'Morocco',
  zimbabwe: 'Zimbabwe',
  namibia: 'Namibia',
  chad: 'Chad',
  seychelles: 'Seychelles',
  'equitorial-guinea': 'Equatorial Guinea',
};

/** Each country's ISO 3166-1 alpha-2 code (lower case), which names its flag (components/country-flag.tsx). */
export const COUNTRY_CODES: Record<AppCountry, string> = {
  ghana: 'gh',
  nigeria: 'ng',
  swaziland: 'sz',
  kenya: 'ke',
  'sierra-leone': 'sl',
  rwanda: 'rw',
  liberia: 'lr',
  gabon: 'ga',
  guinea: 'gn',
  gambia: 'gm',
  malawi: 'mw',
  burundi: 'bi',
  mauritius: 'mu',
  eritrea: 'er',
  'dr-congo': 'cd',
  niger: 'ne',
  tunisia: 'tn',
  algeria: 'dz',
  'south-africa': 'za',
  'cape-verde': 'cv',
  'ivory-coast': 'ci',
  togo: 'tg',
  lesotho: 'ls',
  morocco: 'ma',
  zimbabwe: 'zw',
  namibia: 'na',
  chad: 'td',
  seychelles: 'sc',
  'equitorial-guinea': 'gq',
};

/** Options for a country select, in the product's order. */
export const COUNTRY_OPTIONS = APP_COUNTRIES.map((value) => ({ value, label: COUNTRY_LABELS[value] }));

export function getCountryLabel(value: string): string {
  return COUNTRY_LABELS[value as AppCountry] ?? value;
}

/**
 * The flag an app (a template) shows, for CountryFlag: its own flag icon (a code such as 'gh', or an image address)
 * when it names a flag there is, else its country's.
 */
export function getFlagCode(app: { flagIcon: string; country: string }): string {
  const own = app.flagIcon.trim();
  if (own && (isFlagImage(own) || hasCountryFlag(own))) return own;
  return COUNTRY_CODES[app.country as AppCountry] ?? own;
}
