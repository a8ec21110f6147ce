import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inboxConversations, inboxMessages, mediaFiles, whatsappMessages } from '../../../db/schema';
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { MEDIA_MESSAGES } from '../media/media.service';
import { describeDb } from '../../../../tests/support/test-db';
import { makePdf, makePng } from '../../../../tests/support/media-files';
import { createApiClient, seedUser, useTestApp, useUser, type SeededUser } from '../../../../tests/support/test-app';
import { CLOUD_CUSTOMER, type CloudTestApp, createCloudTestApp, type GraphCall, graphSent } from '../../../../tests/support/cloud-api';
import { closeWindow, handOver, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * An agent's reply with a file (docs/inbox.md, Replies): the agent uploads it through POST /api/media (for the
 * owner's account, with a kind's limits), then replies with its id and a caption; the customer's phone gets the
 * file, the message keeps the id and the thread reads it. Another account's file, a closed window, a callback
 * request, a caption too long: refused, nothing stored or sent. A retry with the same client id sends once.
 */
describeDb("the inbox's replies with a file", () => {
  const t = useTestApp();
  const owner = useUser(t, { roles: ['CHATBOT'], fullName: 'Ama Owusu' });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  let agentAuth: Record<string, string>;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, owner);
    const email = `kofi.media.${Date.now()}@agents.test`;
    const created = await createApiClient(t, owner).post('/api/inbox/agents', { fullName: 'Kofi Boateng', email, password: 'first-pass' });
    expect(created.statusCode, created.body).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-pass' } });
    agentAuth = { authorization: `Bearer ${login.json().token}` };
  });

  const upload = (auth: Record<string, string>, bytes: Buffer, mimeType: string, query: string) =>
    t.app.inject({ method: 'POST', url: `/api/media?${query}`, headers: { ...auth, 'content-type': mimeType }, payload: bytes });
  const replyTo = (conversationId: string, body: object, auth = agentAuth) =>
    t.app.inject({ method: 'POST', url: `/api/inbox/conversations/${conversationId}/replies`, headers: auth, payload: body });

  /** What the customer's phone got from the linked number, in order. */
  async function phoneGot(from: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/whatsapp-simulator/${bot.linkId}/messages?secret=${encodeURIComponent(bot.secret)}&from=${from}`,
    });
    return (res.json().data.transcript as Array<{ direction: string; message: Record<string, unknown> }>)
      .filter((m) => m.direction === 'out')
      .map((m) => m.message);
  }

  const messageCount = async (conversationId: string) =>
    (await t.db.select({ n: count() }).from(inboxMessages).where(eq(inboxMessages.conversationId, conversationId)))[0]!.n;

  async function uploadPng(user: Pick<SeededUser, 'auth'> | { auth: Record<string, string> }, fileName = 'receipt.png') {
    const res = await upload(user.auth, makePng(6, 4), 'image/png', `kind=image&fileName=${fileName}`);
    expect(res.json(), res.body).toMatchObject({ status: '00' });
    return res.json().data.mediaId as string;
  }

  it("an agent's photo with a caption reaches the customer's phone, is stored with its id and shown by the thread; a retry sends once", async () => {
    const from = '233241500001';
    const conversationId = await handOver(t, bot, from);
    const mediaId = await uploadPng({ auth: agentAuth });
    // The agent's upload is the owner's account's file (their storage), not the agent's.
    const [file] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, mediaId));
    expect(file).toMatchObject({ ownerId: owner.user.id, kind: 'image', source: 'upload' });

    const body = { mediaId, text: 'Your receipt', clientMessageId: 'photo-1' };
    const res = await replyTo(conversationId, body);
    expect(res.json(), res.body).toMatchObject({
      status: '00',
      data: { author: 'agent', authorName: 'Kofi Boateng', mediaId, text: 'Your receipt', sendStatus: 'sent' },
    });
    const got = await phoneGot(from);
    expect(got.at(-1)).toMatchObject({ type: 'media', media: { mediaId, kind: 'image', mimeType: 'image/png', caption: 'Your receipt' } });

    // Recorded for its ticks, as a text reply is.
    await t.app.runtime.flushEvents();
    const [stored] = await t.db.select().from(inboxMessages).where(eq(inboxMessages.id, res.json().data.messageId));
    expect(stored).toMatchObject({ mediaId, text: 'Your receipt', sendStatus: 'sent' });
    const ticks = await t.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.linkId, bot.linkId), eq(whatsappMessages.providerMessageId, stored!.providerMessageId!)));
    expect(ticks).toHaveLength(1);

    // A retry (the console sent it again): the same message, nothing sent twice.
    const again = await replyTo(conversationId, body);
    expect(again.json().data.messageId).toBe(res.json().data.messageId);
    expect(await phoneGot(from)).toHaveLength(got.length);

    // The thread reads it as it reads the customer's files; a file alone (no caption) goes too.
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/inbox/conversations/${conversationId}/media/${mediaId}`,
      headers: agentAuth,
    });
    expect(shown.json(), shown.body).toMatchObject({ status: '00', data: { mediaId, kind: 'image' } });
    expect(shown.json().data.url).toContain(`/media/${mediaId}?`);
    const pdf = await upload(agentAuth, makePdf('Invoice 12'), 'application/pdf', 'kind=document&fileName=invoice-12.pdf');
    const alone = await replyTo(conversationId, { mediaId: pdf.json().data.mediaId });
    expect(alone.json(), alone.body).toMatchObject({ status: '00', data: { text: '', sendStatus: 'sent' } });
    expect((await phoneGot(from)).at(-1)).toMatchObject({ type: 'media', media: { kind: 'document', fileName: 'invoice-12.pdf' } });
    expect(((await phoneGot(from)).at(-1) as { media: { caption?: string } }).media.caption).toBeUndefined();
  });

  it('refuses, storing and sending nothing: another account’s file (404), a caption too long, a closed window, a callback request', async () => {
    const from = '233241500002';
    const conversationId = await handOver(t, bot, from);
    const before = { stored: await messageCount(conversationId), sent: (await phoneGot(from)).length };
    const unchanged = async () => {
      expect(await messageCount(conversationId)).toBe(before.stored);
      expect(await phoneGot(from)).toHaveLength(before.sent);
    };

    const theirs = await uploadPng(stranger);
    const foreign = await replyTo(conversationId, { mediaId: theirs, text: 'Look' });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json().message).toBe(MEDIA_MESSAGES.notFound);
    await unchanged();

    const ours = await uploadPng({ auth: agentAuth });
    const long = await replyTo(conversationId, { mediaId: ours, text: 'x'.repeat(1025) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('A caption on a file is at most 1,024 characters');
    const empty = await replyTo(conversationId, { text: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Write a message');
    await unchanged();

    // Its bytes deleted (retention): gone, 410.
    const expired = await uploadPng({ auth: agentAuth }, 'old.png');
    await t.db.update(mediaFiles).set({ deletedAt: new Date() }).where(eq(mediaFiles.id, expired));
    const gone = await replyTo(conversationId, { mediaId: expired });
    expect(gone.statusCode).toBe(410);
    await unchanged();

    // The window closed (the runtime's records written first, so a late batch cannot reopen it): WhatsApp takes no
    // free message, a file no more than a text.
    await closeWindow(t, bot, conversationId, from);
    const closedWindow = await replyTo(conversationId, { mediaId: ours, text: 'Late' });
    expect(closedWindow.statusCode, closedWindow.body).toBe(409);
    expect(closedWindow.json().message).toContain('24-hour window');
    await unchanged();

    // A USSD caller's callback request takes no reply, with or without a file.
    const [callback] = await t.db
      .insert(inboxConversations)
      .values({ ownerId: owner.user.id, appId: bot.appId, channel: 'ussd', msisdn: '+233241500003', reason: 'wants a call' })
      .returning();
    const toCaller = await replyTo(callback!.id, { mediaId: ours });
    expect(toCaller.statusCode).toBe(409);
    expect(toCaller.json().message).toBe(INBOX_MESSAGES.callbackNoReply);
    expect(await messageCount(callback!.id)).toBe(0);
  });

  it("uploads by an agent keep the kinds' limits and types; an app named is not found; another account's conversation is not found", async () => {
    const wrongKind = await upload(agentAuth, makePdf(), 'application/pdf', 'kind=image&fileName=scan.pdf');
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().message).toContain('image');
    const tooBig = await upload(agentAuth, Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'image/png', 'kind=image&fileName=big.png');
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe(MEDIA_MESSAGES.tooLargeForKind('image'));
    const notAType = await upload(
      agentAuth,
      Buffer.from('MZ\x90\x00 not a file WhatsApp takes'),
      'application/x-msdownload',
      'fileName=a.exe',
    );
    expect(notAType.statusCode).toBe(400);
    const forApp = await upload(agentAuth, makePng(), 'image/png', `kind=image&appId=${bot.appId}`);
    expect(forApp.statusCode).toBe(404);

    const from = '233241500004';
    const conversationId = await handOver(t, bot, from);
    const theirs = await uploadPng(stranger);
    const res = await replyTo(conversationId, { mediaId: theirs }, stranger.auth);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(INBOX_MESSAGES.notFound);
  });
});

/**
 * The same reply on the Cloud API connector: the file goes to Meta first (`POST /{phone-number-id}/media`, its bytes
 * read from the media store), then the message names Meta's id with the caption; recorded for its ticks.
 */
describeDb("the inbox's replies with a file, on the Cloud API", () => {
  const PHONE_NUMBER_ID = '109876543299';
  const graph: GraphCall[] = [];
  let t: CloudTestApp;
  beforeAll(async () => {
    t = await createCloudTestApp((call) => {
      if (call.method === 'GET')
        return { body: { display_phone_number: '+233 30 123 4599', verified_name: 'Ama Shop', id: PHONE_NUMBER_ID } };
      graph.push(call);
      if (call.path === `/${PHONE_NUMBER_ID}/media`) return { body: { id: 'meta-media-7' } };
      return graphSent(`wamid.agent${graph.length}`);
    });
  });
  afterAll(() => t?.close());

  it("uploads the agent's photo to Meta and sends it with its caption", async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const { post } = createApiClient(t, owner);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Cloud Shop', description: 'hands over' })).json().data.appId;
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data, JSON.stringify(linked)).toMatchObject({ status: 'CONNECTED', connector: 'cloud' });
    // A conversation the customer's message opened just now (the handoff itself is the simulator's tests' matter).
    const [conversation] = await t.db
      .insert(inboxConversations)
      .values({ ownerId: owner.user.id, appId, linkId: linked.data.linkId, msisdn: `+${CLOUD_CUSTOMER}`, lastInboundAt: new Date() })
      .returning();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/media?kind=image&fileName=receipt.png',
      headers: { ...owner.auth, 'content-type': 'image/png' },
      payload: makePng(6, 4),
    });
    const mediaId = uploaded.json().data.mediaId as string;

    const res = await post(`/api/inbox/conversations/${conversation!.id}/replies`, { mediaId, text: 'Your receipt' });
    expect(res.json(), res.body).toMatchObject({ status: '00', data: { mediaId, text: 'Your receipt', sendStatus: 'sent' } });
    expect(graph.map((call) => call.path)).toEqual([`/${PHONE_NUMBER_ID}/media`, `/${PHONE_NUMBER_ID}/messages`]);
    expect(graph[0]!.raw).toContain('receipt.png');
    expect(graph[1]!.body).toMatchObject({ to: CLOUD_CUSTOMER, type: 'image', image: { id: 'meta-media-7', caption: 'Your receipt' } });
    await t.app.runtime.flushEvents();
    const [stored] = await t.db.select().from(inboxMessages).where(eq(inboxMessages.id, res.json().data.messageId));
    expect(stored!.providerMessageId).toBe('wamid.agent2');
    expect(await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.providerMessageId, 'wamid.agent2'))).toHaveLength(1);
  });
});
