import type { Db } from '../../../db/client';
import { shortcodeExtensions, shortcodeProviders } from '../../../db/schema';
import { SHORTCODE_COUNTRIES, type ShortcodeCountry } from '../../../shared/api/shortcodes.schema';

/**
 * Monthly price of a shared shortcode extension in the seeded catalogue, the same figure in each country's currency
 * (GHS, NGN, SZL, KES), as the public pricing page quotes its 6-month price (900 = 6 x 150).
 */
export const SEED_MONTHLY_PRICE = 150;

/** The networks that forward shared shortcodes: Ghana's three, and one for each other country the catalogue sells in. */
export const SEED_PROVIDERS = [
  { providerKey: 'mtngh', providerName: 'MTN Ghana' },
  { providerKey: 'airtelgh', providerName: 'AirtelTigo Ghana' },
  { providerKey: 'vodagh', providerName: 'Vodafone Ghana' },
  { providerKey: 'mtnng', providerName: 'MTN Nigeria' },
  { providerKey: 'mtnsz', providerName: 'MTN Eswatini' },
  { providerKey: 'safaricomke', providerName: 'Safaricom Kenya' },
] as const;

/** Open extensions, in the pricing page's formats `*920*XX#` and `*800*XXX#`: the buyer picks the digits. */
export const SEED_EXTENSIONS: Array<{ country: ShortcodeCountry; providerKey: string; shortCode: string; extLength: number }> = [
  { country: 'Ghana', providerKey: 'mtngh', shortCode: '*920*', extLength: 2 },
  { country: 'Ghana', providerKey: 'mtngh', shortCode: '*800*', extLength: 3 },
  { country: 'Ghana', providerKey: 'vodagh', shortCode: '*920*', extLength: 2 },
  { country: 'Ghana', providerKey: 'airtelgh', shortCode: '*920*', extLength: 2 },
  { country: 'Nigeria', providerKey: 'mtnng', shortCode: '*920*', extLength: 2 },
  { country: 'Nigeria', providerKey: 'mtnng', shortCode: '*800*', extLength: 3 },
  { country: 'Eswatini', providerKey: 'mtnsz', shortCode: '*920*', extLength: 2 },
  { country: 'Eswatini', providerKey: 'mtnsz', shortCode: '*800*', extLength: 3 },
  { country: 'Kenya', providerKey: 'safaricomke', shortCode: '*920*', extLength: 2 },
  { country: 'Kenya', providerKey: 'safaricomke', shortCode: '*800*', extLength: 3 },
];

/** Seeds the shortcode providers and catalogue (an empty database's first start): buyable at once, paid in the sandbox. */
export async function seedShortcodeCatalogue(db: Db): Promise<void> {
  const providers = await db
    .insert(shortcodeProviders)
    .values([...SEED_PROVIDERS])
    .onConflictDoNothing()
    .returning();
  const providerIds = new Map(providers.map((p) => [p.providerKey, p.id]));
  const rows = SEED_EXTENSIONS.filter((e) => providerIds.has(e.providerKey)).map((e) => ({
    country: e.country,
    providerId: providerIds.get(e.providerKey)!,
    shortCode: e.shortCode,
    extension: '',
    extLength: e.extLength,
    requestMethod: 'POST',
    price: SEED_MONTHLY_PRICE.toFixed(2),
    currency: SHORTCODE_COUNTRIES.find((c) => c.name === e.country)!.currency,
  }));
  if (rows.length > 0) await db.insert(shortcodeExtensions).values(rows).onConflictDoNothing();
}
