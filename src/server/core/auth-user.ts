/** The signed-in user as routes see it (`getSignedInUser(req)`, plugins/guard.ts), and as every service takes it. */
export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
  userType: string;
  roles: string[];
  merchantId: string | null;
  /** An inbox agent's account (its owner's id); null for everyone else (docs/inbox.md, "Agents"). */
  agentOf: string | null;
  tokenHash: string;
  /** The API key's name when the call came with an API key (docs/api-keys.md); absent for a signed-in session. */
  apiKeyName?: string;
}

/**
 * The account whose objects the user works on: their own id, or an agent's owner's. Only the inbox reads it (an
 * agent is refused every other route by the guard).
 */
export function getAccountId(user: Pick<AuthUser, 'id' | 'agentOf'>): string {
  return user.agentOf ?? user.id;
}
