import { and, eq, gt, or, type SQL } from 'drizzle-orm';
import { shortcodePurchases } from '../../db/schema';

/** Purchases that hold their dial string at `now`: a reservation not yet past, or an active purchase not yet expired. */
export function isHeldAt(now: Date): SQL {
  return or(
    and(eq(shortcodePurchases.status, 'reserved'), gt(shortcodePurchases.reservedUntil, now)),
    and(eq(shortcodePurchases.status, 'active'), gt(shortcodePurchases.expiryDate, now)),
  )!;
}
