import { describe, expect, it } from 'vitest';
import { readMessagingLimitUpdates, toDailyLimit } from './cloud-limits';

describe("Meta's messaging limit", () => {
  it('reads phone_number_quality_update changes as Meta posts them, and nothing else', () => {
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          time: 1796000000,
          changes: [
            {
              field: 'phone_number_quality_update',
              value: {
                display_phone_number: '+233 20 000 0064',
                event: 'UPGRADE',
                old_limit: 'TIER_250',
                current_limit: 'TIER_1K',
                max_daily_conversations_per_business: 'TIER_2K',
              },
            },
            {
              field: 'phone_number_quality_update',
              value: { display_phone_number: '15550783881', event: 'DOWNGRADE', current_limit: 'TIER_250' },
            },
            { field: 'phone_number_quality_update', value: { display_phone_number: '', current_limit: 'TIER_1K' } },
            { field: 'phone_number_quality_update', value: { display_phone_number: '15550783882', current_limit: 'lots' } },
            { field: 'messages', value: { display_phone_number: '15550783883', current_limit: 'TIER_1K' } },
          ],
        },
      ],
    };
    expect(readMessagingLimitUpdates(body)).toEqual([
      { mobileNumber: '233200000064', tier: 'TIER_2K' },
      { mobileNumber: '15550783881', tier: 'TIER_250' },
    ]);
    expect(readMessagingLimitUpdates('not a body')).toEqual([]);
  });

  it('turns a tier into people a day: unlimited is null, a tier it does not know is undefined', () => {
    expect([toDailyLimit('TIER_50'), toDailyLimit('TIER_250'), toDailyLimit('TIER_1K'), toDailyLimit('TIER_2K')]).toEqual([
      50, 250, 1000, 2000,
    ]);
    expect([toDailyLimit('TIER_10K'), toDailyLimit('TIER_100K')]).toEqual([10_000, 100_000]);
    expect(toDailyLimit('TIER_UNLIMITED')).toBeNull();
    expect([toDailyLimit('TIER_NOT_SET'), toDailyLimit(null), toDailyLimit('TIER_X')]).toEqual([undefined, undefined, undefined]);
  });
});
