import { beforeAll, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { contacts, sessionRecords } from '../../../db/schema';
import { dialTestUrl } from '../../../../tests/support/dial';
import { describeDb } from '../../../../tests/support/test-db';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createTestApp, seedUser, useTestApp, useUser, type TestApp } from '../../../../tests/support/test-app';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { CONTACT_WRITE_SECONDS } from '../runtime/contact-steps';
import { seedApp, seedMenu, seedShop, seedTwoMenus } from '../../../../tests/support/seed-app';
import type * as contactRecords from '../../core/contact-records';
import { LAST_SEEN_PERIOD_MINUTES, writeContactRecords } from '../../core/contact-records';
import { UNAVAILABLE_TEXT } from '../../../engine';

// Every read of a contact goes through the reader buildApp makes: counted, to show it is read once a session;
// `failReads` makes it fail as a database that cannot answer does.
const reads = vi.fn();
let failReads = false;
vi.mock('../../core/contact-records', async (importOriginal) => {
  const original = await importOriginal<typeof contactRecords>();
  return {
    ...original,
    createContactReader: (db: Parameters<typeof original.createContactReader>[0]) => {
      const read = original.createContactReader(db);
      return (ownerId: string, msisdn: string) => {
        reads(ownerId, msisdn);
        if (failReads) return Promise.reject(new Error('Connection terminated unexpectedly'));
        return read(ownerId, msisdn);
      };
    },
  };
});

describeDb('contacts in the runtime', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { country: 'ghana' });
    const done = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Bye {{ contact.name }} from {{ contact.city }}',
      terminate: true,
    });
    const city = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'city',
      displayText: 'Thanks {{ contact.name }}. Your city?',
      saveToContact: 'city',
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
    });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'ask',
      displayText: 'Hello {{ contact.name | default: "friend" }}! Your name?',
      saveToContact: 'name',
      isFirst: true,
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: city }],
    });
  });

  const africasTalking = (app: string, sessionId: string, phoneNumber: string, text: string) =>
    dialTestUrl(t, app, sessionId, phoneNumber, text);
  const hubtel = (app: string, SessionId: string, Mobile: string, Type: string, Message: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${app}/test`,
      payload: { SessionId, Type, Message, ServiceCode: '920', Operator: 'mtn', ClientState: '', Mobile, Sequence: 1, Platform: 'USSD' },
    });
  const findContact = async (ownerId: string, msisdn: string) =>
    (
      await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, msisdn)))
    )[0];

  it('reads the contact once a session, renders contact fields, and saves inputs to the contact with the records', async () => {
    reads.mockClear();
    expect((await africasTalking(appId, 'C-1', '+233241112222', '')).body).toBe('CON Hello friend! Your name?');
    expect((await africasTalking(appId, 'C-1', '+233241112222', 'Ama')).body).toBe('CON Thanks Ama. Your city?');
    expect((await africasTalking(appId, 'C-1', '+233241112222', 'Ama*Accra')).body).toBe('END Bye Ama from Accra');
    // Three hops, one read: the session's state kept the contact for the later hops.
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledWith(owner.user.id, '+233241112222');

    await t.app.runtime.flushEvents();
    const contact = await findContact(owner.user.id, '+233241112222');
    expect(contact).toMatchObject({ name: 'Ama', attributes: { city: 'Accra' }, lastSeenWhatsapp: null });
    expect(contact!.firstSeenUssd).toBeInstanceOf(Date);
    expect(contact!.lastSeenUssd!.getTime()).toBe(contact!.firstSeenUssd!.getTime());
    const [record] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'C-1')));
    expect(record).toMatchObject({ mobile: '+233241112222', contactMsisdn: '+233241112222', status: 'completed' });
  });

  it('finds the same contact whatever form another gateway sends the number in', async () => {
    reads.mockClear();
    const first = await hubtel(appId, 'C-2', '0241112222', 'Initiation', '*920*55#');
    expect(first.json()).toMatchObject({ Message: 'Hello Ama! Your name?' });
    expect((await hubtel(appId, 'C-2', '0241112222', 'Response', 'Ama Mensah')).json()).toMatchObject({
      Message: 'Thanks Ama Mensah. Your city?',
    });
    expect((await hubtel(appId, 'C-2', '0241112222', 'Response', 'Kumasi')).json()).toMatchObject({
      Message: 'Bye Ama Mensah from Kumasi',
    });
    expect(reads).toHaveBeenCalledTimes(1);
    await t.app.runtime.flushEvents();
    const rows = await t.db.select().from(contacts).where(eq(contacts.ownerId, owner.user.id));
    expect(rows.map((r) => r.msisdn)).toEqual(['+233241112222']);
    expect(rows[0]).toMatchObject({ name: 'Ama Mensah', attributes: { city: 'Kumasi' } });
    expect(rows[0]!.lastSeenUssd!.getTime()).toBeGreaterThanOrEqual(rows[0]!.firstSeenUssd!.getTime());
  });

  it('reads the contacts of sessions that start together in one go, each session getting its own', async () => {
    await t.db.insert(contacts).values([
      { ownerId: owner.user.id, msisdn: '+233241110001', name: 'Esi' },
      { ownerId: owner.user.id, msisdn: '+233241110002', name: 'Yaw' },
    ]);
    reads.mockClear();
    const replies = await Promise.all(
      ['233241110001', '0241110002', '+233241110003'].map((n, i) => africasTalking(appId, `C-T${i}`, n, '')),
    );
    expect(replies.map((r) => r.body)).toEqual(['CON Hello Esi! Your name?', 'CON Hello Yaw! Your name?', 'CON Hello friend! Your name?']);
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('reads no contact for an app that uses none, yet keeps its callers as contacts, seen on the channel', async () => {
    const shop = await seedShop(t, owner.auth);
    reads.mockClear();
    expect((await africasTalking(shop, 'C-3', '233209998888', '')).body).toMatch(/^CON Welcome/);
    expect((await africasTalking(shop, 'C-3', '233209998888', '1')).body).toBe('CON Enter amount');
    expect((await africasTalking(shop, 'C-3', '233209998888', '1*5')).body).toBe('END You chose Airtime for GHS 5');
    expect(reads).not.toHaveBeenCalled();
    await t.app.runtime.flushEvents();
    const contact = await findContact(owner.user.id, '+233209998888');
    expect(contact).toMatchObject({ name: null, attributes: {} });
    expect(contact!.firstSeenUssd).toBeInstanceOf(Date);
  });

  it('answers the unavailable end screen when the contact cannot be read, and the next session is served', async () => {
    failReads = true;
    try {
      const res = await africasTalking(appId, 'C-B1', '+233241119999', '');
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(`END ${UNAVAILABLE_TEXT}`);
    } finally {
      failReads = false;
    }
    expect((await africasTalking(appId, 'C-B2', '+233241119999', '')).body).toBe('CON Hello friend! Your name?');
  });

  it('moves last seen at most once a period, keeps the earliest first seen whatever order batches come in, and writes a name at once', async () => {
    const msisdn = '+233241117777';
    const t0 = Date.parse('2026-11-01T10:00:00.000Z');
    const minutes = (m: number) => new Date(t0 + m * 60_000).toISOString();
    const seenAt = async (at: string, extra: { name?: string } = {}) => {
      await writeContactRecords(t.db, [{ ownerId: owner.user.id, msisdn, seen: { channel: 'ussd', at }, ...extra }], new Date());
      const row = await findContact(owner.user.id, msisdn);
      return [row!.firstSeenUssd!.toISOString(), row!.lastSeenUssd!.toISOString(), row!.name];
    };
    expect(await seenAt(minutes(0))).toEqual([minutes(0), minutes(0), null]);
    // Within the period: the row is left as it is.
    expect(await seenAt(minutes(LAST_SEEN_PERIOD_MINUTES - 1))).toEqual([minutes(0), minutes(0), null]);
    expect(await seenAt(minutes(LAST_SEEN_PERIOD_MINUTES))).toEqual([minutes(0), minutes(LAST_SEEN_PERIOD_MINUTES), null]);
    // A batch retried late, carrying an earlier session.
    expect(await seenAt(minutes(-60))).toEqual([minutes(-60), minutes(LAST_SEEN_PERIOD_MINUTES), null]);
    // A name is written even within the period.
    expect(await seenAt(minutes(LAST_SEEN_PERIOD_MINUTES + 1), { name: 'Kojo' })).toEqual([
      minutes(-60),
      minutes(LAST_SEEN_PERIOD_MINUTES + 1),
      'Kojo',
    ]);
  });

  it('leaves the row as it is when a session saves what the contact already holds, and writes what differs', async () => {
    const msisdn = '+233241117778';
    const write = (record: { name?: string; attributes?: Record<string, string> }, now: string) =>
      writeContactRecords(
        t.db,
        [{ ownerId: owner.user.id, msisdn, seen: { channel: 'ussd', at: '2026-11-01T10:00:00.000Z' }, ...record }],
        new Date(now),
      );
    await write({ name: 'Efua', attributes: { city: 'Ho', tier: 'gold' } }, '2026-11-01T10:00:00.000Z');
    await write({ name: 'Efua', attributes: { city: 'Ho' } }, '2026-11-01T10:01:00.000Z');
    expect(await findContact(owner.user.id, msisdn)).toMatchObject({
      name: 'Efua',
      attributes: { city: 'Ho', tier: 'gold' },
      updatedAt: new Date('2026-11-01T10:00:00.000Z'),
    });
    await write({ attributes: { city: 'Keta' } }, '2026-11-01T10:02:00.000Z');
    expect(await findContact(owner.user.id, msisdn)).toMatchObject({
      name: 'Efua',
      attributes: { city: 'Keta', tier: 'gold' },
      updatedAt: new Date('2026-11-01T10:02:00.000Z'),
    });
    await write({ name: 'Efua Mensah' }, '2026-11-01T10:03:00.000Z');
    expect(await findContact(owner.user.id, msisdn)).toMatchObject({
      name: 'Efua Mensah',
      updatedAt: new Date('2026-11-01T10:03:00.000Z'),
    });
  });

  it('keeps no contact for a number that is none', async () => {
    expect((await africasTalking(appId, 'C-4', 'not-a-number', '')).body).toBe('CON Hello friend! Your name?');
    await t.app.runtime.flushEvents();
    const [record] = await t.db.select().from(sessionRecords).where(eq(sessionRecords.sessionId, 'C-4'));
    expect(record?.contactMsisdn ?? null).toBeNull();
  });

  it('refuses a menu that saves to a field no contact can have, and saves nothing', async () => {
    for (const saveToContact of ['language', '1city', 'a b', 'x'.repeat(41)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/createMenu',
        headers: owner.auth,
        payload: { appId, userDefinedName: `bad${saveToContact.length}`, displayText: 'x', saveToContact },
      });
      expect(res.statusCode, saveToContact).toBe(400);
    }
  });

  it("routes by rules on contact fields and keeps a script's contact.set with the session's records", async () => {
    const club = await seedApp(t, owner.auth, { country: 'ghana' });
    await seedMenu(t, owner.auth, club, {
      userDefinedName: 'start',
      displayText: 'Hi {{ contact.name | default: "friend" }}. 1. Join',
      isFirst: true,
      actions: [
        { actionName: 'join', actionType: 'post', inheritsPlugin: 'javascript', code: 'if (input === "1") contact.set("tier", "gold");' },
      ],
      switchOperations: [
        { subject: 'contact.tier', operator: 'eq', compareVal: 'gold', action: 'Terminate', actionParam: 'Welcome, gold member' },
        { subject: 'contact.tier', operator: 'isEmpty', compareVal: '', action: 'Terminate', actionParam: 'Not a member' },
      ],
    });
    // The script workers loaded before the first hop, as a server taking traffic does (its 3 s budget is for the script).
    await t.app.startScripts();
    reads.mockClear();
    expect((await africasTalking(club, 'C-7', '+233241115555', '')).body).toBe('CON Hi friend. 1. Join');
    expect((await africasTalking(club, 'C-7', '+233241115555', '2')).body).toBe('END Not a member');
    expect((await africasTalking(club, 'C-8', '+233241115555', '')).body).toBe('CON Hi friend. 1. Join');
    expect((await africasTalking(club, 'C-8', '+233241115555', '1')).body).toBe('END Welcome, gold member');
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, '+233241115555')).toMatchObject({ attributes: { tier: 'gold' } });
    // The next session reads the stored contact: the rule matches without the script setting anything.
    expect((await africasTalking(club, 'C-9', '+233241115555', '')).body).toBe('CON Hi friend. 1. Join');
    expect((await africasTalking(club, 'C-9', '+233241115555', '2')).body).toBe('END Welcome, gold member');
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it("writes a session's contact once, when it ends: nothing while it runs, then what its hops saved and its seen times", async () => {
    const msisdn = '+233241113333';
    expect((await africasTalking(appId, 'C-O1', msisdn, '')).body).toBe('CON Hello friend! Your name?');
    expect((await africasTalking(appId, 'C-O1', msisdn, 'Esi')).body).toBe('CON Thanks Esi. Your city?');
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, msisdn)).toBeUndefined();
    expect((await africasTalking(appId, 'C-O1', msisdn, 'Esi*Tamale')).body).toBe('END Bye Esi from Tamale');
    await t.app.runtime.flushEvents();
    const contact = await findContact(owner.user.id, msisdn);
    expect(contact).toMatchObject({ name: 'Esi', attributes: { city: 'Tamale' }, lastSeenWhatsapp: null });
    const [record] = await t.db.select().from(sessionRecords).where(eq(sessionRecords.sessionId, 'C-O1'));
    expect(contact!.firstSeenUssd).toEqual(record!.startedAt);
    expect(contact!.lastSeenUssd).toEqual(record!.startedAt);
  });

  it('writes the contact of a session the gateway abandons, and of one that times out', async () => {
    expect((await hubtel(appId, 'C-A1', '0241114444', 'Initiation', '*920*55#')).json()).toMatchObject({
      Message: 'Hello friend! Your name?',
    });
    expect((await hubtel(appId, 'C-A1', '0241114444', 'Response', 'Kwame')).json()).toMatchObject({ Message: 'Thanks Kwame. Your city?' });
    expect((await africasTalking(appId, 'C-A2', '+233241114445', '')).body).toBe('CON Hello friend! Your name?');
    expect((await africasTalking(appId, 'C-A2', '+233241114445', 'Abena')).body).toBe('CON Thanks Abena. Your city?');
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, '+233241114444')).toBeUndefined();
    expect(await findContact(owner.user.id, '+233241114445')).toBeUndefined();

    expect((await hubtel(appId, 'C-A1', '', 'Timeout', '')).statusCode).toBe(200);
    t.advanceClock(181_000);
    await t.app.runtime.sweepExpired();
    await t.app.runtime.flushEvents();
    for (const [sessionId, msisdn, name] of [
      ['C-A1', '+233241114444', 'Kwame'],
      ['C-A2', '+233241114445', 'Abena'],
    ] as const) {
      const contact = await findContact(owner.user.id, msisdn);
      expect(contact, sessionId).toMatchObject({ name, attributes: {} });
      const [record] = await t.db.select().from(sessionRecords).where(eq(sessionRecords.sessionId, sessionId));
      expect(record, sessionId).toMatchObject({ status: 'abandoned', contactMsisdn: msisdn });
      expect(contact!.firstSeenUssd, sessionId).toEqual(record!.startedAt);
    }
  });

  it(`writes a long session's contact at its first hop ${CONTACT_WRITE_SECONDS} s after the last write, then keeps a new record`, async () => {
    const notes = await seedApp(t, owner.auth, { country: 'ghana' });
    // A menu that asks again and again: it goes to itself.
    const menu = { appId: notes, userDefinedName: 'note', displayText: 'Note?', saveToContact: 'note', isFirst: true };
    const note = await seedMenu(t, owner.auth, notes, menu);
    const updated = await t.app.inject({
      method: 'POST',
      url: '/api/updateMenu',
      headers: owner.auth,
      payload: { ...menu, uniqueId: note, switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: note }] },
    });
    expect(updated.json()).toMatchObject({ status: '00' });
    const msisdn = '+233241116666';
    const half = (CONTACT_WRITE_SECONDS * 1000) / 2;
    expect((await africasTalking(notes, 'C-L1', msisdn, '')).body).toBe('CON Note?');
    t.advanceClock(half);
    expect((await africasTalking(notes, 'C-L1', msisdn, 'a')).body).toBe('CON Note?');
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, msisdn)).toBeUndefined();
    t.advanceClock(half);
    expect((await africasTalking(notes, 'C-L1', msisdn, 'a*b')).body).toBe('CON Note?');
    await t.app.runtime.flushEvents();
    // Written while the session goes on.
    expect((await t.app.runtime.findActiveSessions(notes)).map((s) => s.sessionId)).toEqual(['C-L1']);
    const written = await findContact(owner.user.id, msisdn);
    expect(written).toMatchObject({ attributes: { note: 'b' } });
    expect(written!.firstSeenUssd).toBeInstanceOf(Date);
    // The next change waits for the end again.
    expect((await africasTalking(notes, 'C-L1', msisdn, 'a*b*c')).body).toBe('CON Note?');
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, msisdn)).toMatchObject({ attributes: { note: 'b' } });
    t.advanceClock(181_000);
    await t.app.runtime.sweepExpired();
    await t.app.runtime.flushEvents();
    expect(await findContact(owner.user.id, msisdn)).toMatchObject({ attributes: { note: 'c' } });
  });
});

/** Sessions a process leaves behind when it stops: the contact records they kept are not lost. */
describeDb("a session's contact when its process stops", () => {
  const seedNameApp = async (t: TestApp) => {
    const { auth, user } = await seedUser(t);
    const appId = await seedApp(t, auth, { country: 'ghana' });
    await seedTwoMenus(
      t,
      auth,
      appId,
      { userDefinedName: 'ask', displayText: 'Your name?', saveToContact: 'name' },
      { userDefinedName: 'done', displayText: 'Bye' },
      { operator: 'always', compareVal: '' },
    );
    return { appId, ownerId: user.id };
  };
  const hop = (app: FastifyInstance, appId: string, sessionId: string, text: string) =>
    dialTestUrl({ app }, appId, sessionId, '+233241117000', text);
  const findName = async (t: TestApp, ownerId: string) =>
    (
      await t.db
        .select({ name: contacts.name, firstSeenUssd: contacts.firstSeenUssd })
        .from(contacts)
        .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, '+233241117000')))
    )[0];

  it('sessions held in memory: written when the server closes', async () => {
    const t = await createTestApp();
    try {
      const { appId, ownerId } = await seedNameApp(t);
      expect((await hop(t.app, appId, 'P-1', '')).body).toBe('CON Your name?');
      await t.app.runtime.flushEvents();
      expect(await findName(t, ownerId)).toBeUndefined();
      await t.app.close();
      expect(await findName(t, ownerId)).toMatchObject({ name: null, firstSeenUssd: expect.any(Date) });
    } finally {
      await t.close();
    }
  });

  describeRedis('sessions in Redis', () => {
    it('left in Redis by a server that closed: written by the server that sweeps them', async () => {
      const t = await createTestApp();
      let offset = 0;
      const config = createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: `contact-once-${randomUUID()}:` });
      const build = () => buildApp(config, { database: t.app.ctx.database, logger: false, now: () => new Date(Date.now() + offset) });
      try {
        const { appId, ownerId } = await seedNameApp(t);
        const first = await build();
        expect((await hop(first, appId, 'P-2', '')).body).toBe('CON Your name?');
        await first.close();
        // The session lives on in Redis (another server may take its next hop): nothing is written for it yet.
        expect(await findName(t, ownerId)).toBeUndefined();
        const second = await build();
        try {
          offset += 200_000;
          expect(await second.runtime.sweepExpired()).toBe(1);
          await second.runtime.flushEvents();
        } finally {
          await second.close();
        }
        expect(await findName(t, ownerId)).toMatchObject({ name: null, firstSeenUssd: expect.any(Date) });
      } finally {
        await t.close();
      }
    });
  });
});
