/**
 * What a campaign's messages cost (docs/campaigns.md, "Cost"): the operator's prices per channel and country calling
 * code (`CAMPAIGN_PRICES`), e.g. `{ "currency": "USD", "whatsapp": { "233": 0.04, "*": 0.06 }, "sms": { "233": 0.02 } }`.
 * A number is priced by the longest calling code that starts it, else `*`; an SMS costs its price a part.
 */
import { z } from 'zod';

const pricesByCode = z.record(z.string().regex(/^(\*|[1-9]\d{0,2})$/, 'A price is keyed by a calling code (233) or *'), z.number().min(0));

export const campaignPricesSchema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/, 'The currency is a 3-letter code (USD)'),
  whatsapp: pricesByCode.default({}),
  sms: pricesByCode.default({}),
});
export type CampaignPrices = z.infer<typeof campaignPricesSchema>;

/**
 * The price of one message (an SMS part) on `channel` to `msisdn` (E.164), or null when none is set for it.
 * @example priceOf({ currency: 'USD', whatsapp: { '233': 0.04, '*': 0.06 }, sms: {} }, 'whatsapp', '+233241234567') // 0.04
 */
export function priceOf(prices: CampaignPrices, channel: 'whatsapp' | 'sms', msisdn: string): number | null {
  const table = prices[channel];
  const digits = msisdn.replace(/^\+/, '');
  for (const length of [3, 2, 1]) {
    const price = table[digits.slice(0, length)];
    if (price !== undefined) return price;
  }
  return table['*'] ?? null;
}
