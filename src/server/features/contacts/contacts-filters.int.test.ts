import { beforeAll, expect, it } from 'vitest';
import { contacts } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

describeDb('contacts: filters, consent edits and export', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const api = (user: typeof owner) => createApiClient(t, user);
  const at = '2026-01-02T10:00:00.000Z';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const rows = await t.db
      .insert(contacts)
      .values([
        {
          ownerId: owner.user.id,
          msisdn: '+233241000001',
          name: 'Ama Owusu',
          attributes: { city: 'Accra', tier: 'gold' },
          consent: { whatsapp: { status: 'in', at, source: 'menu', detail: 'opt-in menu' } },
          lastSeenUssd: new Date(at),
          firstSeenUssd: new Date(at),
        },
        {
          ownerId: owner.user.id,
          msisdn: '+233241000002',
          name: 'Kofi Mensah',
          attributes: { city: 'Kumasi', tier: 'gold' },
          consent: { whatsapp: { status: 'out', at, source: 'keyword', detail: 'STOP' } },
          firstSeenWhatsapp: new Date(at),
          lastSeenWhatsapp: new Date(at),
        },
        { ownerId: owner.user.id, msisdn: '+233551000003', name: 'Akosua', attributes: { city: 'Accra' } },
        // The other account's contact matches every filter, and never shows.
        {
          ownerId: other.user.id,
          msisdn: '+233241000001',
          name: 'Ama Owusu',
          attributes: { city: 'Accra', tier: 'gold' },
          consent: { whatsapp: { status: 'in', at, source: 'menu', detail: null } },
          lastSeenUssd: new Date(at),
        },
      ])
      .returning();
    for (const row of rows) if (row.ownerId === owner.user.id) ids[row.msisdn] = row.id;
  });

  const numbers = async (query: string) => {
    const res = await api(owner).get(`/api/contacts?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.contacts.map((c: { msisdn: string }) => c.msisdn);
  };

  it('filters by attribute values, consent per channel, and the channel seen on, with the search', async () => {
    expect(await numbers('attribute=city%3DAccra')).toEqual(['+233241000001', '+233551000003']);
    expect(await numbers('attribute=city%3DAccra&attribute=tier%3Dgold')).toEqual(['+233241000001']);
    expect(await numbers('attribute=city%3Daccra')).toEqual([]);
    expect(await numbers('consentChannel=whatsapp&consentStatus=in')).toEqual(['+233241000001']);
    expect(await numbers('consentChannel=whatsapp&consentStatus=out')).toEqual(['+233241000002']);
    expect(await numbers('consentChannel=whatsapp&consentStatus=never')).toEqual(['+233551000003']);
    expect(await numbers('consentChannel=sms&consentStatus=never')).toHaveLength(3);
    expect(await numbers('seenOn=ussd')).toEqual(['+233241000001']);
    expect(await numbers('seenOn=whatsapp')).toEqual(['+233241000002']);
    expect(await numbers('seenOn=sms')).toEqual([]);
    expect(await numbers('search=%2B23324&attribute=tier%3Dgold&seenOn=whatsapp')).toEqual(['+233241000002']);
    for (const bad of [
      'consentChannel=whatsapp',
      'consentStatus=in',
      'consentChannel=fax&consentStatus=in',
      'attribute=no-equals',
      'seenOn=x',
    ]) {
      const res = await api(owner).get(`/api/contacts?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().status).toBe('02');
    }
  });

  it('opts a contact in or out per channel, recording the console user or the API key as the source', async () => {
    const id = ids['+233551000003']!;
    const saved = await api(owner).post(`/api/contacts/${id}`, { consent: { sms: 'in' } });
    expect(saved.json().data.consent).toMatchObject({ sms: { status: 'in', source: 'console', detail: owner.email }, whatsapp: null });
    const key = await api(owner).post('/api/apiKey/create', { name: 'CRM sync', scope: 'write' });
    const byKey = await api(owner).post(
      `/api/contacts/${id}`,
      { consent: { whatsapp: 'out' } },
      {
        authorization: `Bearer ${key.json().key}`,
      },
    );
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data.consent).toMatchObject({
      sms: { status: 'in', source: 'console' },
      whatsapp: { status: 'out', source: 'api', detail: 'CRM sync' },
    });
    const bad = await api(owner).post(`/api/contacts/${id}`, { consent: { whatsapp: 'maybe' } });
    expect(bad.statusCode).toBe(400);
    expect((await api(owner).post(`/api/contacts/${id}`, { consent: { fax: 'in' } })).statusCode).toBe(400);
  });

  it('exports the filtered list as CSV: number, name, language, attributes as columns, consent and seen per channel', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contacts/export',
      headers: owner.auth,
      payload: { attribute: ['city=Accra'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe(
      '"phone_number","name","language","city","tier","ussd_consent","ussd_consent_at","ussd_consent_source","whatsapp_consent","whatsapp_consent_at","whatsapp_consent_source","sms_consent","sms_consent_at","sms_consent_source","ussd_first_seen","ussd_last_seen","whatsapp_first_seen","whatsapp_last_seen","sms_first_seen","sms_last_seen"',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      `"+233241000001","Ama Owusu","","Accra","gold","","","","yes","${at}","menu: opt-in menu","","","","${at}","${at}","","","",""`,
    );
    expect(lines[2]).toMatch(/^"\+233551000003","Akosua","","Accra","",/);
    const refused = await t.app.inject({ method: 'POST', url: '/api/contacts/export', headers: owner.auth, payload: { seenOn: 'fax' } });
    expect(refused.statusCode).toBe(400);
  });
});
