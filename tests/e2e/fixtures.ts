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

/**
 * A chatbot user whose contact +233240000077 (Akosua) opted in to WhatsApp, seeded with the consent the console
 * cannot set yet: writing first (first-message.e2e.ts) needs it. Apart from E2E_USERS, whose kinds other files walk.
 */
export const FIRST_MESSAGE_USER = { email: 'writer@e2e.test', password: 'writer-e2e-1', contact: '+233240000077' } as const;

/**
 * A USSD builder whose app "Health Shop" global setup seeds with finished sessions as the runtime records them (end
 * causes, hop and action times, networks, the gateway's words: tests/e2e/session-health-seed.ts), for the
 * dashboard's session health panels (session-health.e2e.ts). Apart from E2E_USERS, whose kinds other files walk.
 */
export const HEALTH_USER = { email: 'health@e2e.test', password: 'health-e2e-1', appName: 'Health Shop' } as const;
