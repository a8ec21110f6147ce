import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inboxConversations } from '../../../db/schema';
import { DEFAULT_HANDOFF_TEXT } from '../../../shared/inbox';
import { buildApp } from '../../app';
import { createConfig } from '../../config';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import {
  createApiClient,
  createTestApp,
  seedUser,
  useTestApp,
  useUser,
  type SeededUser,
  type TestApp,
} from '../../../../tests/support/test-app';
import { customerWrites, openStream, seedHandoffBot } from '../../../../tests/support/inbox-bot';

/**
 * The inbox's live stream (docs/inbox.md, "Live") over a real HTTP listener, read as the console reads it: a
 * streaming fetch. Each account hears its own conversations only; streams are bounded per account and in all, get a
 * heartbeat, and free their place when the reader goes; with Redis, an event stored by one process reaches a
 * stream held by another.
 */

/** An open conversation of `owner`'s bot, written as the runtime writes one, for the agents' calls to act on. */
async function seedConversation(t: TestApp, owner: SeededUser, msisdn: string): Promise<string> {
  const { post } = createApiClient(t, owner);
  const appId = (await post('/api/chatbot/app/create', { appName: 'Quiet Bot', description: 'no number' })).json().data.appId as string;
  const [row] = await t.db.insert(inboxConversations).values({ ownerId: owner.user.id, appId, msisdn, reason: 'seeded' }).returning();
  return row!.id;
}

describeDb('the inbox event stream', () => {
  const t = useTestApp({ INBOX_STREAMS_PER_ACCOUNT: 2, INBOX_STREAMS_MAX: 3, INBOX_HEARTBEAT_MS: 1000 });
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let origin = '';
  beforeAll(async () => {
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it("tells each account's open screens of its own conversations only, live", async () => {
    const anonymous = await fetch(`${origin}/api/inbox/events`);
    expect(anonymous.status).toBe(401);
    const bot = await seedHandoffBot(t, builder);
    const strangersConversation = await seedConversation(t, stranger, '+233209999999');
    const mine = await openStream(origin, builder.auth);
    const theirs = await openStream(origin, stranger.auth);
    try {
      expect(mine.status).toBe(200);
      await customerWrites(t, bot, '233241000101', 'hi');
      await customerWrites(t, bot, '233241000101', '2');
      const opened = await mine.next();
      expect(opened).toMatchObject({
        type: 'conversation_opened',
        conversation: { msisdn: '+233241000101', reason: 'asked for a person', status: 'open' },
      });
      if (opened.type !== 'conversation_opened') throw new Error('not an opening');
      const { conversationId } = opened.conversation;
      expect(await mine.next()).toMatchObject({ type: 'message_added', conversationId, message: { author: 'customer', text: '2' } });
      expect(await mine.next()).toMatchObject({
        type: 'message_added',
        conversationId,
        message: { author: 'bot', text: DEFAULT_HANDOFF_TEXT },
      });
      await customerWrites(t, bot, '233241000101', 'anyone there?');
      expect(await mine.next()).toMatchObject({ type: 'message_added', message: { author: 'customer', text: 'anyone there?' } });
      const agent = createApiClient(t, builder);
      await agent.post(`/api/inbox/conversations/${conversationId}/assign`, { assigneeId: builder.user.id });
      expect(await mine.next()).toEqual({ type: 'conversation_assigned', conversationId, assigneeId: builder.user.id });
      // Each assignment and closing also adds its line to the conversation (docs/inbox.md, "Agents").
      expect(await mine.next()).toMatchObject({
        type: 'message_added',
        conversationId,
        message: { author: 'event', text: 'Test User took this' },
      });
      await agent.post(`/api/inbox/conversations/${conversationId}/close`, {});
      expect(await mine.next()).toEqual({ type: 'conversation_closed', conversationId });
      expect(await mine.next()).toMatchObject({
        type: 'message_added',
        conversationId,
        message: { author: 'event', text: 'Closed by Test User' },
      });
      // The stranger's screen heard none of that: its first event is its own.
      await createApiClient(t, stranger).post(`/api/inbox/conversations/${strangersConversation}/notes`, { text: 'ours' });
      expect(await theirs.next()).toMatchObject({
        type: 'message_added',
        conversationId: strangersConversation,
        message: { text: 'ours' },
      });
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('sends a heartbeat to an idle stream', async () => {
    const stream = await openStream(origin, builder.auth);
    try {
      let seen = '';
      while (!seen.includes(': ping\n\n')) seen += await stream.nextChunk();
      expect(seen.startsWith('retry: 3000\n: connected\n\n')).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('bounds the streams per account and in all, and a reader that goes frees its place', async () => {
    const first = await openStream(origin, builder.auth);
    const second = await openStream(origin, builder.auth);
    const third = await openStream(origin, builder.auth);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    // The stranger's one stream fills the process's three; a third account is refused too.
    const theirs = await openStream(origin, stranger.auth);
    const other = await seedUser(t, { roles: ['CHATBOT'] });
    const refused = await openStream(origin, other.auth);
    expect([theirs.status, refused.status]).toEqual([200, 429]);
    first.close();
    // Once the server has seen the first reader go, its place is free again.
    await expect
      .poll(async () => {
        const again = await openStream(origin, other.auth);
        if (again.status === 200) again.close();
        return again.status;
      })
      .toBe(200);
    second.close();
    theirs.close();
  });
});

describeRedis('the inbox event stream across processes (Redis)', () => {
  const prefix = `df-inbox-${randomBytes(4).toString('hex')}:`;
  let t: TestApp;
  let other: FastifyInstance;
  const plain = new Redis(testRedisUrl);
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: prefix });
    other = await buildApp(createConfig({ NODE_ENV: 'test', REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: prefix }), {
      database: t.app.ctx.database,
      logger: false,
    });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    plain.disconnect();
  });
  // The second process listens once, for every test.
  let otherOrigin: Promise<string> | undefined;
  const listenOther = () => (otherOrigin ??= other.listen({ port: 0, host: '127.0.0.1' }));

  it('an event stored by one process reaches the stream another process holds', async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const conversationId = await seedConversation(t, owner, '+233241000201');
    const origin = await listenOther();
    const stream = await openStream(origin, owner.auth);
    try {
      expect(stream.status).toBe(200);
      // Both processes listen on the installation's channel once their subscribers are ready.
      await expect.poll(async () => ((await plain.pubsub('NUMSUB', `${prefix}inbox`)) as [string, number])[1]).toBe(2);
      await createApiClient(t, owner).post(`/api/inbox/conversations/${conversationId}/notes`, { text: 'from process one' });
      const heard = await stream.next();
      expect(heard).toMatchObject({ conversationId, message: { author: 'note', text: 'from process one' } });
    } finally {
      stream.close();
    }
  });

  it("a removed agent's stream ends in the other process too", async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const email = `kofi.${Date.now()}@fleet.test`;
    const created = await createApiClient(t, owner).post('/api/inbox/agents', { fullName: 'Kofi', email, password: 'first-pass' });
    expect(created.statusCode, created.body).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-pass' } });
    const origin = await listenOther();
    const stream = await openStream(origin, { authorization: `Bearer ${login.json().token as string}` });
    try {
      expect(stream.status).toBe(200);
      await expect.poll(async () => ((await plain.pubsub('NUMSUB', `${prefix}inbox`)) as [string, number])[1]).toBe(2);
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/inbox/agents/${created.json().data.userId as string}`,
        headers: owner.auth,
      });
      expect(removed.statusCode, removed.body).toBe(200);
      // Process two ends the stream it holds: the reader sees its end, with no event written.
      await expect(stream.next()).rejects.toThrow('the stream ended');
    } finally {
      stream.close();
    }
  });
});
