import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appLogs, appTestCases } from '../../../db/schema';
import { MAX_TEST_CASES_PER_APP, TEST_CASE_MESSAGES } from '../../../shared/api/test-cases.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu, seedShop, updateAppSettings } from '../../../../tests/support/seed-app';

/** Saved test cases (docs/testing-apps.md): written, recorded from the emulator, run against the draft. */
describeDb('test cases', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth, { customShortCode: '*920*55#' });
  });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = owner.auth) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const airtime = {
    name: 'Airtime for GHS 20',
    steps: [
      { input: '', expect: 'Welcome to the shop\n1. Airtime' },
      { input: '1', expect: 'Enter amount' },
      { input: '20', expect: 'You chose Airtime for GHS {*}' },
    ],
  };

  it('runs a case written by hand against the draft; a changed screen fails at its first different line', async () => {
    const saved = await call('POST', `/api/apps/${appId}/test-cases`, airtime);
    expect(saved.json()).toMatchObject({ status: '00', data: { name: 'Airtime for GHS 20', dialString: '', stubs: {} } });
    const wrong = await call('POST', `/api/apps/${appId}/test-cases`, {
      name: 'Data, wrong amount',
      steps: [
        { input: '', expect: 'Welcome' },
        { input: '2', expect: 'Enter amount' },
        { input: '50', expect: 'You chose Data\nfor GHS 60' },
      ],
    });
    const wrongId = wrong.json().data.id;
    const run = (await call('POST', `/api/apps/${appId}/test-cases/run`)).json();
    expect(run).toMatchObject({ status: '00', message: '1 of 2 failed', data: { total: 2, passed: 1, failed: 1 } });
    const failed = run.data.results.find((r: { id: string }) => r.id === wrongId);
    expect(failed.ok).toBe(false);
    expect(failed.steps).toHaveLength(3);
    expect(failed.steps[2]).toMatchObject({
      input: '50',
      actual: 'You chose Data for GHS 50',
      ok: false,
      difference: { line: 2, expected: 'for GHS 60' },
    });
    // Put right, it passes; deleted, it is gone.
    await call('PUT', `/api/apps/${appId}/test-cases/${wrongId}`, {
      name: 'Data, GHS 50',
      steps: [
        { input: '', expect: 'Welcome' },
        { input: '2', expect: 'Enter amount' },
        { input: '50', expect: 'You chose Data for GHS 50' },
      ],
    });
    expect((await call('POST', `/api/apps/${appId}/test-cases/run`)).json().data).toMatchObject({ total: 2, passed: 2 });
    expect((await call('DELETE', `/api/apps/${appId}/test-cases/${wrongId}`)).json().status).toBe('00');
    expect((await call('GET', `/api/apps/${appId}/test-cases`)).json().data.map((c: { name: string }) => c.name)).toEqual([
      'Airtime for GHS 20',
    ]);
  });

  it('says a step has nothing to answer once the session ended', async () => {
    const other = await seedShop(t, owner.auth, { customShortCode: '*920*56#' });
    await call('POST', `/api/apps/${other}/test-cases`, {
      name: 'One step too many',
      steps: [...airtime.steps, { input: '1', expect: 'Again' }],
    });
    const [result] = (await call('POST', `/api/apps/${other}/test-cases/run`)).json().data.results;
    expect(result).toMatchObject({ ok: false, error: 'The session ended at step 3; step 4 (input "1") has no screen to answer' });
  });

  it("records the builder's own emulator run, with its actions' replies (secrets blanked) that the run then uses", async () => {
    const shop = await seedApp(t, owner.auth, { customShortCode: '*920*57#' });
    const result = await seedMenu(t, owner.auth, shop, {
      userDefinedName: 'result',
      displayText: 'Balance {{ actions.lookup.balance }}',
      terminate: true,
    });
    await seedMenu(t, owner.auth, shop, {
      userDefinedName: 'home',
      displayText: 'Bank\n1. Balance',
      isFirst: true,
      actions: [
        {
          actionName: 'lookup',
          actionType: 'post',
          inheritsPlugin: 'javascript',
          code: 'return { balance: "GHS " + (40 + 2) + ".00", token: "tok_live_123", nested: { apiKey: "k" } }',
        },
      ],
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: result }],
    });
    const emulate = (session_mode: string, userdata: string, auth = owner.auth) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${shop}`,
        headers: auth,
        payload: { session_id: 'REC-1', session_mode, userdata, msisdn: '233200000007', network_id: '62001', appId: shop },
      });
    await emulate('start', '*920*57#');
    expect((await emulate('continue', '1')).json()).toMatchObject({ text: 'Balance GHS 42.00', session_mode: 'end' });
    const recorded = await call('POST', `/api/apps/${shop}/test-cases/record`, { sessionId: 'REC-1', name: 'Balance' });
    expect(recorded.json().data).toMatchObject({
      name: 'Balance',
      dialString: '*920*57#',
      msisdn: '233200000007',
      steps: [
        { input: '', expect: 'Bank\n1. Balance' },
        { input: '1', expect: 'Balance GHS 42.00' },
      ],
      stubs: { lookup: { ok: true, result: { balance: 'GHS 42.00', token: '(blanked)', nested: { apiKey: '(blanked)' } } } },
    });
    // The recorded reply answers for the script: change the script, the case still sees GHS 42.00.
    expect((await call('POST', `/api/apps/${shop}/test-cases/run`)).json().data).toMatchObject({ passed: 1, failed: 0 });

    // Another builder's session of this app, and another account's app: not found.
    const stranger = await seedUser(t);
    expect((await call('POST', `/api/apps/${shop}/test-cases/record`, { sessionId: 'NOPE', name: 'x' })).json()).toMatchObject({
      status: '04',
      message: TEST_CASE_MESSAGES.noSession,
    });
    expect((await call('POST', `/api/apps/${shop}/test-cases/run`, undefined, stranger.auth)).statusCode).toBe(404);
    expect((await call('GET', `/api/apps/${shop}/test-cases`, undefined, stranger.auth)).statusCode).toBe(404);
  });

  it('refuses bad cases with clear messages and keeps an app to its limit', async () => {
    const none = await call('POST', `/api/apps/${appId}/test-cases`, { name: 'Empty', steps: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain(TEST_CASE_MESSAGES.steps);
    const nameless = await call('POST', `/api/apps/${appId}/test-cases`, { name: '  ', steps: airtime.steps });
    expect(nameless.json().message).toContain(TEST_CASE_MESSAGES.name);
    const big = await call('POST', `/api/apps/${appId}/test-cases`, {
      ...airtime,
      stubs: { lookup: { ok: true, result: 'x'.repeat(20_000) } },
    });
    expect(big.json().message).toContain(TEST_CASE_MESSAGES.stub);
    expect((await call('PUT', `/api/apps/${appId}/test-cases/not-a-uuid`, airtime)).statusCode).toBe(404);

    const full = await seedShop(t, owner.auth, { customShortCode: '*920*58#' });
    await t.db.insert(appTestCases).values(
      Array.from({ length: MAX_TEST_CASES_PER_APP }, (_, i) => ({
        appId: full,
        name: `case ${i}`,
        msisdn: '233200000000',
        steps: airtime.steps,
      })),
    );
    const over = await call('POST', `/api/apps/${full}/test-cases`, airtime);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(TEST_CASE_MESSAGES.tooMany);
  });

  it('runs for a team’s CI with a read API key', async () => {
    const created = await call('POST', '/api/apiKey/create', { name: 'CI', scope: 'read' });
    const key = created.json().key as string;
    const run = await call('POST', `/api/apps/${appId}/test-cases/run`, undefined, { authorization: `Bearer ${key}` });
    expect(run.statusCode).toBe(200);
    expect(run.json().data).toMatchObject({ total: 1, passed: 1 });
  });

  it('refuses a deploy while a case fails, naming it; deploys with a reason to go anyway, logged; deploys when all pass', async () => {
    const shop = await seedShop(t, owner.auth, { customShortCode: '*920*59#' });
    await call('POST', `/api/apps/${shop}/test-cases`, airtime);
    const bad = (
      await call('POST', `/api/apps/${shop}/test-cases`, {
        name: 'Expects GHS 99',
        steps: [...airtime.steps.slice(0, 2), { input: '20', expect: 'GHS 99' }],
      })
    ).json().data;
    const refused = await call('GET', `/api/deployChanges/${shop}?name=Weekly`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: TEST_CASE_MESSAGES.failing(1, 2),
      failures: [
        {
          id: bad.id,
          name: 'Expects GHS 99',
          step: { input: '20', actual: 'You chose Airtime for GHS 20', difference: { line: 1, expected: 'GHS 99' } },
        },
      ],
    });
    expect((await call('GET', `/api/getAppVersions/${shop}`)).json().data).toEqual([]);

    const anyway = await call('GET', `/api/deployChanges/${shop}?name=Weekly&override=${encodeURIComponent('Price change is intended')}`);
    expect(anyway.json()).toMatchObject({ status: '00', data: { version: 1, name: 'Weekly' } });
    const [logged] = await t.db
      .select()
      .from(appLogs)
      .where(and(eq(appLogs.appId, shop), eq(appLogs.type, 'deploy_override')));
    expect(logged!.message).toBe(`${owner.user.email} deployed with 1 of 2 test cases failing: Price change is intended`);

    // Put right, the next deploy needs no reason.
    await call('PUT', `/api/apps/${shop}/test-cases/${bad.id}`, { name: 'GHS 20', steps: airtime.steps });
    expect((await updateAppSettings(t, owner.auth, shop, { appName: 'Shop 2' })).json().status).toBe('00');
    const clean = await call('GET', `/api/deployChanges/${shop}`);
    expect(clean.json()).toMatchObject({ status: '00', data: { version: 2 } });
  });
});

/** A run is bounded in time (TEST_RUN_MAX_MS): the cases after it are reported as not run, and the run answers. */
describeDb('test case runs past their time', () => {
  const t = useTestApp({ TEST_RUN_MAX_MS: 1 });
  const owner = useUser(t);
  it('reports the cases it had no time for, by name, and refuses a deploy for them', async () => {
    const appId = await seedShop(t, owner.auth, { customShortCode: '*920*58#' });
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
    // As many cases as an app may hold, so that even a fast machine's run outlasts the 1 ms (three did not, once).
    const steps = [
      { input: '', expect: 'Welcome to the shop\n1. Airtime' },
      { input: '1', expect: 'Enter amount' },
      { input: '20', expect: 'You chose Airtime for GHS {*}' },
    ];
    await t.db
      .insert(appTestCases)
      .values(Array.from({ length: MAX_TEST_CASES_PER_APP }, (_, n) => ({ appId, name: `Case ${n + 1}`, msisdn: '233200000000', steps })));
    const run = (await call('POST', `/api/apps/${appId}/test-cases/run`)).json().data;
    expect(run.total).toBe(MAX_TEST_CASES_PER_APP);
    const notRun = run.results.filter((r: { error?: string }) => r.error === TEST_CASE_MESSAGES.notRun(1));
    expect(notRun.length).toBeGreaterThan(0);
    expect(run.failed).toBeGreaterThanOrEqual(notRun.length);
    expect((await call('GET', `/api/deployChanges/${appId}`)).json().status).not.toBe('00');
  });
});
