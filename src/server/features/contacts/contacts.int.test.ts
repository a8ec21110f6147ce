import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { type actionResults, appLogLines, appLogs, contacts, sessionInputs, sessionRecords } from '../../../db/schema';
import { dialTestUrl } from '../../../../tests/support/dial';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedTwoMenus } from '../../../../tests/support/seed-app';

describeDb('contacts API', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { country: 'ghana' });
    await seedTwoMenus(
      t,
      owner.auth,
      appId,
      { userDefinedName: 'ask', displayText: 'Hi {{ contact.name }}. Your name?', saveToContact: 'name' },
      { userDefinedName: 'bye', displayText: 'Bye {{ contact.name }}' },
      { operator: 'always', compareVal: '' },
    );
    // Three callers of the owner's app, one of the other account's.
    for (const [sessionId, phoneNumber, name] of [
      ['A-1', '233241000001', 'Ama Owusu'],
      ['A-2', '233241000002', 'Kofi Mensah'],
      ['A-3', '233551000003', 'Akosua Boateng'],
    ] as const) {
      await dial(appId, sessionId, phoneNumber, '');
      await dial(appId, sessionId, phoneNumber, name);
    }
    const otherApp = await seedApp(t, other.auth, { country: 'ghana' });
    await seedTwoMenus(
      t,
      other.auth,
      otherApp,
      { userDefinedName: 'other', displayText: 'Other' },
      { userDefinedName: 'bye', displayText: 'Bye' },
    );
    // Completed: a session's contact is written when it ends (docs/contacts.md, "Written once a session").
    await dial(otherApp, 'B-1', '233241000001', '');
    await dial(otherApp, 'B-1', '233241000001', '1');
    await t.app.runtime.flushEvents();
  });

  const dial = (app: string, sessionId: string, phoneNumber: string, text: string) => dialTestUrl(t, app, sessionId, phoneNumber, text);
  const api = (user: typeof owner) => createApiClient(t, user);
  const findId = async (ownerId: string, msisdn: string) =>
    (
      await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, msisdn)))
    )[0]!.id;

  it('lists the account’s contacts only, searched by a number’s start or a part of a name, a page at a time', async () => {
    const all = (await api(owner).get('/api/contacts')).json().data;
    expect(all.contacts.map((c: { msisdn: string }) => c.msisdn).sort()).toEqual(['+233241000001', '+233241000002', '+233551000003']);
    expect(all.hasMore).toBe(false);
    const byNumber = (await api(owner).get('/api/contacts?search=%2B233%2024')).json().data;
    expect(byNumber.contacts.map((c: { name: string }) => c.name).sort()).toEqual(['Ama Owusu', 'Kofi Mensah']);
    expect((await api(owner).get('/api/contacts?search=23355')).json().data.contacts).toHaveLength(1);
    const byName = (await api(owner).get('/api/contacts?search=mens')).json().data;
    expect(byName.contacts).toMatchObject([{ name: 'Kofi Mensah', msisdn: '+233241000002' }]);
    expect((await api(owner).get('/api/contacts?search=100%25')).json().data.contacts).toEqual([]);
    const first = (await api(owner).get('/api/contacts?limit=2')).json().data;
    const second = (await api(owner).get('/api/contacts?limit=2&offset=2')).json().data;
    expect([first.contacts.length, first.hasMore, second.contacts.length, second.hasMore]).toEqual([2, true, 1, false]);
    // The other account's caller with the same number is its own contact, with no name.
    expect((await api(other).get('/api/contacts')).json().data.contacts).toMatchObject([{ msisdn: '+233241000001', name: null }]);
    expect((await api(owner).get('/api/contacts?limit=500')).statusCode).toBe(400);
  });

  it('shows one contact with its sessions; another account’s contact answers 404, and changes nothing', async () => {
    const id = await findId(owner.user.id, '+233241000001');
    const detail = (await api(owner).get(`/api/contacts/${id}`)).json().data;
    expect(detail).toMatchObject({ msisdn: '+233241000001', name: 'Ama Owusu', seen: { whatsapp: { firstSeen: null } } });
    expect(detail.seen.ussd.firstSeen).toEqual(expect.any(String));
    expect(detail.recentSessions).toMatchObject([{ appId, channel: 'ussd', sessionId: 'A-1', status: 'completed', hopCount: 2 }]);

    const othersId = await findId(other.user.id, '+233241000001');
    expect((await api(owner).get(`/api/contacts/${othersId}`)).statusCode).toBe(404);
    expect((await api(owner).post(`/api/contacts/${othersId}`, { name: 'Taken' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/contacts/${othersId}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await api(owner).get('/api/contacts/not-a-uuid')).statusCode).toBe(404);
    expect((await api(other).get(`/api/contacts/${othersId}`)).json().data).toMatchObject({ name: null, msisdn: '+233241000001' });
  });

  it('updates name, language and attributes, and refuses bad input without changing anything', async () => {
    const id = await findId(owner.user.id, '+233241000002');
    const saved = await api(owner).post(`/api/contacts/${id}`, { name: 'Kofi M.', language: 'tw', attributes: { tier: 'gold' } });
    expect(saved.json().data).toMatchObject({ name: 'Kofi M.', language: 'tw', attributes: { tier: 'gold' } });
    for (const bad of [
      { attributes: { name: 'x' } },
      { attributes: { '1x': 'y' } },
      { language: 'Twi language' },
      { msisdn: '+1' },
      { name: 'x'.repeat(201) },
    ]) {
      expect((await api(owner).post(`/api/contacts/${id}`, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await api(owner).get(`/api/contacts/${id}`)).json().data).toMatchObject({
      name: 'Kofi M.',
      language: 'tw',
      attributes: { tier: 'gold' },
    });
    // What the console or the API keeps, a session reads.
    expect((await dial(appId, 'A-2b', '0241000002', '')).body).toBe('CON Hi Kofi M.. Your name?');
  });

  it("deletes a contact and erases the person's data from its sessions, keeping them only as anonymous counts", async () => {
    const id = await findId(owner.user.id, '+233551000003');
    const res = await t.app.inject({ method: 'DELETE', url: `/api/contacts/${id}`, headers: owner.auth });
    expect(res.json()).toMatchObject({ status: '00', message: 'Contact deleted' });
    expect(await t.db.select().from(contacts).where(eq(contacts.id, id))).toEqual([]);
    const [record] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'A-3')));
    expect(record).toMatchObject({ status: 'completed', hopCount: 2, contactMsisdn: null, inputs: {} });
    expect(record!.mobile).toMatch(/^erased:/);
    const ofSession = (table: typeof sessionInputs | typeof actionResults) =>
      t.db
        .select()
        .from(table)
        .where(and(eq(table.appId, appId), eq(table.sessionId, 'A-3')));
    expect(await ofSession(sessionInputs)).toEqual([]);
    // The hops' rows kept their inputs until now: none is left.
    const hops = await t.db
      .select({ inputs: appLogs.inputs })
      .from(appLogs)
      .where(and(eq(appLogs.appId, appId), eq(appLogs.sessionId, 'A-3')));
    expect(hops.length).toBeGreaterThan(0);
    expect(hops.every((h) => h.inputs === null)).toBe(true);
    const logs = await t.db
      .select()
      .from(appLogLines)
      .where(and(eq(appLogLines.appId, appId), eq(appLogLines.sessionId, 'A-3')));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((l) => l.message === '(erased)' && l.data === null)).toBe(true);
    expect(JSON.stringify(logs)).not.toContain('Akosua');
    // The other callers' sessions are untouched.
    const [kept] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'A-1')));
    expect(kept).toMatchObject({ mobile: '233241000001', contactMsisdn: '+233241000001' });
    expect((await api(owner).get(`/api/contacts/${id}`)).statusCode).toBe(404);
  });
});
