import { expect, it, beforeAll } from 'vitest';
import { contacts } from '../../../db/schema';
import type { CampaignEvent } from '../../../shared/api/campaigns.schema';
import { openStream } from '../../../../tests/support/inbox-bot';
import { seedApp } from '../../../../tests/support/seed-app';
import { createApiClient, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';

/**
 * Campaigns' live stream (docs/campaigns.md, "Live") over a real HTTP listener, read as the console reads it: a change
 * made through the API, each campaign dispatcher run that changed a campaign and each SMS dispatcher run that sent one's
 * messages are told to the account's open screens only;
 * a run that changed nothing tells nothing; streams are bounded per account.
 */

const STREAM = '/api/campaigns/events';

/** An SMS campaign of `owner` to two contacts who opted in to SMS, as a draft: its id. */
async function seedSmsCampaign(t: TestApp, owner: SeededUser, prefix: string): Promise<string> {
  const api = createApiClient(t, owner);
  const ussdAppId = await seedApp(t, owner.auth, { customShortCode: `*920*${prefix}#` });
  const consent = { sms: { status: 'in' as const, at: '2026-01-02T10:00:00.000Z', source: 'console' as const, detail: null } };
  for (const n of [1, 2]) await t.db.insert(contacts).values({ ownerId: owner.user.id, msisdn: `+2332410${prefix}0${n}`, consent });
  const audience = await api.post('/api/audiences', { name: `Everyone ${prefix}`, filter: {} });
  expect(audience.json(), audience.body).toMatchObject({ status: '00' });
  const made = await api.post('/api/campaigns', {
    name: `Offers ${prefix}`,
    audienceId: audience.json().data.audienceId,
    channels: 'sms',
    ussdAppId,
    smsText: 'Dial {dial} for our offers',
  });
  expect(made.json(), made.body).toMatchObject({ status: '00' });
  return made.json().data.campaignId as string;
}

describeDb('the campaigns event stream', () => {
  const t = useTestApp({ INBOX_STREAMS_PER_ACCOUNT: 2, CAMPAIGN_SMS_PER_SECOND: 1000 });
  const owner = useUser(t);
  const stranger = useUser(t);
  let origin = '';
  beforeAll(async () => {
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it("tells the account's open screens what changed its campaigns, and nobody else", async () => {
    expect((await fetch(`${origin}${STREAM}`)).status).toBe(401);
    const campaignId = await seedSmsCampaign(t, owner, '71');
    const strangers = await seedSmsCampaign(t, stranger, '72');
    const mine = await openStream<CampaignEvent>(origin, owner.auth, STREAM);
    const theirs = await openStream<CampaignEvent>(origin, stranger.auth, STREAM);
    try {
      expect(mine.status).toBe(200);
      const api = createApiClient(t, owner);
      await api.post(`/api/campaigns/${campaignId}/schedule`, {});
      expect(await mine.next()).toEqual({ type: 'campaign_changed', campaignId, status: 'scheduled' });
      // The dispatcher starts it, hands both SMS to the outbox and ends it in one run: one event, its state after the run.
      expect(await t.app.campaignDispatcher.runOnce()).toMatchObject({ started: 1, sent: 2 });
      expect(await mine.next()).toEqual({ type: 'campaign_changed', campaignId, status: 'done' });
      // The outbox sends them later (its funnel's waiting SMS become sent): told once for the run.
      expect(await t.app.smsDispatcher.runOnce()).toMatchObject({ sent: 2 });
      expect(await mine.next()).toEqual({ type: 'campaign_changed', campaignId, status: 'done' });
      // A run that changes nothing tells nothing: the next event is the stranger's own campaign, on their stream only.
      await t.app.campaignDispatcher.runOnce();
      await createApiClient(t, stranger).post(`/api/campaigns/${strangers}/schedule`, {});
      expect(await theirs.next()).toEqual({ type: 'campaign_changed', campaignId: strangers, status: 'scheduled' });
      await createApiClient(t, stranger).post(`/api/campaigns/${strangers}/pause`, {});
      expect(await theirs.next()).toEqual({ type: 'campaign_changed', campaignId: strangers, status: 'paused' });
      const second = await seedSmsCampaign(t, owner, '73');
      await api.post(`/api/campaigns/${second}/schedule`, {});
      expect(await mine.next()).toEqual({ type: 'campaign_changed', campaignId: second, status: 'scheduled' });
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('holds at most INBOX_STREAMS_PER_ACCOUNT streams an account, and frees a place when a screen goes', async () => {
    const streams = [await openStream(origin, owner.auth, STREAM), await openStream(origin, owner.auth, STREAM)];
    const third = await fetch(`${origin}${STREAM}`, { headers: owner.auth });
    expect(third.status).toBe(429);
    expect((await third.json()).message).toMatch(/Too many campaign screens/);
    streams[0]!.close();
    await expect
      .poll(async () => {
        const again = await fetch(`${origin}${STREAM}`, { headers: owner.auth });
        await again.body?.cancel();
        return again.status;
      })
      .toBe(200);
    streams[1]!.close();
  });
});
