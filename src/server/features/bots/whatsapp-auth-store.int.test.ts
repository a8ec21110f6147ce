import { randomBytes, randomUUID } from 'node:crypto';
import { initAuthCreds, makeCacheableSignalKeyStore, proto } from 'baileys';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apps, users, whatsappAuthKeys, whatsappLinks } from '../../../db/schema';
import { createTestDatabase, describeDb, type TestDatabase } from '../../../../tests/support/test-db';
import { createWhatsAppAuthStore } from './whatsapp-auth-store';

describeDb('WhatsApp auth store', () => {
  let testDb: TestDatabase;
  const key = randomBytes(32);

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(() => testDb.close());

  /** A bot with a linked number of its own: the keys' rows hang off the link's row. */
  async function seedLink(): Promise<string> {
    const { db } = testDb.database;
    const [user] = await db
      .insert(users)
      .values({ fullName: 'Bot Owner', email: `owner-${randomUUID()}@example.com`, passwordHash: 'x' })
      .returning({ id: users.id });
    const appId = randomBytes(16).toString('hex');
    await db.insert(apps).values({
      id: appId,
      userId: user!.id,
      appName: 'Bot',
      country: 'ghana',
      shortCode: '',
      connectionMode: 'whatsapp',
      channel: 'whatsapp',
    });
    const [link] = await db.insert(whatsappLinks).values({ appId, connector: 'baileys' }).returning({ id: whatsappLinks.id });
    return link!.id;
  }

  const rowsOf = (linkId: string) => testDb.database.db.select().from(whatsappAuthKeys).where(eq(whatsappAuthKeys.linkId, linkId));

  it('gives a new link new credentials, and reads back saved ones with their Buffers', async () => {
    const linkId = await seedLink();
    const store = createWhatsAppAuthStore(testDb.database.db, { key });
    const { state, saveCreds } = await store.load(linkId);
    expect(state.creds.me).toBeUndefined();
    expect(state.creds.noiseKey.private).toHaveLength(32);
    expect(await rowsOf(linkId)).toEqual([]);

    state.creds.me = { id: '233241234567:7@s.whatsapp.net', name: 'Shop' };
    state.creds.routingInfo = Buffer.from([1, 2, 3]);
    await saveCreds();
    await saveCreds();
    const rows = await rowsOf(linkId);
    expect(rows.map((r) => [r.type, r.keyId])).toEqual([['creds', '']]);

    const reloaded = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    expect(reloaded.state.creds.me).toEqual({ id: '233241234567:7@s.whatsapp.net', name: 'Shop' });
    expect(Buffer.isBuffer(reloaded.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(reloaded.state.creds.noiseKey.private)).toEqual(Buffer.from(state.creds.noiseKey.private));
    expect(Buffer.from(reloaded.state.creds.signedPreKey.signature)).toEqual(Buffer.from(state.creds.signedPreKey.signature));
    expect(reloaded.state.creds.routingInfo).toEqual(Buffer.from([1, 2, 3]));
    expect(reloaded.state.creds.registrationId).toBe(state.creds.registrationId);
  });

  it('gets, sets and deletes signal keys by type and id', async () => {
    const linkId = await seedLink();
    const { state } = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    const preKey = (n: number) => ({ public: Buffer.alloc(32, n), private: Buffer.alloc(32, n + 100) });
    await state.keys.set({
      'pre-key': { '1': preKey(1), '2': preKey(2) },
      session: { '233241234567.0': Buffer.from('session bytes') },
      'lid-mapping': { '233241234567': '123456789012345' },
      'device-list': { '233241234567': ['0', '7'] },
    });
    expect(await state.keys.get('pre-key', ['1', '2', '3'])).toEqual({ '1': preKey(1), '2': preKey(2) });
    expect(await state.keys.get('session', ['233241234567.0'])).toEqual({ '233241234567.0': Buffer.from('session bytes') });
    expect(await state.keys.get('lid-mapping', ['233241234567'])).toEqual({ '233241234567': '123456789012345' });
    expect(await state.keys.get('device-list', ['233241234567'])).toEqual({ '233241234567': ['0', '7'] });
    expect(await state.keys.get('pre-key', [])).toEqual({});

    await state.keys.set({ 'pre-key': { '1': null, '2': preKey(9) } });
    expect(await state.keys.get('pre-key', ['1', '2'])).toEqual({ '2': preKey(9) });
    // The same ids under another type are other keys.
    expect(await state.keys.get('sender-key', ['1', '2'])).toEqual({});
  });

  it('rebuilds app-state sync keys as protobuf objects, and works behind Baileys’ key cache', async () => {
    const linkId = await seedLink();
    const { state } = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    const syncKey = {
      keyData: Buffer.alloc(32, 7),
      fingerprint: { rawId: 12, currentIndex: 3, deviceIndexes: [0, 1] },
      timestamp: 1_732_262_400,
    };
    await state.keys.set({ 'app-state-sync-key': { AAAAAMZj: syncKey } });
    const { AAAAAMZj: read } = await state.keys.get('app-state-sync-key', ['AAAAAMZj']);
    expect(read).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(read!.keyData!)).toEqual(syncKey.keyData);
    expect(read!.fingerprint).toMatchObject({ rawId: 12, currentIndex: 3, deviceIndexes: [0, 1] });

    const cached = makeCacheableSignalKeyStore(state.keys);
    await cached.set({ tctoken: { '233241234567': { token: Buffer.from('tc'), timestamp: '1732262400' } } });
    const fresh = (await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId)).state.keys;
    expect(await fresh.get('tctoken', ['233241234567'])).toEqual({ '233241234567': { token: Buffer.from('tc'), timestamp: '1732262400' } });
  });

  it('keeps every value encrypted: nothing readable in the table', async () => {
    const linkId = await seedLink();
    const { state, saveCreds } = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    state.creds.me = { id: '233241234567:7@s.whatsapp.net', name: 'Shop' };
    await saveCreds();
    await state.keys.set({ 'lid-mapping': { '233241234567': '123456789012345' }, session: { s1: Buffer.from('secret session') } });
    const rows = await rowsOf(linkId);
    expect(rows).toHaveLength(3);
    const secrets = [
      '233241234567',
      '123456789012345',
      'noiseKey',
      'Shop',
      Buffer.from(state.creds.noiseKey.private).toString('base64'),
      'secret session',
    ];
    for (const { value } of rows) {
      expect(value).toMatch(/^v1:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*:[A-Za-z0-9+/]+=*$/);
      const plain = `${value}\n${Buffer.from(value.split(':')[3]!, 'base64').toString('latin1')}`;
      for (const secret of secrets) expect(plain).not.toContain(secret);
    }
  });

  it('refuses to read with another key, naming the setting', async () => {
    const linkId = await seedLink();
    const { state, saveCreds } = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    await saveCreds();
    await state.keys.set({ session: { s1: Buffer.from('x') } });

    const wrong = createWhatsAppAuthStore(testDb.database.db, { key: randomBytes(32) });
    await expect(wrong.load(linkId)).rejects.toThrow(/cannot be decrypted: WHATSAPP_CREDENTIALS_KEY is not the key they were saved with/);
    expect(() => createWhatsAppAuthStore(testDb.database.db, { key: randomBytes(16) })).toThrow(/32 bytes/);
  });

  it('does not decrypt a value moved into another row', async () => {
    const linkId = await seedLink();
    const { state } = await createWhatsAppAuthStore(testDb.database.db, { key }).load(linkId);
    await state.keys.set({ session: { s1: Buffer.from('one'), s2: Buffer.from('two') } });
    const { db } = testDb.database;
    const [s1] = await db
      .select()
      .from(whatsappAuthKeys)
      .where(and(eq(whatsappAuthKeys.linkId, linkId), eq(whatsappAuthKeys.keyId, 's1')));
    await db
      .update(whatsappAuthKeys)
      .set({ value: s1!.value })
      .where(and(eq(whatsappAuthKeys.linkId, linkId), eq(whatsappAuthKeys.keyId, 's2')));
    expect(await state.keys.get('session', ['s1'])).toEqual({ s1: Buffer.from('one') });
    await expect(state.keys.get('session', ['s2'])).rejects.toThrow(/WHATSAPP_CREDENTIALS_KEY/);
  });

  it('clears one link’s rows and no other’s; the link then starts over with new credentials', async () => {
    const [first, second] = [await seedLink(), await seedLink()];
    const store = createWhatsAppAuthStore(testDb.database.db, { key });
    for (const linkId of [first, second]) {
      const { state, saveCreds } = await store.load(linkId);
      await saveCreds();
      await state.keys.set({ 'pre-key': { '1': { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } } });
    }
    const before = (await store.load(first)).state.creds.noiseKey.private;
    await store.clear(first);
    expect(await rowsOf(first)).toEqual([]);
    expect(await rowsOf(second)).toHaveLength(2);
    const after = await store.load(first);
    expect(Buffer.from(after.state.creds.noiseKey.private)).not.toEqual(Buffer.from(before));
    expect(Object.keys(initAuthCreds()).sort()).toEqual(Object.keys(after.state.creds).sort());
  });
});
