/**
 * An account's audiences (docs/campaigns.md, "Audiences"): saved filters over its contacts, and how many of the
 * contacts a campaign would reach on each channel. Another account's audience id answers 404; an audience naming an
 * app of another account matches nobody (the app must be the account's when the query runs).
 */
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { apps, audiences, contacts, sessionRecords, users } from '../../../db/schema';
import {
  CAMPAIGN_MESSAGES,
  type Audience,
  type AudienceBody,
  type AudienceFilter,
  type AudienceReach,
  type CampaignChannels,
  type ReachBody,
} from '../../../shared/api/campaigns.schema';
import { conflict, notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { toContactConditions } from '../../core/contact-filters';
import { isUniqueViolation } from '../../core/unique-violation';

type AudienceRow = typeof audiences.$inferSelect;

function toAudience(row: AudienceRow): Audience {
  return {
    audienceId: row.id,
    name: row.name,
    filter: row.filter,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const DAY_MS = 86_400_000;

/**
 * The contacts an audience holds, as SQL conditions on `contacts`: the Contacts list's filters, then seen on any
 * channel lately, then a session of one of the account's apps that ended as asked (gateway traffic only: the
 * emulator's runs are the builder's).
 */
export function toAudienceConditions(ownerId: string, filter: AudienceFilter, now: Date): SQL[] {
  const conditions = toContactConditions(ownerId, filter);
  if (filter.seenWithinDays !== undefined) {
    const since = new Date(now.getTime() - filter.seenWithinDays * DAY_MS).toISOString();
    conditions.push(
      sql`greatest(${contacts.lastSeenUssd}, ${contacts.lastSeenWhatsapp}, ${contacts.lastSeenSms}) >= ${since}::timestamptz`,
    );
  }
  if (filter.session) {
    const { appId, status, withinDays } = filter.session;
    const since = withinDays === undefined ? null : new Date(now.getTime() - withinDays * DAY_MS).toISOString();
    conditions.push(sql`exists (
      select 1 from ${sessionRecords} join ${apps} on ${apps.id} = ${sessionRecords.appId} and ${apps.userId} = ${ownerId}
      where ${sessionRecords.contactMsisdn} = ${contacts.msisdn} and ${sessionRecords.appId} = ${appId}
        and ${sessionRecords.status} = ${status} and ${sessionRecords.caller} is null
        ${since ? sql`and ${sessionRecords.endedAt} >= ${since}::timestamptz` : sql``})`);
  }
  return conditions;
}

/** Opted in on a channel: the consent index serves it. */
const optedIn = (channel: 'whatsapp' | 'sms') => sql`${contacts.consent} @> ${JSON.stringify({ [channel]: { status: 'in' } })}::jsonb`;
const optedOut = (channel: 'whatsapp' | 'sms') => sql`${contacts.consent} @> ${JSON.stringify({ [channel]: { status: 'out' } })}::jsonb`;

/** The channels a campaign may use, in its order. */
export function campaignChannelList(channels: CampaignChannels): Array<'whatsapp' | 'sms'> {
  return channels === 'whatsapp_then_sms' ? ['whatsapp', 'sms'] : [channels];
}

/**
 * Which channel a contact goes by (the first of the campaign's channels it opted in to), or why it goes by none:
 * `opted_out` when it opted out of every channel the campaign uses, else `no_consent`. One SQL expression, so a
 * campaign's start and its reach read the same.
 */
export function toChannelChoice(channels: CampaignChannels): SQL {
  const list = campaignChannelList(channels);
  const whens = list.map((channel) => sql`when ${optedIn(channel)} then ${channel}`);
  const allOut = sql.join(
    list.map((channel) => optedOut(channel)),
    sql` and `,
  );
  return sql`case ${sql.join(whens, sql` `)} when ${allOut} then 'opted_out' else 'no_consent' end`;
}

/** How many contacts match, by the channel each would go by (docs/campaigns.md, "Reach"). */
export async function countReach(
  ctx: AppContext,
  ownerId: string,
  filter: AudienceFilter,
  channels: CampaignChannels,
): Promise<AudienceReach> {
  const choice = toChannelChoice(channels);
  const rows = (await ctx.db
    .select({ choice: sql<string>`${choice}`.as('choice'), contacts: count() })
    .from(contacts)
    .where(and(...toAudienceConditions(ownerId, filter, ctx.now())))
    .groupBy(sql`1`)) as Array<{ choice: string; contacts: number }>;
  const of = (name: string) => Number(rows.find((r) => r.choice === name)?.contacts ?? 0);
  const reach = { whatsapp: of('whatsapp'), sms: of('sms'), optedOut: of('opted_out'), noConsent: of('no_consent') };
  return { total: reach.whatsapp + reach.sms + reach.optedOut + reach.noConsent, ...reach };
}

export async function getOwnedAudience(ctx: AppContext, user: AuthUser, audienceId: string): Promise<AudienceRow> {
  const [row] = await ctx.db
    .select()
    .from(audiences)
    .where(and(eq(audiences.id, audienceId), eq(audiences.ownerId, user.id)));
  if (!row) throw notFound(CAMPAIGN_MESSAGES.audienceNotFound);
  return row;
}

/** An app the filter names must be the account's: another account's, or none, is not found. */
async function checkFilterApps(ctx: AppContext, user: AuthUser, filter: AudienceFilter): Promise<void> {
  if (!filter.session) return;
  const [app] = await ctx.db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.id, filter.session.appId), eq(apps.userId, user.id)));
  if (!app) throw notFound('App not found');
}

export async function findAudiences(ctx: AppContext, user: AuthUser): Promise<Audience[]> {
  const rows = await ctx.db.select().from(audiences).where(eq(audiences.ownerId, user.id)).orderBy(asc(audiences.name));
  return rows.map(toAudience);
}

/** Unique names per account: the unique index answers a race too. */
const isNameTaken = (err: unknown) => isUniqueViolation(err, 'audiences_owner_name_idx');

export async function createAudience(ctx: AppContext, user: AuthUser, body: AudienceBody): Promise<Audience> {
  await checkFilterApps(ctx, user, body.filter);
  const row = await ctx.db
    .transaction(async (tx) => {
      // Counted under a lock on the account's row, so two adds at once cannot both pass the cap.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const [{ kept }] = (await tx.select({ kept: count() }).from(audiences).where(eq(audiences.ownerId, user.id))) as [{ kept: number }];
      if (kept >= ctx.config.AUDIENCES_PER_ACCOUNT) throw conflict(CAMPAIGN_MESSAGES.tooManyAudiences);
      const now = ctx.now();
      const [row] = await tx
        .insert(audiences)
        .values({ ownerId: user.id, name: body.name, filter: body.filter, createdAt: now, updatedAt: now })
        .returning();
      return row!;
    })
    .catch((err: unknown) => {
      throw isNameTaken(err) ? conflict(CAMPAIGN_MESSAGES.audienceNameTaken, { field: 'name' }) : err;
    });
  return toAudience(row);
}

export async function updateAudience(ctx: AppContext, user: AuthUser, audienceId: string, body: AudienceBody): Promise<Audience> {
  await getOwnedAudience(ctx, user, audienceId);
  await checkFilterApps(ctx, user, body.filter);
  const [row] = await ctx.db
    .update(audiences)
    .set({ name: body.name, filter: body.filter, updatedAt: ctx.now() })
    .where(and(eq(audiences.id, audienceId), eq(audiences.ownerId, user.id)))
    .returning()
    .catch((err: unknown) => {
      throw isNameTaken(err) ? conflict(CAMPAIGN_MESSAGES.audienceNameTaken, { field: 'name' }) : err;
    });
  if (!row) throw notFound(CAMPAIGN_MESSAGES.audienceNotFound);
  return toAudience(row);
}

/** Deletes a saved audience; campaigns made from it keep their copy of its filter. */
export async function deleteAudience(ctx: AppContext, user: AuthUser, audienceId: string): Promise<void> {
  const rows = await ctx.db
    .delete(audiences)
    .where(and(eq(audiences.id, audienceId), eq(audiences.ownerId, user.id)))
    .returning({ id: audiences.id });
  if (rows.length === 0) throw notFound(CAMPAIGN_MESSAGES.audienceNotFound);
}

/** How many of a saved audience's contacts (or a filter's, before it is saved) each channel would reach. */
export async function getReach(ctx: AppContext, user: AuthUser, body: ReachBody): Promise<AudienceReach> {
  const filter = body.audienceId ? (await getOwnedAudience(ctx, user, body.audienceId)).filter : body.filter!;
  await checkFilterApps(ctx, user, filter);
  return countReach(ctx, user.id, filter, body.channels);
}
