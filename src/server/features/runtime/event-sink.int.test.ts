import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import { appLogs, sessionRecords } from '../../../db/schema';
import { describeDb, createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db';
import { createEventSink, type EventRecord } from './event-sink';

const log = pino({ level: 'silent' });
const logLine = (appId: string, level: string, i: number): EventRecord => ({
  table: 'logs',
  row: { appId, level, type: 'menu_shown', message: `line ${i}`, createdAt: new Date() },
});
const session = (appId: string, i: number): EventRecord => ({
  table: 'sessions',
  row: {
    appId,
    sessionId: `s${i}`,
    environment: 'test',
    gateway: 'emulator',
    mobile: '1',
    network: 'MTN',
    serviceCode: '*1#',
    status: 'completed',
    inputs: { a: String(i) },
    hopCount: 1,
    startedAt: new Date(),
    endedAt: new Date(),
  },
});

describeDb('event sink', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(() => testDb.close());

  const countRows = async (table: typeof appLogs | typeof sessionRecords, appId: string) =>
    (await testDb.database.db.select({ n: count() }).from(table).where(eq(table.appId, appId)))[0]!.n;

  it('writes in batches and drains everything on close', async () => {
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 100 });
    for (let i = 0; i < 250; i++) sink.push(logLine('drain', 'info', i));
    for (let i = 0; i < 5; i++) sink.push(session('drain', i));
    await sink.close();
    expect(await countRows(appLogs, 'drain')).toBe(250);
    expect(await countRows(sessionRecords, 'drain')).toBe(5);
    expect(sink.stats()).toMatchObject({ buffered: 0, written: 255, shed: 0 });
  });

  it('sheds the oldest debug and info lines first when the buffer is full, never sessions or errors', async () => {
    // A buffer of 10 sheddable lines and a flush that never comes until close: the store "cannot keep up".
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000, maxBuffered: 10 });
    for (let i = 0; i < 50; i++) sink.push(logLine('shed', i % 2 ? 'debug' : 'info', i));
    for (let i = 0; i < 20; i++) sink.push(logLine('shed', 'error', i));
    for (let i = 0; i < 20; i++) sink.push(session('shed', i));
    expect(sink.stats().shed).toBe(40);
    await sink.close();
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'shed'));
    expect(rows.filter((r) => r.level === 'error')).toHaveLength(20);
    expect(rows.filter((r) => r.level !== 'error').map((r) => r.message)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${40 + i}`));
    expect(await countRows(sessionRecords, 'shed')).toBe(20);
  });

  it('writes kept and sheddable lines merged in arrival order, across batches', async () => {
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 7 });
    const levels = ['info', 'error', 'debug', 'system', 'info', 'info', 'error'];
    for (let i = 0; i < 40; i++) sink.push(logLine('order', levels[i % levels.length]!, i));
    await sink.close();
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'order')).orderBy(appLogs.id);
    expect(rows.map((r) => r.message)).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i}`));
    expect(rows.map((r) => r.level)).toEqual(Array.from({ length: 40 }, (_, i) => levels[i % levels.length]));
  });

  it("one tenant's unstorable row (NUL in text or JSON) costs only that row, never the batch it shares", async () => {
    // A script can log or return "\u0000"; PostgreSQL's text and jsonb refuse it.
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000 });
    for (let i = 0; i < 20; i++) sink.push(logLine('victim', 'info', i));
    sink.push({
      table: 'logs',
      row: { appId: 'poison', level: 'info', type: 'action_log', message: 'a\u0000b', data: { result: 'x\u0000y' }, createdAt: new Date() },
    });
    for (let i = 20; i < 40; i++) sink.push(logLine('victim', 'info', i));
    sink.push({ ...session('poison', 1), row: { ...session('poison', 1).row, inputs: { a: 'x\u0000' } } } as EventRecord);
    sink.push(session('victim', 1));
    await sink.close();
    expect(await countRows(appLogs, 'victim')).toBe(40);
    expect(await countRows(sessionRecords, 'victim')).toBe(1);
    // The poisoned rows are kept with the NUL dropped, so the session record stays whole.
    const [poisoned] = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'poison'));
    expect(poisoned?.message).toBe('ab');
    expect(await countRows(sessionRecords, 'poison')).toBe(1);
    expect(sink.stats()).toMatchObject({ buffered: 0, written: 43, failedBatches: 0 });
  });

  it('stores every value as pushed: tabs, newlines, backslashes, \\N and \\. as text, emoji, nested JSON, numbers, nulls', async () => {
    const texts = ['a\tb', 'line 1\nline 2\r\n', 'C:\\path\\N', '\\N', '\\.', 'Ghana 🇬🇭 café', '', ' leading and trailing '];
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000 });
    for (const [i, text] of texts.entries()) {
      sink.push({
        table: 'logs',
        row: {
          appId: 'values',
          sessionId: `s${i}`,
          level: 'info',
          type: 'action_logged',
          menu: text,
          message: text,
          data: { text, list: [1, 2.5, true, null, { deep: text }], n: i },
          createdAt: new Date(Date.UTC(2026, 10, 26, 12, 0, i, 123)),
        },
      });
    }
    sink.push({
      table: 'logs',
      row: {
        appId: 'values',
        sessionId: 'null-data',
        level: 'system',
        type: 'session_started',
        message: 'm',
        data: null,
        createdAt: new Date(),
      },
    });
    sink.push({
      ...session('values', 99),
      row: { ...session('values', 99).row, inputs: { amount: '50', note: 'tab\there', quote: 'say "hi"' }, hopCount: 7 },
    } as EventRecord);
    await sink.close();
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'values')).orderBy(appLogs.id);
    expect(rows.slice(0, texts.length).map((r) => [r.message, r.menu, r.data])).toEqual(
      texts.map((text, i) => [text, text, { text, list: [1, 2.5, true, null, { deep: text }], n: i }]),
    );
    expect(rows[1]!.createdAt.toISOString()).toBe('2026-11-26T12:00:01.123Z');
    expect(rows.at(-1)).toMatchObject({ sessionId: 'null-data', data: null, environment: '', caller: null });
    const [record] = await testDb.database.db.select().from(sessionRecords).where(eq(sessionRecords.appId, 'values'));
    expect(record).toMatchObject({ inputs: { amount: '50', note: 'tab\there', quote: 'say "hi"' }, hopCount: 7 });
  });

  it('a lone surrogate in text or JSON is stored as U+FFFD, the rest of the row as it was', async () => {
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000 });
    sink.push({
      table: 'logs',
      row: {
        appId: 'surrogate',
        level: 'info',
        type: 'action_logged',
        message: 'x\ud800y',
        data: { v: 'p\udc00q', ok: '😀' },
        createdAt: new Date(),
      },
    });
    await sink.close();
    const [row] = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'surrogate'));
    expect(row).toMatchObject({ message: 'x\ufffdy', data: { v: 'p\ufffdq', ok: '😀' } });
    expect(sink.stats()).toMatchObject({ written: 1, failedBatches: 0 });
  });

  it('when the database refuses a batch for its data, its rows are written one by one and only the refused row is lost', async () => {
    // The real database, with one row it refuses as data (as a constraint or a value out of range would).
    const refusing = {
      db: testDb.database.db,
      copyRows: (table: string, columns: string[], text: string) =>
        text.includes('refuse me')
          ? Promise.reject(Object.assign(new Error('value too long for type character varying(10)'), { code: '22001' }))
          : testDb.database.copyRows(table, columns, text),
    };
    const sink = createEventSink(refusing, log, { flushEveryMs: 60_000, flushAt: 100_000 });
    for (let i = 0; i < 10; i++) sink.push(logLine('refused', 'info', i));
    sink.push({ table: 'logs', row: { appId: 'refused', level: 'info', type: 'menu_shown', message: 'refuse me', createdAt: new Date() } });
    for (let i = 10; i < 20; i++) sink.push(logLine('refused', 'info', i));
    await sink.close();
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'refused')).orderBy(appLogs.id);
    expect(rows.map((r) => r.message)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`));
    expect(sink.stats()).toMatchObject({ buffered: 0, written: 20, failedBatches: 1 });
  });

  it('holds new hops while the writer is behind, and lets them go once it is back under half', async () => {
    const sink = createEventSink(testDb.database, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 1, holdAt: 100 });
    for (let i = 0; i < 99; i++) sink.push(logLine('hold', 'info', i));
    expect(sink.whenCaughtUp('')).toBeNull();
    sink.push(logLine('hold', 'info', 99));
    const held = sink.whenCaughtUp('');
    expect(held).toBeInstanceOf(Promise);
    // The writer has taken its first batch (20 rows: up to twenty times batchSize when more wait); a hop asking
    // while rows still come in waits for the same catch-up.
    for (let i = 100; i < 130; i++) sink.push(logLine('hold', 'info', i));
    expect(sink.whenCaughtUp('')).toBe(held);
    await held;
    expect(sink.stats().buffered).toBeLessThanOrEqual(50);
    expect(sink.stats()).toMatchObject({ holds: 1, shed: 0 });
    expect(sink.whenCaughtUp('')).toBeNull();
    await sink.close();
    expect(await countRows(appLogs, 'hold')).toBe(130);
  });

  it('a lost connection costs a retried batch: its rows are kept and written once, whole, never row by row', async () => {
    // The errors a failover, a restart or a network blip give a COPY: pg's and the socket's.
    const failures = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ];
    const sizes: number[] = [];
    const blinking = {
      db: testDb.database.db,
      copyRows: (table: string, columns: string[], text: string) => {
        sizes.push(text.split('\n').length - 1);
        const failure = failures.shift();
        return failure ? Promise.reject(failure) : testDb.database.copyRows(table, columns, text);
      },
    };
    const lines: Array<{ msg: string }> = [];
    const captured = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const sink = createEventSink(blinking, captured, { flushEveryMs: 5, flushAt: 100_000 });
    for (let i = 0; i < 30; i++) sink.push(logLine('blink', 'info', i));
    for (let i = 0; i < 10; i++) sink.push(session('blink', i));
    await sink.close();
    expect(failures).toHaveLength(0);
    // Every try carried the whole table's rows: none was written alone.
    expect(sizes.every((n) => n > 1)).toBe(true);
    expect(lines.map((l) => l.msg)).not.toContain('event batch refused; writing its rows one by one');
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'blink')).orderBy(appLogs.id);
    expect(rows.map((r) => r.message)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${i}`));
    const records = await testDb.database.db.select().from(sessionRecords).where(eq(sessionRecords.appId, 'blink'));
    expect(records.map((r) => r.sessionId).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`).sort());
    expect(sink.stats()).toMatchObject({ buffered: 0, written: 40, failedBatches: 0, retries: 5 });
  });

  it('while the database is down, session records are kept and hops held past the bound; debug and info lines are shed', async () => {
    let isDown = true;
    const down = {
      db: testDb.database.db,
      copyRows: (table: string, columns: string[], text: string) =>
        isDown
          ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
          : testDb.database.copyRows(table, columns, text),
    };
    const lines: Array<{ level: number; msg: string }> = [];
    const captured = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const sink = createEventSink(down, captured, { flushEveryMs: 5, flushAt: 100_000, holdAt: 10, maxBuffered: 20 });
    for (let i = 0; i < 5; i++) sink.push(session('down', i));
    await sink.flush();
    expect(sink.stats()).toMatchObject({ buffered: 5, retries: 1, failedBatches: 0 });
    // Debug and info lines make way past their bound; they never hold a hop.
    for (let i = 0; i < 30; i++) sink.push(logLine('down', 'info', i));
    expect(sink.stats().shed).toBeGreaterThan(0);
    expect(sink.whenCaughtUp('')).toBeNull();
    // Session records are never shed: at the bound, new hops wait for the database to come back.
    for (let i = 5; i < 10; i++) sink.push(session('down', i));
    const held = sink.whenCaughtUp('');
    expect(held).toBeInstanceOf(Promise);
    await sink.flush();
    expect(sink.whenCaughtUp('')).toBe(held);
    isDown = false;
    await held;
    await sink.close();
    expect(await countRows(sessionRecords, 'down')).toBe(10);
    expect(sink.stats()).toMatchObject({ buffered: 0, failedBatches: 0, holds: 1 });
    // One warning for the outage, not one a try or a row.
    expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([
      'the database did not take event rows; they are kept and tried again',
    ]);
  });

  it("holds the hops of the account whose rows fill the buffer, not another account's, until the hard cap", async () => {
    // The writer is stuck (a database that does not answer) until the test lets it go.
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const stuck = {
      db: testDb.database.db,
      copyRows: async (...args: Parameters<typeof testDb.database.copyRows>) => {
        await blocked;
        return testDb.database.copyRows(...args);
      },
    };
    const sink = createEventSink(stuck, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 1, holdAt: 100 });
    for (let i = 0; i < 95; i++) sink.push(logLine('flood', 'info', i), 'owner-flood');
    for (let i = 0; i < 5; i++) sink.push(session('quiet', i), 'owner-quiet');
    // 100 rows wait, 95 of them the flood's: a fair share is 50, and the quiet account's hop goes on.
    expect(sink.whenCaughtUp('owner-quiet')).toBeNull();
    const held = sink.whenCaughtUp('owner-flood');
    expect(held).toBeInstanceOf(Promise);
    // The writer took its first batch (20 of the flood's rows) and is stuck in it; a new account is not held.
    expect(sink.whenCaughtUp('owner-new')).toBeNull();
    // Rows with no account (a sweep's) are nobody's hops to hold, but count towards the cap: 120 wait, of which
    // the quiet account's 5 are under a third.
    for (let i = 0; i < 40; i++) sink.push(session('swept', i));
    expect(sink.whenCaughtUp('owner-quiet')).toBeNull();
    // Past twice holdAt every account waits: memory stays bounded however the flood is spread.
    for (let i = 5; i < 100; i++) sink.push(session('quiet', i), 'owner-quiet');
    expect(sink.whenCaughtUp('owner-quiet')).toBe(held);
    expect(sink.stats().holds).toBe(1);
    unblock();
    await held;
    expect(sink.whenCaughtUp('owner-flood')).toBeNull();
    await sink.close();
    expect(await countRows(appLogs, 'flood')).toBe(95);
    expect(await countRows(sessionRecords, 'quiet')).toBe(100);
    expect(await countRows(sessionRecords, 'swept')).toBe(40);
  });
});
