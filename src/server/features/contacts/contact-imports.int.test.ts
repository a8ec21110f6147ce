import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { contactImports, contacts } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { waitForContactImports } from './contact-imports.service';

describeDb('contacts CSV import', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const api = (user: typeof owner) => createApiClient(t, user);
  const rowsOf = async (ownerId: string) => t.db.select().from(contacts).where(eq(contacts.ownerId, ownerId)).orderBy(contacts.msisdn);
  /** Starts an import and waits for it; answers the finished job. */
  const importFile = async (user: typeof owner, csv: string, extra: object = {}) => {
    const started = await api(user).post('/api/contacts/imports', { csv, defaultCountry: 'ghana', ...extra });
    expect(started.statusCode, started.body).toBe(200);
    await waitForContactImports();
    return (await api(user).get(`/api/contacts/imports/${started.json().data.importId}`)).json().data;
  };

  it('previews a file: columns, the E.164 number each row becomes, and per-row errors, writing nothing', async () => {
    const csv = [
      'Phone Number,name,language,city,whatsapp_consent',
      '0241000001,Ama Owusu,en,Accra,yes',
      '+233 24 100 0002,Kofi,tw,Kumasi,no',
      'hello,Nobody,,,',
      '233241000001,Ama again,,,',
      `0551000003,${'x'.repeat(201)},,${'y'.repeat(501)},maybe`,
    ].join('\r\n');
    const res = await api(owner).post('/api/contacts/imports/preview', { csv, defaultCountry: 'ghana' });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json().data;
    expect(preview.columns.map((c: { kind: string; key: string | null }) => [c.kind, c.key])).toEqual([
      ['phone', null],
      ['name', null],
      ['language', null],
      ['attribute', 'city'],
      ['consent', 'whatsapp'],
    ]);
    expect(preview).toMatchObject({ rowCount: 5, errorCount: 3, hasConsent: true });
    expect(preview.rows.map((r: { row: number; msisdn: string | null }) => [r.row, r.msisdn])).toEqual([
      [2, '+233241000001'],
      [3, '+233241000002'],
      [4, null],
      [5, '+233241000001'],
      [6, '+233551000003'],
    ]);
    expect(preview.errors).toEqual([
      { row: 4, value: 'hello', message: 'Not a phone number: hello' },
      { row: 5, value: '233241000001', message: 'Same number as row 2 (+233241000001)' },
      {
        row: 6,
        value: '0551000003',
        message: 'The name is longer than 200 characters; city is longer than 500 characters; whatsapp_consent is yes or no, not maybe',
      },
    ]);
    expect(await rowsOf(owner.user.id)).toEqual([]);
  });

  it('refuses a file it cannot read whole with a clear message, and changes nothing', async () => {
    const refusals: Array<[string, string]> = [
      ['name,city\nAma,Accra', 'no phone number column'],
      ['phone,name\n', 'no rows'],
      ['phone,name\n0241000001,"Ama', 'is never closed'],
    ];
    for (const [csv, message] of refusals) {
      for (const url of ['/api/contacts/imports/preview', '/api/contacts/imports']) {
        const res = await api(owner).post(url, { csv, defaultCountry: 'ghana' });
        expect(res.statusCode, `${url} ${csv}`).toBe(400);
        expect(res.json().message.toLowerCase()).toContain(message);
      }
    }
    // A header that is no attribute key: the preview shows it, the import refuses.
    const badKey = 'phone,my city\n0241000001,Accra';
    const preview = (await api(owner).post('/api/contacts/imports/preview', { csv: badKey, defaultCountry: 'ghana' })).json().data;
    expect(preview.columns[1]).toMatchObject({ kind: 'attribute', error: expect.stringContaining('"my city" is not an attribute key') });
    expect((await api(owner).post('/api/contacts/imports', { csv: badKey, defaultCountry: 'ghana' })).statusCode).toBe(400);
    // Consent columns need a consent source.
    const consent = await api(owner).post('/api/contacts/imports', { csv: 'phone,sms_consent\n0241000001,yes', defaultCountry: 'ghana' });
    expect(consent.json()).toMatchObject({ status: '02', field: 'consentSource' });
    expect((await api(owner).post('/api/contacts/imports', { csv: 'phone\n0241000001', defaultCountry: 'mars' })).statusCode).toBe(400);
    expect(await rowsOf(owner.user.id)).toEqual([]);
  });

  it('imports: creates and updates (attributes merged, never duplicated), records consent from the stated source, skips bad rows', async () => {
    // A contact the runtime already made, with an attribute the file does not name.
    await t.db.insert(contacts).values({ ownerId: owner.user.id, msisdn: '+233241000002', name: 'Kofi', attributes: { tier: 'gold' } });
    const csv = [
      'phone,name,language,city,whatsapp_consent,sms_consent',
      '0241000001,Ama Owusu,en,Accra,yes,',
      '0241000002,,tw,Kumasi,no,yes',
      'nope,Bad,,,,',
      '0241000001,Twice,,,,',
    ].join('\n');
    const job = await importFile(owner, csv, { consentSource: 'Paper forms, Accra market 2026' });
    expect(job).toMatchObject({ status: 'done', rowCount: 4, processed: 4, created: 1, updated: 1, skipped: 2, failure: null });
    const rows = await rowsOf(owner.user.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ msisdn: '+233241000001', name: 'Ama Owusu', language: 'en', attributes: { city: 'Accra' } });
    expect(rows[0]!.consent.whatsapp).toMatchObject({ status: 'in', source: 'import', detail: 'Paper forms, Accra market 2026' });
    expect(rows[0]!.consent.sms).toBeUndefined();
    expect(rows[1]).toMatchObject({ msisdn: '+233241000002', name: 'Kofi', language: 'tw', attributes: { tier: 'gold', city: 'Kumasi' } });
    expect(rows[1]!.consent).toMatchObject({ whatsapp: { status: 'out', source: 'import' }, sms: { status: 'in', source: 'import' } });

    // The skipped rows download as a CSV.
    const errors = await t.app.inject({ method: 'POST', url: `/api/contacts/imports/${job.importId}/errors`, headers: owner.auth });
    expect(errors.headers['content-type']).toContain('text/csv');
    expect(errors.body).toContain('"row","phone","error"');
    expect(errors.body).toContain('"4","nope","Not a phone number: nope"');
    expect(errors.body).toContain('"5","0241000001","Same number as row 2 (+233241000001)"');

    // Importing the same file again updates, never duplicates.
    const again = await importFile(owner, csv, { consentSource: 'Paper forms' });
    expect(again).toMatchObject({ created: 0, updated: 2, skipped: 2 });
    expect(await rowsOf(owner.user.id)).toHaveLength(2);

    // Another account's contacts are untouched, and its import ids answer 404 here.
    expect(await rowsOf(other.user.id)).toEqual([]);
    expect((await api(other).get(`/api/contacts/imports/${job.importId}`)).statusCode).toBe(404);
    const foreignErrors = await t.app.inject({ method: 'POST', url: `/api/contacts/imports/${job.importId}/errors`, headers: other.auth });
    expect(foreignErrors.statusCode).toBe(404);
  });

  it('runs one import at a time per account; another account imports meanwhile; a stale running import frees the slot', async () => {
    const [running] = await t.db.insert(contactImports).values({ ownerId: owner.user.id, rowCount: 10 }).returning();
    const lines = ['phone,tier'];
    for (let i = 0; i < 3000; i++) lines.push(`02420${String(i).padStart(5, '0')},t${i % 3}`);
    const csv = lines.join('\n');
    const refused = await api(owner).post('/api/contacts/imports', { csv, defaultCountry: 'ghana' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('already running');
    expect(await importFile(other, 'phone\n0241000009')).toMatchObject({ status: 'done', created: 1 });

    // A running import not heard of for ten minutes stopped with its server.
    await t.db
      .update(contactImports)
      .set({ updatedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(contactImports.id, running!.id));
    const done = await importFile(owner, csv);
    expect(done).toMatchObject({ status: 'done', processed: 3000, created: 3000, skipped: 0 });
    const [stale] = await t.db.select().from(contactImports).where(eq(contactImports.id, running!.id));
    expect(stale).toMatchObject({ status: 'failed', failure: 'The server stopped during the import' });
    const [one] = await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.ownerId, owner.user.id), eq(contacts.msisdn, '+233242000002')));
    expect(one).toMatchObject({ attributes: { tier: 't2' } });
    expect(await rowsOf(other.user.id)).toHaveLength(1);
  });
});
