import { sql } from 'drizzle-orm';
import { appLogs } from '../../../db/schema';
import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedTwoMenus } from '../../../../tests/support/seed-app';

describeDb('logs, debug, live view, dashboard and sessions', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  let appId: string;
  const startedAt = Date.now() - 1000;

  const { get, post } = createApiClient(t, owner);
  const hop = (sessionId: string, text: string, network = '62001') =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId, serviceCode: '*920*55#', phoneNumber: `23324${sessionId.length}000111`, networkCode: network, text },
    });

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    const name = { userDefinedName: 'name', displayText: 'Pick\n1. Kwame\n2. Akosua' };
    const done = { userDefinedName: 'done', displayText: 'Thanks {{ session.inputs.nameLabel }}' };
    await seedTwoMenus(t, owner.auth, appId, name, done, { operator: 'valueIn', compareVal: '1,2' });
    await hop('done-1', '');
    await hop('done-1', '2');
    await hop('done-22', '', '62002');
    await hop('done-22', '1', '62002');
    await hop('open-1', '');
  });

  it('streams log lines after a time stamp, and debug inputs of a session', async () => {
    const all = await post('/streamLogs', { appId, timeStamp: startedAt });
    expect(all.json().status).toBe('00');
    const lines = all.json().data as Array<{ logLevel: string; message: string; timestamp: string; sessionId: string }>;
    expect(lines.length).toBeGreaterThan(5);
    expect(new Set(lines.map((l) => l.sessionId))).toEqual(new Set(['done-1', 'done-22', 'open-1']));
    const later = await post('/streamLogs', { appId, timeStamp: lines.at(-1)!.timestamp });
    expect(later.json().data).toEqual([]);
    const afterId = await post('/streamLogs', { appId, afterId: (lines as unknown as Array<{ id: number }>)[2]!.id });
    expect(afterId.json().data).toHaveLength(lines.length - 3);
    // Within a session, lines come in the order they happened.
    const one = lines.filter((l) => l.sessionId === 'done-1').map((l) => (l as unknown as { message: string }).message);
    expect(one[0]).toMatch(/started/i);
    expect(one.at(-1)).toMatch(/ended/i);

    const inputs = await post('/debug/userInputs', { appId, sessionId: 'done-1' });
    expect(inputs.json().data.map((i: { fieldName: string; fieldValue: string }) => [i.fieldName, i.fieldValue])).toEqual([
      ['name', '2'],
      ['nameLabel', 'Akosua'],
    ]);
    expect((await post('/debug/actionResults', { appId, sessionId: 'done-1' })).json()).toMatchObject({ status: '00', data: [] });
  });

  it('reads the path a session took: the menus shown in order and the rules taken', async () => {
    const menus = (await get(`/api/getAllMenus/${appId}`)).json().data as Array<{ uniqueId: string; userDefinedName: string }>;
    const id = (name: string) => menus.find((m) => m.userDefinedName === name)!.uniqueId;
    const ended = await post('/debug/sessionPath', { appId, sessionId: 'done-1' });
    expect(ended.json()).toMatchObject({ status: '00' });
    const path = ended.json().data;
    expect(path.steps.map((s: { menu: string }) => s.menu)).toEqual(['name', 'done']);
    expect(path.steps[0].menuId).toBe(id('name'));
    expect(path.rules).toEqual([{ menuId: id('name'), rule: 0, toId: id('done') }]);
    expect(path.ended).toBe(true);
    const open = (await post('/debug/sessionPath', { appId, sessionId: 'open-1' })).json().data;
    expect(open).toEqual({ steps: [expect.objectContaining({ menu: 'name' })], rules: [], ended: false });
    expect((await post('/debug/sessionPath', { appId, sessionId: 'no-such-session' })).json().data).toEqual({
      steps: [],
      rules: [],
      ended: false,
    });
    expect((await post('/debug/sessionPath', { appId, sessionId: 'done-1' }, stranger.auth)).statusCode).toBe(404);
  });

  it('filters logs by level and menu, answers them by time, and clears them', async () => {
    const menus = (await get(`/api/getAllMenusLite/${appId}`)).json().data as Array<{ uniqueId: string; userDefinedName: string }>;
    const nameMenu = menus.find((m) => m.userDefinedName === 'name')!.uniqueId;
    const all = (
      await post('/actionlogs/searchLogs', {
        appId,
        filterByMenu: false,
        filterByLevel: false,
        filterByPlugin: false,
        level: '',
        menuId: '',
        plugin: '',
      })
    ).json().data;
    // As they happened, oldest first (the Table View orders by level in the browser): each session starts above its end.
    const lines = all as Array<{ id: number; time: string; message: string }>;
    const times = lines.map((l) => [Date.parse(l.time), l.id]);
    expect(times).toEqual([...times].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    const firstStart = lines.findIndex((l) => l.message.startsWith('Session started'));
    expect(firstStart).toBeGreaterThanOrEqual(0);
    expect(firstStart).toBeLessThan(lines.findIndex((l) => l.message === 'Session ended'));
    expect(all[0].pluginActionMenu).toMatch(/^.+:.+:.+$/);

    const info = (await post('/actionlogs/searchLogs', { appId, filterByLevel: true, level: 'info' })).json().data;
    expect(info.length).toBeGreaterThan(0);
    expect(info.every((l: { logLevel: string }) => l.logLevel === 'info')).toBe(true);
    const byMenu = (await post('/actionlogs/searchLogs', { appId, filterByMenu: true, menuId: nameMenu })).json().data;
    expect(byMenu.length).toBeGreaterThan(0);
    expect(byMenu.every((l: { pluginActionMenu: string }) => l.pluginActionMenu.endsWith(':name'))).toBe(true);

    expect((await post('/actionlogs/clearLogs', { appId }, stranger.auth)).statusCode).toBe(404);
    expect((await post('/actionlogs/clearLogs', { appId })).json().status).toBe('00');
    expect((await post('/actionlogs/searchLogs', { appId })).json().data).toEqual([]);
  });

  it('answers log lines by time, never by level; lines of one millisecond in the order they were written', async () => {
    const quiet = await seedApp(t, owner.auth);
    const at = new Date('2026-11-27T10:00:00.000Z');
    const row = (level: string, type: string, message: string, createdAt: Date) => ({
      appId: quiet,
      sessionId: 's-1',
      level,
      type,
      message,
      createdAt,
    });
    // Written in this order: the start and the end share a millisecond, an error came before both.
    await t.db.insert(appLogs).values(row('error', 'action_failed', 'An earlier failure', new Date(at.getTime() - 1000)));
    await t.db.insert(appLogs).values(row('system', 'session_started', 'Session started for 233200000001', at));
    await t.db.insert(appLogs).values(row('system', 'session_ended', 'Session ended', at));
    const lines = (await post('/actionlogs/searchLogs', { appId: quiet })).json().data as Array<{ message: string }>;
    expect(lines.map((l) => l.message)).toEqual(['An earlier failure', 'Session started for 233200000001', 'Session ended']);
  });

  it('shows sessions in progress in the live view and counts the dashboard', async () => {
    const live = (await get(`/dashboard/liveView/${appId}`)).json().data;
    expect(live).toEqual([expect.objectContaining({ sessionId: 'open-1', menuText: 'Pick\n1. Kwame\n2. Akosua', network: '62001' })]);
    // These sessions ran on the test URL: the dashboard shows them when asked for test runs.
    const dashboard = (await get(`/api/dashboard/appDashboard/${appId}?environment=test`)).json().data;
    expect(dashboard).toMatchObject({ connectedSessions: 1, transactions: 0, totalUsers: 2, menuCount: 2 });
    expect(dashboard.sessionsByHour.reduce((n: number, h: { sessions: number }) => n + h.sessions, 0)).toBe(2);
    expect(dashboard.sessionsByHour.map((h: { network: string }) => h.network).sort()).toEqual(['62001', '62002']);
    expect(dashboard.menuOutcomes).toEqual([expect.objectContaining({ menu: 'done', completed: 2, abandoned: 0 })]);
  });

  it('lists completed sessions with their inputs, and abandoned ones where they stopped', async () => {
    const done = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(done.map((s: { sessionId: string }) => s.sessionId).sort()).toEqual(['done-1', 'done-22']);
    expect(done.find((s: { sessionId: string }) => s.sessionId === 'done-1').inputs).toEqual({ name: '2', nameLabel: 'Akosua' });

    await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { SessionId: 'hb-9', Type: 'Initiation', Message: '*920*55#', ServiceCode: '920', Operator: 'mtn', Mobile: '233200000009' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { SessionId: 'hb-9', Type: 'Timeout', Message: '', ServiceCode: '920', Operator: 'mtn', Mobile: '233200000009' },
    });
    const abandoned = (await get(`/dashboard/uncompletedSessions/${appId}`)).json().data;
    expect(abandoned).toEqual([expect.objectContaining({ sessionId: 'hb-9', status: 'abandoned', lastMenu: expect.any(String) })]);
  });

  it('searches by word and by date, flat or not', async () => {
    const word = (
      await post('/dashboard/search', { appId, searchBy: 'word', searchQuery: 'akosua', startDate: '', endDate: '', flatResults: false })
    ).json();
    expect(word.data).toEqual([expect.objectContaining({ inputs: { name: '2', nameLabel: 'Akosua' } })]);
    const today = new Date().toISOString().slice(0, 10);
    const byDate = (
      await post('/dashboard/search', { appId, searchBy: 'date', startDate: today, endDate: today, searchQuery: '', flatResults: true })
    ).json().data;
    expect(byDate.headers).toEqual(['mobile', 'network', 'networkCode', 'date', 'source', 'name', 'nameLabel']);
    expect(byDate.rows.map((r: { nameLabel: string }) => r.nameLabel).sort()).toEqual(['', 'Akosua', 'Kwame']);
    const noRange = await post('/dashboard/search', { appId, searchBy: 'date', startDate: '', endDate: '' });
    expect(noRange.json()).toMatchObject({ status: '02', message: 'Please select a date range' });
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await post('/dashboard/search', { appId, searchBy: 'date', startDate: yesterday, endDate: yesterday })).json().data).toEqual(
      [],
    );
  });

  it("answers another account's app with not found everywhere", async () => {
    for (const [method, url, payload] of [
      ['POST', '/streamLogs', { appId }],
      ['POST', '/actionlogs/searchLogs', { appId }],
      ['GET', `/dashboard/liveView/${appId}`],
      ['GET', `/api/dashboard/appDashboard/${appId}`],
      ['GET', `/dashboard/completedSessions/${appId}`],
      ['POST', '/dashboard/search', { appId, searchBy: 'word', searchQuery: 'a' }],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(404);
    }
    // Debug data of one session is readable by its id only for a featured template; this app is not one.
    expect((await post('/debug/userInputs', { appId, sessionId: 'done-1' }, stranger.auth)).statusCode).toBe(404);
  });
});

describeDb('session export', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    // A hundred thousand finished sessions, generated in SQL.
    await t.db.execute(sql`
      insert into session_records (app_id, session_id, environment, gateway, mobile, network, service_code, status, inputs, hop_count, started_at, ended_at)
      select ${appId}, 's' || g, 'live', 'africastalking', '23324' || lpad(g::text, 7, '0'), 'MTN', '*920*55#', 'completed',
        jsonb_build_object('name', case when g % 2 = 0 then 'Ama' else '=cmd' end, 'amount', (g % 500)::text), 3, now(), now()
      from generate_series(1, 100000) g`);
  }, 120_000);

  const { post } = createApiClient(t, owner);
  const exportFile = (payload: object, auth = owner.auth) =>
    post('/dashboard/search/export', { appId, startDate: '', endDate: '', searchQuery: '', flatResults: true, ...payload }, auth);

  it('streams every matching session as CSV, past the 5,000 rows the screen shows', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await exportFile({ searchBy: 'date', startDate: today, endDate: today, format: 'csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="sessions.csv"');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('"mobile","network","networkCode","date","source","amount","name"');
    expect(lines).toHaveLength(100_001);
    // A cell that a spreadsheet would run as a formula is defused.
    expect(lines.some((l) => l.endsWith(`"'=cmd"`))).toBe(true);
  }, 60_000);

  it('exports a word search as an Excel workbook, and refuses another account', async () => {
    const res = await exportFile({ searchBy: 'word', searchQuery: '233240000042', format: 'xls' });
    expect(res.headers['content-type']).toMatch(/application\/vnd\.ms-excel/);
    expect(res.body).toMatch(/^<\?xml/);
    expect(res.body.match(/<Row>/g)).toHaveLength(2);
    expect(res.body).toContain('<Data ss:Type="String">233240000042</Data>');
    const stranger = await seedUser(t);
    expect((await exportFile({ searchBy: 'word', searchQuery: 'Ama', format: 'csv' }, stranger.auth)).statusCode).toBe(404);
    expect((await exportFile({ searchBy: 'date', format: 'csv' })).json()).toMatchObject({
      status: '02',
      message: 'Please select a date range',
    });
  });
});

describeDb('test runs and live traffic, told apart', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;

  const { get, post } = createApiClient(t, owner);
  const gatewayHop = (environment: 'test' | 'live', sessionId: string, phoneNumber: string, networkCode: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/${environment}`,
      payload: { sessionId, serviceCode: '*920*55#', phoneNumber, networkCode, text },
    });
  const emulatorHop = (sessionId: string, userdata: string, mode: 'start' | 'continue') =>
    t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${appId}`,
      headers: owner.auth,
      payload: { session_id: sessionId, userdata, msisdn: '233200000077', session_mode: mode, network_id: 'MTN', appId },
    });
  const bySession = (rows: Array<{ sessionId: string }>) => Object.fromEntries(rows.map((r) => [r.sessionId, r]));

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    const pick = { userDefinedName: 'pick', displayText: 'Pick\n1. Rice' };
    const done = { userDefinedName: 'done', displayText: 'Thanks' };
    await seedTwoMenus(t, owner.auth, appId, pick, done, { operator: 'always', compareVal: '' });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    // Live: one finished, one open. Test URL: one finished. Emulator: one finished, one open.
    await gatewayHop('live', 'live-1', '233240000001', '62001', '');
    await gatewayHop('live', 'live-1', '233240000001', '62001', '1');
    await gatewayHop('live', 'live-open', '233240000002', '62001', '');
    await gatewayHop('test', 'test-1', '233240000003', '62002', '');
    await gatewayHop('test', 'test-1', '233240000003', '62002', '1');
    await emulatorHop('emu-1', '*920*55#', 'start');
    await emulatorHop('emu-1', '1', 'continue');
    await emulatorHop('emu-open', '*920*55#', 'start');
    // A payment in a test session and one in a live session.
    await t.db.execute(sql`
      insert into transactions (reference, transaction_type, amount, app_id, metadata)
      values ('DF-TEST-1', 'PAYMENT', '5.00', ${appId}, ${JSON.stringify({ sessionId: 'emu-1' })}::jsonb),
             ('DF-LIVE-1', 'PAYMENT', '5.00', ${appId}, ${JSON.stringify({ sessionId: 'live-1' })}::jsonb),
             ('DF-LIVE-2', 'PAYMENT', '7.00', ${appId}, ${JSON.stringify({ sessionId: 'live-open' })}::jsonb)`);
  });

  it('counts live traffic on the dashboard by default, and test runs when asked', async () => {
    const live = (await get(`/api/dashboard/appDashboard/${appId}`)).json().data;
    expect(live).toMatchObject({ connectedSessions: 1, transactions: 2, totalUsers: 1, menuCount: 2 });
    expect(live.sessionsByHour.map((h: { network: string }) => h.network)).toEqual(['62001']);
    expect(live.menuOutcomes).toEqual([expect.objectContaining({ menu: 'done', completed: 1, abandoned: 0 })]);
    expect((await get(`/api/dashboard/appDashboard/${appId}?environment=live`)).json().data).toEqual(live);

    const test = (await get(`/api/dashboard/appDashboard/${appId}?environment=test`)).json().data;
    expect(test).toMatchObject({ connectedSessions: 1, transactions: 1, totalUsers: 2, menuCount: 2 });
    expect(test.sessionsByHour.map((h: { network: string }) => h.network).sort()).toEqual(['62002', 'MTN']);
    expect(test.menuOutcomes).toEqual([expect.objectContaining({ menu: 'done', completed: 2, abandoned: 0 })]);

    const bad = await get(`/api/dashboard/appDashboard/${appId}?environment=staging`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/environment/i);
  });

  it('says where each session came from in the lists, the live view and the search', async () => {
    const completed = bySession((await get(`/dashboard/completedSessions/${appId}`)).json().data);
    expect(completed['live-1']).toMatchObject({ environment: 'live', gateway: 'africastalking', network: '62001' });
    expect(completed['test-1']).toMatchObject({ environment: 'test', gateway: 'africastalking', network: '62002' });
    expect(completed['emu-1']).toMatchObject({ environment: 'test', gateway: 'emulator', network: 'MTN' });

    const live = bySession((await get(`/dashboard/liveView/${appId}`)).json().data);
    expect(live['live-open']).toMatchObject({ environment: 'live', gateway: 'africastalking' });
    expect(live['emu-open']).toMatchObject({ environment: 'test', gateway: 'emulator' });

    const rows = (await post('/dashboard/search', { appId, searchBy: 'word', searchQuery: '2332', flatResults: false })).json()
      .data as Array<{ mobile: string }>;
    expect(Object.fromEntries(rows.map((r) => [r.mobile, r]))).toMatchObject({
      '233240000001': { environment: 'live', gateway: 'africastalking' },
      '233240000003': { environment: 'test', gateway: 'africastalking' },
      '233200000077': { environment: 'test', gateway: 'emulator' },
    });
  });

  it('names networks in the flat search and the exported file, with the code and the source in their own columns', async () => {
    const flat = (await post('/dashboard/search', { appId, searchBy: 'word', searchQuery: '2332', flatResults: true })).json().data;
    expect(flat.headers).toEqual(['mobile', 'network', 'networkCode', 'date', 'source', 'pick', 'pickLabel']);
    expect(Object.fromEntries(flat.rows.map((r: Record<string, string>) => [r.mobile, [r.network, r.networkCode, r.source]]))).toEqual({
      '233240000001': ['MTN', '62001', 'Live'],
      '233240000003': ['Telecel', '62002', 'Test URL'],
      '233200000077': ['MTN', '', 'Emulator'],
    });

    const file = await post('/dashboard/search/export', { appId, searchBy: 'word', searchQuery: '2332', flatResults: true, format: 'csv' });
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('"mobile","network","networkCode","date","source","pick","pickLabel"');
    expect(lines.find((l) => l.startsWith('"233240000003"'))).toMatch(/^"233240000003","Telecel","62002","[^"]+","Test URL","1","Rice"$/);
  });
});
