import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { type CloudTestApp, createCloudTestApp, graphSent, postCloudWebhook, signCloudBody } from '../../../../tests/support/cloud-api';
import { seedMenu } from '../../../../tests/support/seed-app';

/**
 * Golden cases at the wire for WhatsApp, beside the USSD gateways' (gateway-wire.int.test.ts): what a connector
 * receives, as it arrives, and what the bot's answer leaves as, byte for byte. The Cloud API: a webhook POST as
 * Meta documents it, and the exact request the connector makes to a local server standing in for
 * graph.facebook.com. The simulator: the phone page's POST, its reply, and the chat lines it keeps.
 * (Baileys' message objects and what it hands its socket are in src/integrations/whatsapp/baileys.test.ts: its
 * socket cannot run here.)
 */

const APP_SECRET = 'wire-app-secret';
const PHONE_NUMBER_ID = '106540352242922';
const CUSTOMER = '233241234567';

/** The bot both connectors answer with: a list of four (one title too long for a row), buttons, an end. */
async function seedWireBot(t: TestApp, builder: SeededUser): Promise<string> {
  const { auth } = builder;
  const { get, post } = createApiClient(t, builder);
  const appId = (await post('/api/chatbot/app/create', { appName: 'Wire Bot', description: 'golden cases' })).json().data.appId;
  const paid = await seedMenu(t, auth, appId, { userDefinedName: 'paid', displayText: 'Paid. Thank you!', terminate: true });
  const balance = await seedMenu(t, auth, appId, { userDefinedName: 'balance', displayText: 'Your balance is GHS 10.00', terminate: true });
  const confirm = await seedMenu(t, auth, appId, {
    userDefinedName: 'confirm',
    displayText: 'Pay GHS 5?\n1. Yes\n2. No',
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: paid }],
  });
  await seedMenu(t, auth, appId, {
    userDefinedName: 'home',
    displayText: 'Ama Shop\n1. Balance\n2. Pay a merchant with mobile money\n3. Airtime\n4. Help',
    isFirst: true,
    switchOperations: [
      { operator: 'valueIn', compareVal: '1', action: 'goto', actionParam: balance },
      { operator: 'valueIn', compareVal: '2', action: 'goto', actionParam: confirm },
    ],
  });
  expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
  return appId;
}

/** The home screen as WhatsApp's list, as the Graph API receives it. */
const HOME_LIST =
  '{"messaging_product":"whatsapp","recipient_type":"individual","to":"233241234567","type":"interactive","interactive":{"type":"list","body":{"text":"Ama Shop"},"action":{"button":"Choose an option","sections":[{"title":"Choose an option","rows":[{"id":"1","title":"Balance"},{"id":"2","title":"Pay a merchant with mob…","description":"Pay a merchant with mobile money"},{"id":"3","title":"Airtime"},{"id":"4","title":"Help"}]}]}}}';

/** One Cloud API webhook delivery, as Meta's webhook reference shows it: one message to our number. */
const cloudDelivery = (message: Record<string, unknown>) =>
  JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: CUSTOMER }],
              messages: [{ from: CUSTOMER, timestamp: '1749416383', ...message }],
            },
            field: 'messages',
          },
        ],
      },
    ],
  });

/** Each case: the webhook bodies Meta posts, in order, and the Graph API requests' bodies they cause. */
const CLOUD_CASES: Array<[string, Array<Record<string, unknown>>, string[]]> = [
  [
    'a text starts the bot: its menu as a list, a long option cut to a row title with the whole as its description',
    [{ id: 'wamid.W1', type: 'text', text: { body: 'hi' } }],
    [HOME_LIST],
  ],
  [
    'a picked list row answers the screen: two options as reply buttons; a picked button ends it as text',
    [
      { id: 'wamid.W2', type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: '2', title: 'Pay a merchant' } } },
      { id: 'wamid.W3', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: '1', title: 'Yes' } } },
    ],
    [
      '{"messaging_product":"whatsapp","recipient_type":"individual","to":"233241234567","type":"interactive","interactive":{"type":"button","body":{"text":"Pay GHS 5?"},"action":{"buttons":[{"type":"reply","reply":{"id":"1","title":"Yes"}},{"type":"reply","reply":{"id":"2","title":"No"}}]}}}',
      '{"messaging_product":"whatsapp","recipient_type":"individual","to":"233241234567","type":"text","text":{"body":"Paid. Thank you!"}}',
    ],
  ],
  [
    'a sticker (no bot reads one) gets a sentence and runs nothing; a restart word starts over; a redelivery is not answered',
    [
      { id: 'wamid.W4', type: 'text', text: { body: '1' } },
      { id: 'wamid.W5', type: 'sticker', sticker: { mime_type: 'image/webp', sha256: 'abc', id: '1003383421387256', animated: false } },
      { id: 'wamid.W6', type: 'text', text: { body: ' MENU ' } },
      { id: 'wamid.W6', type: 'text', text: { body: ' MENU ' } },
    ],
    [
      HOME_LIST,
      '{"messaging_product":"whatsapp","recipient_type":"individual","to":"233241234567","type":"text","text":{"body":"Please reply with text: this service reads typed answers only."}}',
      HOME_LIST,
    ],
  ],
];

describeDb('WhatsApp wire: Cloud API webhook to Graph API request', () => {
  const calls: Array<{ method: string; url: string; authorization: string | undefined; contentType: string | undefined; body: string }> =
    [];
  let t: CloudTestApp;

  beforeAll(async () => {
    t = await createCloudTestApp(
      ({ method, url, authorization, contentType, raw }) => {
        if (method === 'GET') return { body: { verified_name: 'Wire Shop', display_phone_number: '+1 555-078-3881', id: PHONE_NUMBER_ID } };
        calls.push({ method, url, authorization, contentType, body: raw });
        return graphSent('wamid.out', CUSTOMER);
      },
      {
        WHATSAPP_CLOUD_ACCESS_TOKEN: 'EAAG-wire-token',
        WHATSAPP_CLOUD_APP_SECRET: APP_SECRET,
        WHATSAPP_CLOUD_VERIFY_TOKEN: 'wire-verify',
      },
    );
    const builder = await seedUser(t, { roles: ['CHATBOT'] });
    const appId = await seedWireBot(t, builder);
    const { post } = createApiClient(t, builder);
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED' });
  });
  afterAll(() => t?.close());

  it.each(CLOUD_CASES)('%s', async (_name, messages, golden) => {
    calls.length = 0;
    for (const message of messages) {
      const body = cloudDelivery(message);
      const res = await postCloudWebhook(t, body, signCloudBody(body, APP_SECRET));
      expect([res.statusCode, res.body]).toEqual([200, '{"status":"00","message":"OK"}']);
    }
    // Meta gets its 200 at once; the replies follow, one conversation's in order (the first one may be slow to
    // come on a loaded machine: the first hop compiles the bot).
    await vi.waitFor(() => expect(calls).toHaveLength(golden.length), { timeout: 15_000 });
    expect(calls).toEqual(
      golden.map((body) => ({
        method: 'POST',
        url: `/v21.0/${PHONE_NUMBER_ID}/messages`,
        authorization: 'Bearer EAAG-wire-token',
        contentType: 'application/json',
        body,
      })),
    );
  });
});

describeDb('WhatsApp wire: the simulator phone page to its reply and chat lines', () => {
  let t: TestApp;
  let linkId: string;
  let secret: string;

  beforeAll(async () => {
    t = await createTestApp();
    const builder = await seedUser(t, { roles: ['CHATBOT'] });
    const appId = await seedWireBot(t, builder);
    const { get, post } = createApiClient(t, builder);
    linkId = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json().linkId;
    const status = (await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json();
    secret = new URL(status.qrCode).searchParams.get('secret')!;
    await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000000' }, {});
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('each POST and the raw reply it gets', () => {
    const CASES: Array<[Record<string, string>, string]> = [
      [
        { from: CUSTOMER, text: 'hi', kind: 'text' },
        '{"status":"00","message":"OK","data":{"messages":[{"type":"list","body":"Ama Shop","button":"Choose an option","rows":[{"id":"1","title":"Balance"},{"id":"2","title":"Pay a merchant with mob…","description":"Pay a merchant with mobile money"},{"id":"3","title":"Airtime"},{"id":"4","title":"Help"}]}]}}',
      ],
      [
        { from: CUSTOMER, text: '2', kind: 'choice', label: 'Pay a merchant with mob…' },
        '{"status":"00","message":"OK","data":{"messages":[{"type":"buttons","body":"Pay GHS 5?","buttons":[{"id":"1","title":"Yes"},{"id":"2","title":"No"}]}]}}',
      ],
      [
        { from: CUSTOMER, text: '2', kind: 'text' },
        '{"status":"00","message":"OK","data":{"messages":[{"type":"text","text":"Paid. Thank you!"}]}}',
      ],
    ];

    it.each(CASES)('%j', async (fields, golden) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/whatsapp-simulator/${linkId}/messages`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ secret, ...fields }),
      });
      expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([200, 'application/json; charset=utf-8', golden]);
    });
  });

  it('keeps the chat as the phone shows it: what was typed or the picked title, then what the bot sent', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/whatsapp-simulator/${linkId}/messages?secret=${encodeURIComponent(secret)}&from=${CUSTOMER}`,
    });
    const lines = res.json().data.transcript as Array<{ direction: string; message: unknown; at: string }>;
    expect(lines.every((line) => !Number.isNaN(Date.parse(line.at)))).toBe(true);
    expect(JSON.stringify(lines.map(({ direction, message }) => ({ direction, message })))).toBe(
      '[{"direction":"in","message":{"type":"text","text":"hi"}},{"direction":"out","message":{"type":"list","body":"Ama Shop","button":"Choose an option","rows":[{"id":"1","title":"Balance"},{"id":"2","title":"Pay a merchant with mob…","description":"Pay a merchant with mobile money"},{"id":"3","title":"Airtime"},{"id":"4","title":"Help"}]}},{"direction":"in","message":{"type":"text","text":"Pay a merchant with mob…"}},{"direction":"out","message":{"type":"buttons","body":"Pay GHS 5?","buttons":[{"id":"1","title":"Yes"},{"id":"2","title":"No"}]}},{"direction":"in","message":{"type":"text","text":"2"}},{"direction":"out","message":{"type":"text","text":"Paid. Thank you!"}}]',
    );
  });
});
