/**
 * User accounts as more than one feature makes and shows them: registration (auth), admin management (admins) and
 * a merchant's users (merchants) all create an account the same way and name its holder with the same fields.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { conflict } from '../../shared/errors';
import type { UserType } from '../../shared/roles';
import { hashPassword } from './passwords';

export type UserRow = typeof users.$inferSelect;

export interface CreateUserInput {
  fullName: string;
  email: string;
  password: string;
  mobileNumber?: string;
  companyName?: string;
  userType?: UserType;
  roles?: string[];
  merchantId?: string | null;
  isDeveloper?: boolean;
  /** An inbox agent's owner (userType `agent`). */
  agentOf?: string;
}

/** Creates an account. Used by registration, the seed, admin and merchant management, inbox agents, and tests. */
export async function createUser(db: Db, input: CreateUserInput): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) throw conflict('An account with this email already exists');
  const [user] = await db
    .insert(users)
    .values({
      fullName: input.fullName.trim(),
      email,
      passwordHash: await hashPassword(input.password),
      mobileNumber: input.mobileNumber ?? '',
      companyName: input.companyName ?? '',
      userType: input.userType ?? 'user',
      roles: input.roles ?? [],
      merchantId: input.merchantId ?? null,
      isDeveloper: input.isDeveloper ?? false,
      agentOf: input.agentOf ?? null,
    })
    .returning();
  return user!;
}

/** Who an account is, as the admin and merchant-user lists show it. */
export function toAccountHolder(row: UserRow) {
  return { uuid: row.id, fullName: row.fullName, email: row.email, mobileNumber: row.mobileNumber };
}
