import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { INACTIVE_BOT_TEXT, MEDIA_REPLY_TEXT, toChatMessage, toPlainText, type ChatReply } from '../../../shared/whatsapp';
import { DEMO_BOT_USER, seedDatabase } from '../../seed';
import { MEDIA_MESSAGES } from '../media/media.service';

describeDb('WhatsApp bots', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  const plain = useUser(t);
  const { get, post } = createApiClient(t, builder);
  const del = (url: string, headers = builder.auth) => t.app.inject({ method: 'DELETE', url, headers });

  async function createBot(name = 'Ama Shop Bot') {
    const res = (await post('/api/chatbot/app/create', { appName: name, description: 'Orders on WhatsApp', botType: 'whatsapp' })).json();
    expect(res).toMatchObject({
      status: '00',
      message: 'Bot created successfully',
      data: { appName: name, status: 'active', botType: 'whatsapp' },
    });
    return res.data.appId as string;
  }

  /** Two menus: a welcome with two options and a closing screen that echoes the choice. */
  async function designBot(appId: string) {
    const done = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'done',
      displayText: 'You picked {{ session.inputs.welcomeLabel }}. Goodbye!',
      terminate: true,
    });
    await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'welcome',
      displayText: 'Welcome to Ama Shop\n1. Balance\n2. Help',
      isFirst: true,
      switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: done }],
    });
  }

  const chat = (appId: string, text: string, extra: object = {}) =>
    post(`/whatsapp-emulator/${appId}`, { from: '233241234567', text, ...extra });

  it('lets admins and chatbot users in, and no one else', async () => {
    expect((await get('/api/chatbot/apps', plain.auth)).statusCode).toBe(403);
    expect((await post('/api/chatbot/app/create', { appName: 'x', description: 'y' }, plain.auth)).statusCode).toBe(403);
    expect((await get('/api/chatbot/apps')).json()).toMatchObject({ status: '00', data: [] });
  });

  it('creates, lists, reads, updates, switches and deletes a bot, for its owner only', async () => {
    expect((await post('/api/chatbot/app/create', { appName: ' ', description: 'y' })).json()).toMatchObject({
      status: '02',
      message: 'Please complete all fields',
    });
    const appId = await createBot();
    expect((await get('/api/chatbot/apps')).json().data).toEqual([
      expect.objectContaining({ appId, liveVersion: null, connectedNumbers: 0 }),
    ]);
    // A bot is not a USSD app: not in the app list, not changed by the USSD settings call.
    expect((await get('/api/getAllApps')).json().data.map((a: { appId: string }) => a.appId)).not.toContain(appId);
    expect((await get(`/api/getAppByAppId/${appId}`)).json().data).toMatchObject({ channel: 'whatsapp', status: 'active' });
    const ussd = await post('/api/updateApp', {
      appId,
      appName: 'x',
      description: 'y',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*1#',
      shortCode: '*920*1#',
    });
    expect(ussd.json()).toMatchObject({ status: '02', message: 'This is a WhatsApp bot: change it on its Bot Settings' });

    const updated = (await post('/chatbot/app/update', { appId, appName: 'Ama Bot', description: 'New words', status: 'inactive' })).json();
    expect(updated).toMatchObject({
      status: '00',
      message: 'Bot settings updated successfully',
      data: { appName: 'Ama Bot', status: 'inactive' },
    });
    expect((await post(`/api/chatbot/app/${appId}/status`, { status: 'active' })).json().data.status).toBe('active');
    expect((await post(`/api/chatbot/app/${appId}/status`, { status: 'sleeping' })).statusCode).toBe(400);

    // Another account's bot, and a USSD app's id, are not found.
    const ussdApp = await seedApp(t, builder.auth);
    for (const res of [
      await get(`/api/chatbot/app/${appId}`, stranger.auth),
      await post('/chatbot/app/update', { appId, appName: 'mine', description: 'now' }, stranger.auth),
      await del(`/api/chatbot/app/${appId}`, stranger.auth),
      await get(`/api/chatbot/whatsapp/list-numbers/${appId}`, stranger.auth),
      await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId }, stranger.auth),
      await get(`/api/chatbot/app/${ussdApp}`),
      await post(`/whatsapp-emulator/${appId}`, { from: '233200000001', text: 'hi' }, stranger.auth),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await del(`/api/chatbot/app/${appId}`)).json()).toEqual({ status: '00', message: 'Bot deleted successfully' });
    expect((await get(`/api/chatbot/app/${appId}`)).statusCode).toBe(404);
  });

  it('runs the draft in the chat simulator: buttons for the options, a picked choice, the end, and a restart word', async () => {
    const appId = await createBot();
    await designBot(appId);
    const first = (await chat(appId, 'Hello')).json();
    expect(first).toMatchObject({
      end: false,
      messages: [
        {
          type: 'buttons',
          body: 'Welcome to Ama Shop',
          buttons: [
            { id: '1', title: 'Balance' },
            { id: '2', title: 'Help' },
          ],
        },
      ],
    });
    const bad = (await chat(appId, '7')).json();
    expect(bad.sessionId).toBe(first.sessionId);
    expect(bad.messages[0].body).toContain('Invalid choice');
    // A restart word starts over under a new session id; the session it left is abandoned.
    const restarted = (await chat(appId, 'MENU')).json();
    expect(restarted.sessionId).not.toBe(first.sessionId);
    const end = (await chat(appId, '2', { kind: 'choice' })).json();
    expect(end).toEqual({
      sessionId: restarted.sessionId,
      end: true,
      messages: [{ type: 'text', text: 'You picked Help. Goodbye!' }],
      messageIds: [expect.stringMatching(/^console-/)],
    });
    // Its messages are recorded and carry delivery statuses: sent, then what the simulated phone reports.
    const [sentId] = end.messageIds;
    const statuses = async () => (await get(`/whatsapp-emulator/${appId}/statuses?ids=${sentId},unknown-id`)).json().data.statuses;
    // Written by the event sink after the reply, so asked until it is there (as the console's ticks poll).
    await expect.poll(statuses).toEqual([{ id: sentId, status: 'sent', failureReason: '' }]);
    expect((await post(`/whatsapp-emulator/${appId}/statuses`, { messageId: sentId, status: 'read' })).statusCode).toBe(200);
    expect((await post(`/whatsapp-emulator/${appId}/statuses`, { messageId: sentId, status: 'delivered' })).statusCode).toBe(200);
    expect(await statuses()).toEqual([{ id: sentId, status: 'read', failureReason: '' }]);
    expect((await post(`/whatsapp-emulator/${appId}/statuses`, { messageId: 'unknown-id', status: 'read' })).statusCode).toBe(404);
    const badReceipt = await post(`/whatsapp-emulator/${appId}/statuses`, { messageId: sentId, status: 'sent' });
    expect(badReceipt.statusCode).toBe(400);
    expect(await statuses()).toEqual([{ id: sentId, status: 'read', failureReason: '' }]);
    // Any message after the end starts a new conversation; without interactive messages the options are numbered text.
    const again = (await chat(appId, 'hi', { interactive: false })).json();
    expect(again.sessionId).not.toBe(end.sessionId);
    expect(again.messages).toEqual([{ type: 'text', text: 'Welcome to Ama Shop\n1. Balance\n2. Help' }]);

    const completed = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(completed).toEqual([expect.objectContaining({ sessionId: restarted.sessionId })]);
    const abandoned = (await get(`/dashboard/uncompletedSessions/${appId}`)).json().data;
    expect(abandoned.map((s: { sessionId: string }) => s.sessionId)).toContain(first.sessionId);
    // The bot runs on WhatsApp only: its id on a USSD URL is not found.
    const ussd = await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId: 's1', phoneNumber: '233241234567', serviceCode: '*1#', text: '' },
    });
    expect(ussd.statusCode).toBe(404);
  });

  it('links a number through the simulator, answers it with the deployed version, and unlinks it', async () => {
    const appId = await createBot();
    await designBot(appId);
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json();
    expect(linked).toMatchObject({ status: '00', linkId: expect.any(String), data: { status: 'QR', connector: 'simulator' } });
    const linkId = linked.linkId as string;
    const status = (await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json();
    expect(status).toMatchObject({
      status: '00',
      linkStatus: 'QR',
      qrCode: expect.stringContaining(`/whatsapp-simulator/${linkId}?secret=`),
    });
    expect((await get(`/api/chatbot/whatsapp/link-status/${linkId}`, stranger.auth)).statusCode).toBe(404);
    const secret = new URL(status.qrCode).searchParams.get('secret')!;

    // The page's secret is its credential.
    expect((await get(`/api/whatsapp-simulator/${linkId}?secret=wrong`, {})).statusCode).toBe(404);
    const page = (await get(`/api/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`, {})).json();
    expect(page.data).toMatchObject({ status: 'QR', botName: 'Ama Shop Bot' });
    const send = (text: string, kind = 'text') =>
      post(`/api/whatsapp-simulator/${linkId}/messages`, { secret, from: '233209999999', text, kind }, {});
    expect((await send('hi')).json()).toMatchObject({ status: '02', message: 'This number is not linked: scan the QR code first' });

    const scanned = (await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233 20 000 0000' }, {})).json();
    expect(scanned).toMatchObject({ status: '00', data: { status: 'CONNECTED', mobileNumber: '+233200000000' } });
    expect((await post(`/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '233200000000' }, {})).statusCode).toBe(400);
    const numbers = (await get(`/api/chatbot/whatsapp/list-numbers/${appId}`)).json().data;
    expect(numbers).toEqual([
      expect.objectContaining({ linkId, status: 'CONNECTED', mobileNumber: '+233200000000', connectedAt: expect.any(String) }),
    ]);
    expect((await get(`/api/chatbot/whatsapp/link-status/${linkId}`)).json()).toMatchObject({ linkStatus: 'CONNECTED', qrCode: null });

    // Linked numbers answer with the deployed version: none yet.
    expect((await send('hi')).json().data.messages[0].text).toMatch(/not available yet/);
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    expect((await send('hi')).json().data.messages).toEqual([
      {
        type: 'buttons',
        body: 'Welcome to Ama Shop',
        buttons: [
          { id: '1', title: 'Balance' },
          { id: '2', title: 'Help' },
        ],
      },
    ]);
    // A picture where text was expected gets a sentence and leaves the open screen as it was.
    expect((await send('', 'unsupported')).json().data.messages).toEqual([{ type: 'text', text: MEDIA_REPLY_TEXT }]);
    // A file or a place comes with the message; without them, or off the globe, the message is refused and nothing runs.
    const phone = (body: Record<string, unknown>) =>
      post(`/api/whatsapp-simulator/${linkId}/messages`, { secret, from: '233209999999', ...body }, {});
    expect((await phone({ kind: 'media', text: 'caption' })).statusCode).toBe(400);
    expect((await phone({ kind: 'media', file: { data: 'not base64!', mimeType: 'image/png' } })).statusCode).toBe(400);
    expect((await phone({ kind: 'location' })).statusCode).toBe(400);
    expect((await phone({ kind: 'location', location: { latitude: 91, longitude: 0 } })).statusCode).toBe(400);
    const photoBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x20, 0x61, 0x20, 0x70, 0x68, 0x6f, 0x74, 0x6f]);
    const photo = { data: photoBytes.toString('base64'), mimeType: 'image/png', fileName: 'shoe.png' };
    // A file is stored before the bot reads it: one whose bytes are no image is refused in words, and no bot runs.
    expect((await phone({ kind: 'media', file: photo })).json().data.messages).toEqual([
      { type: 'text', text: MEDIA_MESSAGES.unknownType },
    ]);
    // A place on a menu that asks for text re-shows the menu, saying so.
    expect((await phone({ kind: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Osu' } })).json().data.messages).toEqual([
      {
        type: 'buttons',
        body: 'Please reply with text.\nWelcome to Ama Shop',
        buttons: [
          { id: '1', title: 'Balance' },
          { id: '2', title: 'Help' },
        ],
      },
    ]);
    expect((await send('1', 'choice')).json().data.messages).toEqual([{ type: 'text', text: 'You picked Balance. Goodbye!' }]);
    const transcript = (
      await get(`/api/whatsapp-simulator/${linkId}/messages?secret=${encodeURIComponent(secret)}&from=233209999999`, {})
    ).json();
    expect(transcript.data.transcript.map((e: { direction: string }) => e.direction)).toEqual([
      'in',
      'out',
      'in',
      'out',
      'in',
      'out',
      'in',
      'out',
      'in',
      'out',
      'in',
      'out',
    ]);
    // The chat shows the customer's file and place as they were sent.
    expect(transcript.data.transcript.filter((e: { direction: string }) => e.direction === 'in').slice(3, 5)).toEqual([
      expect.objectContaining({
        message: {
          type: 'media',
          media: { mediaId: expect.stringMatching(/^sim-/), kind: 'image', mimeType: 'image/png', size: 12, fileName: 'shoe.png' },
        },
      }),
      expect.objectContaining({ message: { type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Osu' } } }),
    ]);
    const live = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(live).toEqual(expect.arrayContaining([expect.objectContaining({ mobile: '233209999999', environment: 'live' })]));

    // An inactive bot answers politely and runs nothing.
    await post(`/api/chatbot/app/${appId}/status`, { status: 'inactive' });
    expect((await send('hi')).json().data.messages).toEqual([{ type: 'text', text: INACTIVE_BOT_TEXT }]);
    await post(`/api/chatbot/app/${appId}/status`, { status: 'active' });

    // The phone can log out; the console sees it.
    await post(`/api/whatsapp-simulator/${linkId}/state`, { secret, status: 'DISCONNECTED' }, {});
    expect((await get(`/api/chatbot/whatsapp/list-numbers/${appId}`)).json().data[0]).toMatchObject({
      status: 'DISCONNECTED',
      statusMessage: 'Logged out on the simulated phone',
    });

    expect((await get(`/api/chatbot/whatsapp/unlink/${linkId}`, stranger.auth)).statusCode).toBe(404);
    expect((await get(`/api/chatbot/whatsapp/unlink/${linkId}`)).json()).toEqual({ status: '00', message: 'Number unlinked successfully' });
    expect((await get(`/api/chatbot/whatsapp/list-numbers/${appId}`)).json().data).toEqual([]);
    expect((await send('hi')).statusCode).toBe(404);
  });

  it('answers a redelivered message once, with the reply it gave', async () => {
    const appId = await createBot();
    await designBot(appId);
    const bot = { appId, environment: 'test' as const, interactive: false };
    const message = (messageId: string, text: string) => {
      const sent = { messageId, from: '233241110000', text, kind: 'text' as const };
      return t.app.runtime.handleMessage(toChatMessage('link-x', sent, Date.now()), { findBot: async () => bot });
    };
    const first = await message('wamid.1', 'hi');
    const [again, other] = [await message('wamid.1', 'hi'), await message('wamid.2', '1')];
    expect(again).toEqual(first);
    expect(other?.messages[0]).toEqual({ type: 'text', text: 'You picked Balance. Goodbye!' });
  });

  it("answers one conversation's messages one at a time, in the order handed over, each reply sent in its turn", async () => {
    const appId = await createBot();
    await designBot(appId);
    const bot = { appId, environment: 'test' as const, interactive: false };
    const sent: string[] = [];
    const send = async (reply: ChatReply) => void sent.push(...reply.messages.map(toPlainText));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const message = (messageId: string, text: string, from = '233241110001') =>
      toChatMessage('link-q', { messageId, from, text, kind: 'text' }, Date.now());
    // The first message's bot is slow to find; the second, handed over after it, waits for its reply to be sent.
    const first = t.app.runtime.handleMessage(message('q1', 'hi'), { findBot: () => held.then(() => bot), send });
    const second = t.app.runtime.handleMessage(message('q2', '1'), { findBot: async () => bot, send });
    // Another conversation does not wait.
    await t.app.runtime.handleMessage(message('q3', 'hi', '233241110002'), { findBot: async () => bot, send });
    expect(sent).toEqual(['Welcome to Ama Shop\n1. Balance\n2. Help']);
    release();
    await Promise.all([first, second]);
    expect(sent).toEqual([
      'Welcome to Ama Shop\n1. Balance\n2. Help',
      'Welcome to Ama Shop\n1. Balance\n2. Help',
      'You picked Balance. Goodbye!',
    ]);
  });

  it('lets an admin give an account bot building, recorded in the audit log', async () => {
    const admin = await import('../../../../tests/support/test-app').then((m) =>
      m.seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] }),
    );
    const grant = await post('/api/admin/chatbot-access', { email: plain.email, enabled: true }, admin.auth);
    expect(grant.json()).toMatchObject({ status: '00', data: { chatbotAccess: true } });
    expect((await post('/api/admin/chatbot-access', { email: plain.email, enabled: true }, plain.auth)).statusCode).toBe(403);
    expect((await get(`/api/subscription/account?email=${encodeURIComponent(plain.email)}`, admin.auth)).json().data.chatbotAccess).toBe(
      true,
    );
    expect((await get('/api/chatbot/apps', plain.auth)).statusCode).toBe(200);
    await post('/api/admin/chatbot-access', { email: plain.email, enabled: false }, admin.auth);
    expect((await get('/api/chatbot/apps', plain.auth)).statusCode).toBe(403);
  });
});

describeDb('the demo bot on a freshly seeded server', () => {
  const t = useTestApp();

  it('signs the demo bot builder in to a deployed bot that answers in the chat simulator, with a list for its order menu', async () => {
    await seedDatabase(t.db, { adminEmail: 'admin@seed.test', demo: true, sandboxOrigin: 'http://127.0.0.1:3000' });
    const login = (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: DEMO_BOT_USER })).json();
    expect(login.data.role).toBe('CHATBOT');
    const api = createApiClient(t, { auth: { authorization: `Bearer ${login.token}` } });
    const [bot] = (await api.get('/api/chatbot/apps')).json().data;
    expect(bot).toMatchObject({ appName: 'Mensah Shop Bot', liveVersion: 1, status: 'active' });
    const say = async (text: string, kind = 'text') =>
      (await api.post(`/whatsapp-emulator/${bot.appId}`, { from: '233240000001', text, kind })).json().messages[0];
    expect(await say('hi')).toMatchObject({
      type: 'buttons',
      buttons: [{ title: 'Order' }, { title: 'Opening hours' }, { title: 'Talk to us' }],
    });
    expect(await say('1', 'choice')).toMatchObject({
      type: 'list',
      rows: expect.arrayContaining([
        { id: '1', title: 'Rice 5kg' },
        { id: '0', title: 'Back' },
      ]),
    });
    expect(await say('2', 'choice')).toEqual({ type: 'text', text: 'How many Cooking oil 1L?' });
    expect(await say('3')).toEqual({ type: 'text', text: 'Thank you! 3 x Cooking oil 1L will be ready for pickup today.' });
  });
});
