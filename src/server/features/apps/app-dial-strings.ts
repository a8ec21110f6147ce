/**
 * The one rule for an app's dial string (docs/shortcodes.md, "An app's dial string"), applied by every path that
 * gives an app one: create, App Settings, clone (own apps, templates, into a merchant's account) and import.
 *
 * - An account's USSD apps have different dial strings: a second app on `*920*11#` is refused, and the database's
 *   `apps_owner_short_code_uq` index makes two racing claims end with one app.
 * - A dial string another account holds as a shortcode purchase (reserved or active) is refused: it is that
 *   account's code on the network.
 * - Any other dial string is not reserved by typing it: it names the app's own code at its aggregator, and App
 *   Settings says whether a purchase of the account holds it (see {@link findDialStringHold}).
 */
import { and, eq, ne, type SQL } from 'drizzle-orm';
import { apps, shortcodePurchases } from '../../../db/schema';
import type { Db } from '../../../db/client';
import { APP_MESSAGES, type DialStringHold } from '../../../shared/api/apps.schema';
import { conflict } from '../../../shared/errors';
import { isHeldAt } from '../../core/shortcode-holds';
import { isUniqueViolation } from '../../core/unique-violation';

type Reader = Pick<Db, 'select'>;

/** The message for `shortCode` as the dial string of an app of `ownerId` (other than `exceptAppId`), or null. */
export async function findDialStringProblem(
  db: Reader,
  ownerId: string,
  shortCode: string,
  now: Date,
  exceptAppId?: string,
): Promise<string | null> {
  if (!shortCode) return null;
  const sameApp: SQL[] = exceptAppId ? [ne(apps.id, exceptAppId)] : [];
  const [sibling] = await db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.userId, ownerId), eq(apps.channel, 'ussd'), eq(apps.isTemplate, false), eq(apps.shortCode, shortCode), ...sameApp))
    .limit(1);
  if (sibling) return APP_MESSAGES.dialStringInUse(shortCode);
  const [held] = await db
    .select({ userId: shortcodePurchases.userId })
    .from(shortcodePurchases)
    .where(and(eq(shortcodePurchases.dialString, shortCode), ne(shortcodePurchases.userId, ownerId), isHeldAt(now)))
    .limit(1);
  return held ? APP_MESSAGES.dialStringHeld(shortCode) : null;
}

/** Refuses (409, the field `shortCode`) a dial string {@link findDialStringProblem} finds a problem with. */
export async function checkDialString(db: Reader, ownerId: string, shortCode: string, now: Date, exceptAppId?: string): Promise<void> {
  const problem = await findDialStringProblem(db, ownerId, shortCode, now, exceptAppId);
  if (problem) throw conflict(problem, { field: 'shortCode' });
}

/** A clone's dial string: the source's when it is free for the new owner, else none (the owner types one). */
export async function findCloneDialString(db: Reader, ownerId: string, shortCode: string, now: Date): Promise<string> {
  return (await findDialStringProblem(db, ownerId, shortCode, now)) ? '' : shortCode;
}

/** True for the database's refusal of a second app on one dial string in an account (a claim that lost a race). */
const isDialStringClash = (err: unknown) => isUniqueViolation(err, 'apps_owner_short_code_uq');

/** Runs a write that gives an app `shortCode`; the index's refusal becomes the rule's message. */
export async function withDialStringClaim<T>(shortCode: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDialStringClash(err)) throw conflict(APP_MESSAGES.dialStringInUse(shortCode), { field: 'shortCode' });
    throw err;
  }
}

/**
 * What App Settings says about the app's dial string: the owner's purchase that holds it (its provider, expiry
 * and whether it routes to this app), or null when nothing reserves it.
 */
export async function findDialStringHold(
  db: Reader,
  app: { id: string; userId: string; shortCode: string },
  now: Date,
): Promise<DialStringHold | null> {
  if (!app.shortCode) return null;
  const [row] = await db
    .select({
      uuid: shortcodePurchases.id,
      provider: shortcodePurchases.providerKey,
      status: shortcodePurchases.status,
      expiryDate: shortcodePurchases.expiryDate,
      appId: shortcodePurchases.appId,
    })
    .from(shortcodePurchases)
    .where(and(eq(shortcodePurchases.userId, app.userId), eq(shortcodePurchases.dialString, app.shortCode), isHeldAt(now)))
    .limit(1);
  if (!row) return null;
  return {
    uuid: row.uuid,
    provider: row.provider,
    status: row.status === 'active' ? 'active' : 'reserved',
    expiryDate: row.expiryDate?.toISOString() ?? null,
    connectedHere: row.appId === app.id,
  };
}
