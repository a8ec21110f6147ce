/** The signed-in user as routes see it (`getSignedInUser(req)`, plugins/guard.ts), and as every service takes it. */
export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
  userType: string;
  roles: string[];
  merchantId: string | null;
  tokenHash: string;
}
