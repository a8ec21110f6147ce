import { createServer, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contacts, whatsappFirstMessages, whatsappMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';

const PHONE_NUMBER_ID = '109876543277';
const WABA_ID = '200000000000077';
const CUSTOMER = '+233241234567';
/** Meta's answer to a template it does not take, as its error codes reference shows one. */
const META_REFUSAL = {
  error: {
    message: '(#131026) Message undeliverable',
    type: 'OAuthException',
    code: 131026,
    error_data: { messaging_product: 'whatsapp', details: 'Message undeliverable: the recipient cannot receive this message' },
    fbtrace_id: 'Az1',
  },
};

/**
 * A first message the provider refuses (docs/bots.md, "Writing first"), on a Cloud API number whose Graph API is a
 * local server answering as Meta's documentation shows: the start answers 502, its line is recorded failed with
 * Meta's words, no sent message is recorded for it, and the contact's timeline shows it failed.
 */
describeDb('a first message the provider refuses', () => {
  let graph: Server;
  let t: TestApp;
  let builder: SeededUser;
  let appId = '';
  let sends = 0;

  beforeAll(async () => {
    graph = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://graph');
        res.setHeader('content-type', 'application/json');
        const answer = (status: number, body: unknown) => {
          res.statusCode = status;
          res.end(JSON.stringify(body));
        };
        if (req.method === 'GET' && url.pathname === `/v21.0/${PHONE_NUMBER_ID}`)
          return answer(200, { display_phone_number: '+233 30 123 4577', verified_name: 'Ama Shop', id: PHONE_NUMBER_ID });
        if (req.method === 'GET' && url.pathname === `/v21.0/${WABA_ID}/message_templates`)
          return answer(200, {
            data: [
              {
                id: '3001',
                name: 'welcome_back',
                language: 'en',
                category: 'MARKETING',
                status: 'APPROVED',
                components: [{ type: 'BODY', text: 'Hello {{1}}, we have news.', example: { body_text: [['Ama']] } }],
              },
            ],
            paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } },
          });
        if (req.method === 'POST' && url.pathname === `/v21.0/${PHONE_NUMBER_ID}/messages`) {
          sends += 1;
          return answer(400, META_REFUSAL);
        }
        return answer(400, { error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100, fbtrace_id: 'x' } });
      });
    });
    await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
    const address = graph.address();
    t = await createTestApp({
      WHATSAPP_CONNECTOR: 'cloud',
      WHATSAPP_CLOUD_API_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v21.0`,
      WHATSAPP_CLOUD_ACCESS_TOKEN: 'EAAG-test-token',
      WHATSAPP_CLOUD_APP_SECRET: 'cloud-app-secret',
      WHATSAPP_CLOUD_VERIFY_TOKEN: 'verify-me',
      WHATSAPP_CLOUD_WABA_ID: WABA_ID,
    });
    builder = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => graph.close(() => resolve()));
  });

  it("records the line failed with Meta's words, answers 502, and the contact's timeline shows it failed", async () => {
    const { get, post } = createApiClient(t, builder);
    appId = (await post('/api/chatbot/app/create', { appName: 'Refused Bot', description: 'writes first' })).json().data.appId;
    await seedMenu(t, builder.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', isFirst: true, terminate: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED' });
    const linkId: string = linked.data.linkId;
    expect((await post(`/api/chatbot/whatsapp/templates/${linkId}/sync`, {})).json().status).toBe('00');
    const consent = { whatsapp: { status: 'in' as const, at: '2026-01-02T10:00:00.000Z', source: 'console' as const, detail: null } };
    await t.db.insert(contacts).values({ ownerId: builder.user.id, msisdn: CUSTOMER, name: 'Ama', consent });

    const started = await post(`/api/bots/${appId}/conversations`, {
      msisdn: CUSTOMER,
      template: { name: 'welcome_back', language: 'en', variables: { body: { '1': '{{contact.name}}' } } },
    });
    expect(started.statusCode).toBe(502);
    expect(started.json().message).toMatch(/^WhatsApp did not take the message \(recorded as failed\): .*131026/);
    expect(sends).toBe(1);

    const [line] = await t.db.select().from(whatsappFirstMessages).where(eq(whatsappFirstMessages.appId, appId));
    expect(line).toMatchObject({ kind: 'template', templateName: 'welcome_back', status: 'failed', providerMessageId: null });
    expect(line!.error).toMatch(/131026/);
    expect(line!.error).toMatch(/undeliverable/i);
    await t.app.runtime.flushEvents();
    // Nothing went out, so no sent message is recorded for it (the delivery counts never see it).
    expect(await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.appId, appId))).toEqual([]);

    const [contact] = await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.ownerId, builder.user.id), eq(contacts.msisdn, CUSTOMER)));
    const detail = (await get(`/api/contacts/${contact!.id}`)).json().data;
    expect(detail.firstMessages).toMatchObject([
      { appId, linkId, kind: 'template', templateName: 'welcome_back', status: 'failed', error: line!.error, delivery: null },
    ]);
  });
});
