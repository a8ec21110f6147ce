import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { apps, shortcodePurchases, users } from '../../../db/schema';
import {
  buildDialString,
  findDigitsProblem,
  SHORTCODE_MESSAGES,
  type buyShortcodeBodySchema,
  type CheckoutReply,
  type connectAppBodySchema,
  type LinkedAppEnv,
  type provisionShortcodeBodySchema,
  type Purchase,
  type PurchaseStatus,
  type renewShortcodeBodySchema,
  type ShortcodeMethod,
} from '../../../shared/api/shortcodes.schema';
import { AppError, conflict, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { findLiveVersionNumber } from '../../core/app-versions';
import { getUsdRate, roundMoney } from '../../core/money';
import { startCheckoutPayment } from '../payments/payment-start';
import { type CatalogueEntry, getCatalogueEntry } from './extensions.service';
import { hasNoOtherHolder, RESERVATION_MS, releaseEnded } from './purchase-settlement';
import { SHORTCODE_TRANSACTION_TYPE, type ShortcodePaymentMetadata } from '../../core/settlements';
import { addMonths } from '../../core/dates';
import { recordAdminAction } from '../../core/audit-log';

export type PurchaseRow = typeof shortcodePurchases.$inferSelect;

/** What the purchase is now: a reservation or a purchase past its time reads as ended before the timer marks it. */
export function getPurchaseStatus(row: PurchaseRow, now: Date): PurchaseStatus {
  if (row.status === 'reserved' && row.reservedUntil && row.reservedUntil <= now) return row.expiryDate ? 'expired' : 'lapsed';
  if (row.status === 'active' && row.expiryDate && row.expiryDate <= now) return 'expired';
  return row.status as PurchaseStatus;
}

export function toPurchase(row: PurchaseRow, appName: string | null, now: Date): Purchase {
  const status = getPurchaseStatus(row, now);
  const isConnected = !!row.appId;
  return {
    id: row.id,
    uuid: row.id,
    shortCode: row.dialString,
    country: row.country,
    startDate: row.startDate?.toISOString() ?? null,
    expiryDate: row.expiryDate?.toISOString() ?? null,
    connected: isConnected,
    existingConnection: isConnected ? { appId: row.appId!, appName: appName ?? '' } : null,
    linkedAppEnv: isConnected ? ((row.linkedAppEnv ?? 'test') as LinkedAppEnv) : null,
    status,
    extensionUuid: row.extensionId,
    provider: row.providerKey,
    requestMethod: row.requestMethod as ShortcodeMethod,
    price: Number(row.price),
    currency: row.currency,
    reservedUntil: status === 'reserved' ? (row.reservedUntil?.toISOString() ?? null) : null,
    provisioned: row.provisioned,
    createdAt: row.createdAt.toISOString(),
  };
}

async function readPurchase(ctx: AppContext, where: ReturnType<typeof eq>): Promise<Purchase | undefined> {
  const [found] = await ctx.db
    .select({ row: shortcodePurchases, appName: apps.appName })
    .from(shortcodePurchases)
    .leftJoin(apps, eq(apps.id, shortcodePurchases.appId))
    .where(where);
  return found && toPurchase(found.row, found.appName, ctx.now());
}

/** The caller's purchase; another account's, a malformed or an unknown uuid are 'not found' alike. */
async function getOwnedPurchaseRow(ctx: AppContext, user: AuthUser, uuid: string): Promise<PurchaseRow> {
  if (!isUuid(uuid)) throw notFound(SHORTCODE_MESSAGES.purchaseNotFound);
  const [row] = await ctx.db
    .select()
    .from(shortcodePurchases)
    .where(and(eq(shortcodePurchases.id, uuid), eq(shortcodePurchases.userId, user.id)));
  if (!row) throw notFound(SHORTCODE_MESSAGES.purchaseNotFound);
  return row;
}

/** GET /api/getShortCodeByUuid/{uuid} */
export async function getPurchase(ctx: AppContext, user: AuthUser, uuid: string): Promise<Purchase> {
  const row = await getOwnedPurchaseRow(ctx, user, uuid);
  return (await readPurchase(ctx, eq(shortcodePurchases.id, row.id)))!;
}

/** GET /api/myPurchasedShortCodes: reserved, active and expired purchases (lapsed reservations are left out), newest first. */
export async function findMyPurchases(ctx: AppContext, user: AuthUser): Promise<Purchase[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .select({ row: shortcodePurchases, appName: apps.appName })
    .from(shortcodePurchases)
    .leftJoin(apps, eq(apps.id, shortcodePurchases.appId))
    .where(and(eq(shortcodePurchases.userId, user.id), inArray(shortcodePurchases.status, ['reserved', 'active', 'expired', 'refund_due'])))
    .orderBy(desc(shortcodePurchases.createdAt), desc(shortcodePurchases.id))
    .limit(500);
  return rows.map(({ row, appName }) => toPurchase(row, appName, now)).filter((p) => p.status !== 'lapsed');
}

/** The dial string an extension gives for the digits chosen (none for a fixed one), or the screen's message. */
function resolveDialString(entry: { shortCode: string; extension: string; extLength: number }, digits: string): string {
  const problem = findDigitsProblem(entry.extLength, digits);
  if (problem) throw invalid(problem, { field: 'shortCode' });
  return buildDialString(entry.shortCode, entry.extension, entry.extLength > 0 ? digits : '');
}

/**
 * A new purchase of the extension's dial string for `ownerId`, in the state given, once what ran out on that dial
 * string is ended; no row when someone holds or reserves it (the holder index decides between racing inserts).
 */
async function insertPurchase(
  ctx: AppContext,
  entry: CatalogueEntry,
  ownerId: string,
  digits: string,
  now: Date,
  state: Pick<typeof shortcodePurchases.$inferInsert, 'status' | 'reservedUntil' | 'startDate' | 'expiryDate' | 'provisioned'>,
): Promise<{ row: PurchaseRow | undefined; dialString: string }> {
  const dialString = resolveDialString(entry, digits);
  if (await releaseEnded(ctx, ctx.db, { providerKey: entry.providerKey, dialString })) ctx.shortcodeRoutes.invalidate();
  const [row] = await ctx.db
    .insert(shortcodePurchases)
    .values({
      userId: ownerId,
      extensionId: entry.id,
      providerKey: entry.providerKey,
      dialString,
      country: entry.country,
      requestMethod: entry.requestMethod,
      price: entry.price,
      currency: entry.currency,
      ...state,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  return { row, dialString };
}

/** The message for a dial string someone holds: the caller's own purchase, or another's. */
async function findHolderMessage(ctx: AppContext, user: AuthUser, providerKey: string, dialString: string): Promise<string> {
  const [holder] = await ctx.db
    .select({ userId: shortcodePurchases.userId })
    .from(shortcodePurchases)
    .where(
      and(
        eq(shortcodePurchases.providerKey, providerKey),
        eq(shortcodePurchases.dialString, dialString),
        inArray(shortcodePurchases.status, ['reserved', 'active']),
      ),
    );
  return holder?.userId === user.id ? SHORTCODE_MESSAGES.alreadyYours : SHORTCODE_MESSAGES.taken;
}

/**
 * Starts the payment of a purchase or renewal on the configured provider's checkout page (the sandbox by default).
 * `'01'` with its page; `'00'` when the provider asks the payer elsewhere (its words in the message). A provider
 * that refuses frees a new reservation at once.
 */
async function checkOut(
  ctx: AppContext,
  user: AuthUser,
  row: PurchaseRow,
  leaseCount: number,
  kind: 'buy' | 'renew',
): Promise<CheckoutReply> {
  const amount = Number(row.price) * leaseCount;
  const usdRate = getUsdRate(ctx.config, row.currency);
  const metadata: ShortcodePaymentMetadata = {
    purchaseId: row.id,
    leaseCount,
    kind,
    ...(usdRate === null ? {} : { amountUsd: roundMoney(amount / usdRate), usdRate }),
  };
  const payment = await startCheckoutPayment(ctx, user.id, {
    amount: amount.toFixed(2),
    currency: row.currency,
    shortcode: row.dialString,
    transactionType: SHORTCODE_TRANSACTION_TYPE,
    metadata: { ...metadata },
  });
  if (payment.status === 'FAILED') {
    await ctx.db
      .update(shortcodePurchases)
      .set({ status: row.expiryDate ? 'expired' : 'lapsed', reservedUntil: null, updatedAt: ctx.now() })
      .where(and(eq(shortcodePurchases.id, row.id), eq(shortcodePurchases.status, 'reserved')));
    throw new AppError('upstream', `${SHORTCODE_MESSAGES.paymentRefused}: ${payment.message ?? 'no reason given'}`);
  }
  const purchase = (await readPurchase(ctx, eq(shortcodePurchases.id, row.id)))!;
  if (payment.checkoutUrl)
    return {
      status: '01',
      message: SHORTCODE_MESSAGES.checkout,
      data: purchase,
      redirectUrl: payment.checkoutUrl,
      reference: payment.reference,
    };
  return { status: '00', message: payment.message ?? SHORTCODE_MESSAGES.checkout, data: purchase, reference: payment.reference };
}

/**
 * POST /api/subscription/buyshortcode. Reserves the dial string for RESERVATION_MINUTES (the database's holder
 * index lets one of two racing buyers in; the other gets a clear message), then starts the payment. The same
 * buyer checking out again while the reservation holds pays for that reservation.
 */
export async function buyShortcode(ctx: AppContext, user: AuthUser, body: z.infer<typeof buyShortcodeBodySchema>): Promise<CheckoutReply> {
  const entry = await getCatalogueEntry(ctx, body.extensionUuid);
  const now = ctx.now();
  const { row, dialString } = await insertPurchase(ctx, entry, user.id, body.shortCode, now, {
    status: 'reserved',
    reservedUntil: new Date(now.getTime() + RESERVATION_MS),
  });
  if (row) return checkOut(ctx, user, row, body.leaseCount, 'buy');

  const [own] = await ctx.db
    .select()
    .from(shortcodePurchases)
    .where(
      and(
        eq(shortcodePurchases.providerKey, entry.providerKey),
        eq(shortcodePurchases.dialString, dialString),
        eq(shortcodePurchases.status, 'reserved'),
        eq(shortcodePurchases.userId, user.id),
        sql`${shortcodePurchases.expiryDate} is null`,
      ),
    );
  if (own) return checkOut(ctx, user, own, body.leaseCount, 'buy');
  throw conflict(await findHolderMessage(ctx, user, entry.providerKey, dialString), { field: 'shortCode' });
}

/**
 * POST /api/subscription/renewShortcode. An active purchase is paid forward (the months count from the later of
 * today and its expiry once paid); an expired one is reserved again first, unless someone else took its dial string.
 */
export async function renewShortcode(
  ctx: AppContext,
  user: AuthUser,
  body: z.infer<typeof renewShortcodeBodySchema>,
): Promise<CheckoutReply> {
  let row = await getOwnedPurchaseRow(ctx, user, body.id);
  const now = ctx.now();
  const status = getPurchaseStatus(row, now);
  if (status === 'lapsed' || status === 'refund_due') throw invalid(SHORTCODE_MESSAGES.notRenewable);
  if (status === 'expired') {
    await releaseEnded(ctx, ctx.db, { providerKey: row.providerKey, dialString: row.dialString });
    const [reserved] = await ctx.db
      .update(shortcodePurchases)
      .set({ status: 'reserved', reservedUntil: new Date(now.getTime() + RESERVATION_MS), updatedAt: now })
      .where(and(eq(shortcodePurchases.id, row.id), eq(shortcodePurchases.status, 'expired'), hasNoOtherHolder(row)))
      .returning();
    if (!reserved) throw conflict(SHORTCODE_MESSAGES.taken);
    ctx.shortcodeRoutes.invalidate();
    row = reserved;
  }
  return checkOut(ctx, user, row, body.leaseCount, 'renew');
}

/**
 * POST /api/subscription/provisionShortCode (admins): the dial string, active at once and without payment, for
 * the admin (`self`) or the account with `userEmail`.
 */
export async function provisionShortcode(
  ctx: AppContext,
  admin: AuthUser,
  body: z.infer<typeof provisionShortcodeBodySchema>,
): Promise<Purchase> {
  const entry = await getCatalogueEntry(ctx, body.extensionUuid);
  let ownerId = admin.id;
  if (!body.self) {
    if (!body.userEmail) throw invalid(SHORTCODE_MESSAGES.userEmailRequired, { field: 'userEmail' });
    const [owner] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, body.userEmail));
    if (!owner) throw notFound(SHORTCODE_MESSAGES.accountNotFound);
    ownerId = owner.id;
  }
  const now = ctx.now();
  const { row, dialString } = await insertPurchase(ctx, entry, ownerId, body.shortCode, now, {
    status: 'active',
    startDate: now,
    expiryDate: addMonths(now, body.leaseCount),
    provisioned: true,
  });
  if (!row) throw conflict(SHORTCODE_MESSAGES.provisionTaken(dialString), { field: 'shortCode' });
  ctx.shortcodeRoutes.invalidate();
  ctx.log.info({ purchaseId: row.id, dialString, ownerId, adminId: admin.id }, 'shortcode provisioned');
  await recordAdminAction(ctx.db, admin, 'shortcode_provisioned', row.id, { dialString, ownerId, months: body.leaseCount });
  return toPurchase(row, null, now);
}

/**
 * POST /api/connectAppToShortCode/: the purchase's traffic goes to one of the caller's apps, its draft (`test`)
 * or its deployed version (`production`). Only an active purchase can be connected.
 */
export async function connectApp(ctx: AppContext, user: AuthUser, body: z.infer<typeof connectAppBodySchema>): Promise<Purchase> {
  const row = await getOwnedPurchaseRow(ctx, user, body.uuid);
  const [app] = await ctx.db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.id, body.appId), eq(apps.userId, user.id)));
  if (!app) throw notFound('App not found');
  if (getPurchaseStatus(row, ctx.now()) !== 'active') throw invalid(SHORTCODE_MESSAGES.notActive);
  if (body.linkedAppEnv === 'production' && (await findLiveVersionNumber(ctx.db, app.id)) === null)
    throw invalid(SHORTCODE_MESSAGES.notDeployed, { field: 'linkedAppEnv' });
  await ctx.db
    .update(shortcodePurchases)
    .set({ appId: app.id, linkedAppEnv: body.linkedAppEnv, updatedAt: ctx.now() })
    .where(eq(shortcodePurchases.id, row.id));
  ctx.shortcodeRoutes.invalidate();
  return (await readPurchase(ctx, eq(shortcodePurchases.id, row.id)))!;
}
