import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, type SeededUser } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';
import {
  type CloudTestApp,
  cloudMessagesBody,
  createCloudTestApp,
  customerMessage,
  graphError,
  graphSent,
  postCloudWebhook,
  signCloudBody,
} from '../../../../tests/support/cloud-api';

const PHONE_NUMBER_ID = '109876543210';

/**
 * The Cloud API end to end: a local server answers as Meta's Graph API documentation shows (the number check
 * and the messages endpoint), and the test signs webhook deliveries as Meta does.
 */
describeDb('WhatsApp Cloud API connector, through the server', () => {
  const sent: Array<{ url: string; authorization: string | undefined; body: Record<string, unknown> }> = [];
  let t: CloudTestApp;
  let builder: SeededUser;

  beforeAll(async () => {
    t = await createCloudTestApp((call) => {
      if (call.method === 'GET' && call.url.startsWith(`/v21.0/${PHONE_NUMBER_ID}?`)) {
        return { body: { display_phone_number: '+233 30 123 4567', verified_name: 'Ama Shop', id: PHONE_NUMBER_ID } };
      }
      if (call.method === 'GET') return graphError(400, 'Unsupported get request.', 100, { type: 'GraphMethodException' });
      sent.push({ url: call.url, authorization: call.authorization, body: call.body });
      return graphSent(`wamid.out${sent.length}`);
    });
    builder = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(() => t?.close());

  const delivery = (messageId: string, message: Record<string, unknown>, phoneNumberId = PHONE_NUMBER_ID) =>
    cloudMessagesBody(phoneNumberId, customerMessage(messageId, message), { displayPhoneNumber: '233301234567' });
  const sign = signCloudBody;
  const deliver = (body: string, signature?: string) => postCloudWebhook(t, body, signature);

  it("answers Meta's handshake only with the verify token", async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('links a number by its phone number id, answers signed deliveries with buttons, and refuses forged ones', async () => {
    const { get, post } = createApiClient(t, builder);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Cloud Bot', description: 'Official route' })).json().data.appId;
    const done = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Bye, {{ session.inputs.homeLabel }}',
      terminate: true,
    });
    await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Hi!\n1. Balance\n2. Help',
      isFirst: true,
      switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: done }],
    });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');

    expect((await get('/api/chatbot/whatsapp/connector')).json().data).toEqual({
      connector: 'cloud',
      connectors: ['cloud'],
      embeddedSignup: null,
    });
    expect((await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json()).toMatchObject({
      status: '02',
      message: 'Enter the phone number ID from your WhatsApp Business settings',
    });
    const refused = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: '555555' })).json();
    expect(refused.data).toMatchObject({ status: 'FAILED', statusMessage: expect.stringContaining('Unsupported get request') });
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED', mobileNumber: '+233301234567', connector: 'cloud' });
    expect((await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).statusCode).toBe(409);

    // Forged, unsigned and wrongly signed deliveries are refused and answered with nothing.
    const hello = delivery('wamid.in1', { type: 'text', text: { body: 'hello' } });
    expect((await deliver(hello)).statusCode).toBe(401);
    expect((await deliver(hello, sign(hello, 'another-secret'))).statusCode).toBe(401);
    expect((await deliver(hello.replace('hello', 'HELLO'), sign(hello))).statusCode).toBe(401);
    expect(sent).toEqual([]);

    expect((await deliver(hello, sign(hello))).statusCode).toBe(200);
    // Meta gets its 200 at once; the reply follows.
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([
      {
        url: `/v21.0/${PHONE_NUMBER_ID}/messages`,
        authorization: 'Bearer EAAG-test-token',
        body: expect.objectContaining({
          messaging_product: 'whatsapp',
          to: '233241234567',
          type: 'interactive',
          interactive: expect.objectContaining({ type: 'button', body: { text: 'Hi!' } }),
        }),
      },
    ]);
    // Meta redelivers until it gets a 200: the same message id runs nothing again.
    expect((await deliver(hello, sign(hello))).statusCode).toBe(200);
    expect(sent).toHaveLength(1);

    const tapped = delivery('wamid.in2', {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: '2', title: 'Help' } },
    });
    await deliver(tapped, sign(tapped));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.body).toMatchObject({ type: 'text', text: { body: 'Bye, Help' } });
    // A number no link owns is not answered.
    const stranger = delivery('wamid.in3', { type: 'text', text: { body: 'hi' } }, '999999');
    expect((await deliver(stranger, sign(stranger))).statusCode).toBe(200);
    // Its link was looked up (and not found) before the 200: nothing was queued for it.
    expect(sent).toHaveLength(2);

    const sessions = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(sessions).toEqual([expect.objectContaining({ mobile: '233241234567', environment: 'live', gateway: 'whatsapp' })]);
  });
});
