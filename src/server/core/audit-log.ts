import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import { getRoles, type RoleSubject } from '../../shared/roles';

/** What admins do, in snake_case past tense: the audit log's `action`. */
export const ADMIN_ACTIONS = [
  'merchant_registered',
  'merchant_updated',
  'merchant_deleted',
  'merchant_user_created',
  'merchant_user_deleted',
  'app_cloned_into_merchant',
  'admin_created',
  'admin_deleted',
  'admin_profile_updated',
  'admin_roles_changed',
  'merchant_assigned',
  'merchant_unassigned',
  'shortcode_provisioned',
  'subscription_changed',
  'chatbot_access_changed',
  'provider_registered',
  'provider_deleted',
  'provider_key_rotated',
  'provider_access_changed',
  'extension_created',
  'extension_deleted',
  // An admin's change to an app (or its parts) that another account builds (the role table's tenantApp.edit).
  'app_updated',
  'app_deleted',
  'app_deployed',
  'app_rolled_back',
  'menu_created',
  'menu_updated',
  'menu_deleted',
  'menus_reordered',
  'menus_moved',
  'app_logs_cleared',
  'webhook_changed',
  'custom_action_changed',
  'custom_action_deleted',
  'bot_changed',
  'bot_deleted',
  'two_factor_reset',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/**
 * What an account's owner does that the audit log keeps beside the admins' actions: giving someone a sign-in to the
 * account, or taking it away (inbox agents, docs/inbox.md "Agents"); and what an owner or an admin does with a
 * number's subscriber data (docs/security.md, "Subscriber data"): its export, its erasure (with why, and the rows
 * erased per kind, never the data).
 */
export const ACCOUNT_ACTIONS = ['agent_created', 'agent_deleted', 'subscriber_data_exported', 'subscriber_data_erased'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/**
 * Records an admin action (or an account's, ACCOUNT_ACTIONS): who (id and email as they are now, so the line survives the actor's deletion),
 * what, on which object. Callers write it in the same transaction as the change when they have one.
 * @example await recordAdminAction(tx, user, 'merchant_deleted', merchant.id, { companyName })
 */
export async function recordAdminAction(
  db: Pick<Db, 'insert'>,
  actor: { id: string; email: string },
  action: AdminAction | AccountAction,
  targetId: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({ actorId: actor.id, actorEmail: actor.email, action, targetId, details });
}

/**
 * Records a change an admin made to another account's object (an app, its menus, webhook or functions, a bot,
 * a featured template), after the change. An account's changes to what it builds itself are not admin actions.
 * @example await recordChangeByAdmin(ctx.db, user, app.userId, 'app_deployed', app.id, { version })
 */
export async function recordChangeByAdmin(
  db: Pick<Db, 'insert'>,
  actor: RoleSubject & { id: string; email: string },
  ownerId: string,
  action: AdminAction,
  targetId: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (ownerId === actor.id || !getRoles(actor).isAdmin) return;
  await recordAdminAction(db, actor, action, targetId, { ownerId, ...details });
}
