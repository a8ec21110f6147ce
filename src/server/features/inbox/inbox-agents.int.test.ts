import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, contacts, inboxConversations, inboxMessages, mailOutbox, users } from '../../../db/schema';
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { makePng } from '../../../../tests/support/media-files';
import { storeMedia } from '../media/media.service';
import { createApiClient, seedUser, useTestApp, useUser, type SeededUser } from '../../../../tests/support/test-app';
import { handOver, openStream, received, seedHandoffBot, type LinkedBot } from '../../../../tests/support/inbox-bot';

/**
 * An account's inbox agents (docs/inbox.md, "Agents"): the owner adds one (a name, an email, a first password), the
 * agent signs in and works the owner's conversations (the lines say who assigned and closed), the live stream counts
 * under the owner's account, and removing the agent ends their sign-ins and screens and unassigns their open
 * conversations. Another account's agent sees none of it.
 */

const asAgent = (token: string) => ({ authorization: `Bearer ${token}` });

describeDb('inbox agents', () => {
  const t = useTestApp({ INBOX_STREAMS_PER_ACCOUNT: 2, INBOX_AGENTS_PER_ACCOUNT: 8 });
  const owner = useUser(t, { roles: ['CHATBOT'], fullName: 'Ama Owusu' });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let bot: LinkedBot;
  beforeAll(async () => {
    bot = await seedHandoffBot(t, owner);
  });

  /** Adds an agent to `account` through the call, and signs them in. */
  async function addAgent(account: SeededUser, fullName: string, email: string) {
    const created = await createApiClient(t, account).post('/api/inbox/agents', { fullName, email, password: 'first-pass' });
    expect(created.statusCode, created.body).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-pass' } });
    expect(login.statusCode, login.body).toBe(200);
    return { id: created.json().data.userId as string, auth: asAgent(login.json().token) };
  }

  it('the owner adds an agent, who signs in as an AGENT, is listed, gets a mail; the email is unique; the audit log has it', async () => {
    const { post, get } = createApiClient(t, owner);
    const email = `kofi.${Date.now()}@agents.test`;
    const refusals: Array<[object, number, string]> = [
      [{ fullName: '', email, password: 'first-pass' }, 400, 'Full name is required'],
      [{ fullName: 'Kofi', email: 'not-an-email', password: 'first-pass' }, 400, 'Invalid email'],
      [{ fullName: 'Kofi', email, password: 'abc' }, 400, 'Password must be at least 6 characters long.'],
      [{ fullName: 'Kofi', email: stranger.email, password: 'first-pass' }, 409, 'An account with this email already exists'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await post('/api/inbox/agents', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const agent = await addAgent(owner, 'Kofi Mensah', email);
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: agent.auth })).json().data;
    expect(me).toMatchObject({ fullName: 'Kofi Mensah', email, role: 'AGENT', userType: 'agent' });
    expect((await get('/api/inbox/agents')).json().data).toEqual([
      { userId: owner.user.id, fullName: 'Ama Owusu', email: owner.email, isOwner: true },
      { userId: agent.id, fullName: 'Kofi Mensah', email, isOwner: false },
    ]);
    expect((await post('/api/inbox/agents', { fullName: 'Kofi again', email, password: 'first-pass' })).statusCode).toBe(409);
    const [audited] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'agent_created'), eq(auditLog.targetId, agent.id)));
    expect(audited).toMatchObject({ actorId: owner.user.id, actorEmail: owner.email, details: { email, ownerId: owner.user.id } });
    await expect
      .poll(async () => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).map((m) => m.subject), { timeout: 10_000 })
      .toEqual(['Ama Owusu added you to their Dialflow inbox']);
    // Agents add no agents; another account cannot remove this one.
    const byAgent = await t.app.inject({
      method: 'POST',
      url: '/api/inbox/agents',
      headers: agent.auth,
      payload: { fullName: 'X', email: `x.${email}`, password: 'first-pass' },
    });
    expect(byAgent.statusCode).toBe(403);
    const byStranger = await t.app.inject({ method: 'DELETE', url: `/api/inbox/agents/${agent.id}`, headers: stranger.auth });
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json()).toMatchObject({ status: '04', message: 'Agent not found' });
  });

  it("an agent works the owner's conversations: lists, reads, replies under their name, notes, assigns, closes; the lines say who", async () => {
    const agent = await addAgent(owner, 'Yaw Boateng', `yaw.${Date.now()}@agents.test`);
    const theirAgent = await addAgent(stranger, 'Esi Other', `esi.${Date.now()}@agents.test`);
    const from = '233241000501';
    const conversationId = await handOver(t, bot, from);
    const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = agent.auth) =>
      t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const ids = async (filter: string, headers = agent.auth) =>
      (await call('GET', `/api/inbox/conversations?filter=${filter}`, undefined, headers))
        .json()
        .data.conversations.map((c: { conversationId: string }) => c.conversationId);

    expect(await ids('open')).toContain(conversationId);
    expect(await ids('unassigned')).toContain(conversationId);
    expect(await ids('mine')).not.toContain(conversationId);
    // The conversation gives the contact (agents have no Contacts screen): the owner's, by number.
    await t.db
      .insert(contacts)
      .values({ ownerId: owner.user.id, msisdn: `+${from}`, name: 'Adwoa Mensah', attributes: { tier: 'gold' } })
      .onConflictDoUpdate({ target: [contacts.ownerId, contacts.msisdn], set: { name: 'Adwoa Mensah', attributes: { tier: 'gold' } } });
    const detail = (await call('GET', `/api/inbox/conversations/${conversationId}`)).json().data;
    expect(detail.conversation.reason).toBe('asked for a person');
    expect(detail.contact).toMatchObject({ name: 'Adwoa Mensah', attributes: { tier: 'gold' } });
    expect((await call('POST', `/api/inbox/conversations/${conversationId}/read`, {})).json().data.unreadCount).toBe(0);
    const reply = (await call('POST', `/api/inbox/conversations/${conversationId}/replies`, { text: 'Hello, Yaw here.' })).json();
    expect(reply.data).toMatchObject({ author: 'agent', authorId: agent.id, authorName: 'Yaw Boateng', sendStatus: 'sent' });
    expect((await received(t, bot, from)).at(-1)).toBe('Hello, Yaw here.');
    const note = (await call('POST', `/api/inbox/conversations/${conversationId}/notes`, { text: 'Refund asked' })).json();
    expect(note.data).toMatchObject({ author: 'note', authorName: 'Yaw Boateng' });

    // Assign: to self, then the owner to the agent; a user of another account (or its agent) is no agent here.
    for (const assigneeId of [stranger.user.id, theirAgent.id]) {
      const refused = await call('POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: 'Choose an agent of this account.' });
    }
    expect((await call('POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId: agent.id })).json().data.assigneeId).toBe(
      agent.id,
    );
    expect(await ids('mine')).toContain(conversationId);
    expect(await ids('mine', owner.auth)).not.toContain(conversationId);
    await call('POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId: owner.user.id });
    await call('POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId: agent.id }, owner.auth);
    // Assigning to whom has it already changes nothing (no line).
    await call('POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId: agent.id }, owner.auth);

    // Another account's agent: 404 on the owner's conversation, and none of it in their lists.
    for (const [method, url, payload] of [
      ['GET', `/api/inbox/conversations/${conversationId}`],
      ['POST', `/api/inbox/conversations/${conversationId}/read`, {}],
      ['POST', `/api/inbox/conversations/${conversationId}/replies`, { text: 'intruder' }],
      ['POST', `/api/inbox/conversations/${conversationId}/notes`, { text: 'intruder' }],
      ['POST', `/api/inbox/conversations/${conversationId}/assign`, { assigneeId: null }],
      ['POST', `/api/inbox/conversations/${conversationId}/close`, {}],
    ] as const) {
      const res = await call(method, url, payload, theirAgent.auth);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().status).toBe('04');
    }
    for (const filter of ['open', 'closed', 'unassigned']) expect(await ids(filter, theirAgent.auth)).not.toContain(conversationId);

    const closed = (await call('POST', `/api/inbox/conversations/${conversationId}/close`, {})).json().data;
    expect(closed.status).toBe('closed');
    const [row] = await t.db.select().from(inboxConversations).where(eq(inboxConversations.id, conversationId));
    expect(row!.closedBy).toBe(agent.id);
    const messages = (await call('GET', `/api/inbox/conversations/${conversationId}`, undefined, owner.auth)).json().data.messages;
    expect(
      messages.filter((m: { author: string }) => m.author !== 'customer' && m.author !== 'bot').map((m: { text: string }) => m.text),
    ).toEqual([
      'Hello, Yaw here.',
      'Refund asked',
      'Yaw Boateng took this',
      'Yaw Boateng assigned this to Ama Owusu',
      'Ama Owusu assigned this to Yaw Boateng',
      'Closed by Yaw Boateng',
    ]);
    expect(messages.at(-1)).toMatchObject({ author: 'event', authorId: agent.id, authorName: 'Yaw Boateng' });
  });

  it("an agent sees the customer's files through the conversation, and no other file of the account", async () => {
    const agent = await addAgent(owner, 'Efua Asante', `efua.${Date.now()}@agents.test`);
    const theirAgent = await addAgent(stranger, 'Nana Other', `nana.${Date.now()}@agents.test`);
    const from = '233241000701';
    const conversationId = await handOver(t, bot, from);
    const store = () => storeMedia(t.app.ctx, { accountId: owner.user.id, source: 'inbound', phone: from, bytes: makePng(2, 2) });
    const photo = await store();
    const other = await store();
    // The customer's photo, held in the conversation as the runtime holds one.
    await t.db
      .insert(inboxMessages)
      .values({ conversationId, direction: 'in', author: 'customer', text: 'my receipt', mediaId: photo.mediaId });
    const read = (headers: Record<string, string>, mediaId: string) =>
      t.app.inject({ method: 'GET', url: `/api/inbox/conversations/${conversationId}/media/${mediaId}`, headers });
    const seen = await read(agent.auth, photo.mediaId);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().data).toMatchObject({
      mediaId: photo.mediaId,
      kind: 'image',
      url: expect.stringContaining(`/media/${photo.mediaId}`),
    });
    expect((await read(owner.auth, photo.mediaId)).statusCode).toBe(200);
    // Not a file of this conversation; another account's agent; the account's files call.
    expect((await read(agent.auth, other.mediaId)).statusCode).toBe(404);
    expect((await read(theirAgent.auth, photo.mediaId)).statusCode).toBe(404);
    const direct = await t.app.inject({ method: 'GET', url: `/api/media/${photo.mediaId}`, headers: agent.auth });
    expect(direct.statusCode).toBe(403);
  });

  it("an agent's live stream counts under the owner's account; removing the agent ends it and their sign-ins, and unassigns their open conversations", async () => {
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const email = `akua.${Date.now()}@agents.test`;
    const agent = await addAgent(owner, 'Akua Sarpong', email);
    const open = await handOver(t, bot, '233241000601');
    const done = await handOver(t, bot, '233241000602');
    await createApiClient(t, owner).post(`/api/inbox/conversations/${open}/assign`, { assigneeId: agent.id });
    await createApiClient(t, owner).post(`/api/inbox/conversations/${done}/assign`, { assigneeId: agent.id });
    await t.app.inject({ method: 'POST', url: `/api/inbox/conversations/${done}/close`, headers: agent.auth });

    const agentStream = await openStream(origin, agent.auth);
    const ownerStream = await openStream(origin, owner.auth);
    try {
      expect([agentStream.status, ownerStream.status]).toEqual([200, 200]);
      // The account's two places are taken: the agent's counts as the owner's.
      const third = await openStream(origin, owner.auth);
      expect(third.status).toBe(429);
      third.close();
      // The agent hears the owner's conversations.
      await createApiClient(t, owner).post(`/api/inbox/conversations/${open}/notes`, { text: 'heads up' });
      expect(await agentStream.next()).toMatchObject({ type: 'message_added', conversationId: open, message: { text: 'heads up' } });
      expect(await ownerStream.next()).toMatchObject({ type: 'message_added', conversationId: open });

      const removed = await t.app.inject({ method: 'DELETE', url: `/api/inbox/agents/${agent.id}`, headers: owner.auth });
      expect(removed.json()).toEqual({ status: '00', message: 'Agent removed' });
      await expect(agentStream.next()).rejects.toThrow('the stream ended');
      expect(await ownerStream.next()).toEqual({ type: 'conversation_assigned', conversationId: open, assigneeId: null });
    } finally {
      agentStream.close();
      ownerStream.close();
    }
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: agent.auth });
    expect(me.statusCode).toBe(401);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-pass' } });
    expect(login.statusCode).toBe(401);
    const rows = await t.db.select().from(inboxConversations).where(eq(inboxConversations.assigneeId, agent.id));
    expect(rows).toEqual([]);
    const [kept] = await t.db.select().from(inboxConversations).where(eq(inboxConversations.id, open));
    expect(kept!.assigneeId).toBeNull();
    // What they wrote keeps their name.
    const lines = await t.db.select().from(inboxMessages).where(eq(inboxMessages.conversationId, done));
    expect(lines.find((m) => m.author === 'event' && m.text === 'Closed by Akua Sarpong')).toMatchObject({
      authorId: null,
      authorName: 'Akua Sarpong',
    });
    const [audited] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'agent_deleted'), eq(auditLog.targetId, agent.id)));
    expect(audited).toMatchObject({ actorId: owner.user.id, details: { unassigned: 1 } });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/inbox/agents/${agent.id}`, headers: owner.auth })).statusCode).toBe(404);
  });

  it('deleting an account deletes its agents', async () => {
    const account = await seedUser(t, { roles: ['CHATBOT'] });
    const agent = await addAgent(account, 'Kwame', `kwame.${Date.now()}@agents.test`);
    await t.db.delete(users).where(eq(users.id, account.user.id));
    expect(await t.db.select().from(users).where(eq(users.id, agent.id))).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/inbox/conversations', headers: agent.auth })).statusCode).toBe(401);
  });

  it('an account has at most INBOX_AGENTS_PER_ACCOUNT agents: the next is refused and nothing is created or mailed', async () => {
    const busy = await seedUser(t, { roles: ['CHATBOT'] });
    const stamp = Date.now();
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) await addAgent(busy, `Agent ${n}`, `agent${n}.${stamp}@agents.test`);
    const refused = await createApiClient(t, busy).post('/api/inbox/agents', {
      fullName: 'Agent 9',
      email: `agent9.${stamp}@agents.test`,
      password: 'first-pass',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(INBOX_MESSAGES.tooManyAgents);
    expect(
      await t.db
        .select()
        .from(users)
        .where(eq(users.email, `agent9.${stamp}@agents.test`)),
    ).toEqual([]);
  });
});
