import { beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { contacts } from '../../../db/schema';
import { CONTACT_ATTRIBUTE_KEYS_MAX, CONTACT_ATTRIBUTE_KEYS_SAMPLE } from '../../../shared/api/contacts.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

describeDb("the account's attribute keys (GET /api/contacts/attribute-keys)", () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const big = useUser(t);
  const empty = useUser(t);
  const keysOf = async (user: typeof owner) => {
    const reply = await createApiClient(t, user).get('/api/contacts/attribute-keys');
    expect(reply.statusCode).toBe(200);
    return reply.json().data as { keys: Array<{ key: string; contacts: number }>; isSampled: boolean };
  };

  beforeAll(async () => {
    await t.db.insert(contacts).values([
      { ownerId: owner.user.id, msisdn: '+233241000001', attributes: { tier: 'gold', city: 'Accra' } },
      { ownerId: owner.user.id, msisdn: '+233241000002', attributes: { tier: 'silver', city: 'Kumasi', zone: 'north' } },
      { ownerId: owner.user.id, msisdn: '+233241000003', attributes: { tier: 'gold' } },
      { ownerId: owner.user.id, msisdn: '+233241000004' },
      // Another account's contact with the same number, and a key of its own.
      { ownerId: other.user.id, msisdn: '+233241000001', attributes: { secret_plan: 'x', tier: 'bronze' } },
    ]);
  });

  it("answers the account's keys, the most used first, and never another account's", async () => {
    expect(await keysOf(owner)).toEqual({
      keys: [
        { key: 'tier', contacts: 3 },
        { key: 'city', contacts: 2 },
        { key: 'zone', contacts: 1 },
      ],
      isSampled: false,
    });
    expect(await keysOf(other)).toEqual({
      keys: [
        { key: 'secret_plan', contacts: 1 },
        { key: 'tier', contacts: 1 },
      ],
      isSampled: false,
    });
    expect(await keysOf(empty)).toEqual({ keys: [], isSampled: false });
  });

  it('answers at most 100 keys, and reads a bounded sample of a large account', async () => {
    // One more contact than the sample, each with keys of its own past the cap: 20,001 contacts, 150 keys.
    await t.db.execute(sql`
      insert into ${contacts} (owner_id, msisdn, attributes)
      select ${big.user.id}, '+2332' || lpad(n::text, 8, '0'),
        case when n <= 3 then (select jsonb_object_agg('k' || lpad((n * 50 + k)::text, 3, '0'), 'v') from generate_series(0, 49) k)
             else '{"common":"1"}'::jsonb end
      from generate_series(1, ${CONTACT_ATTRIBUTE_KEYS_SAMPLE + 1}) n`);
    const answer = await keysOf(big);
    expect(answer.keys).toHaveLength(CONTACT_ATTRIBUTE_KEYS_MAX);
    // The sample's contacts only: the last one in number order is not read.
    expect(answer.keys[0]).toEqual({ key: 'common', contacts: CONTACT_ATTRIBUTE_KEYS_SAMPLE - 3 });
    expect(answer.isSampled).toBe(true);
  });

  it('needs a signed-in account', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/api/contacts/attribute-keys' });
    expect(reply.statusCode).toBe(401);
  });
});
