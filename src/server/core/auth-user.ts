/** The signed-in user as routes see it (`getSignedInUser(req)`, plugins/guard.ts), and as every service takes it. */
export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
  userType: string;
  roles: string[];
  merchantId: string | null;
  tokenHash: string;
  /** The API key's name when the call came with an API key (docs/api-keys.md); absent for a signed-in session. */
  apiKeyName?: string;
}
