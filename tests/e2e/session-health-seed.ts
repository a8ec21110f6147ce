import type { Db } from '../../src/db/client';
import { actionResults, apps, menus, sessionRecords } from '../../src/db/schema';
import { createUser } from '../../src/server/core/accounts';
import { createAppId } from '../../src/server/core/app-access';
import { HEALTH_USER } from './fixtures';

const HOUR = 3_600_000;

/**
 * HEALTH_USER's app and its finished live sessions of the last hours, written as the runtime writes them: what the
 * dashboard's session health panels show (session-health.e2e.ts asserts these figures).
 *
 * - causes: completed 2, terminated 1, timed out 2, network error 1 (Safaricom's words), budget exceeded 1, one
 *   record from before causes;
 * - menus: "pay" 4 (timed out 2, network error, budget exceeded), "home" 3 (completed 2, terminated), none 1;
 * - networks: MTN (62001 and "mtn") 5 sessions, 2 of 4 with a cause completed, hops 100 200 300 400 16000 → 300 ms;
 *   Telecel (62002) 3 sessions, 1 of 3, hops 1000 4500 5000 → 4.5 s;
 * - Hubtel's budget narrowed to 4 s by the app's connection: 2 of its 3 hops over; Africa's Talking 1 of 5 over 15 s;
 * - actions: charge on pay (3 runs, 2 failed), checkBalance on home.
 */
export async function seedSessionHealth(db: Db): Promise<void> {
  const { email, password, appName } = HEALTH_USER;
  const owner = await createUser(db, { fullName: 'Adwoa Health', email, password, mobileNumber: '233244000222' });
  const appId = createAppId();
  await db.insert(apps).values({
    id: appId,
    userId: owner.id,
    appName,
    country: 'ghana',
    shortCode: '*920*88#',
    customShortCode: '*920*88#',
    connectionMode: 'existing-shortcode',
    gatewayConnections: [{ gateway: 'hubtel', screenLimit: null, budgetMs: 4000 }],
  });
  const [home, pay] = await db
    .insert(menus)
    .values([
      { appId, position: 0, isFirst: true, userDefinedName: 'home', displayText: 'Welcome\n1. Balance\n2. Pay' },
      { appId, position: 1, userDefinedName: 'pay', displayText: 'Enter amount' },
    ])
    .returning({ id: menus.id });
  const now = Date.now();
  type Row = Partial<typeof sessionRecords.$inferInsert> & Pick<typeof sessionRecords.$inferInsert, 'sessionId'>;
  const record = (hoursAgo: number, r: Row) => ({
    appId,
    environment: 'live',
    gateway: 'africastalking',
    mobile: `23324100${String(hoursAgo).padStart(4, '0')}`,
    network: '62001',
    serviceCode: '*920*88#',
    status: 'abandoned',
    inputs: {},
    hopCount: r.hopMs?.length ?? 1,
    startedAt: new Date(now - hoursAgo * HOUR - 60_000),
    endedAt: new Date(now - hoursAgo * HOUR),
    ...r,
  });
  await db.insert(sessionRecords).values([
    record(1, { sessionId: 'h1', lastMenu: home!.id, status: 'completed', endCause: 'completed', hopMs: [100, 300], actionMs: [0, 200] }),
    record(1, { sessionId: 'h2', lastMenu: pay!.id, endCause: 'timed_out', hopMs: [200, 16000], actionMs: [50, 15000] }),
    record(2, {
      sessionId: 'h3',
      network: 'mtn',
      lastMenu: pay!.id,
      endCause: 'network_error',
      gatewayWords: 'Subscriber absent',
      gatewayDurationMs: 12_000,
      gatewayCost: 'KES 0.0500',
      hopMs: [400],
      actionMs: [0],
    }),
    record(2, {
      sessionId: 'h4',
      gateway: 'hubtel',
      network: '62002',
      lastMenu: home!.id,
      status: 'completed',
      endCause: 'terminated',
      hopMs: [1000, 5000],
      actionMs: [500, 4500],
    }),
    record(3, {
      sessionId: 'h5',
      gateway: 'hubtel',
      network: '62002',
      lastMenu: pay!.id,
      endCause: 'budget_exceeded',
      hopMs: [4500],
      actionMs: [4200],
    }),
    record(3, { sessionId: 'h6', lastMenu: null }),
    record(4, { sessionId: 'h7', lastMenu: home!.id, status: 'completed', endCause: 'completed' }),
    record(4, { sessionId: 'h8', gateway: 'hubtel', network: '62002', lastMenu: pay!.id, endCause: 'timed_out' }),
  ]);
  const action = (sessionId: string, actionName: string, menuName: string, durationMs: number, isOk = 1) => ({
    appId,
    sessionId,
    actionName,
    menuName,
    plugin: 'javascript',
    isOk,
    durationMs,
    createdAt: new Date(now - HOUR),
  });
  await db
    .insert(actionResults)
    .values([
      action('h1', 'checkBalance', 'home', 200),
      action('h4', 'checkBalance', 'home', 500),
      action('h4', 'checkBalance', 'home', 4000),
      action('h2', 'charge', 'pay', 50),
      action('h2', 'charge', 'pay', 15000, 0),
      action('h5', 'charge', 'pay', 4200, 0),
    ]);
}
