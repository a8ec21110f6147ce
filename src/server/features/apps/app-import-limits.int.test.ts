import { expect, it } from 'vitest';
import { countOperations } from '../../../../tests/support/count-operations';
import { createLargeAppExport } from '../../../../tests/support/large-app-export';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { BILLING_MESSAGES } from '../../../shared/api/billing.schema';
import { MAX_MENUS_PER_APP, PLANS } from '../../../shared/billing/plans';

/**
 * An import cannot be used to hold the server's thread: the plan's limits are checked from the file's menu count
 * before any menu is read, the checks of a file that fits take time linear in its size, and imports are limited
 * per account (docs/import-export.md).
 */
describeDb('app import: limits before work, linear checks, a rate limit', () => {
  const t = useTestApp();
  const trial = useUser(t, { plan: 'TRIAL' });
  const enterprise = useUser(t);
  const counted = useUser(t);
  const hurried = useUser(t);

  const countApps = async (auth: { authorization: string }) =>
    (await createApiClient(t, { auth }).get('/api/getAllApps')).json().data.length;

  it("refuses a 2,000-menu file on TRIAL with the plan's menu limit, before reading a single menu", async () => {
    const document = createLargeAppExport(2000);
    // A menu the designer's rules refuse: read, it would be listed as a problem (400), not the plan's limit (402).
    document.menus[3] = { ...document.menus[3]!, displayText: '' };
    expect(JSON.stringify(document).length).toBeLessThan(2 * 1024 * 1024);
    const res = await createApiClient(t, trial).post('/api/importApp', { document });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toEqual({ status: '02', message: BILLING_MESSAGES.menuLimit(PLANS.TRIAL.limits.menus!, 'Trial') });
    expect(await countApps(trial.auth)).toBe(0);
  });

  it(`refuses more than ${MAX_MENUS_PER_APP} menus on an unlimited plan too, before reading them`, async () => {
    const document = createLargeAppExport(MAX_MENUS_PER_APP + 1);
    document.menus[3] = { ...document.menus[3]!, displayText: '' };
    const res = await createApiClient(t, enterprise).post('/api/importApp', { document });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toEqual({ status: '02', message: BILLING_MESSAGES.menuHardLimit });
    expect(await countApps(enterprise.auth)).toBe(0);
  });

  it('checks a file in work linear in its menus (twice the menus, about twice the lookups)', async () => {
    const api = createApiClient(t, counted);
    const importFile = async (menus: number, shortCode: string) => {
      const res = await api.post('/api/importApp', { document: createLargeAppExport(menus), shortCode });
      expect(res.json(), res.body).toMatchObject({ status: '00' });
    };
    // The first import warms what is read once per server; the two measured ones differ only in size.
    await importFile(10, '*925*1#');
    const small = await countOperations(() => importFile(200, '*925*2#'));
    const large = await countOperations(() => importFile(400, '*925*3#'));
    // Each menu checked against a list of all the others would be about 4 times as much.
    expect(large / small).toBeLessThan(2.5);
  });

  it('answers the 11th import of a minute from one account with 429, successful or not, and counts nothing for it', async () => {
    const api = createApiClient(t, hurried);
    for (let i = 0; i < 10; i++) {
      const res = await api.post('/api/importApp', { document: { format: 'something else' } });
      expect(res.statusCode).toBe(400);
    }
    const res = await api.post('/api/importApp', { document: createLargeAppExport(3) });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ status: '05', message: 'Too many attempts. Please wait a minute and try again.' });
    expect(await countApps(hurried.auth)).toBe(0);
    // Another account is not held by this one's count.
    expect(
      (await createApiClient(t, enterprise).post('/api/importApp', { document: createLargeAppExport(3), shortCode: '*926*1#' })).statusCode,
    ).toBe(200);
  });
});
