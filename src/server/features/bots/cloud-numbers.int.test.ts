import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { whatsappCloudCredentials, whatsappLinks } from '../../../db/schema';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import { EXPIRED_TOKEN_TEXT } from '../../../integrations/whatsapp/cloud-api';
import type { AppContext } from '../../context';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, createTestApp, seedUser, type SeededUser } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';
import {
  CLOUD_APP_SECRET as APP_SECRET,
  type CloudTestApp,
  cloudMessagesBody,
  cloudTestSettings,
  createCloudTestApp,
  customerMessage,
  type GraphCall,
  graphError,
  graphSent,
  postCloudWebhook,
  signCloudBody,
} from '../../../../tests/support/cloud-api';
import { cloudCredentialsFor } from './cloud-credentials';

const APP_ID = '4455667788';
const CONFIG_ID = '998877665544';
const INSTALLATION_TOKEN = 'EAAG-installation-token';
const KEY = 'c0'.repeat(32);
/** A business's token as Embedded Signup's code exchange gives it, and one pasted by hand. */
const SIGNUP_TOKEN = 'EAAG-business-signup-token-0001';
const PASTED_TOKEN = 'EAAG-business-pasted-token-0002';

/** Two customer businesses, each with its WhatsApp Business Account, one number, and its own token. */
const NUMBERS: Record<string, { waba: string; display: string; token: string }> = {
  '300000000001': { waba: '700000000001', display: '+233 30 000 0001', token: SIGNUP_TOKEN },
  '300000000002': { waba: '700000000002', display: '+233 30 000 0002', token: PASTED_TOKEN },
};

/**
 * Each account's own WhatsApp numbers, through the server. The local server answers as Meta's Graph API
 * documentation shows: the code exchange (`/oauth/access_token`), `subscribed_apps`, `register`, a WhatsApp
 * Business Account's `phone_numbers`, a number (`GET /{id}`) for the tokens that can read it, and `messages`.
 */
describeDb('Cloud API numbers with credentials of their own, next to the simulator', () => {
  const requests: GraphCall[] = [];
  /** What the local Graph API refuses next. */
  let refuse: { subscribe?: boolean; register?: boolean } = {};
  const expiredTokens = new Set<string>();
  let t: CloudTestApp;
  let a: SeededUser;
  let b: SeededUser;

  beforeAll(async () => {
    t = await createCloudTestApp(
      (call) => {
        requests.push(call);
        const { path, token, method } = call;
        const [, first, second] = path.split('/');
        if (expiredTokens.has(token)) return graphError(401, 'Error validating access token: Session has expired.', 190);
        if (path === '/oauth/access_token') {
          const q = call.query;
          if (q.get('client_id') === APP_ID && q.get('client_secret') === APP_SECRET && q.get('code') === 'good-code')
            return { body: { access_token: SIGNUP_TOKEN, token_type: 'bearer' } };
          return graphError(400, 'Invalid verification code format.', 100);
        }
        const waba = Object.entries(NUMBERS).filter(([, n]) => n.waba === first);
        if (second === 'subscribed_apps' && method === 'POST') {
          if (refuse.subscribe || waba.length === 0 || waba[0]![1].token !== token) return graphError(403, '(#200) Permissions error', 200);
          return { body: { success: true } };
        }
        if (second === 'phone_numbers' && method === 'GET') {
          const readable = waba.filter(([, n]) => n.token === token);
          return { body: { data: readable.map(([id, n]) => ({ id, display_phone_number: n.display })) } };
        }
        const number = NUMBERS[first ?? ''];
        const canRead = number && (token === INSTALLATION_TOKEN || token === number.token);
        if (second === 'register' && method === 'POST') {
          if (refuse.register || !canRead) return graphError(400, 'Two step verification PIN Mismatch', 133005);
          return { body: { success: true } };
        }
        if (second === 'messages' && method === 'POST' && canRead) return graphSent(`wamid.out${requests.length}`);
        if (!second && method === 'GET' && canRead)
          return { body: { display_phone_number: number.display, verified_name: 'Shop', id: first } };
        return graphError(400, `Unsupported get request. Object with ID '${first}' does not exist`, 100, { type: 'GraphMethodException' });
      },
      {
        WHATSAPP_CONNECTORS: ['simulator', 'cloud'],
        WHATSAPP_CREDENTIALS_KEY: KEY,
        WHATSAPP_CLOUD_ACCESS_TOKEN: INSTALLATION_TOKEN,
        WHATSAPP_CLOUD_APP_ID: APP_ID,
        WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: CONFIG_ID,
      },
    );
    a = await seedUser(t, { roles: ['CHATBOT'] });
    b = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    requests.length = 0;
    refuse = {};
    expiredTokens.clear();
  });

  /** A deployed bot whose first screen says `greeting`. */
  async function createBot(user: SeededUser, greeting: string): Promise<string> {
    const api = createApiClient(t, user);
    const appId = (await api.post('/api/chatbot/app/create', { appName: 'Cloud Bot', description: 'Own numbers' })).json().data
      .appId as string;
    await seedMenu(t, user.auth, appId, { userDefinedName: 'home', displayText: greeting, isFirst: true, terminate: true });
    expect((await api.get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    return appId;
  }
  const signup = (user: SeededUser, chatBotAppId: string, code = 'good-code', phoneNumberId = '300000000001') =>
    createApiClient(t, user).post('/api/chatbot/whatsapp/embedded-signup', {
      chatBotAppId,
      code,
      wabaId: NUMBERS[phoneNumberId]!.waba,
      phoneNumberId,
    });
  const linkByHand = (user: SeededUser, chatBotAppId: string, body: Record<string, unknown>) =>
    createApiClient(t, user).post('/api/chatbot/whatsapp/link', { chatBotAppId, connector: 'cloud', ...body });
  const unlink = (user: SeededUser, linkId: string) => createApiClient(t, user).get(`/api/chatbot/whatsapp/unlink/${linkId}`);
  const linksOf = (appId: string) => t.db.select().from(whatsappLinks).where(eq(whatsappLinks.appId, appId));
  const credentialRows = () => t.db.select().from(whatsappCloudCredentials);
  const ctxOf = () =>
    ({ db: t.db, config: { WHATSAPP_CLOUD_API_URL: 'http://graph.test/v21.0', WHATSAPP_CREDENTIALS_KEY: KEY } }) as unknown as AppContext;

  async function deliver(phoneNumberId: string, messageId: string) {
    const body = cloudMessagesBody(phoneNumberId, customerMessage(messageId, { type: 'text', text: { body: 'hi' } }), {
      displayPhoneNumber: '233300000000',
      wabaId: NUMBERS[phoneNumberId]?.waba ?? '1',
    });
    expect((await postCloudWebhook(t, body, signCloudBody(body))).statusCode).toBe(200);
  }
  const sends = () => requests.filter((r) => r.path.endsWith('/messages'));

  it('tells the console both kinds it offers, and the ids Embedded Signup opens with', async () => {
    const answer = (await createApiClient(t, a).get('/api/chatbot/whatsapp/connector')).json();
    expect(answer.data).toEqual({
      connector: 'simulator',
      connectors: ['simulator', 'cloud'],
      embeddedSignup: { appId: APP_ID, configId: CONFIG_ID },
    });
  });

  it('links an Embedded Signup number: exchanges the code, subscribes the app, registers the number, keeps its token sealed', async () => {
    const bot = await createBot(a, 'Hello from A');
    const linked = (await signup(a, bot)).json();
    expect(linked).toMatchObject({ status: '00', data: { status: 'CONNECTED', connector: 'cloud', mobileNumber: '+233300000001' } });
    const [exchange, subscribe, register] = requests;
    expect(exchange).toMatchObject({ method: 'GET', path: '/oauth/access_token', authorization: '' });
    expect(Object.fromEntries(exchange!.query)).toEqual({ client_id: APP_ID, client_secret: APP_SECRET, code: 'good-code' });
    expect(subscribe).toMatchObject({ method: 'POST', path: '/700000000001/subscribed_apps', authorization: `Bearer ${SIGNUP_TOKEN}` });
    expect(register).toMatchObject({ method: 'POST', path: '/300000000001/register', authorization: `Bearer ${SIGNUP_TOKEN}` });
    expect(register!.body).toEqual({ messaging_product: 'whatsapp', pin: expect.stringMatching(/^\d{6}$/) });
    // Every later call about the number is made with its own token.
    expect(requests.slice(3).map((r) => r.authorization)).toEqual(requests.slice(3).map(() => `Bearer ${SIGNUP_TOKEN}`));

    const [row] = await credentialRows();
    expect(row).toMatchObject({ linkId: linked.linkId, phoneNumberId: '300000000001', wabaId: '700000000001' });
    expect(JSON.stringify(row)).not.toContain(SIGNUP_TOKEN);
    expect(JSON.stringify(row)).not.toContain(register!.body.pin as string);
    expect(await cloudCredentialsFor(ctxOf(), linked.linkId)).toEqual({
      apiUrl: 'http://graph.test/v21.0',
      phoneNumberId: '300000000001',
      wabaId: '700000000001',
      accessToken: SIGNUP_TOKEN,
    });
    expect((await unlink(a, linked.linkId)).json().status).toBe('00');
    expect(await credentialRows()).toEqual([]);
  });

  it('stops at the step Meta refuses, with words saying which, and keeps nothing', async () => {
    const bot = await createBot(a, 'Hello');
    const badCode = await signup(a, bot, 'used-code');
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().message).toContain(BOT_MESSAGES.signupCodeRefused);
    expect(requests.map((r) => r.path)).toEqual(['/oauth/access_token']);

    refuse = { subscribe: true };
    const unsubscribed = await signup(a, bot);
    expect(unsubscribed.statusCode).toBe(400);
    expect(unsubscribed.json().message).toContain(BOT_MESSAGES.subscribeRefused);
    expect(requests.some((r) => r.path.endsWith('/register'))).toBe(false);

    refuse = { register: true };
    const unregistered = await signup(a, bot);
    expect(unregistered.statusCode).toBe(400);
    expect(unregistered.json().message).toContain(BOT_MESSAGES.registerRefused);
    expect(unregistered.json().message).toContain('PIN Mismatch');

    expect(await linksOf(bot)).toEqual([]);
    expect(await credentialRows()).toEqual([]);
    // Each step may run again: the next signup links the number.
    refuse = {};
    expect((await signup(a, bot)).json().data).toMatchObject({ status: 'CONNECTED' });
    for (const link of await linksOf(bot)) await unlink(a, link.id);
  });

  it('links a number given by hand with its WhatsApp Business Account and token, once Meta shows the account owns it', async () => {
    const bot = await createBot(b, 'Hello from B');
    const wrongWaba = await linkByHand(b, bot, { phoneNumberId: '300000000002', wabaId: '700000000001', accessToken: PASTED_TOKEN });
    expect(wrongWaba.statusCode).toBe(400);
    expect(wrongWaba.json().message).toBe(BOT_MESSAGES.wabaNotOwner);
    const noToken = await linkByHand(b, bot, { phoneNumberId: '300000000002', wabaId: '700000000002' });
    expect(noToken.json()).toMatchObject({ status: '02', message: BOT_MESSAGES.wabaIdNeedsToken });
    const badId = await linkByHand(b, bot, { phoneNumberId: 'abc', wabaId: '700000000002', accessToken: PASTED_TOKEN });
    expect(badId.json()).toMatchObject({ status: '02', message: expect.stringContaining('digits only') });
    expect(await linksOf(bot)).toEqual([]);

    const linked = (await linkByHand(b, bot, { phoneNumberId: '300000000002', wabaId: '700000000002', accessToken: PASTED_TOKEN })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED', mobileNumber: '+233300000002' });
    expect(requests.filter((r) => r.path.startsWith('/300000000002')).map((r) => r.authorization)).not.toContain(
      `Bearer ${INSTALLATION_TOKEN}`,
    );
    expect((await credentialRows()).map((r) => r.linkId)).toEqual([linked.linkId]);
    await unlink(b, linked.linkId);
  });

  it("routes each delivery by phone number id to its account's bot, answers with that number's own token, and ignores strangers", async () => {
    const botA = await createBot(a, 'Hello from A');
    const botB = await createBot(b, 'Hello from B');
    const linkA = (await signup(a, botA)).json().linkId as string;
    const linkB = (await linkByHand(b, botB, { phoneNumberId: '300000000002', wabaId: '700000000002', accessToken: PASTED_TOKEN })).json()
      .linkId as string;
    requests.length = 0;

    await deliver('300000000002', 'wamid.route-b');
    await deliver('300000000001', 'wamid.route-a');
    await deliver('399999999999', 'wamid.stranger');
    await vi.waitFor(() => expect(sends()).toHaveLength(2));
    const byPath = Object.fromEntries(sends().map((r) => [r.path, r]));
    expect(byPath['/300000000001/messages']).toMatchObject({
      authorization: `Bearer ${SIGNUP_TOKEN}`,
      body: { text: { body: 'Hello from A' } },
    });
    expect(byPath['/300000000002/messages']).toMatchObject({
      authorization: `Bearer ${PASTED_TOKEN}`,
      body: { text: { body: 'Hello from B' } },
    });
    const sessionsOf = async (user: SeededUser, appId: string) =>
      (await createApiClient(t, user).get(`/dashboard/completedSessions/${appId}`)).json().data as unknown[];
    expect(await sessionsOf(a, botA)).toHaveLength(1);
    expect(await sessionsOf(b, botB)).toHaveLength(1);
    await unlink(a, linkA);
    await unlink(b, linkB);
  });

  it('turns a link FAILED, asking to reconnect, when its token expired, and keeps the rest', async () => {
    const bot = await createBot(a, 'Hello');
    const linkId = (await signup(a, bot)).json().linkId as string;
    expiredTokens.add(SIGNUP_TOKEN);
    await deliver('300000000001', 'wamid.expired');
    await vi.waitFor(async () => expect((await linksOf(bot))[0]).toMatchObject({ status: 'FAILED', statusMessage: EXPIRED_TOKEN_TEXT }));
    expect(EXPIRED_TOKEN_TEXT).toContain('reconnect');
    expect((await credentialRows()).map((r) => r.linkId)).toEqual([linkId]);
    expect((await linksOf(bot))[0]).toMatchObject({ externalId: '300000000001', mobileNumber: '+233300000001' });
    await unlink(a, linkId);
  });

  it('links a simulator number and a Cloud API number side by side, each through its own connector', async () => {
    const bot = await createBot(a, 'Hello both');
    const api = createApiClient(t, a);
    const simulated = (await api.post('/api/chatbot/whatsapp/link', { chatBotAppId: bot })).json();
    expect(simulated.data).toMatchObject({ status: 'QR', connector: 'simulator' });
    const cloudLink = (
      await linkByHand(a, bot, { phoneNumberId: '300000000001', wabaId: '700000000001', accessToken: SIGNUP_TOKEN })
    ).json();
    expect(cloudLink.data).toMatchObject({ status: 'CONNECTED', connector: 'cloud' });

    const qr = (await api.get(`/api/chatbot/whatsapp/link-status/${simulated.linkId}`)).json().qrCode as string;
    const secret = new URL(qr).searchParams.get('secret')!;
    const phone = `/api/whatsapp-simulator/${simulated.linkId}`;
    expect((await api.post(`${phone}/scan`, { secret, mobileNumber: '233200000000' }, {})).json().data).toMatchObject({
      status: 'CONNECTED',
    });
    const answered = (await api.post(`${phone}/messages`, { secret, from: '233209999999', text: 'hi' }, {})).json();
    expect(answered.data.messages).toEqual([{ type: 'text', text: 'Hello both' }]);
    expect(sends()).toEqual([]);
    await deliver('300000000001', 'wamid.side-by-side');
    await vi.waitFor(() => expect(sends()).toHaveLength(1));
    expect(sends()[0]).toMatchObject({ authorization: `Bearer ${SIGNUP_TOKEN}`, body: { text: { body: 'Hello both' } } });

    expect((await unlink(a, simulated.linkId)).json().status).toBe('00');
    expect((await api.post(`${phone}/messages`, { secret, from: '233209999999', text: 'hi' }, {})).statusCode).toBe(404);
    expect((await unlink(a, cloudLink.linkId)).json().status).toBe('00');
  });

  it('refuses a kind the installation does not offer, and a token when it has no key to keep it', async () => {
    const bot = await createBot(a, 'Hello');
    const baileys = await createApiClient(t, a).post('/api/chatbot/whatsapp/link', { chatBotAppId: bot, connector: 'baileys' });
    expect(baileys.json()).toMatchObject({ status: '02', message: BOT_MESSAGES.connectorNotOffered });

    const keyless = await createTestApp({ ...cloudTestSettings(t.apiUrl), WHATSAPP_CLOUD_ACCESS_TOKEN: INSTALLATION_TOKEN });
    try {
      const user = await seedUser(keyless, { roles: ['CHATBOT'] });
      const api = createApiClient(keyless, user);
      const keylessBot = (await api.post('/api/chatbot/app/create', { appName: 'Bot', description: 'No key' })).json().data.appId;
      const refused = await api.post('/api/chatbot/whatsapp/link', {
        chatBotAppId: keylessBot,
        phoneNumberId: '300000000002',
        wabaId: '700000000002',
        accessToken: PASTED_TOKEN,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(BOT_MESSAGES.noCredentialsKey);
      expect((await api.get('/api/chatbot/whatsapp/connector')).json().data).toEqual({
        connector: 'cloud',
        connectors: ['cloud'],
        embeddedSignup: null,
      });
      const signupOff = await api.post('/api/chatbot/whatsapp/embedded-signup', {
        chatBotAppId: keylessBot,
        code: 'good-code',
        wabaId: '700000000001',
        phoneNumberId: '300000000001',
      });
      expect(signupOff.json()).toMatchObject({ status: '02', message: BOT_MESSAGES.embeddedSignupOff });
      expect(requests).toEqual([]);
    } finally {
      await keyless.close();
    }
  });
});
