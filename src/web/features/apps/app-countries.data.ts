import { APP_COUNTRIES } from '../../../shared/api/apps.schema';

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

/** Options for a country select, in the product's order. */
export const COUNTRY_OPTIONS = APP_COUNTRIES.map((value) => ({ value, label: COUNTRY_LABELS[value] }));

export function getCountryLabel(value: string): string {
  return COUNTRY_LABELS[value as AppCountry] ?? value;
}
