/**
 * WhatsApp bots (docs/bots.md): a bot is an app whose channel is WhatsApp. Its menus, deploys, versions and
 * monitoring are the apps' own (features/menus, features/logs...); this service holds what only bots have:
 * their list and settings, and the WhatsApp numbers linked to them.
 */
import { randomInt } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { apps, users, whatsappLinks, whatsappNumberOwners, whatsappWindows } from '../../../db/schema';
import {
  BOT_MESSAGES,
  type Bot,
  type CreateBotBody,
  type EmbeddedSignupBody,
  type LinkedNumber,
  type LinkNumberBody,
  type UpdateBotBody,
} from '../../../shared/api/bots.schema';
import { AppError, conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import { LINK_STATUSES, WHATSAPP_CONNECTORS, type LinkStatus, type WhatsAppConnectorName } from '../../../shared/whatsapp';
import { CloudApiError } from '../../../integrations/whatsapp/cloud-api';
import type { MessagingLimitUpdate } from '../../../integrations/whatsapp/cloud-limits';
import { createCloudSignup } from '../../../integrations/whatsapp/cloud-signup';
import type { LinkUpdate, WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import type { AppContext } from '../../context';
import { createAppId, checkCanBuildApps, getOwnedApp, type AppRow } from '../../core/app-access';
import { findLiveVersions } from '../../core/app-versions';
import type { AuthUser } from '../../core/auth-user';
import { checkAppLimit } from '../billing/plan-limits';
import { recordAdminAction, recordChangeByAdmin } from '../../core/audit-log';
import { deleteCloudCredentials, getCredentialsKey, storeCloudCredentials } from './cloud-credentials';

type LinkRow = typeof whatsappLinks.$inferSelect;

/** The connectors the installation offers (WHATSAPP_CONNECTORS), one of each; a link uses the one it names. */
export interface WhatsAppConnectors {
  /** In the setting's order: a link request that names none uses the first. */
  offered: WhatsAppConnectorName[];
  /** The connector of that kind, or null when the installation does not offer it (any more). */
  connectorNamed(name: string): WhatsAppConnector | null;
}

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
    consentKeywords: row.consentKeywords ?? null,
    handoffKeywords: row.handoffKeywords ?? null,
    officeHours: row.officeHours ?? null,
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
    .set({
      appName: body.appName,
      description: body.description,
      status: body.status ?? bot.status,
      consentKeywords: body.consentKeywords === undefined ? bot.consentKeywords : body.consentKeywords,
      handoffKeywords: body.handoffKeywords === undefined ? bot.handoffKeywords : body.handoffKeywords,
      officeHours: body.officeHours === undefined ? bot.officeHours : body.officeHours,
      updatedAt: ctx.now(),
    })
    .where(eq(apps.id, bot.id))
    .returning();
  // The live version's cached app carries the consent and handoff words and the office hours: a change applies from
  // the next message.
  ctx.versions.invalidate(bot.id);
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
export async function deleteBot(ctx: AppContext, user: AuthUser, appId: string, whatsapp: WhatsAppConnectors): Promise<void> {
  const bot = await getOwnedBot(ctx, user, appId);
  const links = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.appId, bot.id));
  for (const link of links) await endLink(ctx, whatsapp, link);
  await ctx.db.delete(apps).where(eq(apps.id, bot.id));
  await recordChangeByAdmin(ctx.db, user, bot.userId, 'bot_deleted', bot.id, { appName: bot.appName });
  ctx.versions.invalidate(bot.id);
}

// ---- linked numbers ----

/** The link if the user may change its bot; another account's link is not found. */
export async function getOwnedLink(ctx: AppContext, user: AuthUser, linkId: string): Promise<LinkRow> {
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
export type LinkNumberInput = Omit<LinkNumberBody, 'chatBotAppId'> & { appId: string; registrationPin?: string };

/** The connector a link request asks for (the first offered when it names none); one not offered is refused. */
function pickConnector(whatsapp: WhatsAppConnectors, name: WhatsAppConnectorName | undefined): WhatsAppConnector {
  const connector = whatsapp.connectorNamed(name ?? whatsapp.offered[0] ?? '');
  if (!connector) throw invalid(BOT_MESSAGES.connectorNotOffered, { field: 'connector' });
  return connector;
}

/** Meta's answer, or the request's failure in words: a refusal is the caller's to fix (400), no answer is 502. */
async function askMeta<T>(call: () => Promise<T>, refused: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof CloudApiError && !err.isTransient) throw invalid(`${refused} (${err.message})`);
    throw new AppError('upstream', `${BOT_MESSAGES.metaUnreachable} (${toErrorMessage(err)})`);
  }
}

/**
 * Starts linking a number to the bot through the connector it names; the link's state then moves as the connector
 * reports (onLinkUpdate). A Cloud API number given with an access token keeps it (sealed), with its WhatsApp
 * Business Account once Meta lists the number in it, and is checked and used with it from then on.
 */
export async function linkNumber(
  ctx: AppContext,
  user: AuthUser,
  body: LinkNumberInput,
  whatsapp: WhatsAppConnectors,
): Promise<LinkedNumber> {
  const bot = await getOwnedBot(ctx, user, body.appId);
  const connector = pickConnector(whatsapp, body.connector);
  const isCloud = connector.name === 'cloud';
  // A Cloud API number is addressed by its phone number id: kept with the link, so webhooks find it.
  const externalId = isCloud ? body.phoneNumberId : undefined;
  if (isCloud && !externalId) throw invalid(BOT_MESSAGES.phoneNumberIdRequired, { field: 'phoneNumberId' });
  const accessToken = isCloud ? body.accessToken : undefined;
  const wabaId = isCloud ? body.wabaId : undefined;
  if (wabaId && !accessToken) throw invalid(BOT_MESSAGES.wabaIdNeedsToken, { field: 'accessToken' });
  // An installation without the key keeps no token: refused before anything is asked of Meta.
  if (accessToken) getCredentialsKey(ctx.config);
  let proof: NumberProof | undefined;
  if (externalId) {
    const [taken] = await ctx.db
      .select({ id: whatsappLinks.id })
      .from(whatsappLinks)
      .where(and(eq(whatsappLinks.connector, connector.name), eq(whatsappLinks.externalId, externalId)));
    if (taken) throw conflict(BOT_MESSAGES.numberTaken);
    // The bot's account, not an admin acting for it, is the one the number is bound to.
    proof = await proveNumberOwner(ctx, bot.userId, externalId, accessToken, connector);
    if (wabaId && accessToken) {
      const signup = createCloudSignup({ apiUrl: ctx.config.WHATSAPP_CLOUD_API_URL });
      const owns = await askMeta(() => signup.wabaOwnsNumber(wabaId, externalId, accessToken), BOT_MESSAGES.wabaNotOwner);
      if (!owns) throw invalid(BOT_MESSAGES.wabaNotOwner, { field: 'wabaId' });
    }
  }
  const [link] = await ctx.db
    .insert(whatsappLinks)
    .values({ appId: bot.id, connector: connector.name, status: 'PENDING', externalId, createdAt: ctx.now(), updatedAt: ctx.now() })
    .returning();
  if (externalId && accessToken) {
    const own = { phoneNumberId: externalId, wabaId: wabaId ?? null, accessToken, registrationPin: body.registrationPin };
    await storeCloudCredentials(ctx, link!.id, own);
  }
  try {
    await connector.startLink(link!.id, { phoneNumberId: externalId, accessToken });
  } catch (err) {
    ctx.log.warn({ err, linkId: link!.id }, 'linking a WhatsApp number failed to start');
    await applyLinkUpdate(ctx, link!.id, { status: 'FAILED', qrCode: null, message: 'Linking could not start; try again' });
  }
  let [stored] = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.id, link!.id));
  // The Cloud API connector has reported by now (its check is one call): a number Meta confirmed is bound; one it
  // refused is let go, with its token, so a failed link to someone else's id (or a made-up one) keeps nothing.
  if (externalId && proof && stored?.status === 'CONNECTED') await bindNumberOwner(ctx, bot.userId, externalId, proof);
  if (externalId && stored?.status === 'FAILED') {
    await deleteCloudCredentials(ctx, link!.id);
    [stored] = await ctx.db.update(whatsappLinks).set({ externalId: null }).where(eq(whatsappLinks.id, link!.id)).returning();
  }
  return toLinkedNumber(stored ?? link!);
}

/** Six random digits: the two-step verification pin an Embedded Signup number is registered with. */
const createRegistrationPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Embedded Signup's end (docs/whatsapp-connectors.md): the code becomes the customer's business token, the app is
 * subscribed to their WhatsApp Business Account (its webhook then gets the number's messages), the number is
 * registered for the Cloud API, and it is linked like a number given with its own token. A step Meta refuses
 * stops there with Meta's words, and nothing is stored: each step may be run again by signing up again.
 */
export async function linkEmbeddedSignup(
  ctx: AppContext,
  user: AuthUser,
  body: EmbeddedSignupBody,
  whatsapp: WhatsAppConnectors,
): Promise<LinkedNumber> {
  const bot = await getOwnedBot(ctx, user, body.chatBotAppId);
  const { config } = ctx;
  const appId = config.WHATSAPP_CLOUD_APP_ID;
  const appSecret = config.WHATSAPP_CLOUD_APP_SECRET;
  if (!whatsapp.connectorNamed('cloud') || !appId || !appSecret || !config.WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID)
    throw invalid(BOT_MESSAGES.embeddedSignupOff);
  getCredentialsKey(config);
  const [taken] = await ctx.db
    .select({ id: whatsappLinks.id })
    .from(whatsappLinks)
    .where(and(eq(whatsappLinks.connector, 'cloud'), eq(whatsappLinks.externalId, body.phoneNumberId)));
  if (taken) throw conflict(BOT_MESSAGES.numberTaken);
  const signup = createCloudSignup({ apiUrl: config.WHATSAPP_CLOUD_API_URL });
  const accessToken = await askMeta(() => signup.exchangeCode({ appId, appSecret }, body.code), BOT_MESSAGES.signupCodeRefused);
  await askMeta(() => signup.subscribeApp(body.wabaId, accessToken), BOT_MESSAGES.subscribeRefused);
  const registrationPin = createRegistrationPin();
  await askMeta(() => signup.registerNumber(body.phoneNumberId, registrationPin, accessToken), BOT_MESSAGES.registerRefused);
  const { phoneNumberId, wabaId } = body;
  return linkNumber(ctx, user, { appId: bot.id, connector: 'cloud', phoneNumberId, wabaId, accessToken, registrationPin }, whatsapp);
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

/** Ends a link through its own connector (none when the installation no longer offers it), then deletes it. */
async function endLink(ctx: AppContext, whatsapp: WhatsAppConnectors, { id: linkId, connector }: LinkRow): Promise<void> {
  try {
    await whatsapp.connectorNamed(connector)?.unlink(linkId);
  } catch (err) {
    // The link goes either way: a device that cannot be reached now is logged out when it next connects.
    ctx.log.warn({ err, linkId }, 'the connector could not end a WhatsApp link cleanly');
  }
  await ctx.db.delete(whatsappLinks).where(eq(whatsappLinks.id, linkId));
}

/** Unlinks a number: the connector ends it and the link is gone from the bot's list. */
export async function unlinkNumber(ctx: AppContext, user: AuthUser, linkId: string, whatsapp: WhatsAppConnectors): Promise<void> {
  await endLink(ctx, whatsapp, await getOwnedLink(ctx, user, linkId));
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
    .select({ link: whatsappLinks, botStatus: apps.status, ownerId: apps.userId, entryMenuId: whatsappWindows.entryMenuId })
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

/**
 * Meta's messaging limit changes (a signed `phone_number_quality_update`), kept on the Cloud API numbers they name:
 * a campaign sends first to at most that many people a day from the number (docs/campaigns.md, "Sending").
 * @returns how many numbers changed.
 */
export async function applyMessagingLimitUpdates(ctx: AppContext, updates: MessagingLimitUpdate[]): Promise<number> {
  let changed = 0;
  for (const { mobileNumber, tier } of updates) {
    const rows = await ctx.db
      .update(whatsappLinks)
      .set({ messagingLimit: tier })
      // Stored in E.164 (+ and digits); Meta's display number is written as people write it.
      .where(and(eq(whatsappLinks.connector, 'cloud'), inArray(whatsappLinks.mobileNumber, [`+${mobileNumber}`, mobileNumber])))
      .returning({ id: whatsappLinks.id });
    if (rows.length === 0) ctx.log.info({ tier }, 'a messaging limit update for no linked number was ignored');
    changed += rows.length;
  }
  return changed;
}
