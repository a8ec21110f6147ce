import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { apiKeys, users } from '../../../db/schema';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyBody,
} from '../../../shared/api/api-keys.schema';
import { invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { hashToken } from './tokens';

/** A key's last use is written when the stored one is older than this: at most one write a minute per key. */
export const LAST_USED_WRITE_MS = 60_000;
/** Role names a key never carries: it acts as the account on its own apps, never with an admin's reach. */
const ADMIN_ROLES = new Set(['ADMIN', 'super_admin']);

type ApiKeyRow = typeof apiKeys.$inferSelect;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    uuid: row.id,
    name: row.name,
    scope: row.scope === 'write' ? 'write' : 'read',
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** A new key: `dfk_` + 256 random bits in base64url. The reply carries it this once; the database only its hash. */
export async function createApiKey(ctx: AppContext, user: AuthUser, body: CreateApiKeyBody): Promise<{ apiKey: ApiKey; key: string }> {
  if (!body.name) throw invalid(API_KEY_MESSAGES.nameRequired, { field: 'name' });
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      userId: user.id,
      name: body.name,
      scope: body.scope,
      prefix: key.slice(0, API_KEY_SHOWN_LENGTH),
      keyHash: hashToken(key),
      createdAt: ctx.now(),
    })
    .returning();
  return { apiKey: toApiKey(row!), key };
}

/** The account's keys, newest first, revoked ones too (marked), so the list says what happened to each. */
export async function findApiKeys(ctx: AppContext, user: AuthUser): Promise<ApiKey[]> {
  const rows = await ctx.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toApiKey);
}

/** Revokes one of the account's keys at once (another account's answers 404); revoking twice changes nothing. */
export async function revokeApiKey(ctx: AppContext, user: AuthUser, uuid: string): Promise<ApiKey> {
  if (!isUuid(uuid)) throw notFound(API_KEY_MESSAGES.notFound);
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, uuid), eq(apiKeys.userId, user.id)));
  if (!row) throw notFound(API_KEY_MESSAGES.notFound);
  if (row.revokedAt) return toApiKey(row);
  const [revoked] = await ctx.db.update(apiKeys).set({ revokedAt: ctx.now() }).where(eq(apiKeys.id, row.id)).returning();
  return toApiKey(revoked!);
}

/**
 * The account a live key acts for, and the key's scope; undefined for an unknown or revoked key. The account's
 * admin roles are left out (a leaked key must not reach every account's apps).
 */
export async function findUserByApiKey(ctx: AppContext, key: string): Promise<{ user: AuthUser; scope: ApiKeyScope } | undefined> {
  const keyHash = hashToken(key);
  const [row] = await ctx.db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  if (!row) return undefined;
  const now = ctx.now();
  if (!row.key.lastUsedAt || now.getTime() - row.key.lastUsedAt.getTime() >= LAST_USED_WRITE_MS)
    await ctx.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.key.id));
  const { id, email, fullName, userType, roles, merchantId, agentOf } = row.user;
  return {
    user: {
      id,
      email,
      fullName,
      userType: userType === 'internal_admin' ? 'user' : userType,
      roles: roles.filter((role) => !ADMIN_ROLES.has(role)),
      merchantId,
      agentOf,
      // Not a session: logout and password changes revoke sessions, not keys.
      tokenHash: '',
      apiKeyName: row.key.name,
    },
    scope: row.key.scope === 'write' ? 'write' : 'read',
  };
}
