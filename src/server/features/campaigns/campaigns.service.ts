/**
 * Campaigns (docs/campaigns.md): a draft names an audience, the channels and a message per channel; scheduling
 * checks everything a send will need and copies the audience's filter; the dispatcher (campaign-dispatcher.ts) starts
 * it at its time and sends it. Pause, resume and cancel are single statements on the campaign's status, so they are
 * true whichever process is sending. Another account's campaign, audience, bot or app answers 404.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { apps, campaignMessages, campaigns, whatsappLinks } from '../../../db/schema';
import {
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignBody,
  type CampaignStatus,
  type ScheduleBody,
} from '../../../shared/api/campaigns.schema';
import { conflict, invalid, notFound } from '../../../shared/errors';
import type { TemplateValues } from '../../../shared/whatsapp-templates';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { readTemplateToSend } from '../bots/whatsapp-templates.service';
import { countReach, getOwnedAudience } from './audiences.service';
import { readDial, readEstimate, readResults, toSmsText } from './campaign-results';
import { SMS_MAX_LENGTH } from '../sms/sms.service';
import { type CampaignRow, DIAL_PLACEHOLDER } from './campaign-rows';

/** The statuses that hold a place under CAMPAIGNS_ACTIVE_PER_ACCOUNT. */
const ACTIVE: CampaignStatus[] = ['scheduled', 'running', 'paused'];

export function toCampaign(row: CampaignRow, results: Campaign['results'], estimate: Campaign['estimate'] = null): Campaign {
  return {
    campaignId: row.id,
    name: row.name,
    status: row.status as CampaignStatus,
    audienceId: row.audienceId,
    filter: row.filter,
    channels: row.channels as Campaign['channels'],
    botId: row.botId,
    linkId: row.linkId,
    template: row.template ?? null,
    entryMenuId: row.entryMenuId,
    ussdAppId: row.ussdAppId,
    smsText: row.smsText,
    smsSender: row.smsSender,
    sendWindow: row.sendWindow ?? null,
    timeZone: row.timeZone,
    startAt: row.startAt?.toISOString() ?? null,
    pausedReason: row.pausedReason,
    audienceSize: row.audienceSize,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    results,
    estimate,
  };
}

export async function getOwnedCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<CampaignRow> {
  const [row] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.ownerId, user.id)));
  if (!row) throw notFound(CAMPAIGN_MESSAGES.notFound);
  return row;
}

/** One of the account's own apps of a channel (admins included: a campaign sends from the account's own apps). */
async function getOwnApp(ctx: AppContext, user: AuthUser, appId: string, channel: 'ussd' | 'whatsapp', message: string) {
  const [app] = await ctx.db
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.userId, user.id), eq(apps.channel, channel), eq(apps.isTemplate, false)));
  if (!app) throw notFound(message);
  return app;
}

/** What a draft names must be the account's: the audience, the bot and its number, the USSD app. */
async function checkReferences(ctx: AppContext, user: AuthUser, body: CampaignBody) {
  const audience = await getOwnedAudience(ctx, user, body.audienceId);
  const usesWhatsApp = body.channels !== 'sms';
  const usesSms = body.channels !== 'whatsapp';
  if (usesWhatsApp && body.botId) await getOwnApp(ctx, user, body.botId, 'whatsapp', 'Bot not found');
  if (usesWhatsApp && body.linkId) {
    const [link] = await ctx.db
      .select({ id: whatsappLinks.id })
      .from(whatsappLinks)
      .where(and(eq(whatsappLinks.id, body.linkId), eq(whatsappLinks.appId, body.botId ?? '')));
    if (!link) throw notFound('Linked number not found');
  }
  const ussdApp = body.ussdAppId ? await getOwnApp(ctx, user, body.ussdAppId, 'ussd', 'App not found') : null;
  if (usesSms && body.smsText?.includes(DIAL_PLACEHOLDER) && !ussdApp?.shortCode)
    throw invalid('The SMS names {dial}: choose the USSD app whose dial string it is', { field: 'ussdAppId' });
  return { audience, usesWhatsApp, usesSms };
}

function toValues(body: CampaignBody, audienceFilter: CampaignRow['filter']) {
  const usesWhatsApp = body.channels !== 'sms';
  const usesSms = body.channels !== 'whatsapp';
  return {
    name: body.name,
    audienceId: body.audienceId,
    filter: audienceFilter,
    channels: body.channels,
    botId: usesWhatsApp ? (body.botId ?? null) : null,
    linkId: usesWhatsApp ? (body.linkId ?? null) : null,
    template: usesWhatsApp ? (body.template ?? null) : null,
    entryMenuId: usesWhatsApp ? (body.entryMenuId ?? null) : null,
    ussdAppId: body.ussdAppId ?? null,
    smsText: usesSms ? (body.smsText ?? null) : null,
    smsSender: usesSms ? body.smsSender : '',
    sendWindow: body.sendWindow ?? null,
    timeZone: body.timeZone,
  };
}

export async function createCampaign(ctx: AppContext, user: AuthUser, body: CampaignBody): Promise<Campaign> {
  const { audience } = await checkReferences(ctx, user, body);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    // Counted under the account's campaigns lock, so two creations at once cannot both pass the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`campaigns:${user.id}`}))`);
    const [{ kept }] = (await tx.select({ kept: sql<number>`count(*)::int` }).from(campaigns).where(eq(campaigns.ownerId, user.id))) as [
      { kept: number },
    ];
    if (kept >= ctx.config.CAMPAIGNS_PER_ACCOUNT) throw conflict(CAMPAIGN_MESSAGES.tooManyCampaigns);
    const [inserted] = await tx
      .insert(campaigns)
      .values({ ownerId: user.id, ...toValues(body, audience.filter), status: 'draft', createdAt: now, updatedAt: now })
      .returning();
    return inserted!;
  });
  return toCampaign(row, null);
}

export async function updateCampaign(ctx: AppContext, user: AuthUser, campaignId: string, body: CampaignBody): Promise<Campaign> {
  await getOwnedCampaign(ctx, user, campaignId);
  const { audience } = await checkReferences(ctx, user, body);
  const [row] = await ctx.db
    .update(campaigns)
    .set({ ...toValues(body, audience.filter), updatedAt: ctx.now() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.ownerId, user.id), eq(campaigns.status, 'draft')))
    .returning();
  if (!row) throw conflict(CAMPAIGN_MESSAGES.notDraft);
  return toCampaign(row, null);
}

/** The contact fields a template's values name, filled with a stand-in: whether the template itself is sendable. */
function withStandIns(values: TemplateValues): TemplateValues {
  return Object.fromEntries(
    Object.entries(values).map(([place, given]) => [
      place,
      Object.fromEntries(Object.entries(given ?? {}).map(([name, value]) => [name, value.replace(/\{\{[^}]*\}\}/g, 'x') || value])),
    ]),
  );
}

/**
 * The linked number a campaign writes from: the one named, or the bot's first CONNECTED one; the bot must still be the
 * campaign's account's (an app handed to another account since writes nothing more). A number that is not CONNECTED
 * is refused when scheduling; the dispatcher pauses a campaign whose number stops being connected.
 */
export async function findCampaignLink(ctx: AppContext, row: Pick<CampaignRow, 'ownerId' | 'botId' | 'linkId'>) {
  const links = await ctx.db
    .select({ link: whatsappLinks })
    .from(whatsappLinks)
    .innerJoin(apps, and(eq(apps.id, whatsappLinks.appId), eq(apps.userId, row.ownerId)))
    .where(
      and(
        eq(whatsappLinks.appId, row.botId ?? ''),
        row.linkId ? eq(whatsappLinks.id, row.linkId) : undefined,
        eq(whatsappLinks.status, 'CONNECTED'),
      ),
    )
    .orderBy(whatsappLinks.createdAt);
  return links[0]?.link ?? null;
}

/**
 * Schedules a draft: now, or at `startAt`. Everything a send needs is checked first, and nothing changes when a
 * check fails: the start time to come, the account's campaigns under way, the audience (someone reachable, no more
 * than CAMPAIGN_AUDIENCE_MAX), the WhatsApp number CONNECTED and the template APPROVED with every variable given.
 */
export async function scheduleCampaign(ctx: AppContext, user: AuthUser, campaignId: string, body: ScheduleBody): Promise<Campaign> {
  const row = await getOwnedCampaign(ctx, user, campaignId);
  if (row.status !== 'draft') throw conflict(CAMPAIGN_MESSAGES.cannotSchedule);
  const now = ctx.now();
  const startAt = body.startAt ? new Date(body.startAt) : now;
  // A minute's grace for a clock or a form a little behind.
  if (startAt.getTime() < now.getTime() - 60_000) throw invalid(CAMPAIGN_MESSAGES.startPast, { field: 'startAt' });
  let linkId = row.linkId;
  if (row.channels !== 'sms') {
    if (!row.template) throw invalid(CAMPAIGN_MESSAGES.templateNeeded, { field: 'template' });
    const link = await findCampaignLink(ctx, row);
    if (!link) throw conflict('No number of this bot is connected: link a number and wait until it is CONNECTED.');
    await readTemplateToSend(ctx, {
      linkId: link.id,
      name: row.template.name,
      language: row.template.language,
      values: withStandIns(row.template.variables),
    });
    // The number it writes from is fixed now: its messages' ticks and replies are read on it.
    linkId = link.id;
  }
  if (row.channels !== 'whatsapp' && !row.smsText) throw invalid(CAMPAIGN_MESSAGES.smsNeeded, { field: 'smsText' });
  // The text as it goes (the dial string in, the opt-out line after) must fit the SMS's six parts.
  if (row.channels !== 'whatsapp' && toSmsText(ctx, row.smsText ?? '', await readDial(ctx, row)).length > SMS_MAX_LENGTH)
    throw invalid(CAMPAIGN_MESSAGES.smsTooLongAsSent, { field: 'smsText' });
  // The saved audience as it is now: a later change to it does not change this campaign.
  const audience = row.audienceId ? await getOwnedAudience(ctx, user, row.audienceId) : null;
  const filter = audience?.filter ?? row.filter;
  const reach = await countReach(ctx, user.id, filter, row.channels as Campaign['channels']);
  if (reach.whatsapp + reach.sms === 0) throw conflict(CAMPAIGN_MESSAGES.emptyAudience);
  if (reach.total > ctx.config.CAMPAIGN_AUDIENCE_MAX) throw conflict(CAMPAIGN_MESSAGES.audienceTooLarge);
  const scheduled = await ctx.db.transaction(async (tx) => {
    // Counted under a lock on the account's campaigns, so two schedules at once cannot both pass the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`campaigns:${user.id}`}))`);
    const [{ active }] = (await tx
      .select({ active: sql<number>`count(*)::int` })
      .from(campaigns)
      .where(and(eq(campaigns.ownerId, user.id), inArray(campaigns.status, ACTIVE)))) as [{ active: number }];
    if (active >= ctx.config.CAMPAIGNS_ACTIVE_PER_ACCOUNT) throw conflict(CAMPAIGN_MESSAGES.tooManyRunning);
    const [updated] = await tx
      .update(campaigns)
      .set({ status: 'scheduled', filter, startAt, linkId, updatedAt: now })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'draft')))
      .returning();
    return updated;
  });
  if (!scheduled) throw conflict(CAMPAIGN_MESSAGES.cannotSchedule);
  return toCampaign(scheduled, null);
}

/** A change of status that only some statuses allow, in one statement: true whichever process is sending. */
async function moveCampaign(
  ctx: AppContext,
  user: AuthUser,
  campaignId: string,
  from: CampaignStatus[],
  set: Partial<CampaignRow>,
  refusal: string,
): Promise<CampaignRow> {
  await getOwnedCampaign(ctx, user, campaignId);
  const [row] = await ctx.db
    .update(campaigns)
    .set({ ...set, updatedAt: ctx.now() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.ownerId, user.id), inArray(campaigns.status, from)))
    .returning();
  if (!row) throw conflict(refusal);
  return row;
}

/** Pauses sending: messages claimed but not yet handed to a provider go back to the queue. */
export async function pauseCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<Campaign> {
  const row = await moveCampaign(ctx, user, campaignId, ['scheduled', 'running'], { status: 'paused' }, CAMPAIGN_MESSAGES.cannotPause);
  await ctx.db
    .update(campaignMessages)
    .set({ status: 'queued', nextAttemptAt: ctx.now() })
    .where(and(eq(campaignMessages.campaignId, campaignId), eq(campaignMessages.status, 'claimed')));
  return getCampaignResults(ctx, row);
}

/** Resumes a paused campaign: it sends again (or starts, if it was paused before its start). */
export async function resumeCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<Campaign> {
  const current = await getOwnedCampaign(ctx, user, campaignId);
  const status = current.startedAt ? 'running' : 'scheduled';
  const row = await moveCampaign(ctx, user, campaignId, ['paused'], { status, pausedReason: null }, CAMPAIGN_MESSAGES.cannotResume);
  return getCampaignResults(ctx, row);
}

/** Cancels a campaign: what was not yet handed to a provider is never sent. */
export async function cancelCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<Campaign> {
  const row = await moveCampaign(
    ctx,
    user,
    campaignId,
    ['draft', 'scheduled', 'running', 'paused'],
    { status: 'cancelled', finishedAt: ctx.now() },
    CAMPAIGN_MESSAGES.cannotCancel,
  );
  await ctx.db
    .update(campaignMessages)
    .set({ status: 'cancelled' })
    .where(and(eq(campaignMessages.campaignId, campaignId), inArray(campaignMessages.status, ['queued', 'claimed'])));
  return getCampaignResults(ctx, row);
}

export async function deleteCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<void> {
  await getOwnedCampaign(ctx, user, campaignId);
  const rows = await ctx.db
    .delete(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.ownerId, user.id), inArray(campaigns.status, ['draft', 'done', 'cancelled'])))
    .returning({ id: campaigns.id });
  if (rows.length === 0) throw conflict(CAMPAIGN_MESSAGES.cannotDelete);
}

/** The newest campaigns the list shows, each with its results (a query per started campaign). */
const CAMPAIGN_LIST_LIMIT = 50;

export async function findCampaigns(ctx: AppContext, user: AuthUser): Promise<Campaign[]> {
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.ownerId, user.id))
    .orderBy(desc(campaigns.createdAt))
    .limit(CAMPAIGN_LIST_LIMIT);
  return Promise.all(rows.map(async (row) => toCampaign(row, row.startedAt ? await readResults(ctx, row, { funnelOnly: true }) : null)));
}

export async function getCampaign(ctx: AppContext, user: AuthUser, campaignId: string): Promise<Campaign> {
  return getCampaignResults(ctx, await getOwnedCampaign(ctx, user, campaignId), { estimate: true });
}

/** A campaign with its results once started; before that (with `estimate`), whom it would reach and at what cost. */
export async function getCampaignResults(ctx: AppContext, row: CampaignRow, options: { estimate?: boolean } = {}): Promise<Campaign> {
  if (row.startedAt) return toCampaign(row, await readResults(ctx, row));
  const estimate = options.estimate && (row.status === 'draft' || row.status === 'scheduled' || row.status === 'paused');
  return toCampaign(row, null, estimate ? await readEstimate(ctx, row) : null);
}
