/**
 * Meta's messaging limit (docs: WhatsApp Business Platform, "Messaging limits" and the `phone_number_quality_update`
 * webhook): how many people a business may message first in a moving 24 hours, set per business portfolio and shared
 * by its numbers. It starts at 250 and grows to 2,000, 10,000, 100,000 and unlimited; the webhook tells each change as
 * `max_daily_conversations_per_business` (and, until it goes, `current_limit`): `TIER_50`, `TIER_250`, `TIER_1K`,
 * `TIER_2K`, `TIER_10K`, `TIER_100K`, `TIER_UNLIMITED`, or `TIER_NOT_SET` for a number that never sent.
 */
import { isRecord, readArray, readString } from './cloud-api';

/** One number's new messaging limit, from a webhook body. */
export interface MessagingLimitUpdate {
  /** The number's digits (a link stores them in E.164, with a +). */
  mobileNumber: string;
  tier: string;
}

/** Reads a webhook body's `phone_number_quality_update` changes; never throws, leaves out what it cannot read. */
export function readMessagingLimitUpdates(body: unknown): MessagingLimitUpdate[] {
  const updates: MessagingLimitUpdate[] = [];
  for (const entry of readArray(body, 'entry')) {
    for (const change of readArray(entry, 'changes')) {
      if (!isRecord(change) || change.field !== 'phone_number_quality_update' || !isRecord(change.value)) continue;
      const mobileNumber = (readString(change.value, 'display_phone_number') ?? '').replace(/\D/g, '');
      const tier = readString(change.value, 'max_daily_conversations_per_business') ?? readString(change.value, 'current_limit');
      if (mobileNumber && tier && /^TIER_[A-Z0-9_]+$/.test(tier)) updates.push({ mobileNumber, tier });
    }
  }
  return updates;
}

/**
 * A tier as people a day: a number, null for unlimited, undefined when it says nothing usable (not set, a tier this
 * code does not know): the caller's own limit stands then.
 * @example toDailyLimit('TIER_2K') // 2000
 */
export function toDailyLimit(tier: string | null | undefined): number | null | undefined {
  if (!tier) return undefined;
  if (tier === 'TIER_UNLIMITED') return null;
  const match = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] ? 1000 : 1);
}
