import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { whatsappLinks } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, type SeededUser } from '../../../../tests/support/test-app';
import {
  CLOUD_ACCESS_TOKEN,
  type CloudTestApp,
  cloudWebhookBody,
  createCloudTestApp,
  graphError,
  graphSent,
  postCloudWebhook,
  signCloudBody,
} from '../../../../tests/support/cloud-api';
import { createConfig } from '../../config';
import type { AppContext } from '../../context';
import type { WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import { sendTemplateMessage } from './whatsapp-templates.service';

const PHONE_NUMBER_ID = '109876543210';
const WABA_ID = '102290129340398';

interface MetaTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: unknown[];
}

/**
 * Message templates on a Cloud API number, end to end: a local server answers as Meta's WhatsApp Business
 * Management API documentation shows (the template list with cursor paging, create with its refusal shape,
 * delete by name, the messages endpoint), and the test signs `message_template_status_update` deliveries as Meta does.
 */
describeDb('WhatsApp templates on a Cloud API number', () => {
  let t: CloudTestApp;
  let builder: SeededUser;
  let stranger: SeededUser;
  let linkId = '';
  const requests: Array<{ method: string; url: string; authorization: string | undefined; body: unknown }> = [];
  /** What Meta holds for the business account, three of them over two pages. */
  const onMeta: MetaTemplate[] = [
    {
      id: '1001',
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      rejected_reason: 'NONE',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#42'] } },
        { type: 'BODY', text: 'Hi {{1}}, your order is on its way.', example: { body_text: [['Ama']] } },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track' }] },
      ],
    },
    {
      id: '1002',
      name: 'promo_sale',
      language: 'en',
      category: 'MARKETING',
      status: 'REJECTED',
      rejected_reason: 'TAG_CONTENT_MISMATCH',
      components: [{ type: 'BODY', text: 'Sale today!' }],
    },
    {
      id: '1003',
      name: 'welcome_back',
      language: 'fr',
      category: 'MARKETING',
      status: 'PENDING',
      components: [{ type: 'BODY', text: 'Bon retour {{first_name}}' }],
    },
  ];

  beforeAll(async () => {
    t = await createCloudTestApp(
      (call) => {
        const { method, path, query } = call;
        requests.push({ method, url: call.url, authorization: call.authorization, body: call.raw ? call.body : undefined });
        if (method === 'GET' && path === `/${PHONE_NUMBER_ID}`) {
          return { body: { display_phone_number: '+233 30 123 4567', verified_name: 'Ama Shop', id: PHONE_NUMBER_ID } };
        }
        if (path === `/${WABA_ID}/message_templates`) {
          if (method === 'GET') {
            // Two to a page: the first page names the next by its cursor; the last has no `next`.
            const start = query.get('after') === 'MgZDZD' ? 2 : 0;
            const data = onMeta.slice(start, start + 2);
            const more = start + 2 < onMeta.length;
            return {
              body: {
                data,
                paging: {
                  cursors: { before: 'MAZDZD', after: more ? 'MgZDZD' : 'MQZDZD' },
                  ...(more ? { next: `https://graph.facebook.com/v21.0/${WABA_ID}/message_templates?after=MgZDZD` } : {}),
                },
              },
            };
          }
          if (method === 'POST') {
            const body = call.body as unknown as MetaTemplate;
            if (body.name === 'already_there') {
              return graphError(400, 'Invalid parameter', 100, {
                error_subcode: 2388024,
                is_transient: false,
                error_user_title: 'Message template already exists',
                error_user_msg: 'There is already English (US) content for this template. You can create a new template and try again.',
                fbtrace_id: 'A3Kx1',
              });
            }
            onMeta.push({ ...body, id: '2001', status: 'PENDING' });
            return { body: { id: '2001', status: 'PENDING', category: body.category } };
          }
          if (method === 'DELETE') {
            const at = onMeta.findIndex((m) => m.name === query.get('name') && m.id === query.get('hsm_id'));
            if (at >= 0) onMeta.splice(at, 1);
            return { body: { success: true } };
          }
        }
        if (method === 'POST' && path === `/${PHONE_NUMBER_ID}/messages`) return graphSent('wamid.T1');
        return graphError(400, 'Unsupported request', 100, { type: 'GraphMethodException' });
      },
      { WHATSAPP_CLOUD_WABA_ID: WABA_ID },
    );
    builder = await seedUser(t, { roles: ['CHATBOT'] });
    stranger = await seedUser(t, { roles: ['CHATBOT'] });
    const { post } = createApiClient(t, builder);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Shop Bot', description: 'Orders' })).json().data.appId;
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data.status).toBe('CONNECTED');
    linkId = linked.data.linkId;
  });
  afterAll(() => t?.close());

  const api = () => createApiClient(t, builder);
  const list = async () => (await api().get(`/api/chatbot/whatsapp/templates/${linkId}`)).json().data;
  const sign = signCloudBody;
  const statusUpdate = (value: Record<string, unknown>) =>
    cloudWebhookBody('message_template_status_update', value, { id: WABA_ID, time: 1764150000 });
  const deliver = (body: string, signature: string) => postCloudWebhook(t, body, signature);
  /** The server's context as the service reads it: its database and this run's settings. */
  const context = () =>
    ({
      db: t.db,
      config: createConfig({
        NODE_ENV: 'test',
        WHATSAPP_CLOUD_API_URL: t.apiUrl,
        WHATSAPP_CLOUD_ACCESS_TOKEN: CLOUD_ACCESS_TOKEN,
        WHATSAPP_CLOUD_WABA_ID: WABA_ID,
      }),
      now: () => new Date(),
    }) as unknown as AppContext;

  it("syncs every page of Meta's list, with statuses, reasons and variables", async () => {
    expect(await list()).toEqual({ connector: 'cloud', syncedAt: null, templates: [] });
    const synced = (await api().post(`/api/chatbot/whatsapp/templates/${linkId}/sync`, {})).json();
    expect(synced.message).toBe('Templates synced from Meta');
    const gets = requests.filter((r) => r.method === 'GET' && r.url.includes('message_templates'));
    expect(gets.map((r) => new URL(r.url, 'http://x').searchParams.get('after'))).toEqual([null, 'MgZDZD']);
    expect(gets[0]!.authorization).toBe('Bearer EAAG-test-token');
    expect(new URL(gets[0]!.url, 'http://x').searchParams.get('fields')).toBe(
      'id,name,language,category,status,components,rejected_reason',
    );
    const byName = Object.fromEntries(synced.data.templates.map((x: { name: string }) => [x.name, x]));
    expect(Object.keys(byName).sort()).toEqual(['order_shipped', 'promo_sale', 'welcome_back']);
    expect(byName.order_shipped).toMatchObject({
      providerId: '1001',
      status: 'APPROVED',
      reason: '',
      header: 'Order {{1}}',
      body: 'Hi {{1}}, your order is on its way.',
      buttons: ['Track'],
      variables: [
        { place: 'header', name: '1' },
        { place: 'body', name: '1' },
      ],
    });
    expect(byName.promo_sale).toMatchObject({ status: 'REJECTED', reason: 'TAG_CONTENT_MISMATCH', category: 'MARKETING' });
    expect(byName.welcome_back.variables).toEqual([{ place: 'body', name: 'first_name' }]);
    expect(synced.data.syncedAt).not.toBeNull();
  });

  it('sends an approved template as Meta documents it, and refuses one deleted on Meta after a sync', async () => {
    const connector = {} as WhatsAppConnector;
    const send = { linkId, to: '233241234567', name: 'order_shipped', language: 'en_US' };
    await expect(sendTemplateMessage(context(), connector, { ...send, values: { body: { '1': 'Ama' } } })).rejects.toThrow(
      'no value for {{1}} in the header',
    );
    const sent = await sendTemplateMessage(context(), connector, { ...send, values: { header: { '1': '#42' }, body: { '1': 'Ama' } } });
    // Meta's answer names the message: its delivery statuses come back under that id.
    expect(sent).toEqual([
      {
        providerMessageId: 'wamid.T1',
        message: { type: 'buttons', body: '*Order #42*\n\nHi Ama, your order is on its way.', buttons: [{ id: '1', title: 'Track' }] },
      },
    ]);
    expect(requests.at(-1)).toEqual({
      method: 'POST',
      url: `/v21.0/${PHONE_NUMBER_ID}/messages`,
      authorization: 'Bearer EAAG-test-token',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '233241234567',
        type: 'template',
        template: {
          name: 'order_shipped',
          language: { code: 'en_US' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Ama' }] },
          ],
        },
      },
    });
    await expect(sendTemplateMessage(context(), connector, { ...send, name: 'promo_sale', language: 'en', values: {} })).rejects.toThrow(
      'The template "promo_sale" is REJECTED, not APPROVED',
    );

    // Deleted on Meta's side: the next sync removes it here, and a send naming it is refused in words.
    onMeta.splice(
      onMeta.findIndex((m) => m.name === 'order_shipped'),
      1,
    );
    await api().post(`/api/chatbot/whatsapp/templates/${linkId}/sync`, {});
    expect((await list()).templates.map((x: { name: string }) => x.name).sort()).toEqual(['promo_sale', 'welcome_back']);
    const before = requests.length;
    await expect(
      sendTemplateMessage(context(), connector, { ...send, values: { header: { '1': '#42' }, body: { '1': 'Ama' } } }),
    ).rejects.toThrow(`This number has no template "order_shipped" in en_US: it was never made here or was deleted on Meta's side`);
    expect(requests.length).toBe(before);
  });

  it("submits a new template to Meta, shows Meta's refusal in its words, and refuses bad input before Meta", async () => {
    const body = {
      name: 'payment_due',
      language: 'en_US',
      category: 'UTILITY',
      header: 'Payment due',
      body: 'Hi {{1}}, {{2}} is due on Friday.',
      footer: 'Thank you',
      buttons: ['Pay now', 'Later'],
      examples: { body: { '1': 'Ama', '2': 'GHS 20' } },
    };
    const made = (await api().post(`/api/chatbot/whatsapp/templates/${linkId}`, body)).json();
    expect(made).toMatchObject({ status: '00', message: 'Template submitted to Meta for review' });
    expect(made.data).toMatchObject({ providerId: '2001', status: 'PENDING', name: 'payment_due', buttons: ['Pay now', 'Later'] });
    expect(requests.at(-1)).toMatchObject({
      method: 'POST',
      url: `/v21.0/${WABA_ID}/message_templates`,
      body: {
        name: 'payment_due',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Payment due' },
          { type: 'BODY', text: 'Hi {{1}}, {{2}} is due on Friday.', example: { body_text: [['Ama', 'GHS 20']] } },
          { type: 'FOOTER', text: 'Thank you' },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'QUICK_REPLY', text: 'Pay now' },
              { type: 'QUICK_REPLY', text: 'Later' },
            ],
          },
        ],
      },
    });

    const refused = await api().post(`/api/chatbot/whatsapp/templates/${linkId}`, { ...body, name: 'already_there' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'WhatsApp Cloud API: There is already English (US) content for this template. You can create a new template and try again. (100)',
    );

    const sent = requests.length;
    const bad = await api().post(`/api/chatbot/whatsapp/templates/${linkId}`, { ...body, name: 'Payment Due', examples: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('A template name is lowercase letters, digits and underscores only');
    expect(bad.json().message).toContain('Give an example for {{1}}, {{2}} in the body');
    expect(requests.length).toBe(sent);
    expect((await list()).templates.map((x: { name: string }) => x.name)).not.toContain('already_there');
  });

  it("takes Meta's status updates from signed webhooks only, and ignores templates no account has", async () => {
    const rejected = statusUpdate({
      event: 'REJECTED',
      message_template_id: 2001,
      message_template_name: 'payment_due',
      message_template_language: 'en_US',
      reason: 'INVALID_FORMAT',
    });
    expect((await deliver(rejected, sign(`${rejected} `))).statusCode).toBe(401);
    expect((await list()).templates.find((x: { name: string }) => x.name === 'payment_due').status).toBe('PENDING');
    expect((await deliver(rejected, sign(rejected))).statusCode).toBe(200);
    expect((await list()).templates.find((x: { name: string }) => x.name === 'payment_due')).toMatchObject({
      status: 'REJECTED',
      reason: 'INVALID_FORMAT',
    });
    const nobodys = statusUpdate({
      event: 'APPROVED',
      message_template_id: 999,
      message_template_name: 'x',
      message_template_language: 'en',
      reason: 'NONE',
    });
    const before = await list();
    expect((await deliver(nobodys, sign(nobodys))).statusCode).toBe(200);
    expect(await list()).toEqual(before);
    const approved = statusUpdate({
      event: 'APPROVED',
      message_template_id: '1003',
      message_template_name: 'welcome_back',
      message_template_language: 'fr',
      reason: 'NONE',
    });
    await deliver(approved, sign(approved));
    expect((await list()).templates.find((x: { name: string }) => x.name === 'welcome_back')).toMatchObject({
      status: 'APPROVED',
      reason: '',
    });
  });

  it("keeps Meta's messaging limit from a signed phone_number_quality_update on the number it names", async () => {
    const limitOf = async () =>
      (await t.db.select({ tier: whatsappLinks.messagingLimit }).from(whatsappLinks).where(eq(whatsappLinks.id, linkId)))[0]!.tier;
    expect(await limitOf()).toBeNull();
    const upgrade = cloudWebhookBody(
      'phone_number_quality_update',
      {
        display_phone_number: '+233 30 123 4567',
        event: 'UPGRADE',
        old_limit: 'TIER_250',
        max_daily_conversations_per_business: 'TIER_2K',
      },
      { id: WABA_ID, time: 1764150000 },
    );
    expect((await deliver(upgrade, sign(`${upgrade} `))).statusCode).toBe(401);
    expect(await limitOf()).toBeNull();
    expect((await deliver(upgrade, sign(upgrade))).statusCode).toBe(200);
    expect(await limitOf()).toBe('TIER_2K');
    // Another business's number changes nothing here.
    const theirs = cloudWebhookBody('phone_number_quality_update', { display_phone_number: '15550783881', current_limit: 'TIER_50' });
    expect((await deliver(theirs, sign(theirs))).statusCode).toBe(200);
    expect(await limitOf()).toBe('TIER_2K');
  });

  it("hides a number's templates from another account (404) and deletes them on Meta for their own", async () => {
    const other = createApiClient(t, stranger);
    const [template] = (await list()).templates;
    expect((await other.get(`/api/chatbot/whatsapp/templates/${linkId}`)).statusCode).toBe(404);
    expect((await other.post(`/api/chatbot/whatsapp/templates/${linkId}/sync`, {})).statusCode).toBe(404);
    expect(
      (await other.post(`/api/chatbot/whatsapp/templates/${linkId}`, { name: 'x', language: 'en', category: 'UTILITY', body: 'Hi' }))
        .statusCode,
    ).toBe(404);
    const theirDelete = await t.app.inject({
      method: 'DELETE',
      url: `/api/chatbot/whatsapp/template/${template.templateId}`,
      headers: stranger.auth,
    });
    expect(theirDelete.statusCode).toBe(404);
    expect(theirDelete.json().message).toBe('Template not found');
    expect((await other.post(`/api/chatbot/whatsapp/template/${template.templateId}/status`, { status: 'PAUSED' })).statusCode).toBe(404);
    expect((await list()).templates).toContainEqual(template);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/chatbot/whatsapp/template/${template.templateId}`,
      headers: builder.auth,
    });
    expect(deleted.json()).toEqual({ status: '00', message: 'Template deleted' });
    expect(requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `/v21.0/${WABA_ID}/message_templates?name=${template.name}&hsm_id=${template.providerId}`,
    });
    expect((await list()).templates.map((x: { templateId: string }) => x.templateId)).not.toContain(template.templateId);
    // A Cloud API template's status is Meta's to set.
    const [another] = (await list()).templates;
    expect((await api().post(`/api/chatbot/whatsapp/template/${another.templateId}/status`, { status: 'PAUSED' })).statusCode).toBe(400);
  });
});
