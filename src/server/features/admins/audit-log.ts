import { desc } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { auditLog } from '../../../db/schema';
import type { AuditEntry } from '../../../shared/api/admins.schema';

/** What admins do, in snake_case past tense: the audit log's `action`. */
export type AdminAction =
  | 'merchant_registered'
  | 'merchant_updated'
  | 'merchant_deleted'
  | 'merchant_user_created'
  | 'merchant_user_deleted'
  | 'app_cloned_into_merchant'
  | 'admin_created'
  | 'admin_deleted'
  | 'admin_profile_updated'
  | 'admin_roles_changed'
  | 'merchant_assigned'
  | 'merchant_unassigned'
  | 'shortcode_provisioned'
  | 'subscription_changed'
  | 'chatbot_access_changed'
  | 'two_factor_reset';

/** The audit log's shown rows: the newest this many. */
export const AUDIT_ENTRIES_SHOWN = 500;

/**
 * Records an admin action: who (id and email as they are now, so the line survives the actor's deletion),
 * what, on which object. Callers write it in the same transaction as the change when they have one.
 * @example await recordAdminAction(tx, user, 'merchant_deleted', merchant.id, { companyName })
 */
export async function recordAdminAction(
  db: Pick<Db, 'insert'>,
  actor: { id: string; email: string },
  action: AdminAction,
  targetId: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({ actorId: actor.id, actorEmail: actor.email, action, targetId, details });
}

export async function findAuditEntries(db: Db): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt)).limit(AUDIT_ENTRIES_SHOWN);
  return rows.map((row) => ({
    uuid: row.id,
    actorEmail: row.actorEmail,
    action: row.action,
    targetId: row.targetId,
    details: row.details as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  }));
}
