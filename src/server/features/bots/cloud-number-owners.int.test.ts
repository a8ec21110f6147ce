import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { whatsappLinks } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, type SeededUser } from '../../../../tests/support/test-app';
import { type CloudTestApp, createCloudTestApp, graphError } from '../../../../tests/support/cloud-api';

const INSTALLATION_TOKEN = 'EAAG-installation-token';
const OWN_TOKEN = 'EAAG-business-b-system-user-token';
const OTHER_TOKEN = 'EAAG-business-c-system-user-token';

/**
 * Who a Cloud API number belongs to. The local server answers as Meta's Graph API documentation shows: the
 * installation's token reads every number of the operator's business (`readable`), a business's own token only
 * its own numbers (`ownTokenReads`), and a number a token cannot read is error 100.
 */
describeDb('Cloud API numbers belong to the account that proved them', () => {
  const readable = new Set(['200000000001', '200000000002', '200000000003']);
  const ownTokenReads = new Set(['200000000001', '200000000003']);
  const tokensSeen: string[] = [];
  let t: CloudTestApp;
  let a: SeededUser;
  let b: SeededUser;

  beforeAll(async () => {
    t = await createCloudTestApp(
      ({ method, path, query, token }) => {
        const id = path.split('/')[1] ?? '';
        tokensSeen.push(token);
        const canRead = token === INSTALLATION_TOKEN ? readable.has(id) : token === OWN_TOKEN && ownTokenReads.has(id);
        if (method === 'GET' && canRead) {
          const fields = query.get('fields') ?? '';
          return {
            body: fields.includes('display_phone_number')
              ? { display_phone_number: `+233 30 ${id.slice(-7)}`, verified_name: 'Shop', id }
              : { id },
          };
        }
        const message = `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`;
        return graphError(400, message, 100, { type: 'GraphMethodException', error_subcode: 33 });
      },
      {
        WHATSAPP_CLOUD_ACCESS_TOKEN: INSTALLATION_TOKEN,
        // A token that proves a number is kept (sealed) to send with: the installation needs the key.
        WHATSAPP_CREDENTIALS_KEY: 'ab'.repeat(32),
      },
    );
    a = await seedUser(t, { roles: ['CHATBOT'] });
    b = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(() => t?.close());

  const createBot = async (user: SeededUser) =>
    (await createApiClient(t, user).post('/api/chatbot/app/create', { appName: 'Cloud Bot', description: 'Official route' })).json().data
      .appId as string;
  const link = (user: SeededUser, chatBotAppId: string, phoneNumberId: string, accessToken?: string) =>
    createApiClient(t, user).post('/api/chatbot/whatsapp/link', { chatBotAppId, phoneNumberId, ...(accessToken ? { accessToken } : {}) });
  const unlink = async (user: SeededUser, linkId: string) =>
    expect((await createApiClient(t, user).get(`/api/chatbot/whatsapp/unlink/${linkId}`)).json().status).toBe('00');
  const linksOf = (appId: string) => t.db.select().from(whatsappLinks).where(eq(whatsappLinks.appId, appId));

  it('keeps a number one account unlinked from the next account that asks, unless it proves the number with its own token', async () => {
    const botA = await createBot(a);
    const botB = await createBot(b);
    const first = (await link(a, botA, '200000000001')).json();
    expect(first.data).toMatchObject({ status: 'CONNECTED' });
    await unlink(a, first.data.linkId);

    // The installation's token reads the number, but that says nothing about whose it is.
    const claimed = await link(b, botB, '200000000001');
    expect(claimed.statusCode).toBe(409);
    expect(claimed.json()).toMatchObject({ status: '02', message: expect.stringContaining('linked by another account') });
    // A token Meta refuses for this number proves nothing, and changes nothing.
    const refused = await link(b, botB, '200000000001', OTHER_TOKEN);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ status: '02', message: expect.stringContaining('cannot read that phone number ID') });
    expect(await linksOf(botB)).toEqual([]);

    // B's own token reads it: the number is B's now, and A needs a token of its own to take it back.
    const proved = (await link(b, botB, '200000000001', OWN_TOKEN)).json();
    expect(proved.data).toMatchObject({ status: 'CONNECTED', mobileNumber: '+233300000001' });
    expect(tokensSeen).toContain(OWN_TOKEN);
    await unlink(b, proved.data.linkId);
    expect((await link(a, botA, '200000000001')).statusCode).toBe(409);
    // Its owner links it again without a token.
    expect((await link(b, botB, '200000000001')).json().data).toMatchObject({ status: 'CONNECTED' });
  });

  it('never takes a number another account holds, even with a token that reads it', async () => {
    const botA = await createBot(a);
    const botB = await createBot(b);
    expect((await link(a, botA, '200000000003')).json().data).toMatchObject({ status: 'CONNECTED' });
    const taken = await link(b, botB, '200000000003', OWN_TOKEN);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This number is already linked to a bot; unlink it there first');
    expect(await linksOf(botB)).toEqual([]);
  });

  it('lets a number go when Meta refuses the link, so a failed link to it does not keep its owner out', async () => {
    const botA = await createBot(a);
    const botB = await createBot(b);
    // B links a number the operator's business does not have yet: Meta refuses, and the link holds nothing.
    expect((await link(b, botB, '200000000004')).json().data).toMatchObject({ status: 'FAILED' });
    readable.add('200000000004');
    expect((await link(a, botA, '200000000004')).json().data).toMatchObject({ status: 'CONNECTED' });
  });
});
