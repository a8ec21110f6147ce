/**
 * Sub-flows (docs/sub-flows.md): an account's shared groups of menus. A sub-flow is stored as an app row of channel
 * `subflow` with its declared inputs and outputs, so the designer edits its menus and its versions are kept as an
 * app's are; it is never served by a gateway (the version cache refuses it) and never listed with the apps.
 * Its versions are made when an app that enters it is deployed (core/app-versions.ts freezeSubflows).
 */
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { apps, appVersions, menus, users } from '../../../db/schema';
import { conflict, notFound } from '../../../shared/errors';
import {
  MAX_SUBFLOWS_PER_ACCOUNT,
  SUBFLOW_API_MESSAGES,
  type Subflow,
  type SubflowBody,
  type SubflowUse,
} from '../../../shared/api/subflows.schema';
import { subflowBodySchema } from '../../../shared/api/subflows.schema';
import type { AppContext } from '../../context';
import { checkCanBuildApps, createAppId, getOwnedApp, isBuiltBy, type AppRow } from '../../core/app-access';
import { SUBFLOW_CHANNEL, toSubflowInterface } from '../../core/app-versions';
import type { AuthUser } from '../../core/auth-user';
import { recordChangeByAdmin } from '../../core/audit-log';

/** One of the account's sub-flows (404 for an app, a bot or another account's sub-flow). */
async function getOwnedSubflow(ctx: AppContext, user: AuthUser, subflowId: string): Promise<AppRow> {
  const row = await getOwnedApp(ctx, user, subflowId);
  if (row.channel !== SUBFLOW_CHANNEL) throw notFound('Sub-flow not found');
  return row;
}

export async function findSubflows(ctx: AppContext, user: AuthUser): Promise<Subflow[]> {
  const rows = await ctx.db
    .select()
    .from(apps)
    .where(and(isBuiltBy(ctx, user), eq(apps.channel, SUBFLOW_CHANNEL)))
    .orderBy(asc(apps.appName));
  return toSubflows(ctx, rows);
}

export async function getSubflow(ctx: AppContext, user: AuthUser, subflowId: string): Promise<Subflow> {
  return (await toSubflows(ctx, [await getOwnedSubflow(ctx, user, subflowId)]))[0]!;
}

export async function createSubflow(ctx: AppContext, user: AuthUser, input: SubflowBody): Promise<Subflow> {
  checkCanBuildApps(user);
  const body = subflowBodySchema.parse(input);
  const row = await ctx.db.transaction(async (tx) => {
    await checkSubflowLimit(tx, user.id, 1);
    const [inserted] = await tx
      .insert(apps)
      .values({
        id: createAppId(),
        userId: user.id,
        appName: body.name,
        description: body.description,
        country: '',
        shortCode: '',
        connectionMode: 'shared',
        channel: SUBFLOW_CHANNEL,
        subflowInterface: { inputs: body.inputs, outputs: body.outputs },
      })
      .returning();
    return inserted!;
  });
  return (await toSubflows(ctx, [row]))[0]!;
}

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/**
 * Refuses `adding` more sub-flows past MAX_SUBFLOWS_PER_ACCOUNT (409), counted with the account's row locked, so
 * parallel creations and imports cannot pass the bound together. In the transaction that inserts them.
 */
export async function checkSubflowLimit(tx: Tx, ownerId: string, adding: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('no key update');
  const [held] = await tx
    .select({ n: count() })
    .from(apps)
    .where(and(eq(apps.userId, ownerId), eq(apps.channel, SUBFLOW_CHANNEL)));
  if ((held?.n ?? 0) + adding > MAX_SUBFLOWS_PER_ACCOUNT) throw conflict(SUBFLOW_API_MESSAGES.tooMany);
}

/** Renames the sub-flow or changes its inputs and outputs; the apps' drafts see it at once, their live versions at their next deploy. */
export async function updateSubflow(ctx: AppContext, user: AuthUser, subflowId: string, input: SubflowBody): Promise<Subflow> {
  const row = await getOwnedSubflow(ctx, user, subflowId);
  const body = subflowBodySchema.parse(input);
  const [updated] = await ctx.db
    .update(apps)
    .set({
      appName: body.name,
      description: body.description,
      subflowInterface: { inputs: body.inputs, outputs: body.outputs },
      updatedAt: ctx.now(),
    })
    .where(eq(apps.id, row.id))
    .returning();
  await recordChangeByAdmin(ctx.db, user, row.userId, 'app_updated', row.id, { subflow: true });
  return (await toSubflows(ctx, [updated!]))[0]!;
}

/**
 * Deletes a sub-flow nobody uses: refused (409, naming the apps) while an app's draft enters it or its live version
 * runs it, so no draft is left with a rule into nothing and no rollback loses what it ran.
 */
export async function deleteSubflow(ctx: AppContext, user: AuthUser, subflowId: string): Promise<void> {
  const row = await getOwnedSubflow(ctx, user, subflowId);
  await ctx.db.transaction(async (tx) => {
    await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, row.id)).for('update');
    const uses = await findUses(tx, row.userId, [row.id]);
    const names = uses.get(row.id)?.map((u) => u.appName) ?? [];
    if (names.length > 0) throw conflict(SUBFLOW_API_MESSAGES.inUse([...new Set(names)]), { usedBy: names });
    await tx.delete(apps).where(eq(apps.id, row.id));
  });
  await recordChangeByAdmin(ctx.db, user, row.userId, 'app_deleted', row.id, { subflow: true });
}

/**
 * Who uses each sub-flow: the owner's apps and bots whose draft enters it (a rule's `subflow.id`), and those whose
 * live (highest) version carries it, with the sub-flow version frozen there.
 */
async function findUses(db: AppContext['db'] | Tx, ownerId: string, ids: string[]): Promise<Map<string, SubflowUse[]>> {
  const uses = new Map<string, SubflowUse[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return uses;
  const owned = and(eq(apps.userId, ownerId), ne(apps.channel, SUBFLOW_CHANNEL));
  // Drafts: rules that name the sub-flow, read from the menus' jsonb (one menu row per rule found is enough).
  const drafts = await db
    .selectDistinct({ appId: apps.id, appName: apps.appName, channel: apps.channel, subflowId: sql<string>`r.rule->'subflow'->>'id'` })
    .from(menus)
    .innerJoin(apps, eq(apps.id, menus.appId))
    .innerJoin(sql`jsonb_array_elements(${menus.switchOperations}) as r(rule)`, sql`true`)
    .where(and(owned, inArray(sql<string>`r.rule->'subflow'->>'id'`, ids)));
  // Live versions: each app's highest number, and the sub-flows it carries.
  const live = await db
    .select({
      appId: apps.id,
      appName: apps.appName,
      channel: apps.channel,
      number: appVersions.number,
      subflowId: sql<string>`s.sub->>'id'`,
      subflowVersion: sql<number>`(s.sub->>'version')::int`,
    })
    .from(appVersions)
    .innerJoin(apps, eq(apps.id, appVersions.appId))
    .innerJoin(sql`jsonb_array_elements(coalesce(${appVersions.definition}->'subflows', '[]'::jsonb)) as s(sub)`, sql`true`)
    .where(
      and(
        owned,
        inArray(sql<string>`s.sub->>'id'`, ids),
        sql`${appVersions.number} = (select max(v.number) from app_versions v where v.app_id = ${apps.id})`,
      ),
    );
  const liveNumbers = new Map<string, number>();
  if (drafts.length > 0) {
    const numbers = await db
      .select({ appId: appVersions.appId, number: sql<number>`max(${appVersions.number})` })
      .from(appVersions)
      .where(inArray(appVersions.appId, [...new Set(drafts.map((d) => d.appId))]))
      .groupBy(appVersions.appId);
    for (const n of numbers) liveNumbers.set(n.appId, Number(n.number));
  }
  const channelOf = (channel: string) => (channel === 'whatsapp' ? 'whatsapp' : 'ussd') as SubflowUse['channel'];
  for (const id of ids) {
    const list = uses.get(id)!;
    const byApp = new Map<string, SubflowUse>();
    for (const d of drafts.filter((d) => d.subflowId === id))
      byApp.set(d.appId, {
        appId: d.appId,
        appName: d.appName,
        channel: channelOf(d.channel),
        inDraft: true,
        liveVersion: liveNumbers.get(d.appId) ?? null,
        subflowVersion: null,
      });
    for (const l of live.filter((l) => l.subflowId === id)) {
      const use = byApp.get(l.appId) ?? {
        appId: l.appId,
        appName: l.appName,
        channel: channelOf(l.channel),
        inDraft: false,
        liveVersion: l.number,
        subflowVersion: null,
      };
      use.liveVersion = l.number;
      use.subflowVersion = Number(l.subflowVersion);
      byApp.set(l.appId, use);
    }
    list.push(...[...byApp.values()].sort((a, b) => a.appName.localeCompare(b.appName)));
  }
  return uses;
}

async function toSubflows(ctx: AppContext, rows: AppRow[]): Promise<Subflow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const menuCounts = await ctx.db
    .select({ appId: menus.appId, n: count() })
    .from(menus)
    .where(inArray(menus.appId, ids))
    .groupBy(menus.appId);
  const latest = await ctx.db
    .select({ appId: appVersions.appId, number: sql<number>`max(${appVersions.number})` })
    .from(appVersions)
    .where(inArray(appVersions.appId, ids))
    .groupBy(appVersions.appId);
  const byOwner = new Map<string, string[]>();
  for (const r of rows) byOwner.set(r.userId, [...(byOwner.get(r.userId) ?? []), r.id]);
  const uses = new Map<string, SubflowUse[]>();
  for (const [ownerId, ownIds] of byOwner) for (const [id, list] of await findUses(ctx.db, ownerId, ownIds)) uses.set(id, list);
  return rows.map((row) => {
    const own = toSubflowInterface(row);
    const last = latest.find((l) => l.appId === row.id);
    return {
      id: row.id,
      name: row.appName,
      description: row.description,
      inputs: own.inputs,
      outputs: own.outputs,
      menus: menuCounts.find((m) => m.appId === row.id)?.n ?? 0,
      latestVersion: last ? Number(last.number) : null,
      updatedAt: row.updatedAt.toISOString(),
      usedBy: uses.get(row.id) ?? [],
    };
  });
}
