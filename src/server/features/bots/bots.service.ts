/**
 * WhatsApp bots (docs/bots.md): a bot is an app whose channel is WhatsApp. Its menus, deploys, versions and
 * monitoring are the apps' own (features/menus, features/logs...); this service holds what only bots have:
 * their list and settings, and the WhatsApp numbers linked to them.
 */
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { apps, users, whatsappLinks, whatsappNumberOwners, whatsappWindows } from '../../../db/schema';
import {
  BOT_MESSAGES,
  type Bot,
  type CreateBotBody,
  type LinkedNumber,
  type LinkNumberBody,
  type UpdateBotBody,
} from '../../../shared/api/bots.schema';
import { AppError, conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import { LINK_STATUSES, WHATSAPP_CONNECTORS, type LinkStatus } from '../../../shared/whatsapp';
import type { LinkUpdate, WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import type { AppContext } from '../../context';
import { createAppId, checkCanBuildApps, getOwnedApp, type AppRow } from '../../core/app-access';
import { findLiveVersions } from '../../core/app-versions';
import type { AuthUser } from '../../core/auth-user';
import { checkAppLimit } from '../billing/plan-limits';
import { recordAdminAction, recordChangeByAdmin } from '../../core/audit-log';

type LinkRow = typeof whatsappLinks.$inferSelect;

/** A stored status as the API names it; anything unknown reads as FAILED. */
export const asLinkStatus = (value: string): LinkStatus =>
  (LINK_STATUSES as readonly string[]).includes(value) ? (value as LinkStatus) : 'FAILED';

function toLinkedNumber(row: LinkRow): LinkedNumber {
  return {
    linkId: row.id,
    mobileNumber: row.mobileNumber,
    status: asLinkStatus(row.status),
    connector: (WHATSAPP_CONNECTORS as readonly string[]).includes(row.connector)
      ? (row.connector as LinkedNumber['connector'])
      : 'simulator',
    statusMessage: row.statusMessage,
    createdAt: row.createdAt.toISOString(),
    connectedAt: row.connectedAt?.toISOString() ?? null,
  };
}

async function toBots(ctx: AppContext, rows: AppRow[]): Promise<Bot[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const connected = await ctx.db
    .select({ appId: whatsappLinks.appId, n: count() })
    .from(whatsappLinks)
    .where(and(inArray(whatsappLinks.appId, ids), eq(whatsappLinks.status, 'CONNECTED')))
    .groupBy(whatsappLinks.appId);
  const byApp = new Map(connected.map((c) => [c.appId, c.n]));
  const live = await findLiveVersions(ctx.db, ids);
  return rows.map((row) => ({
    appId: row.id,
    appName: row.appName,
    description: row.description,
    botType: 'whatsapp' as const,
    status: row.status === 'inactive' ? ('inactive' as const) : ('active' as const),
    liveVersion: live.get(row.id) ?? null,
    connectedNumbers: byApp.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** A catch handler that turns a not-found into `value` and lets every other failure (the database's) through. */
const whenNotFound =
  <T>(value: T) =>
  (err: unknown): T => {
    if (err instanceof AppError && err.kind === 'notFound') return value;
    throw err;
  };

/** The bot if the user may change it (its builder, or an admin); a USSD app's id is not found here. */
export async function getOwnedBot(ctx: AppContext, user: AuthUser, appId: string): Promise<AppRow> {
  const row = await getOwnedApp(ctx, user, appId).catch(whenNotFound(null));
  if (row?.channel !== 'whatsapp') throw notFound(BOT_MESSAGES.notFound);
  return row;
}

export async function createBot(ctx: AppContext, user: AuthUser, body: CreateBotBody): Promise<Bot> {
  checkCanBuildApps(user);
  // A bot is an app: it counts towards the plan's apps (with the account locked, so parallel creations take turns).
  const row = await ctx.db.transaction(async (tx) => {
    await checkAppLimit(ctx, user, tx);
    const [inserted] = await tx
      .insert(apps)
      .values({
        id: createAppId(),
        userId: user.id,
        appName: body.appName,
        description: body.description,
        channel: 'whatsapp',
        status: 'active',
        country: '',
        shortCode: '',
        connectionMode: '',
      })
      .returning();
    return inserted!;
  });
  return (await toBots(ctx, [row]))[0]!;
}

/** The user's own bots, newest first. */
export async function findBots(ctx: AppContext, user: AuthUser): Promise<Bot[]> {
  const rows = await ctx.db
    .select()
    .from(apps)
    .where(and(eq(apps.userId, user.id), eq(apps.channel, 'whatsapp')))
    .orderBy(desc(apps.createdAt));
  return toBots(ctx, rows);
}

export async function getBot(ctx: AppContext, user: AuthUser, appId: string): Promise<Bot> {
  return (await toBots(ctx, [await getOwnedBot(ctx, user, appId)]))[0]!;
}

export async function updateBot(ctx: AppContext, user: AuthUser, body: UpdateBotBody): Promise<Bot> {
  const bot = await getOwnedBot(ctx, user, body.appId);
  const [row] = await ctx.db
    .update(apps)
    .set({ appName: body.appName, description: body.description, status: body.status ?? bot.status, updatedAt: ctx.now() })
    .where(eq(apps.id, bot.id))
    .returning();
  await recordChangeByAdmin(ctx.db, user, bot.userId, 'bot_changed', bot.id, { appName: body.appName, status: row!.status });
  return (await toBots(ctx, [row!]))[0]!;
}

export async function setBotStatus(ctx: AppContext, user: AuthUser, appId: string, status: Bot['status']): Promise<Bot> {
  const bot = await getOwnedBot(ctx, user, appId);
  const [row] = await ctx.db.update(apps).set({ status, updatedAt: ctx.now() }).where(eq(apps.id, bot.id)).returning();
  await recordChangeByAdmin(ctx.db, user, bot.userId, 'bot_changed', bot.id, { status });
  return (await toBots(ctx, [row!]))[0]!;
}

/** Deletes the bot after ending its links (a linked device is logged out, not left running). */
export async function deleteBot(ctx: AppContext, user: AuthUser, appId: string, connector: WhatsAppConnector): Promise<void> {
  const bot = await getOwnedBot(ctx, user, appId);
  const links = await ctx.db.select({ id: whatsappLinks.id }).from(whatsappLinks).where(eq(whatsappLinks.appId, bot.id));
  for (const link of links) await endLink(ctx, connector, link.id);
  await ctx.db.delete(apps).where(eq(apps.id, bot.id));
  await recordChangeByAdmin(ctx.db, user, bot.userId, 'bot_deleted', bot.id, { appName: bot.appName });
  ctx.versions.invalidate(bot.id);
}

// ---- linked numbers ----

async function getOwnedLink(ctx: AppContext, user: AuthUser, linkId: string): Promise<LinkRow> {
  const [link] = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.id, linkId));
  if (!link) throw notFound(BOT_MESSAGES.linkNotFound);
  const bot = await getOwnedBot(ctx, user, link.appId).catch(whenNotFound(null));
  if (!bot) throw notFound(BOT_MESSAGES.linkNotFound);
  return link;
}

type NumberProof = 'installation' | 'access_token';

/**
 * Whether the bot's account may link a Cloud API number (docs/whatsapp-connectors.md, "Who a number belongs to"):
 * a number no account holds yet, or its own, needs nothing more than Meta's check of the link with the
 * installation's token; a number another account linked before needs the claimer's own access token, read by
 * Meta. The installation's token reads every number of the operator's Meta business, so it proves nothing
 * about which account a number is.
 */
async function proveNumberOwner(
  ctx: AppContext,
  ownerId: string,
  phoneNumberId: string,
  accessToken: string | undefined,
  connector: WhatsAppConnector,
): Promise<NumberProof> {
  if (accessToken) {
    let canRead: boolean;
    try {
      canRead = (await connector.canReadNumber?.(phoneNumberId, accessToken)) ?? false;
    } catch (err) {
      throw new AppError('upstream', `Could not check the access token with Meta; try again (${toErrorMessage(err)})`);
    }
    if (!canRead) throw invalid(BOT_MESSAGES.tokenCannotRead, { field: 'accessToken' });
    return 'access_token';
  }
  const [owner] = await ctx.db
    .select({ userId: whatsappNumberOwners.userId })
    .from(whatsappNumberOwners)
    .where(eq(whatsappNumberOwners.phoneNumberId, phoneNumberId));
  if (owner && owner.userId !== ownerId) throw conflict(BOT_MESSAGES.numberOwned, { field: 'phoneNumberId' });
  return 'installation';
}

/** Once Meta has confirmed the link: the number is the account's (taken over only with a token's proof). */
async function bindNumberOwner(ctx: AppContext, ownerId: string, phoneNumberId: string, provenBy: NumberProof): Promise<void> {
  const insert = ctx.db.insert(whatsappNumberOwners).values({ phoneNumberId, userId: ownerId, provenBy, boundAt: ctx.now() });
  await (provenBy === 'access_token'
    ? insert.onConflictDoUpdate({ target: whatsappNumberOwners.phoneNumberId, set: { userId: ownerId, provenBy, boundAt: ctx.now() } })
    : insert.onConflictDoNothing());
}

/** A link request as the service reads it: the bot is its `appId` (`chatBotAppId` on the wire). */
export type LinkNumberInput = Omit<LinkNumberBody, 'chatBotAppId'> & { appId: string };

/** Starts linking a number to the bot; the link's state then moves as the connector reports (onLinkUpdate). */
export async function linkNumber(
  ctx: AppContext,
  user: AuthUser,
  body: LinkNumberInput,
  connector: WhatsAppConnector,
): Promise<LinkedNumber> {
  const bot = await getOwnedBot(ctx, user, body.appId);
  // A Cloud API number is addressed by its phone number id: kept with the link, so webhooks find it.
  const externalId = connector.name === 'cloud' ? body.phoneNumberId : undefined;
  if (connector.name === 'cloud' && !externalId) throw invalid(BOT_MESSAGES.phoneNumberIdRequired, { field: 'phoneNumberId' });
  let proof: NumberProof | undefined;
  if (externalId) {
    const [taken] = await ctx.db
      .select({ id: whatsappLinks.id })
      .from(whatsappLinks)
      .where(and(eq(whatsappLinks.connector, connector.name), eq(whatsappLinks.externalId, externalId)));
    if (taken) throw conflict(BOT_MESSAGES.numberTaken);
    // The bot's account, not an admin acting for it, is the one the number is bound to.
    proof = await proveNumberOwner(ctx, bot.userId, externalId, body.accessToken, connector);
  }
  const [link] = await ctx.db
    .insert(whatsappLinks)
    .values({ appId: bot.id, connector: connector.name, status: 'PENDING', externalId, createdAt: ctx.now(), updatedAt: ctx.now() })
    .returning();
  try {
    await connector.startLink(link!.id, { phoneNumberId: body.phoneNumberId });
  } catch (err) {
    ctx.log.warn({ err, linkId: link!.id }, 'linking a WhatsApp number failed to start');
    await applyLinkUpdate(ctx, link!.id, { status: 'FAILED', qrCode: null, message: 'Linking could not start; try again' });
  }
  let [stored] = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.id, link!.id));
  // The Cloud API connector has reported by now (its check is one call): a number Meta confirmed is bound; one it
  // refused is let go, so a failed link to someone else's id (or a made-up one) does not keep its owner out.
  if (externalId && proof && stored?.status === 'CONNECTED') await bindNumberOwner(ctx, bot.userId, externalId, proof);
  if (externalId && stored?.status === 'FAILED') {
    [stored] = await ctx.db.update(whatsappLinks).set({ externalId: null }).where(eq(whatsappLinks.id, link!.id)).returning();
  }
  return toLinkedNumber(stored ?? link!);
}

export async function findLinkedNumbers(ctx: AppContext, user: AuthUser, appId: string): Promise<LinkedNumber[]> {
  const bot = await getOwnedBot(ctx, user, appId);
  const rows = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.appId, bot.id)).orderBy(desc(whatsappLinks.createdAt));
  return rows.map(toLinkedNumber);
}

export async function getLinkStatus(
  ctx: AppContext,
  user: AuthUser,
  linkId: string,
): Promise<{ linkStatus: LinkStatus; qrCode: string | null }> {
  const link = await getOwnedLink(ctx, user, linkId);
  const linkStatus = asLinkStatus(link.status);
  return { linkStatus, qrCode: linkStatus === 'QR' ? link.qrCode : null };
}

async function endLink(ctx: AppContext, connector: WhatsAppConnector, linkId: string): Promise<void> {
  try {
    await connector.unlink(linkId);
  } catch (err) {
    // The link goes either way: a device that cannot be reached now is logged out when it next connects.
    ctx.log.warn({ err, linkId }, 'the connector could not end a WhatsApp link cleanly');
  }
  await ctx.db.delete(whatsappLinks).where(eq(whatsappLinks.id, linkId));
}

/** Unlinks a number: the connector ends it and the link is gone from the bot's list. */
export async function unlinkNumber(ctx: AppContext, user: AuthUser, linkId: string, connector: WhatsAppConnector): Promise<void> {
  const link = await getOwnedLink(ctx, user, linkId);
  await endLink(ctx, connector, link.id);
}

const toShownNumber = (number: string) => (number.replace(/\D/g, '') ? `+${number.replace(/\D/g, '')}` : '');

/** Stores what a connector reported of a link (ConnectorEvents.onLinkUpdate); a link deleted meanwhile is left alone. */
export async function applyLinkUpdate(ctx: AppContext, linkId: string, update: LinkUpdate): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .update(whatsappLinks)
    .set({
      status: update.status,
      qrCode: update.status === 'QR' ? (update.qrCode ?? null) : null,
      // Connectors report digits; the console shows numbers as +<country code><number>.
      ...(update.mobileNumber !== undefined ? { mobileNumber: toShownNumber(update.mobileNumber) } : {}),
      ...(update.externalId !== undefined ? { externalId: update.externalId } : {}),
      statusMessage: update.message ?? '',
      ...(update.status === 'CONNECTED' ? { connectedAt: now } : {}),
      updatedAt: now,
    })
    .where(eq(whatsappLinks.id, linkId));
}

/** A link with its bot, as a message to the linked number needs them, and the menu a template sent to `msisdn` (E.164) left pending. */
export async function findLinkTarget(ctx: AppContext, linkId: string, msisdn: string) {
  const [row] = await ctx.db
    .select({ link: whatsappLinks, botStatus: apps.status, entryMenuId: whatsappWindows.entryMenuId })
    .from(whatsappLinks)
    .innerJoin(apps, eq(apps.id, whatsappLinks.appId))
    .leftJoin(whatsappWindows, and(eq(whatsappWindows.linkId, whatsappLinks.id), eq(whatsappWindows.msisdn, msisdn)))
    .where(eq(whatsappLinks.id, linkId));
  return row ?? null;
}

/** The link a Cloud API phone number id belongs to (its webhook deliveries name the number by it). */
export async function findLinkIdByExternalId(
  ctx: AppContext,
  connector: WhatsAppConnector['name'],
  externalId: string,
): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: whatsappLinks.id })
    .from(whatsappLinks)
    .where(and(eq(whatsappLinks.connector, connector), eq(whatsappLinks.externalId, externalId)));
  return row?.id ?? null;
}

/** Links to take up again after a restart: CONNECTED ones reconnect; ones caught half-linked have failed. */
export async function findLinksToResume(ctx: AppContext, connector: WhatsAppConnector['name']): Promise<LinkRow[]> {
  return ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.connector, connector));
}

// ---- who may build bots ----

/** POST /api/admin/chatbot-access: an admin lets an account build bots (the CHATBOT role), or stops it. */
export async function setChatbotAccess(
  ctx: AppContext,
  admin: AuthUser,
  email: string,
  enabled: boolean,
): Promise<{ email: string; chatbotAccess: boolean }> {
  const [account] = await ctx.db
    .select({ id: users.id, email: users.email, roles: users.roles })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  if (!account) throw notFound('No account with that email');
  const roles = account.roles.filter((r) => r !== 'CHATBOT');
  if (enabled) roles.push('CHATBOT');
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ roles }).where(eq(users.id, account.id));
    await recordAdminAction(tx, admin, 'chatbot_access_changed', account.id, { email: account.email, enabled });
  });
  return { email: account.email, chatbotAccess: enabled };
}
