import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { appLogs, type HopLine, sessionInputs } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedTwoMenus } from '../../../../tests/support/seed-app';
import { sweepExpiredRows } from '../retention/expiry';
import { findInputsGiven } from '../../core/log-rows';

const DAY = 86_400_000;

type StreamLine = { id: number; logLevel: string; message: string; timestamp: string; sessionId: string; menu: string | null };
type SearchLine = { id: number; time: string; logLevel: string; message: string; pluginActionMenu: string };

/** A hop's row as the runtime writes it: its lines (`ms` after the row's time) and the inputs it stored. */
const hopRow = (appId: string, sessionId: string, createdAt: Date, lines: HopLine[], inputs: Array<[string, string]> | null = null) => ({
  appId,
  sessionId,
  environment: 'test',
  level: 'hop',
  type: 'hop',
  message: 'hop',
  lines,
  inputs,
  createdAt,
});

/** A row of the layout before hop rows: one line in the columns. */
const lineRow = (appId: string, sessionId: string, createdAt: Date, level: string, type: string, message: string, menu?: string) => ({
  appId,
  sessionId,
  environment: 'test',
  level,
  type,
  message,
  menuId: menu ? `id-${menu}` : null,
  menu: menu ?? null,
  createdAt,
});

describeDb('a hop keeps one row: its lines and inputs, read back as lines', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const { post } = createApiClient(t, owner);
  let appId = '';
  const at = new Date('2026-11-27T10:00:00.000Z');
  const ms = (n: number) => new Date(at.getTime() + n);

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    // An older session in the layout before hop rows: a line a row, its input in session_inputs.
    await t.db.insert(appLogs).values(lineRow(appId, 'old', ms(-5000), 'system', 'session_started', 'Session started for old'));
    await t.db.insert(appLogs).values(lineRow(appId, 'old', ms(-5000), 'info', 'menu_shown', 'Showed home (old)', 'home'));
    await t.db.insert(sessionInputs).values({ appId, sessionId: 'old', fieldName: 'home', fieldValue: '1', createdAt: ms(-4000) });
    await t.db.insert(appLogs).values(lineRow(appId, 'old', ms(-4000), 'system', 'session_ended', 'Session ended (old)', 'home'));
    // Two hops of session A, and one of session B that started between A's first hop's lines (its action took 30 ms).
    await t.db.insert(appLogs).values(
      hopRow(appId, 'A', ms(0), [
        { level: 'system', type: 'session_started', message: 'Session started for A' },
        {
          level: 'info',
          type: 'action_started',
          menuId: 'id-home',
          menu: 'home',
          plugin: 'javascript',
          action: 'quote',
          message: 'A quote',
        },
        {
          level: 'error',
          type: 'action_failed',
          menuId: 'id-home',
          menu: 'home',
          plugin: 'javascript',
          action: 'quote',
          message: 'A failed',
          ms: 30,
        },
        { level: 'info', type: 'menu_shown', menuId: 'id-home', menu: 'home', message: 'Showed home', data: { page: 0 }, ms: 30 },
      ]),
    );
    await t.db
      .insert(appLogs)
      .values(hopRow(appId, 'B', ms(10), [{ level: 'system', type: 'session_started', message: 'Session started for B' }]));
    await t.db.insert(appLogs).values(
      hopRow(
        appId,
        'A',
        ms(1000),
        [
          {
            level: 'info',
            type: 'input_received',
            menuId: 'id-home',
            menu: 'home',
            message: 'Received input on home',
            data: { input: '2' },
          },
          {
            level: 'info',
            type: 'navigated',
            menuId: 'id-home',
            menu: 'home',
            message: 'Rule 1 went to done',
            data: { rule: 0, toId: 'id-done' },
          },
          { level: 'system', type: 'session_ended', menuId: 'id-done', menu: 'done', message: 'Session ended for A' },
        ],
        [
          ['home', '2'],
          ['homeLabel', 'Data'],
        ],
      ),
    );
  });

  it('streams every line in the order written, old rows first; a cursor inside a row gives the rest of it', async () => {
    const all = (await post('/streamLogs', { appId, timeStamp: at.getTime() - 60_000 })).json().data as StreamLine[];
    expect(all.map((l) => l.message)).toEqual([
      'Session started for old',
      'Showed home (old)',
      'Session ended (old)',
      'Session started for A',
      'A quote',
      'A failed',
      'Showed home',
      'Session started for B',
      'Received input on home',
      'Rule 1 went to done',
      'Session ended for A',
    ]);
    // Ids grow in that order, and a line's time is its own (the failure came 30 ms after the hop started).
    expect(all.map((l) => l.id)).toEqual([...all.map((l) => l.id)].sort((a, b) => a - b));
    expect(new Set(all.map((l) => l.id)).size).toBe(all.length);
    expect(all.find((l) => l.message === 'A failed')!.timestamp).toBe(ms(30).toISOString());
    // The emulator's next poll from the second line of A's first hop.
    const rest = (await post('/streamLogs', { appId, afterId: all[4]!.id })).json().data as StreamLine[];
    expect(rest.map((l) => l.message)).toEqual(all.slice(5).map((l) => l.message));
    // After a time stamp: the lines after it, even those of a row that started before it.
    const later = (await post('/streamLogs', { appId, timeStamp: ms(20).toISOString() })).json().data as StreamLine[];
    expect(later.map((l) => l.message)).toEqual([
      'A failed',
      'Showed home',
      'Received input on home',
      'Rule 1 went to done',
      'Session ended for A',
    ]);
    // One session's lines only.
    const onlyB = (await post('/streamLogs', { appId, afterId: 0, sessionId: 'B' })).json().data as StreamLine[];
    expect(onlyB.map((l) => l.message)).toEqual(['Session started for B']);
  });

  it('searches lines by time, then by the order written, and filters by level, menu and plugin inside a row', async () => {
    const lines = (await post('/actionlogs/searchLogs', { appId })).json().data as SearchLine[];
    // B's start (10 ms) falls between A's first lines (0 ms) and those its action made 30 ms later.
    expect(lines.map((l) => l.message)).toEqual([
      'Session started for old',
      'Showed home (old)',
      'Session ended (old)',
      'Session started for A',
      'A quote',
      'Session started for B',
      'A failed',
      'Showed home',
      'Received input on home',
      'Rule 1 went to done',
      'Session ended for A',
    ]);
    const errors = (await post('/actionlogs/searchLogs', { appId, filterByLevel: true, level: 'error' })).json().data as SearchLine[];
    expect(errors.map((l) => [l.message, l.pluginActionMenu])).toEqual([['A failed', 'javascript:quote:home']]);
    const home = (await post('/actionlogs/searchLogs', { appId, filterByMenu: true, menuId: 'id-home' })).json().data as SearchLine[];
    expect(home.map((l) => l.message)).toEqual([
      'Showed home (old)',
      'Session ended (old)',
      'A quote',
      'A failed',
      'Showed home',
      'Received input on home',
      'Rule 1 went to done',
    ]);
    const scripts = (await post('/actionlogs/searchLogs', { appId, filterByPlugin: true, plugin: 'javascript' })).json()
      .data as SearchLine[];
    expect(scripts.map((l) => l.message)).toEqual(['A quote', 'A failed']);
  });

  it('gives the inputs as given from both layouts, and the path from the lines', async () => {
    const inputs = (await post('/debug/userInputs', { appId, sessionId: 'A' })).json().data;
    expect(inputs).toEqual([
      { fieldName: 'home', fieldValue: '2', time: ms(1000).toISOString() },
      { fieldName: 'homeLabel', fieldValue: 'Data', time: ms(1000).toISOString() },
    ]);
    const old = (await post('/debug/userInputs', { appId, sessionId: 'old' })).json().data;
    expect(old).toEqual([{ fieldName: 'home', fieldValue: '1', time: ms(-4000).toISOString() }]);
    const path = (await post('/debug/sessionPath', { appId, sessionId: 'A' })).json().data;
    expect(path).toEqual({
      steps: [
        { menuId: 'id-home', menu: 'home', time: ms(30).toISOString() },
        { menuId: 'id-done', menu: 'done', time: ms(1000).toISOString() },
      ],
      rules: [{ menuId: 'id-home', rule: 0, toId: 'id-done' }],
      ended: true,
    });
  });

  it('clears the logs and says how many lines went', async () => {
    const other = await seedApp(t, owner.auth);
    await t.db.insert(appLogs).values(
      hopRow(other, 'C', at, [
        { level: 'info', type: 'x', message: 'one' },
        { level: 'info', type: 'x', message: 'two' },
      ]),
    );
    await t.db.insert(appLogs).values(lineRow(other, 'C', at, 'info', 'x', 'three'));
    await t.db.insert(appLogs).values(hopRow(other, 'C', at, [{ level: 'info', type: 'x', message: 'four' }], [['pick', '1']]));
    const cleared = (await post('/actionlogs/clearLogs', { appId: other })).json();
    expect(cleared).toMatchObject({ status: '00', message: 'Logs cleared successfully (4 lines)' });
    expect((await post('/actionlogs/searchLogs', { appId: other })).json().data).toEqual([]);
    // The inputs given stay, as they did when they had a table of their own.
    const inputs = (await post('/debug/userInputs', { appId: other, sessionId: 'C' })).json().data;
    expect(inputs).toEqual([{ fieldName: 'pick', fieldValue: '1', time: at.toISOString() }]);
  });
});

describeDb('a shop hop through the runtime writes one row', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const { post } = createApiClient(t, owner);

  it('keeps each hop in one app_logs row, its inputs with it, nothing in session_inputs', async () => {
    const appId = await seedApp(t, owner.auth);
    const name = { userDefinedName: 'name', displayText: 'Pick\n1. Kwame\n2. Akosua' };
    const done = { userDefinedName: 'done', displayText: 'Thanks {{ session.inputs.nameLabel }}' };
    await seedTwoMenus(t, owner.auth, appId, name, done, { operator: 'valueIn', compareVal: '1,2' });
    const hop = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: { sessionId: 'shop-1', serviceCode: '*920*55#', phoneNumber: '233241000111', networkCode: '62001', text },
      });
    expect((await hop('')).body).toContain('Kwame');
    expect((await hop('2')).body).toContain('Thanks Akosua');
    await t.app.runtime.flushEvents();
    const rows = await t.db
      .select()
      .from(appLogs)
      .where(and(eq(appLogs.appId, appId), eq(appLogs.sessionId, 'shop-1')))
      .orderBy(appLogs.id);
    expect(rows.map((r) => [r.type, r.lines?.map((l) => l.type), r.inputs])).toEqual([
      ['hop', ['session_started', 'menu_shown'], null],
      [
        'hop',
        ['input_received', 'navigated', 'session_ended'],
        [
          ['name', '2'],
          ['nameLabel', 'Akosua'],
        ],
      ],
    ]);
    expect(await t.db.select().from(sessionInputs).where(eq(sessionInputs.appId, appId))).toEqual([]);
    const lines = (await post('/streamLogs', { appId, afterId: 0 })).json().data as StreamLine[];
    expect(lines.map((l) => l.message)).toEqual([
      'Session started for 233241000111',
      'Showed name',
      'Received input on name',
      'Rule 1 went to done',
      'Session ended',
    ]);
  });
});

describeDb("a hop's lines and inputs each expire with their own kind", () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 365, DATA_RETENTION_INTERVAL_MS: 0 });
  // One account keeps lines 7 days and inputs 30, the other the other way round.
  const shortLogs = useUser(t);
  const shortInputs = useUser(t);

  const seed = async (t: TestApp, appId: string) => {
    const now = t.app.ctx.now().getTime();
    for (const day of [40, 20, 3]) {
      const at = new Date(now - day * DAY);
      const sessionId = `s-${day}`;
      await t.db
        .insert(appLogs)
        .values(hopRow(appId, sessionId, at, [{ level: 'info', type: 'menu_shown', message: `shown ${day}` }], [['home', String(day)]]));
      await t.db.insert(appLogs).values(hopRow(appId, sessionId, at, [{ level: 'info', type: 'menu_shown', message: `again ${day}` }]));
      await t.db.insert(appLogs).values(lineRow(appId, sessionId, at, 'info', 'menu_shown', `old ${day}`));
    }
  };
  const linesOf = async (t: TestApp, appId: string) =>
    ((await createApiClient(t, shortLogs).post('/actionlogs/searchLogs', { appId })).json().data as SearchLine[]).map((l) => l.message);
  const inputsOf = async (appId: string) =>
    (await findInputsGiven(t.db, appId, ['s-40', 's-20', 's-3'])).map((i) => `${i.sessionId}:${i.fieldValue}`);

  it('lines kept 7 days and inputs 30: older hops keep their inputs only, until those expire too', async () => {
    const appId = await seedApp(t, shortLogs.auth);
    expect((await createApiClient(t, shortLogs).post('/api/account/retention', { days: { logs: 7, inputs: 30 } })).statusCode).toBe(200);
    await seed(t, appId);
    await sweepExpiredRows(t.app.ctx);
    expect(await linesOf(t, appId)).toEqual(['shown 3', 'again 3', 'old 3']);
    expect(await inputsOf(appId)).toEqual(['s-20:20', 's-3:3']);
    // A row left with inputs only: nothing else of it is left.
    const [kept] = await t.db
      .select()
      .from(appLogs)
      .where(and(eq(appLogs.appId, appId), eq(appLogs.sessionId, 's-20')));
    expect(kept).toMatchObject({ lines: [], inputs: [['home', '20']] });
    expect(
      await t.db
        .select()
        .from(appLogs)
        .where(and(eq(appLogs.appId, appId), eq(appLogs.sessionId, 's-40'))),
    ).toEqual([]);
  });

  it('inputs kept 7 days and lines 30: older hops keep their lines without their inputs', async () => {
    const appId = await seedApp(t, shortInputs.auth);
    const api = createApiClient(t, shortInputs);
    expect((await api.post('/api/account/retention', { days: { logs: 30, inputs: 7 } })).statusCode).toBe(200);
    await seed(t, appId);
    await sweepExpiredRows(t.app.ctx);
    const lines = ((await api.post('/actionlogs/searchLogs', { appId })).json().data as SearchLine[]).map((l) => l.message);
    expect(lines).toEqual(['shown 20', 'again 20', 'old 20', 'shown 3', 'again 3', 'old 3']);
    expect(await inputsOf(appId)).toEqual(['s-3:3']);
  });
});
