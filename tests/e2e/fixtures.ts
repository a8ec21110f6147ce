/** Accounts the e2e server is seeded with, one per kind of user docs/product.md names (Roles and the sidebar). */
export const E2E_USERS = {
  superAdmin: { email: 'admin@e2e.test', password: 'admin-e2e-1' },
  admin: { email: 'ops@e2e.test', password: 'ops-e2e-1' },
  /** An admin with the SUPPORT role only: read-only screens (docs/product.md, Admin roles). */
  support: { email: 'help@e2e.test', password: 'help-e2e-1' },
  chatbot: { email: 'bots@e2e.test', password: 'bots-e2e-1' },
  merchant: { email: 'merchant@dialflow.local', password: 'merchant1234' },
  private: { email: 'demo@dialflow.local', password: 'demo1234' },
} as const;
export type E2eUserKind = keyof typeof E2E_USERS;
