import { expect, it } from 'vitest';
import { createLargeAppExport } from '../../../../tests/support/large-app-export';
import { seedApp } from '../../../../tests/support/seed-app';
import { createApiClient, type SeededUser, seedUser, useTestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { BILLING_MESSAGES } from '../../../shared/api/billing.schema';
import { PLANS } from '../../../shared/billing/plans';

/**
 * Plan limits hold under parallel requests: each check counts and inserts with the account's (or the app's) row
 * locked, so 20 requests at once leave exactly the limit, and the others are refused with the limit's sentence.
 */
describeDb('plan limits under parallel requests', () => {
  // The per-account import limit is raised here: this file is about the plan's limits, not the rate limit.
  const t = useTestApp({ IMPORT_RATE_LIMIT: 1000 });
  const PARALLEL = 20;
  const appLimit = PLANS.TRIAL.limits.apps!;
  const menuLimit = PLANS.TRIAL.limits.menus!;
  const appLimitMessage = BILLING_MESSAGES.appLimit(appLimit, 'Trial');

  const countApps = async (user: SeededUser) => (await createApiClient(t, user).get('/api/getAllApps')).json().data.length as number;

  /** Runs the requests at once; expects `allowed` successes and the rest refused with 402 and `message`. */
  async function expectLimit(
    requests: Array<Promise<{ statusCode: number; json: () => { status: string; message: string } }>>,
    allowed: number,
    message: string,
  ) {
    const replies = await Promise.all(requests);
    const refused = replies.filter((r) => r.statusCode === 402);
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(allowed);
    expect(refused).toHaveLength(replies.length - allowed);
    for (const r of refused) expect(r.json()).toEqual({ status: '02', message });
  }

  const createAppBody = (i: number) => ({
    appName: `Race ${i}`,
    description: 'One of many at once',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: `*921*${i}#`,
    useTemplateTag: false,
  });

  it(`${PARALLEL} parallel createApp on TRIAL make exactly ${appLimit} apps`, async () => {
    const user = await seedUser(t, { plan: 'TRIAL' });
    const api = createApiClient(t, user);
    await expectLimit(
      Array.from({ length: PARALLEL }, (_, i) => api.post('/api/createApp', createAppBody(i))),
      appLimit,
      appLimitMessage,
    );
    expect(await countApps(user)).toBe(appLimit);
  });

  it(`${PARALLEL} parallel createMenu on TRIAL leave exactly ${menuLimit} menus`, async () => {
    const user = await seedUser(t, { plan: 'TRIAL' });
    const api = createApiClient(t, user);
    const appId = await seedApp(t, user.auth, { customShortCode: '*922*1#' });
    // Some already there, then more than the rest at once.
    for (let i = 0; i < menuLimit - 5; i++)
      expect(
        (await api.post('/api/createMenu', { appId, userDefinedName: `m${i}`, displayText: 'Menu', terminate: true })).statusCode,
      ).toBe(200);
    await expectLimit(
      Array.from({ length: PARALLEL }, (_, i) =>
        api.post('/api/createMenu', { appId, userDefinedName: `race${i}`, displayText: 'Menu', terminate: true }),
      ),
      5,
      BILLING_MESSAGES.menuLimit(menuLimit, 'Trial'),
    );
    expect((await api.get(`/api/getAllMenus/${appId}`)).json().data).toHaveLength(menuLimit);
  });

  it(`${PARALLEL} parallel clones on TRIAL stop at ${appLimit} apps`, async () => {
    const user = await seedUser(t, { plan: 'TRIAL' });
    const api = createApiClient(t, user);
    const source = await seedApp(t, user.auth, { customShortCode: '*923*1#' });
    await expectLimit(
      Array.from({ length: PARALLEL }, (_, i) => api.post('/api/cloneApp', { appId: source, appName: `Copy ${i}`, description: 'A copy' })),
      appLimit - 1,
      appLimitMessage,
    );
    expect(await countApps(user)).toBe(appLimit);
  });

  it(`${PARALLEL} parallel imports on TRIAL stop at ${appLimit} apps`, async () => {
    const user = await seedUser(t, { plan: 'TRIAL' });
    const api = createApiClient(t, user);
    const document = createLargeAppExport(5);
    await expectLimit(
      Array.from({ length: PARALLEL }, (_, i) =>
        api.post('/api/importApp', { document, appName: `Imported ${i}`, shortCode: `*924*${i}#` }),
      ),
      appLimit,
      appLimitMessage,
    );
    expect(await countApps(user)).toBe(appLimit);
  });

  it(`${PARALLEL} parallel bots on TRIAL stop at ${appLimit} apps`, async () => {
    const user = await seedUser(t, { plan: 'TRIAL', roles: ['CHATBOT'] });
    const api = createApiClient(t, user);
    await expectLimit(
      Array.from({ length: PARALLEL }, (_, i) => api.post('/api/chatbot/app/create', { appName: `Bot ${i}`, description: 'A bot' })),
      appLimit,
      appLimitMessage,
    );
  });
});
