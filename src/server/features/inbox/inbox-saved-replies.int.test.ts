import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { inboxSavedReplies } from '../../../db/schema';
import { INBOX_MESSAGES } from '../../../shared/api/inbox.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, useTestApp, useUser, type SeededUser } from '../../../../tests/support/test-app';

/**
 * Saved replies (docs/inbox.md, "Saved replies"): the account's owner writes them, its agents read them; another
 * account's id answers 404; an account keeps at most INBOX_SAVED_REPLIES_PER_ACCOUNT.
 */

describeDb('saved replies', () => {
  const t = useTestApp({ INBOX_SAVED_REPLIES_PER_ACCOUNT: 3 });
  const owner = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  const agent = {} as SeededUser;
  beforeAll(async () => {
    Object.assign(agent, await seedUser(t, { userType: 'agent', agentOf: owner.user.id, plan: 'TRIAL' }));
  });
  const url = '/api/inbox/saved-replies';

  it('the owner adds, changes and deletes them; the agents list them by title; bad input changes nothing', async () => {
    const api = createApiClient(t, owner);
    expect((await api.get(url)).json().data).toEqual([]);
    const added = (await api.post(url, { title: '  Opening hours ', text: 'We open 8:00 to 17:00, Monday to Friday.' })).json();
    expect(added).toMatchObject({ status: '00', data: { title: 'Opening hours', text: 'We open 8:00 to 17:00, Monday to Friday.' } });
    await api.post(url, { title: 'Delivery', text: 'Delivery takes two days.' });
    const listed = (await createApiClient(t, agent).get(url)).json().data as Array<{ title: string }>;
    expect(listed.map((r) => r.title)).toEqual(['Delivery', 'Opening hours']);

    const id = added.data.savedReplyId as string;
    const changed = (await api.post(`${url}/${id}`, { title: 'Hours', text: 'We open at 8:00.' })).json();
    expect(changed).toMatchObject({ status: '00', data: { savedReplyId: id, title: 'Hours', text: 'We open at 8:00.' } });

    for (const [body, message] of [
      [{ title: '', text: 'x' }, 'Give the saved reply a title'],
      [{ title: 'x'.repeat(61), text: 'x' }, 'A title is at most 60 characters'],
      [{ title: 'Long', text: 'x'.repeat(1001) }, 'A saved reply is at most 1,000 characters'],
      [{ title: 'Empty', text: '   ' }, 'Write the saved reply'],
    ] as const) {
      const res = await api.post(`${url}/${id}`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const [kept] = await t.db.select().from(inboxSavedReplies).where(eq(inboxSavedReplies.id, id));
    expect(kept).toMatchObject({ title: 'Hours', text: 'We open at 8:00.' });

    expect((await api.delete(`${url}/${id}`)).json().message).toBe('Saved reply deleted');
    expect(((await api.get(url)).json().data as Array<{ title: string }>).map((r) => r.title)).toEqual(['Delivery']);
    expect((await api.delete(`${url}/${id}`)).statusCode).toBe(404);
  });

  it("an agent may not write them (403), and another account's id answers 404 and changes nothing", async () => {
    const api = createApiClient(t, owner);
    const id = (await api.post(url, { title: 'Refunds', text: 'Refunds take five days.' })).json().data.savedReplyId as string;
    const asAgent = createApiClient(t, agent);
    for (const res of [
      await asAgent.post(url, { title: 'Mine', text: 'x' }),
      await asAgent.post(`${url}/${id}`, { title: 'Mine', text: 'x' }),
      await asAgent.delete(`${url}/${id}`),
    ])
      expect(res.statusCode, res.body).toBe(403);
    const other = createApiClient(t, stranger);
    expect((await other.get(url)).json().data).toEqual([]);
    for (const res of [await other.post(`${url}/${id}`, { title: 'Taken', text: 'x' }), await other.delete(`${url}/${id}`)]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe(INBOX_MESSAGES.savedReplyNotFound);
    }
    const [kept] = await t.db.select().from(inboxSavedReplies).where(eq(inboxSavedReplies.id, id));
    expect(kept).toMatchObject({ title: 'Refunds', ownerId: owner.user.id });
  });

  it('an account keeps at most INBOX_SAVED_REPLIES_PER_ACCOUNT: the next is refused, nothing added, even when sent at once', async () => {
    const busy = await seedUser(t, { roles: ['CHATBOT'] });
    const api = createApiClient(t, busy);
    const tries = await Promise.all([1, 2, 3, 4, 5].map((n) => api.post(url, { title: `Reply ${n}`, text: 'x' })));
    expect(tries.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409, 409]);
    expect(tries.find((r) => r.statusCode === 409)!.json().message).toBe(INBOX_MESSAGES.tooManySavedReplies);
    expect(await t.db.select().from(inboxSavedReplies).where(eq(inboxSavedReplies.ownerId, busy.user.id))).toHaveLength(3);
  });
});
