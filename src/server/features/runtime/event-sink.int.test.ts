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
    const sink = createEventSink(testDb.database.db, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 100 });
    for (let i = 0; i < 250; i++) sink.push(logLine('drain', 'info', i));
    for (let i = 0; i < 5; i++) sink.push(session('drain', i));
    await sink.close();
    expect(await countRows(appLogs, 'drain')).toBe(250);
    expect(await countRows(sessionRecords, 'drain')).toBe(5);
    expect(sink.stats()).toMatchObject({ buffered: 0, written: 255, shed: 0 });
  });

  it('sheds the oldest debug and info lines first when the buffer is full, never sessions or errors', async () => {
    // A buffer of 10 sheddable lines and a flush that never comes until close: the store "cannot keep up".
    const sink = createEventSink(testDb.database.db, log, { flushEveryMs: 60_000, flushAt: 100_000, maxBuffered: 10 });
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
    const sink = createEventSink(testDb.database.db, log, { flushEveryMs: 60_000, flushAt: 100_000, batchSize: 7 });
    const levels = ['info', 'error', 'debug', 'system', 'info', 'info', 'error'];
    for (let i = 0; i < 40; i++) sink.push(logLine('order', levels[i % levels.length]!, i));
    await sink.close();
    const rows = await testDb.database.db.select().from(appLogs).where(eq(appLogs.appId, 'order')).orderBy(appLogs.id);
    expect(rows.map((r) => r.message)).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i}`));
    expect(rows.map((r) => r.level)).toEqual(Array.from({ length: 40 }, (_, i) => levels[i % levels.length]));
  });

  it("one tenant's unstorable row (NUL in text or JSON) costs only that row, never the batch it shares", async () => {
    // A script can log or return "\u0000"; PostgreSQL's text and jsonb refuse it.
    const sink = createEventSink(testDb.database.db, log, { flushEveryMs: 60_000, flushAt: 100_000 });
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
});
