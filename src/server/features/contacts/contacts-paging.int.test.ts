import { beforeAll, expect, it } from 'vitest';
import { contacts } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

/** The list's search rule for short searches and its pages by number (docs/contacts.md, "Searching", "Pages"). */
describeDb('contacts: name starts and pages by number', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const at = new Date('2026-01-02T10:00:00.000Z');
  // +233240000000 .. +233240000011: names and the channels seen on by position.
  const NAMES = ['Kofi Mensah', 'akua Osei', 'Yaw Kofi', 'Ko_ Ba', null, 'Efua Ako', 'Kwame', 'Eko', 'Ama', null, 'Kojo', 'Abena'];
  const numberAt = (i: number) => `+2332400000${String(i).padStart(2, '0')}`;
  beforeAll(async () => {
    await t.db.insert(contacts).values(
      NAMES.map((name, i) => ({
        ownerId: owner.user.id,
        msisdn: numberAt(i),
        name,
        ...(i % 3 === 0 ? { firstSeenWhatsapp: at, lastSeenWhatsapp: at } : {}),
      })),
    );
    // The other account's contacts between and after the owner's numbers, named alike, never show.
    await t.db.insert(contacts).values([
      { ownerId: other.user.id, msisdn: '+233240000005', name: 'Kofi Other', firstSeenWhatsapp: at, lastSeenWhatsapp: at },
      { ownerId: other.user.id, msisdn: '+233240000099', name: 'Ko Other' },
    ]);
  });

  const list = async (query: string) => {
    const res = await createApiClient(t, owner).get(`/api/contacts?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    return { ...data, numbers: data.contacts.map((c: { msisdn: string }) => c.msisdn) };
  };
  const names = async (search: string) =>
    (await list(`search=${encodeURIComponent(search)}`)).contacts.map((c: { name: string }) => c.name);

  it("searches a name's start for one or two characters, any part of a name for three or more", async () => {
    expect(await names('k')).toEqual(['Kofi Mensah', 'Ko_ Ba', 'Kwame', 'Kojo']);
    expect(await names('KO')).toEqual(['Kofi Mensah', 'Ko_ Ba', 'Kojo']);
    expect(await names('ak')).toEqual(['akua Osei']);
    // `_` is searched for, not a wildcard.
    expect(await names('k_')).toEqual([]);
    expect(await names('eK')).toEqual(['Eko']);
    // Three characters: anywhere in the name.
    expect(await names('kof')).toEqual(['Kofi Mensah', 'Yaw Kofi']);
    expect(await names('ako')).toEqual(['Efua Ako']);
    // With a filter: the start among the contacts seen on WhatsApp (positions 0, 3, 6, 9).
    expect((await list('search=k&seenOn=whatsapp')).numbers).toEqual([numberAt(0), numberAt(3), numberAt(6)]);
  });

  it('pages after a number and back before one, with the cursors the reply gives, filters kept', async () => {
    const first = await list('limit=5');
    expect(first.numbers).toEqual([0, 1, 2, 3, 4].map(numberAt));
    expect(first).toMatchObject({ hasMore: true, nextAfter: numberAt(4), previousBefore: null });

    const second = await list(`limit=5&after=${encodeURIComponent(first.nextAfter)}`);
    expect(second.numbers).toEqual([5, 6, 7, 8, 9].map(numberAt));
    expect(second).toMatchObject({ hasMore: true, nextAfter: numberAt(9), previousBefore: numberAt(5) });

    const last = await list(`limit=5&after=${encodeURIComponent(second.nextAfter)}`);
    expect(last.numbers).toEqual([10, 11].map(numberAt));
    expect(last).toMatchObject({ hasMore: false, nextAfter: null, previousBefore: numberAt(10) });

    // Back: the page before the last page's first number, then before that one's.
    const back = await list(`limit=5&before=${encodeURIComponent(last.previousBefore)}`);
    expect(back.numbers).toEqual([5, 6, 7, 8, 9].map(numberAt));
    expect(back).toMatchObject({ hasMore: true, nextAfter: numberAt(9), previousBefore: numberAt(5) });
    const start = await list(`limit=5&before=${encodeURIComponent(back.previousBefore)}`);
    expect(start.numbers).toEqual([0, 1, 2, 3, 4].map(numberAt));
    expect(start).toMatchObject({ hasMore: true, nextAfter: numberAt(4), previousBefore: null });

    // A filter stays with the cursor: seen on WhatsApp, two a page.
    const seen = await list('limit=2&seenOn=whatsapp');
    expect(seen.numbers).toEqual([numberAt(0), numberAt(3)]);
    const seenNext = await list(`limit=2&seenOn=whatsapp&after=${encodeURIComponent(seen.nextAfter)}`);
    expect(seenNext.numbers).toEqual([numberAt(6), numberAt(9)]);
    expect(seenNext).toMatchObject({ hasMore: false, nextAfter: null });

    // The offset still works, from the start or from a cursor.
    expect((await list('limit=5&offset=10')).numbers).toEqual([10, 11].map(numberAt));
    expect((await list(`limit=2&offset=2&after=${encodeURIComponent(numberAt(4))}`)).numbers).toEqual([7, 8].map(numberAt));
  });

  it('refuses a page both after and before a number, and a cursor too long', async () => {
    const api = createApiClient(t, owner);
    const both = await api.get('/api/contacts?after=%2B233240000001&before=%2B233240000009');
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('Page after a number or before one, not both');
    expect((await api.get(`/api/contacts?after=${'1'.repeat(33)}`)).statusCode).toBe(400);
  });
});
