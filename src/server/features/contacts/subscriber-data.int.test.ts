import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  auditLog,
  contacts,
  inboxConversations,
  mediaFiles,
  sessionInputs,
  sessionRecords,
  smsMessages,
  smsReplies,
  subscriberErasures,
  transactions,
  webhookDeliveries,
  whatsappMessages,
} from '../../../db/schema';
import { SUBSCRIBER_DATA_MESSAGES, SUBSCRIBER_ERASURE_BATCH } from '../../../shared/api/subscriber-data.schema';
import { dialTestUrl } from '../../../../tests/support/dial';
import { customerWrites, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';
import { seedApp, seedTwoMenus } from '../../../../tests/support/seed-app';
import { createApiClient, type SeededUser, seedUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { ERASURE_STEPS, toSubscriberTarget } from './subscriber-erasure';
import { SUBSCRIBER_DATA_RATE_LIMIT } from './subscriber-data.routes';
import { waitForSubscriberErasures } from './subscriber-data.service';

/**
 * A number's subscriber data on request (docs/security.md, "Subscriber data"): counted, exported as one file and
 * erased, in one account or, for a super admin, in every account; another account's rows of the same number stay.
 */

const NUMBER = '+233241000009';
/** What every stored form of the number holds (E.164, without +, national with and without 0). */
const DIGITS = '241000009';

/** Rows of every table of the database whose text holds `digits`, by table (the erasure's grep). */
async function findTablesHolding(t: TestApp, digits: string): Promise<Record<string, number>> {
  const tables = (await t.db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: Array<{ name: string }> };
  const found: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = (await t.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(name)} as t where t::text like ${`%${digits}%`}`,
    )) as unknown as { rows: Array<{ n: number }> };
    const n = Number(result.rows[0]?.n ?? 0);
    if (n > 0) found[name] = n;
  }
  return found;
}

async function seedAskApp(t: TestApp, user: SeededUser, name: string): Promise<string> {
  const appId = await seedApp(t, user.auth, { country: 'ghana', appName: name });
  await seedTwoMenus(
    t,
    user.auth,
    appId,
    { userDefinedName: 'ask', displayText: 'Name?' },
    { userDefinedName: 'bye', displayText: 'Bye' },
    { operator: 'always', compareVal: '' },
  );
  return appId;
}

/** A file the number sent a bot, as the media store records it (its bytes are not needed here). */
const inboundFile = (ownerId: string, appId: string, msisdn: string) => ({
  ownerId,
  appId,
  kind: 'image' as const,
  mimeType: 'image/png',
  size: 3,
  sha256: 'abc',
  fileName: 'me.png',
  caption: 'my face',
  source: 'inbound' as const,
  backend: 'database' as const,
  storageKey: `test/${randomUUID()}`,
  msisdn,
});

describeDb('subscriber data: one number in one account and in every account', () => {
  const t = useTestApp();
  const owner = useUser(t, { roles: ['CHATBOT'] });
  const other = useUser(t);
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
  let appA: string;
  let appB: string;
  let bot: LinkedBot;
  let otherApp: string;

  const summaryOf = async (user: SeededUser, path = '/api/subscriber-data/summary') => {
    const res = await createApiClient(t, user).post(path, { msisdn: NUMBER });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { msisdn: string; counts: Record<string, number>; liveSessions: number };
  };
  const erase = async (user: SeededUser, body: Record<string, unknown>, path = '/api/subscriber-data/erasures') =>
    createApiClient(t, user).post(path, body);

  beforeAll(async () => {
    appA = await seedAskApp(t, owner, 'Airtime');
    appB = await seedAskApp(t, owner, 'Survey');
    otherApp = await seedAskApp(t, other, 'Elsewhere');
    // The number on two apps (once as the gateway sends it, once national), a bot, and another account's app.
    await dialTestUrl(t, appA, 'S-A', '233241000009', '');
    await dialTestUrl(t, appA, 'S-A', '233241000009', 'Yaw');
    await dialTestUrl(t, appB, 'S-B', '0241000009', '');
    await dialTestUrl(t, appB, 'S-B', '0241000009', 'Yaw Mensah');
    await dialTestUrl(t, otherApp, 'S-O', '233241000009', '');
    await dialTestUrl(t, otherApp, 'S-O', '233241000009', 'Yaw Other');
    bot = await seedHandoffBot(t, owner);
    await customerWrites(t, bot, '233241000009', 'hi');
    await customerWrites(t, bot, '233241000009', '2');
    await customerWrites(t, bot, '233241000009', 'Where is my parcel?');
    // Another caller of the owner's, who must stay as they are.
    await dialTestUrl(t, appA, 'S-X', '233241000010', '');
    await dialTestUrl(t, appA, 'S-X', '233241000010', 'Esi');
    await t.app.runtime.flushEvents();

    const at = new Date();
    await t.db.insert(smsMessages).values([
      { appId: appA, ownerId: owner.user.id, sessionId: 'S-A', recipient: '0241000009', message: 'Hello Yaw', status: 'SENT' },
      { appId: otherApp, ownerId: other.user.id, sessionId: 'S-O', recipient: '233241000009', message: 'Hi Yaw', status: 'SENT' },
    ]);
    await t.db
      .insert(smsReplies)
      .values({ ownerId: owner.user.id, msisdn: NUMBER, text: 'Yes please', provider: 'outbox', providerMessageId: randomUUID() });
    await t.db.insert(transactions).values({
      reference: `ref-${randomUUID()}`,
      transactionType: 'app_payment',
      amount: '5.00',
      status: 'SUCCESS',
      appId: appA,
      metadata: { mobile: '233241000009', provider: 'sandbox', note: 'Yaw Mensah' },
    });
    await t.db.insert(webhookDeliveries).values({
      appId: appA,
      eventId: `evt_${randomUUID()}`,
      eventType: 'payment.succeeded',
      data: { mobile: '233241000009', amount: 5 },
      occurredAt: at,
      status: 'delivered',
    });
    await t.db.insert(mediaFiles).values([inboundFile(owner.user.id, bot.appId, NUMBER), inboundFile(other.user.id, otherApp, NUMBER)]);
  });

  it('counts what the account keeps about the number, however it was typed, and nothing of another account', async () => {
    const summary = await summaryOf(owner);
    expect(summary.msisdn).toBe(NUMBER);
    expect(summary.liveSessions).toBe(0);
    expect(summary.counts).toMatchObject({ contacts: 1, sms: 1, smsReplies: 1, payments: 1, media: 1, inboxConversations: 1, windows: 1 });
    // Two USSD sessions and the bot's.
    expect(summary.counts.sessions).toBe(3);
    expect(summary.counts.inputs).toBeGreaterThanOrEqual(3);
    expect(summary.counts.logs).toBeGreaterThan(0);
    expect(summary.counts.whatsappMessages).toBeGreaterThan(0);
    // A national number with its country is the same number.
    const national = await createApiClient(t, owner).post('/api/subscriber-data/summary', { msisdn: '024 100 0009', country: 'ghana' });
    expect(national.json().data.counts).toEqual(summary.counts);
    // Every account's: the other account's session, contact, SMS and file too.
    const everywhere = await summaryOf(superAdmin, '/api/admin/subscriber-data/summary');
    expect(everywhere.counts).toMatchObject({ sessions: 4, contacts: 2, sms: 2, media: 2 });
  });

  it('a bad number is a clear 400 and a signed-out call 401, nothing read', async () => {
    for (const msisdn of ['hello', '0241000009', '12']) {
      const res = await createApiClient(t, owner).post('/api/subscriber-data/summary', { msisdn });
      expect(res.statusCode, msisdn).toBe(400);
      expect(res.json().message).toBe(SUBSCRIBER_DATA_MESSAGES.badNumber);
    }
    const exported = await createApiClient(t, owner).post('/api/subscriber-data/export', { msisdn: 'nope' });
    expect(exported.statusCode).toBe(400);
    const noReason = await erase(owner, { msisdn: NUMBER, reason: '' });
    expect(noReason.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/subscriber-data/summary', payload: { msisdn: NUMBER } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('exports everything the account keeps as one JSON file: sessions of two apps and a bot with their inputs and logs, messages, files, payments', async () => {
    const res = await createApiClient(t, owner).post('/api/subscriber-data/export', { msisdn: NUMBER });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const file = res.json();
    expect(file).toMatchObject({ msisdn: NUMBER, scope: 'account' });
    expect(file.contacts).toMatchObject([{ msisdn: NUMBER, ownerId: owner.user.id }]);
    const sessions = file.sessions as Array<{
      appId: string;
      appName: string;
      inputs: Record<string, string>;
      inputsGiven: unknown[];
      logs: unknown[];
    }>;
    expect(new Set(sessions.map((s) => s.appId))).toEqual(new Set([appA, appB, bot.appId]));
    expect(sessions.find((s) => s.appId === appB)).toMatchObject({ appName: 'Survey', inputs: { ask: 'Yaw Mensah' } });
    for (const session of sessions) {
      expect(session.inputsGiven.length, session.appId).toBeGreaterThan(0);
      expect(session.logs.length, session.appId).toBeGreaterThan(0);
    }
    expect(file.sms).toMatchObject([{ recipient: '0241000009', message: 'Hello Yaw' }]);
    expect(file.smsReplies).toMatchObject([{ text: 'Yes please' }]);
    expect(file.whatsappMessages.length).toBeGreaterThan(0);
    expect(file.inboxConversations).toMatchObject([{ msisdn: NUMBER, appId: bot.appId }]);
    expect(file.inboxConversations[0].messages.map((m: { text: string }) => m.text)).toContain('Where is my parcel?');
    expect(file.payments).toMatchObject([{ metadata: { mobile: '233241000009' } }]);
    expect(file.webhookEvents).toMatchObject([{ eventType: 'payment.succeeded' }]);
    // A file as a signed link good for the export's lifetime (a week), not the console's minutes.
    expect(file.media).toMatchObject([{ fileName: 'me.png', caption: 'my face' }]);
    const expires = Number(new URL(file.media[0].url).searchParams.get('expires'));
    expect(expires * 1000 - Date.parse(file.exportedAt)).toBeGreaterThan(6 * 24 * 3_600_000);
    // Nothing of the other account's: its session and file are not in the file.
    expect(res.body).not.toContain('Yaw Other');
    expect(res.body).not.toContain(otherApp);
    // Audited: who, the masked number; never the number itself.
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'subscriber_data_exported'), eq(auditLog.actorId, owner.user.id)));
    expect(entry).toMatchObject({ actorEmail: owner.email, details: { msisdn: '+233•••••••09', scope: 'account' } });
  });

  it('refuses to erase while a session of the number is running (nothing erased), and erases once it has ended', async () => {
    await dialTestUrl(t, appA, 'S-LIVE', '233241000009', '');
    const before = await summaryOf(owner);
    expect(before.liveSessions).toBe(1);
    const refused = await erase(owner, { msisdn: NUMBER, reason: 'Ticket 41: the caller asked' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SUBSCRIBER_DATA_MESSAGES.liveSession);
    expect((await summaryOf(owner)).counts).toEqual(before.counts);
    expect(await t.db.select().from(subscriberErasures).where(eq(subscriberErasures.ownerId, owner.user.id))).toEqual([]);
    // The session ends: its record is written with what it was given, and the erasure then takes it too.
    await dialTestUrl(t, appA, 'S-LIVE', '233241000009', 'Kofi');
    await t.app.runtime.flushEvents();
    const sessionsBefore = await t.db
      .select({ id: sessionRecords.id })
      .from(sessionRecords)
      .where(inArray(sessionRecords.appId, [appA, appB, bot.appId]));

    const started = await erase(owner, { msisdn: NUMBER, reason: 'Ticket 41: the caller asked' });
    expect(started.statusCode, started.body).toBe(200);
    const erasureId = started.json().data.erasureId as string;
    await waitForSubscriberErasures();
    const job = (await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${erasureId}`)).json().data;
    expect(job).toMatchObject({ status: 'done', msisdn: '+233•••••••09', reason: 'Ticket 41: the caller asked', failure: null });
    expect(job.counts).toMatchObject({ sessions: 4, contacts: 1, sms: 1, smsReplies: 1, payments: 1, media: 1, inboxConversations: 1 });

    // Nothing of the number is found in the account any more.
    const after = await summaryOf(owner);
    expect(Object.values(after.counts).every((n) => n === 0)).toBe(true);
    // Counts kept: every session record stays, anonymised, and the number's sessions count as one caller.
    const records = await t.db
      .select()
      .from(sessionRecords)
      .where(inArray(sessionRecords.appId, [appA, appB, bot.appId]));
    expect(records.length).toBe(sessionsBefore.length);
    const erased = records.filter((r) => r.mobile.startsWith('erased:'));
    expect(erased.length).toBe(4);
    expect(new Set(erased.map((r) => r.mobile)).size).toBe(1);
    expect(erased.every((r) => r.contactMsisdn === null && Object.keys(r.inputs as object).length === 0)).toBe(true);
    expect(records.find((r) => r.sessionId === 'S-X')).toMatchObject({ mobile: '233241000010', inputs: { ask: 'Esi' } });
    const [payment] = await t.db.select().from(transactions).where(eq(transactions.appId, appA));
    expect(payment).toMatchObject({ amount: '5.00', status: 'SUCCESS', metadata: { provider: 'sandbox', mobile: erased[0]!.mobile } });
    expect(await t.db.select().from(inboxConversations).where(eq(inboxConversations.ownerId, owner.user.id))).toEqual([]);
    const sent = await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.appId, bot.appId));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((m) => m.toNumber.startsWith('erased:'))).toBe(true);

    // The other account's rows of the same number are untouched.
    const [theirs] = await t.db.select().from(sessionRecords).where(eq(sessionRecords.appId, otherApp));
    expect(theirs).toMatchObject({ mobile: '233241000009', contactMsisdn: NUMBER, inputs: { ask: 'Yaw Other' } });
    expect(await t.db.select().from(contacts).where(eq(contacts.ownerId, other.user.id))).toMatchObject([{ msisdn: NUMBER }]);
    expect(await t.db.select().from(mediaFiles).where(eq(mediaFiles.ownerId, other.user.id))).toMatchObject([{ msisdn: NUMBER }]);
    expect(await t.db.select().from(smsMessages).where(eq(smsMessages.ownerId, other.user.id))).toMatchObject([{ message: 'Hi Yaw' }]);

    // Audited with who, why and the counts; the audit log never holds the number.
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'subscriber_data_erased'), eq(auditLog.targetId, erasureId)));
    expect(entry).toMatchObject({
      actorId: owner.user.id,
      actorEmail: owner.email,
      details: { msisdn: '+233•••••••09', scope: 'account', reason: 'Ticket 41: the caller asked', counts: job.counts },
    });
    expect(JSON.stringify(await t.db.select().from(auditLog))).not.toContain(DIGITS);

    // Another account's erasure id is not found, nor an account's erasure on the platform's route.
    const foreign = await createApiClient(t, other).get(`/api/subscriber-data/erasures/${erasureId}`);
    expect(foreign.statusCode).toBe(404);
    expect((await createApiClient(t, superAdmin).get(`/api/admin/subscriber-data/erasures/${erasureId}`)).statusCode).toBe(404);
  });

  it("a super admin's erasure takes the number from every account: no table holds it any more", async () => {
    expect(Object.keys(await findTablesHolding(t, DIGITS)).length).toBeGreaterThan(0);
    const started = await erase(
      superAdmin,
      { msisdn: NUMBER, reason: "Regulator's request 2026-118" },
      '/api/admin/subscriber-data/erasures',
    );
    expect(started.statusCode, started.body).toBe(200);
    await waitForSubscriberErasures();
    const job = (await createApiClient(t, superAdmin).get(`/api/admin/subscriber-data/erasures/${started.json().data.erasureId}`)).json()
      .data;
    expect(job).toMatchObject({ status: 'done' });
    expect(job.counts).toMatchObject({ sessions: 1, contacts: 1, sms: 1, media: 1 });
    expect(await findTablesHolding(t, DIGITS)).toEqual({});
    // The owner's other caller is still there.
    expect(Object.keys(await findTablesHolding(t, '241000010')).length).toBeGreaterThan(0);
  });
});

describeDb('subscriber data: erasing a number with many sessions', () => {
  // The second pass waits as it would for other processes' event buffers, long enough for a test to write in between.
  const t = useTestApp({ SUBSCRIBER_ERASURE_SETTLE_MS: 1500 });
  const owner = useUser(t);
  let appId: string;

  /** `n` finished sessions of `msisdn` on the app, each with an input, written as the event sink would. */
  async function seedSessions(msisdn: string, n: number, prefix: string) {
    await t.db.execute(sql`
      insert into session_records (app_id, session_id, environment, gateway, mobile, contact_msisdn, network, service_code, status, inputs, hop_count, started_at, ended_at)
      select ${appId}, ${prefix} || i, 'live', 'africastalking', ${msisdn.slice(1)}, ${msisdn}, '62001', '*920*55#', 'completed', '{"ask":"Yaw"}'::jsonb, 2, now(), now()
      from generate_series(1, ${n}) as i`);
    await t.db.execute(sql`
      insert into session_inputs (app_id, session_id, field_name, field_value, created_at)
      select ${appId}, ${prefix} || i, 'ask', 'Yaw', now() from generate_series(1, ${n}) as i`);
  }

  /** The owner's erasure of `msisdn` as a process left it running (its time and counts as `state` says). */
  async function insertRunningErasure(msisdn: string, reason: string, state: Partial<typeof subscriberErasures.$inferInsert> = {}) {
    const [row] = await t.db
      .insert(subscriberErasures)
      .values({
        ownerId: owner.user.id,
        actorId: owner.user.id,
        actorEmail: owner.email,
        msisdn,
        anonymous: `erased:${randomUUID()}`,
        reason,
        ...state,
      })
      .returning();
    return row!;
  }

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { country: 'ghana' });
  });

  it('erases in bounded batches, each with its progress, until none is left', async () => {
    const sessions = SUBSCRIBER_ERASURE_BATCH * 2 + 7;
    await seedSessions('+233241000077', sessions, 'M-');
    const started = await createApiClient(t, owner).post('/api/subscriber-data/erasures', {
      msisdn: '+233241000077',
      reason: 'Asked by SMS',
    });
    expect(started.statusCode, started.body).toBe(200);
    await waitForSubscriberErasures();
    const job = (await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${started.json().data.erasureId}`)).json().data;
    expect(job.status).toBe('done');
    expect(job.counts).toMatchObject({ sessions, inputs: sessions });
    // Three batches of sessions (500, 500, 7), then one for each other kind; the second pass, one a kind.
    expect(job.batches).toBe(3 + ERASURE_STEPS.length - 1 + ERASURE_STEPS.length);
    const left = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.contactMsisdn, '+233241000077')));
    expect(Number(left[0]!.n)).toBe(0);
    expect(await t.db.select().from(sessionInputs).where(eq(sessionInputs.appId, appId))).toEqual([]);
  });

  it('exports are limited per account: the eleventh in a minute answers 429', async () => {
    const limited = await seedUser(t);
    const api = createApiClient(t, limited);
    for (let i = 0; i < SUBSCRIBER_DATA_RATE_LIMIT; i++)
      expect((await api.post('/api/subscriber-data/export', { msisdn: '+233241000055' })).statusCode).toBe(200);
    const refused = await api.post('/api/subscriber-data/export', { msisdn: '+233241000055' });
    expect(refused.statusCode).toBe(429);
    // Another account is not held by it.
    expect((await createApiClient(t, owner).post('/api/subscriber-data/export', { msisdn: '+233241000055' })).statusCode).toBe(200);
  });

  it('a session recorded while an erasure runs (between two of its batches) is erased by the next batch', async () => {
    await seedSessions('+233241000099', 3, 'W-');
    const target = toSubscriberTarget(owner.user.id, '+233241000099');
    const [sessionsStep] = ERASURE_STEPS;
    const first = await sessionsStep!.erase(t.db, new Date(), target, 2);
    expect(first.found).toBe(2);
    // A session that ended meanwhile: its record comes after the batches so far.
    await seedSessions('+233241000099', 1, 'W-late-');
    const second = await sessionsStep!.erase(t.db, new Date(), target, 2, first.after);
    expect(second.found).toBe(2);
    const third = await sessionsStep!.erase(t.db, new Date(), target, 2, second.after);
    expect(third.found).toBe(0);
    const records = await t.db.select().from(sessionRecords).where(eq(sessionRecords.mobile, target.anonymous));
    expect(records.map((r) => r.sessionId).sort()).toEqual(['W-1', 'W-2', 'W-3', 'W-late-1']);
  });

  it('a session another process still held in its buffer when the erasure began is erased by the second pass', async () => {
    const api = createApiClient(t, owner);
    const started = await api.post('/api/subscriber-data/erasures', { msisdn: '+233241000044', reason: 'Asked by phone' });
    expect(started.statusCode, started.body).toBe(200);
    const url = `/api/subscriber-data/erasures/${started.json().data.erasureId}`;
    // The first pass finds nothing (a batch a kind); the erasure then waits for other processes' buffers.
    await expect.poll(async () => (await api.get(url)).json().data.batches, { timeout: 10_000, interval: 20 }).toBe(ERASURE_STEPS.length);
    expect((await api.get(url)).json().data.status).toBe('running');
    // Another process writes the sessions of the number it had buffered.
    await seedSessions('+233241000044', 2, 'L-');
    await waitForSubscriberErasures();
    expect((await api.get(url)).json().data).toMatchObject({ status: 'done', counts: { sessions: 2, inputs: 2 } });
    const [left] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessionRecords)
      .where(eq(sessionRecords.contactMsisdn, '+233241000044'));
    expect(Number(left!.n)).toBe(0);
  });

  it('an erasure whose server stopped mid-way is carried on where it was when it is next looked at', async () => {
    await seedSessions('+233241000088', 20, 'R-');
    const stoppedAt = new Date(Date.now() - 10 * 60_000);
    const row = await insertRunningErasure('+233241000088', 'Asked by mail', {
      batches: 1,
      counts: { sessions: 5 },
      startedAt: stoppedAt,
      updatedAt: stoppedAt,
    });
    // Asked again (the console after the restart): the stopped erasure is carried on and answered, not a second one.
    const again = await createApiClient(t, owner).post('/api/subscriber-data/erasures', {
      msisdn: '0241000088',
      country: 'ghana',
      reason: 'Again',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ erasureId: row.id, status: 'running', reason: 'Asked by mail' });
    await waitForSubscriberErasures();
    const job = (await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${row.id}`)).json().data;
    expect(job).toMatchObject({ status: 'done', msisdn: '+233•••••••88' });
    // The five counted before the stop, and the twenty found again (none had been written yet).
    expect(job.counts.sessions).toBe(25);
    const [left] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessionRecords)
      .where(eq(sessionRecords.contactMsisdn, '+233241000088'));
    expect(Number(left!.n)).toBe(0);
  });

  it("a second erasure of a number whose erasure runs is refused; a stopped one is carried on by its page's next look", async () => {
    await seedSessions('+233241000066', 4, 'F-');
    const row = await insertRunningErasure('+233241000066', 'Asked at the shop');
    // Running now (in another process, say): refused, nothing started.
    const refused = await createApiClient(t, owner).post('/api/subscriber-data/erasures', { msisdn: '+233241000066', reason: 'Again' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SUBSCRIBER_DATA_MESSAGES.running);
    expect((await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${row.id}`)).json().data).toMatchObject({
      status: 'running',
      batches: 0,
    });
    // That process stopped: ten minutes without a batch, and the page's next look carries the erasure on.
    await t.db
      .update(subscriberErasures)
      .set({ updatedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(subscriberErasures.id, row.id));
    expect((await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${row.id}`)).json().data.status).toBe('running');
    await waitForSubscriberErasures();
    const job = (await createApiClient(t, owner).get(`/api/subscriber-data/erasures/${row.id}`)).json().data;
    expect(job).toMatchObject({ status: 'done', counts: { sessions: 4, inputs: 4 } });
  });
});
