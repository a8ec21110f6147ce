import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { apps, campaignMessages, campaigns, contacts, smsMessages, whatsappLinks, whatsappMessages } from '../../../db/schema';
import { CAMPAIGN_MESSAGES } from '../../../shared/api/campaigns.schema';
import type { ContactConsentMap } from '../../../shared/contact-consent';
import { dialTestUrl } from '../../../../tests/support/dial';
import { NEWS, seedNewsBot } from '../../../../tests/support/campaign-bot';
import { customerWrites, received } from '../../../../tests/support/inbox-bot';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, seedUser, type TestApp, useTestApp } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { waitForContactImports } from '../contacts/contact-imports.service';
import { recordDeliveryReport } from '../sms/sms-replies';
import { createSmsDispatcher } from '../sms/sms.service';
import { createCampaignDispatcher, SKIPPED_NO_CONSENT, SKIPPED_OPTED_OUT, UNKNOWN_REASON } from './campaign-dispatcher';

/**
 * Campaigns (docs/campaigns.md) over a simulator WhatsApp number and the SMS outbox: audiences and their reach, a
 * campaign's start, its channels, its pace, pause, resume and cancel, opt-outs mid-way, and two processes sending
 * one campaign.
 */

const AT = '2026-01-02T10:00:00.000Z';
const optIn = (...channels: Array<'whatsapp' | 'sms'>): ContactConsentMap =>
  Object.fromEntries(channels.map((channel) => [channel, { status: 'in', at: AT, source: 'console', detail: null }]));
const optOut = (...channels: Array<'whatsapp' | 'sms'>): ContactConsentMap =>
  Object.fromEntries(channels.map((channel) => [channel, { status: 'out', at: AT, source: 'keyword', detail: 'STOP' }]));

async function seedContact(
  t: TestApp,
  ownerId: string,
  msisdn: string,
  consent: ContactConsentMap,
  fields: { name?: string; tier?: string } = {},
) {
  await t.db.insert(contacts).values({
    ownerId,
    msisdn,
    name: fields.name ?? null,
    consent,
    attributes: fields.tier ? { tier: fields.tier } : {},
  });
}

describeDb('Campaigns', () => {
  const t = useTestApp({ CAMPAIGN_WHATSAPP_PER_SECOND: 1000, CAMPAIGN_SMS_PER_SECOND: 1000 });

  /** An account with a bot, a USSD app (*920*55#) and contacts: Ama and Kofi on WhatsApp, Esi by SMS, Yaw opted out, Abena never asked. */
  async function seedAccount() {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const api = createApiClient(t, owner);
    const bot = await seedNewsBot(t, owner);
    const ussdAppId = await seedApp(t, owner.auth, { customShortCode: '*920*55#' });
    await seedContact(t, owner.user.id, '+233241000001', optIn('whatsapp', 'sms'), { name: 'Ama', tier: 'gold' });
    await seedContact(t, owner.user.id, '+233241000002', optIn('whatsapp'), { name: 'Kofi', tier: 'gold' });
    await seedContact(t, owner.user.id, '+233241000003', optIn('sms'), { name: 'Esi', tier: 'gold' });
    await seedContact(t, owner.user.id, '+233241000004', optOut('whatsapp', 'sms'), { name: 'Yaw', tier: 'gold' });
    await seedContact(t, owner.user.id, '+233241000005', {}, { name: 'Abena', tier: 'gold' });
    await seedContact(t, owner.user.id, '+233241000006', optIn('whatsapp', 'sms'), { name: 'Kwame', tier: 'silver' });
    const made = await api.post('/api/audiences', { name: 'Gold', filter: { attribute: ['tier=gold'] } });
    expect(made.json(), made.body).toMatchObject({ status: '00' });
    const audience = made.json().data;
    return { owner, api, bot, ussdAppId, audienceId: audience.audienceId as string };
  }

  type Account = Awaited<ReturnType<typeof seedAccount>>;

  async function draft(account: Account, overrides: Record<string, unknown> = {}) {
    const res = await account.api.post('/api/campaigns', {
      name: 'Offers',
      audienceId: account.audienceId,
      channels: 'whatsapp_then_sms',
      botId: account.bot.appId,
      template: NEWS,
      ussdAppId: account.ussdAppId,
      smsText: 'Hello from the shop: dial {dial} for our offers',
      ...overrides,
    });
    expect(res.json(), res.body).toMatchObject({ status: '00' });
    return res.json().data.campaignId as string;
  }

  const messagesOf = (campaignId: string) =>
    t.db
      .select({
        msisdn: campaignMessages.msisdn,
        channel: campaignMessages.channel,
        status: campaignMessages.status,
        reason: campaignMessages.reason,
      })
      .from(campaignMessages)
      .where(eq(campaignMessages.campaignId, campaignId))
      .orderBy(campaignMessages.msisdn);

  it("an audience's reach says how many each channel reaches and why the rest are not", async () => {
    const account = await seedAccount();
    const reach = await account.api.post('/api/audiences/reach', { audienceId: account.audienceId, channels: 'whatsapp_then_sms' });
    expect(reach.json().data).toEqual({ total: 5, whatsapp: 2, sms: 1, optedOut: 1, noConsent: 1 });
    const smsOnly = await account.api.post('/api/audiences/reach', { filter: { attribute: ['tier=gold'] }, channels: 'sms' });
    expect(smsOnly.json().data).toEqual({ total: 5, whatsapp: 0, sms: 2, optedOut: 1, noConsent: 2 });

    // The name is the account's own; another account sees none of it.
    const again = await account.api.post('/api/audiences', { name: 'Gold', filter: {} });
    expect(again.statusCode).toBe(409);
    const other = await seedUser(t);
    const otherApi = createApiClient(t, other);
    expect((await otherApi.post('/api/audiences/reach', { audienceId: account.audienceId })).statusCode).toBe(404);
    expect((await otherApi.get('/api/audiences')).json().data).toEqual([]);
    // A session filter naming another account's app is not found: its callers are not this account's to count.
    const probe = await otherApi.post('/api/audiences/reach', {
      filter: { session: { appId: account.ussdAppId, status: 'completed' } },
    });
    expect(probe.statusCode).toBe(404);
  });

  it('a CSV uploaded for one campaign: its contacts merged with their stated consent and tagged, as an audience', async () => {
    const account = await seedAccount();
    const csv = 'phone,name,whatsapp_consent,sms_consent\n+233241000001,Ama,,\n0244000010,Efua,yes,\n0244000011,Kojo,,yes\n';
    const started = await account.api.post('/api/contacts/imports', {
      csv,
      defaultCountry: 'ghana',
      consentSource: 'Signed form at the Accra shop',
      tag: 'list=spring',
    });
    expect(started.json(), started.body).toMatchObject({ status: '00' });
    await waitForContactImports();
    const list = (await account.api.post('/api/audiences', { name: 'Spring list', filter: { attribute: ['list=spring'] } })).json().data;
    const reach = await account.api.post('/api/audiences/reach', { audienceId: list.audienceId, channels: 'whatsapp_then_sms' });
    // Ama was already a contact (opted in to both, her tier kept); Efua and Kojo are new, with the consent the file gave.
    expect(reach.json().data).toEqual({ total: 3, whatsapp: 2, sms: 1, optedOut: 0, noConsent: 0 });
    const [ama] = await t.db
      .select({ attributes: contacts.attributes })
      .from(contacts)
      .where(and(eq(contacts.ownerId, account.owner.user.id), eq(contacts.msisdn, '+233241000001')));
    expect(ama!.attributes).toEqual({ tier: 'gold', list: 'spring' });
    const badTag = await account.api.post('/api/contacts/imports', { csv, defaultCountry: 'ghana', consentSource: 'x', tag: 'no tag' });
    expect(badTag.statusCode).toBe(400);
  });

  it('sends WhatsApp where the contact opted in, SMS with the dial string where not, and skips the rest with why', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    const scheduled = await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    expect(scheduled.json().data.status).toBe('scheduled');

    const report = await t.app.campaignDispatcher.runOnce();
    expect(report).toMatchObject({ started: 1, sent: 3, failed: 0 });
    expect(await messagesOf(campaignId)).toEqual([
      { msisdn: '+233241000001', channel: 'whatsapp', status: 'sent', reason: null },
      { msisdn: '+233241000002', channel: 'whatsapp', status: 'sent', reason: null },
      { msisdn: '+233241000003', channel: 'sms', status: 'sent', reason: null },
      { msisdn: '+233241000004', channel: null, status: 'skipped', reason: SKIPPED_OPTED_OUT },
      { msisdn: '+233241000005', channel: null, status: 'skipped', reason: SKIPPED_NO_CONSENT },
    ]);
    expect(await received(t, account.bot, '233241000001')).toEqual(['Hello Ama, our new offers are here.']);
    expect(await received(t, account.bot, '233241000002')).toEqual(['Hello Kofi, our new offers are here.']);
    const [sms] = await t.db.select().from(smsMessages).where(eq(smsMessages.recipient, '+233241000003'));
    expect(sms).toMatchObject({
      message: 'Hello from the shop: dial *920*55# for our offers\nReply STOP to opt out',
      ownerId: account.owner.user.id,
    });

    await t.app.runtime.flushEvents();
    const campaign = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data;
    // Still running: WhatsApp has not yet said what became of its two messages (a failure would go by SMS).
    expect(campaign).toMatchObject({ status: 'running', audienceSize: 5, linkId: account.bot.linkId });
    expect(campaign.results.whatsapp).toMatchObject({ sent: 2, failed: 0 });
    expect(campaign.results.sms).toMatchObject({ queued: 1, sent: 0 });
    expect(campaign.results.all).toMatchObject({ skipped: 2 });
    // The SMS dispatcher sends what the campaign queued.
    await createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider).runOnce();
    expect((await account.api.get(`/api/campaigns/${campaignId}`)).json().data.results.sms).toMatchObject({ queued: 0, sent: 1 });

    // Deleting a contact erases their number from the campaign; its counts stay.
    const [ama] = await t.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.ownerId, account.owner.user.id), eq(contacts.msisdn, '+233241000001')));
    expect((await account.api.delete(`/api/contacts/${ama!.id}`)).statusCode).toBe(200);
    const after = await messagesOf(campaignId);
    expect(after.some((r) => r.msisdn === '+233241000001')).toBe(false);
    expect(after.filter((r) => r.msisdn.startsWith('erased:'))).toEqual([expect.objectContaining({ channel: 'whatsapp', status: 'sent' })]);
    expect((await account.api.get(`/api/campaigns/${campaignId}`)).json().data.results.whatsapp).toMatchObject({ sent: 2 });
  });

  it('loads a large audience a batch at a time, sending from the first batch on', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    const provider = recordingProvider();
    const dispatcher = createCampaignDispatcher(t.app.ctx, provider, { intervalMs: 0, loadBatch: 2 });
    const state = async () => {
      const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
      return { size: row!.audienceSize, loaded: row!.loadedAt !== null, status: row!.status };
    };
    await dispatcher.runOnce();
    // The first two numbers (Ama, Kofi: WhatsApp) are messages, and sent, before the rest is read.
    expect(await state()).toEqual({ size: 2, loaded: false, status: 'running' });
    expect([...provider.sent].sort()).toEqual(['233241000001', '233241000002']);
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    expect(await state()).toEqual({ size: 5, loaded: true, status: 'running' });
    expect((await messagesOf(campaignId)).map((r) => [r.msisdn, r.status])).toEqual([
      ['+233241000001', 'sent'],
      ['+233241000002', 'sent'],
      ['+233241000003', 'sent'],
      ['+233241000004', 'skipped'],
      ['+233241000005', 'skipped'],
    ]);
    // Nothing was made twice, whatever the batches.
    await dispatcher.runOnce();
    expect(await messagesOf(campaignId)).toHaveLength(5);
  });

  it('counts a reply on WhatsApp, a dial of the USSD app and its completed session after the message', async () => {
    const account = await seedAccount();
    await seedMenu(t, account.owner.auth, account.ussdAppId, {
      userDefinedName: 'offers',
      displayText: 'Our offers',
      isFirst: true,
      terminate: true,
    });
    const campaignId = await draft(account);
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    await t.app.campaignDispatcher.runOnce();
    t.advanceClock(1000);
    // Ama answers the template; Esi dials the code her SMS named, and her session completes.
    await customerWrites(t, account.bot, '233241000001', 'hi');
    expect((await dialTestUrl(t, account.ussdAppId, 'campaign-dial-1', '233241000003')).statusCode).toBe(200);
    await t.app.runtime.flushEvents();
    const results = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data.results;
    // Ama's reply ran the bot's flow to its end: a completed session on WhatsApp too.
    expect(results.whatsapp).toMatchObject({ sent: 2, replied: 1, completed: 1 });
    expect(results.sms).toMatchObject({ dialled: 1, completed: 1 });
    expect(results.all).toMatchObject({ replied: 1, dialled: 1, completed: 2 });
  });

  it('counts an SMS the network delivered or not and a reply by SMS, and names why the others did not go', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account, { channels: 'sms' });
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    await t.app.campaignDispatcher.runOnce();
    await createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider).runOnce();
    const [ama, esi] = await t.db
      .select()
      .from(smsMessages)
      .where(eq(smsMessages.ownerId, account.owner.user.id))
      .orderBy(smsMessages.recipient);
    expect([ama!.recipient, esi!.recipient]).toEqual(['+233241000001', '+233241000003']);
    // The network's delivery reports: Ama's arrived, Esi's number is blacklisted.
    await recordDeliveryReport(t.app.ctx, {
      provider: 'outbox',
      providerMessageId: ama!.providerMessageId!,
      status: 'delivered',
      error: null,
    });
    await recordDeliveryReport(t.app.ctx, {
      provider: 'outbox',
      providerMessageId: esi!.providerMessageId!,
      status: 'failed',
      error: 'Failed: UserInBlackList',
    });
    t.advanceClock(60_000);
    const reply = await account.api.post(`/api/sms/outbox/${ama!.id}/reply`, { text: 'Yes please' });
    expect(reply.json(), reply.body).toMatchObject({ status: '00', data: { consent: null } });

    const results = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data.results;
    expect(results.sms).toMatchObject({ sent: 1, delivered: 1, read: 0, replied: 1, failed: 1, skipped: 0 });
    expect(results.all).toMatchObject({ sent: 1, delivered: 1, replied: 1, failed: 1, skipped: 3 });
    expect(results.failures).toEqual([
      { channel: null, status: 'skipped', reason: SKIPPED_NO_CONSENT, count: 2 },
      { channel: 'sms', status: 'failed', reason: 'Failed: UserInBlackList', count: 1 },
      { channel: null, status: 'skipped', reason: SKIPPED_OPTED_OUT, count: 1 },
    ]);
    const csv = (await account.api.get(`/api/campaigns/${campaignId}/export`)).body.split(/\r?\n/);
    const rowOf = (msisdn: string) =>
      csv
        .find((line) => line.startsWith(`"${msisdn}"`))
        ?.split(',')
        .map((cell) => cell.slice(1, -1));
    // number, name, channel, status, reason, sent_at, delivery, replied_at, dialled_at, opted_out_at
    expect(rowOf('+233241000001')).toEqual([
      '+233241000001',
      'Ama',
      'sms',
      'sent',
      '',
      expect.any(String),
      'delivered',
      expect.any(String),
      '',
      '',
    ]);
    expect(rowOf('+233241000003')).toEqual([
      '+233241000003',
      'Esi',
      'sms',
      'sent',
      'Failed: UserInBlackList',
      expect.any(String),
      'failed',
      '',
      '',
      '',
    ]);
  });

  it('a contact who opts out mid-campaign gets nothing more from it', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account, { channels: 'whatsapp' });
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    // Started, not yet sent: the send window is closed for now.
    await t.db
      .update(campaigns)
      .set({ sendWindow: { from: '00:00', to: '00:01' } })
      .where(eq(campaigns.id, campaignId));
    await t.app.campaignDispatcher.runOnce();
    await t.db
      .update(contacts)
      .set({ consent: optOut('whatsapp') })
      .where(and(eq(contacts.ownerId, account.owner.user.id), eq(contacts.msisdn, '+233241000002')));
    await t.db.update(campaigns).set({ sendWindow: null }).where(eq(campaigns.id, campaignId));
    await t.app.campaignDispatcher.runOnce();
    const rows = await messagesOf(campaignId);
    expect(rows.find((r) => r.msisdn === '+233241000002')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/^\+233241000002 opted out of WhatsApp on 2026-01-02 \(STOP\)$/),
    });
    expect(await received(t, account.bot, '233241000002')).toEqual([]);
    expect(rows.find((r) => r.msisdn === '+233241000001')).toMatchObject({ status: 'sent' });
  });

  it('pause keeps what is queued, resume sends it, cancel never sends the rest', async () => {
    const account = await seedAccount();
    const first = await draft(account, { channels: 'whatsapp' });
    await account.api.post(`/api/campaigns/${first}/schedule`, {});
    expect((await account.api.post(`/api/campaigns/${first}/pause`, {})).json().data.status).toBe('paused');
    expect(await t.app.campaignDispatcher.runOnce()).toMatchObject({ started: 0, sent: 0 });
    expect((await account.api.post(`/api/campaigns/${first}/resume`, {})).json().data.status).toBe('scheduled');
    expect(await t.app.campaignDispatcher.runOnce()).toMatchObject({ started: 1, sent: 2 });

    const second = await draft(account, { channels: 'sms', name: 'Later' });
    await account.api.post(`/api/campaigns/${second}/schedule`, {});
    await t.db
      .update(campaigns)
      .set({ sendWindow: { from: '00:00', to: '00:01' } })
      .where(eq(campaigns.id, second));
    await t.app.campaignDispatcher.runOnce();
    const cancelled = (await account.api.post(`/api/campaigns/${second}/cancel`, {})).json().data;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.results.all).toMatchObject({ cancelled: 2, sent: 0 });
    await t.db.update(campaigns).set({ sendWindow: null }).where(eq(campaigns.id, second));
    await t.app.campaignDispatcher.runOnce();
    expect(await t.db.select().from(smsMessages).where(eq(smsMessages.ownerId, account.owner.user.id))).toEqual([]);
    // Ended campaigns cannot be moved again; another account's cannot be touched at all.
    expect((await account.api.post(`/api/campaigns/${second}/resume`, {})).statusCode).toBe(409);
    const other = createApiClient(t, await seedUser(t));
    expect((await other.post(`/api/campaigns/${first}/cancel`, {})).statusCode).toBe(404);
    expect((await other.get(`/api/campaigns/${first}`)).statusCode).toBe(404);
  });

  it('refuses to schedule what cannot be sent, and changes nothing', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    const past = await account.api.post(`/api/campaigns/${campaignId}/schedule`, { startAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    // A sender every SMS would then be refused with is refused when the draft is saved, in the SMS service's words.
    const badSender = await account.api.post(`/api/campaigns/${campaignId}`, {
      name: 'Offers',
      audienceId: account.audienceId,
      channels: 'sms',
      ussdAppId: account.ussdAppId,
      smsText: 'Hi',
      smsSender: 'Shop: 50% off!',
    });
    expect(badSender.json()).toMatchObject({
      status: '02',
      message: 'The SMS sender must be a shortcode, a number, or a name of at most 11 letters and digits',
    });
    const nobody = (await account.api.post('/api/audiences', { name: 'Nobody', filter: { attribute: ['tier=none'] } })).json().data;
    const empty = await draft(account, { audienceId: nobody.audienceId, name: 'Empty' });
    const refused = await account.api.post(`/api/campaigns/${empty}/schedule`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Nobody in this audience can be reached/);
    const unknownTemplate = await draft(account, { template: { ...NEWS, name: 'missing' }, name: 'No template' });
    expect((await account.api.post(`/api/campaigns/${unknownTemplate}/schedule`, {})).statusCode).toBe(400);
    const rows = await t.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.ownerId, account.owner.user.id));
    expect(rows.map((r) => r.status)).toEqual(['draft', 'draft', 'draft']);
    // Another account's bot is not found.
    const other = await seedUser(t, { roles: ['CHATBOT'] });
    const otherBot = await seedNewsBot(t, other);
    const foreign = await account.api.post('/api/campaigns', {
      name: 'Foreign',
      audienceId: account.audienceId,
      channels: 'whatsapp',
      botId: otherBot.appId,
      template: NEWS,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('an SMS the opt-out line makes too long is refused when scheduled, and pauses its own campaign alone if it grew later', async () => {
    const account = await seedAccount();
    const long = await draft(account, { channels: 'sms', name: 'Long', smsText: `${'x'.repeat(900)} {dial}` });
    const refused = await account.api.post(`/api/campaigns/${long}/schedule`, {});
    expect(refused.json()).toMatchObject({ status: '02', message: CAMPAIGN_MESSAGES.smsTooLongAsSent });
    // Scheduled short, then the text grows (as a dial string changed since would make it): the campaign pauses itself
    // with why, and another account's campaign in the same run still sends.
    const grown = await draft(account, { channels: 'sms', name: 'Grown' });
    expect((await account.api.post(`/api/campaigns/${grown}/schedule`, {})).json().status).toBe('00');
    await t.db
      .update(campaigns)
      .set({ smsText: 'y'.repeat(918) })
      .where(eq(campaigns.id, grown));
    const other = await seedAccount();
    const theirs = await draft(other, { channels: 'sms', name: 'Theirs' });
    await other.api.post(`/api/campaigns/${theirs}/schedule`, {});
    await t.app.campaignDispatcher.runOnce();
    expect((await account.api.get(`/api/campaigns/${grown}`)).json().data).toMatchObject({
      status: 'paused',
      pausedReason: CAMPAIGN_MESSAGES.smsTooLongAsSent,
    });
    expect(
      (await other.api.get(`/api/campaigns/${theirs}`)).json().data.results.sms.queued +
        (await other.api.get(`/api/campaigns/${theirs}`)).json().data.results.sms.sent,
    ).toBe(2);
    expect(await t.db.select().from(smsMessages).where(eq(smsMessages.ownerId, account.owner.user.id))).toEqual([]);
  });

  it('two processes sending one campaign send each message once; a process that stops mid-send loses no queued message', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account, { channels: 'whatsapp' });
    await t.db.insert(contacts).values(
      Array.from({ length: 20 }, (_, i) => ({
        ownerId: account.owner.user.id,
        msisdn: `+2332420000${String(i).padStart(2, '0')}`,
        name: `Guest ${i}`,
        consent: optIn('whatsapp'),
        attributes: { tier: 'gold' },
      })),
    );
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    // The provider, as both processes reach it: it records each message handed to it.
    const sends: string[] = [];
    const provider = {
      sendTemplate: async (_link: unknown, to: string) => {
        sends.push(to);
        return [{ providerMessageId: `wamid.${to}` }];
      },
    };
    // Process A hands its third message to the provider and never hears back (it stopped there).
    let handed = 0;
    const stuck = createCampaignDispatcher(
      t.app.ctx,
      {
        sendTemplate: (link, to) => {
          if (++handed !== 3) return provider.sendTemplate(link, to);
          sends.push(to);
          return new Promise(() => {});
        },
      },
      { intervalMs: 0, concurrency: 1, batchSize: 10 },
    );
    void stuck.runOnce();
    await expect.poll(() => handed, { timeout: 10_000 }).toBe(3);
    expect(sends).toHaveLength(3);
    // Process B, at the same time and after A's leases ended.
    const other = createCampaignDispatcher(t.app.ctx, { sendTemplate: (link, to) => provider.sendTemplate(link, to) }, { intervalMs: 0 });
    await other.runOnce();
    t.advanceClock(6 * 60_000);
    await other.runOnce();
    const rows = await messagesOf(campaignId);
    const sent = rows.filter((r) => r.status === 'sent').length;
    const unknown = rows.filter((r) => r.status === 'unknown');
    expect(unknown).toEqual([expect.objectContaining({ reason: UNKNOWN_REASON })]);
    expect(sent).toBe(22 - 1);
    // Each number handed to the provider once: A's first three (the third never answered) and the rest by B.
    expect(sends).toHaveLength(22);
    expect(new Set(sends).size).toBe(22);
    expect(unknown[0]!.msisdn).toBe(`+${sends[2]}`);
  });

  it("previews what one contact would get, and sends a test to the builder's own number", async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    const preview = (msisdn: string) => account.api.get(`/api/campaigns/${campaignId}/preview?msisdn=${encodeURIComponent(msisdn)}`);
    expect((await preview('+233241000001')).json().data).toEqual({
      msisdn: '+233241000001',
      name: 'Ama',
      channel: 'whatsapp',
      reason: null,
      text: 'Hello Ama, our new offers are here.',
    });
    expect((await preview('233241000003')).json().data).toMatchObject({
      channel: 'sms',
      text: 'Hello from the shop: dial *920*55# for our offers\nReply STOP to opt out',
    });
    expect((await preview('+233241000004')).json().data).toMatchObject({
      channel: null,
      reason: expect.stringMatching(/opted out of WhatsApp/),
    });
    expect((await preview('+233249999999')).statusCode).toBe(404);

    const test = (await account.api.post(`/api/campaigns/${campaignId}/test`, {})).json().data;
    expect(test).toEqual({
      to: '+233200000000',
      sent: [
        { channel: 'whatsapp', ok: true, error: null },
        { channel: 'sms', ok: true, error: null },
      ],
    });
    expect(await received(t, account.bot, '233200000000')).toEqual(['Hello Test User, our new offers are here.']);
    // Nothing is recorded on the campaign.
    expect(await messagesOf(campaignId)).toEqual([]);
  });

  it('exports a row per contact with its channel, status, why and delivery', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    await t.app.campaignDispatcher.runOnce();
    await t.app.runtime.flushEvents();
    const res = await account.api.get(`/api/campaigns/${campaignId}/export`);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .trim()
      .split('\r\n')
      .map((line) => line.slice(1, -1).split('","'));
    expect(lines[0]).toEqual([
      'number',
      'name',
      'channel',
      'status',
      'reason',
      'sent_at',
      'delivery',
      'replied_at',
      'dialled_at',
      'opted_out_at',
    ]);
    expect(lines).toHaveLength(6);
    expect(lines[1]).toEqual(['+233241000001', 'Ama', 'whatsapp', 'sent', '', expect.stringMatching(/^\d{4}-/), 'sent', '', '', '']);
    expect(lines[3]).toEqual(['+233241000003', 'Esi', 'sms', 'sent', '', expect.stringMatching(/^\d{4}-/), 'queued', '', '', '']);
    expect(lines[4]).toEqual(['+233241000004', 'Yaw', '', 'skipped', SKIPPED_OPTED_OUT, '', '', '', '', '']);
  });

  it('pauses itself when its template is no longer approved, and keeps what is queued', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account, { channels: 'whatsapp' });
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    const templates = (await account.api.get(`/api/chatbot/whatsapp/templates/${account.bot.linkId}`)).json().data.templates;
    const news = templates.find((tpl: { name: string }) => tpl.name === 'news');
    await account.api.post(`/api/chatbot/whatsapp/template/${news.templateId}/status`, { status: 'PAUSED', reason: 'Low quality' });
    await t.app.campaignDispatcher.runOnce();
    const campaign = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data;
    expect(campaign).toMatchObject({ status: 'paused', pausedReason: expect.stringMatching(/"news" is PAUSED, not APPROVED/) });
    expect(campaign.results.whatsapp).toMatchObject({ queued: 2, sent: 0 });
    expect(await received(t, account.bot, '233241000001')).toEqual([]);
  });

  it('pauses itself when its bot goes to another account, and sends nothing from it', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account, { channels: 'whatsapp' });
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    const other = await seedUser(t, { roles: ['CHATBOT'] });
    await t.db.update(apps).set({ userId: other.user.id }).where(eq(apps.id, account.bot.appId));
    await t.app.campaignDispatcher.runOnce();
    const campaign = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data;
    expect(campaign).toMatchObject({ status: 'paused', pausedReason: CAMPAIGN_MESSAGES.numberGone });
    expect(await received(t, account.bot, '233241000001')).toEqual([]);
  });

  it('a WhatsApp message that fails after it was sent goes by SMS, where the campaign allows it', async () => {
    const account = await seedAccount();
    const campaignId = await draft(account);
    await account.api.post(`/api/campaigns/${campaignId}/schedule`, {});
    expect(await t.app.campaignDispatcher.runOnce()).toMatchObject({ sent: 3 });
    // Not done while WhatsApp has not said what became of its messages.
    expect((await account.api.get(`/api/campaigns/${campaignId}`)).json().data.status).toBe('running');
    await t.app.runtime.flushEvents();
    // Meta reports both WhatsApp messages undeliverable (the status webhook's write).
    await t.db
      .update(whatsappMessages)
      .set({ status: 'failed', failureReason: 'Message undeliverable (131026)' })
      .where(eq(whatsappMessages.linkId, account.bot.linkId));
    const report = await t.app.campaignDispatcher.runOnce();
    expect(report).toMatchObject({ fellBack: 2, sent: 1, skipped: 1 });
    const rows = await messagesOf(campaignId);
    expect(rows.find((r) => r.msisdn === '+233241000001')).toMatchObject({
      channel: 'sms',
      status: 'sent',
      reason: 'WhatsApp: Message undeliverable (131026)',
    });
    // Kofi never opted in to SMS: he gets nothing more.
    expect(rows.find((r) => r.msisdn === '+233241000002')).toMatchObject({
      channel: 'sms',
      status: 'skipped',
      reason: expect.stringMatching(/never opted in to SMS/),
    });
    const campaign = (await account.api.get(`/api/campaigns/${campaignId}`)).json().data;
    expect(campaign.status).toBe('done');
    expect(campaign.results.all.fellBack).toBe(2);
  });
});

describeDb('Campaigns: what one account can make the platform hold', () => {
  const t = useTestApp({ AUDIENCES_PER_ACCOUNT: 2, CAMPAIGNS_PER_ACCOUNT: 3, CAMPAIGNS_ACTIVE_PER_ACCOUNT: 1 });

  it('caps audiences, campaigns and campaigns under way per account, even when asked at once, and test sends a minute', async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const api = createApiClient(t, owner);
    await seedContact(t, owner.user.id, '+233246000001', optIn('sms'));
    const audiences = await Promise.all(['A', 'B', 'C', 'D'].map((name) => api.post('/api/audiences', { name, filter: {} })));
    expect(audiences.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409]);
    const audienceId = audiences.find((r) => r.statusCode === 200)!.json().data.audienceId;
    const body = { audienceId, channels: 'sms', smsText: 'Offers' };
    const made = await Promise.all(['1', '2', '3', '4'].map((name) => api.post('/api/campaigns', { ...body, name })));
    expect(made.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409]);
    const ids = made.filter((r) => r.statusCode === 200).map((r) => r.json().data.campaignId as string);
    const scheduled = await Promise.all(ids.map((id) => api.post(`/api/campaigns/${id}/schedule`, {})));
    expect(scheduled.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    // Another account is not held back by this one's caps.
    const other = createApiClient(t, await seedUser(t, { roles: ['CHATBOT'] }));
    expect((await other.post('/api/audiences', { name: 'A', filter: {} })).statusCode).toBe(200);
    // A test send messages the user's own number: ten a minute per account.
    const tests = [];
    for (let i = 0; i < 11; i++) tests.push((await api.post(`/api/campaigns/${ids[0]}/test`, {})).statusCode);
    expect(tests.filter((code) => code === 429)).toHaveLength(1);
  });
});

describeDb('Campaigns: pace and cost', () => {
  const t = useTestApp({
    CAMPAIGN_WHATSAPP_PER_SECOND: 2,
    CAMPAIGN_WHATSAPP_DAILY_LIMIT: 3,
    CAMPAIGN_SMS_PER_SECOND: 2,
    CAMPAIGN_PRICES: { currency: 'USD', whatsapp: { '233': 0.04, '*': 0.06 }, sms: { '*': 0.02 } },
  });

  it("keeps to the WhatsApp number's pace and daily limit across runs, and estimates and counts the cost", async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const api = createApiClient(t, owner);
    const bot = await seedNewsBot(t, owner);
    await t.db.insert(contacts).values(
      Array.from({ length: 5 }, (_, i) => ({
        ownerId: owner.user.id,
        msisdn: `+23324300000${i}`,
        name: `Guest ${i}`,
        consent: optIn('whatsapp'),
      })),
    );
    const audience = (await api.post('/api/audiences', { name: 'All', filter: { consentChannel: 'whatsapp', consentStatus: 'in' } })).json()
      .data;
    const campaignId = (
      await api.post('/api/campaigns', {
        name: 'Paced',
        audienceId: audience.audienceId,
        channels: 'whatsapp',
        botId: bot.appId,
        template: NEWS,
      })
    ).json().data.campaignId;
    const estimate = (await api.get(`/api/campaigns/${campaignId}`)).json().data.estimate;
    expect(estimate).toEqual({
      reach: { total: 5, whatsapp: 5, sms: 0, optedOut: 0, noConsent: 0 },
      smsParts: null,
      cost: { currency: 'USD', whatsapp: 0.2, sms: 0, total: 0.2 },
    });
    await api.post(`/api/campaigns/${campaignId}/schedule`, {});
    // A dispatcher on a clock that moves only when told (a loaded machine's seconds would add room), sending to a
    // provider that records what it is handed.
    const clock = frozenClock(t);
    const dispatcher = createCampaignDispatcher({ ...t.app.ctx, now: clock.now }, recordingProvider(), { intervalMs: 0 });
    const sentNow = async () => (await dispatcher.runOnce()).sent;
    expect(await sentNow()).toBe(2); // a second's worth at 2 a second
    expect(await sentNow()).toBe(0);
    clock.advance(500);
    expect(await sentNow()).toBe(1); // half a second later, one more
    clock.advance(5000);
    expect(await sentNow()).toBe(0); // the day's 3 are gone
    clock.advance(24 * 3_600_000);
    t.advanceClock(24 * 3_600_000);
    expect(await sentNow()).toBe(2); // a day later, the rest
    const campaign = (await api.get(`/api/campaigns/${campaignId}`)).json().data;
    expect(campaign).toMatchObject({ status: 'done', estimate: null });
    expect(campaign.results.cost).toEqual({ currency: 'USD', whatsapp: 0.2, sms: 0, total: 0.2 });
    expect(campaign.results.timeline.reduce((n: number, p: { sent: number }) => n + p.sent, 0)).toBe(5);
  });

  it("once Meta told the number's messaging limit, the campaign keeps to it instead of the setting; a contact without a value fails alone", async () => {
    const owner = await seedUser(t, { roles: ['CHATBOT'] });
    const api = createApiClient(t, owner);
    const bot = await seedNewsBot(t, owner);
    // Five named contacts, and one without the name the template's {{1}} is filled with.
    await t.db.insert(contacts).values(
      Array.from({ length: 6 }, (_, i) => ({
        ownerId: owner.user.id,
        msisdn: `+23324400000${i}`,
        name: i === 5 ? null : `Told ${i}`,
        consent: optIn('whatsapp'),
      })),
    );
    const audience = (
      await api.post('/api/audiences', { name: 'Told', filter: { consentChannel: 'whatsapp', consentStatus: 'in' } })
    ).json().data;
    const campaignId = (
      await api.post('/api/campaigns', {
        name: 'Told',
        audienceId: audience.audienceId,
        channels: 'whatsapp',
        botId: bot.appId,
        template: NEWS,
      })
    ).json().data.campaignId;
    // The setting says 3 a day; Meta said unlimited (a signed phone_number_quality_update, whatsapp-templates.int).
    await t.db.update(whatsappLinks).set({ messagingLimit: 'TIER_UNLIMITED' }).where(eq(whatsappLinks.id, bot.linkId));
    await api.post(`/api/campaigns/${campaignId}/schedule`, {});
    const clock = frozenClock(t);
    const dispatcher = createCampaignDispatcher({ ...t.app.ctx, now: clock.now }, recordingProvider(), { intervalMs: 0 });
    let handled = 0;
    for (let run = 0; run < 3; run++) {
      const report = await dispatcher.runOnce();
      expect(report.sent + report.failed).toBeLessThanOrEqual(2); // the pace of 2 a second still holds
      handled += report.sent + report.failed;
      clock.advance(1000);
    }
    expect(handled).toBe(6);
    const campaign = (await api.get(`/api/campaigns/${campaignId}`)).json().data;
    // Past the setting's 3 a day, within one day; the unnamed contact failed alone and the campaign went on.
    expect(campaign).toMatchObject({ status: 'done', pausedReason: null });
    expect(campaign.results.all).toMatchObject({ sent: 5, failed: 1 });
    expect(campaign.results.failures).toEqual([
      { channel: 'whatsapp', status: 'failed', reason: expect.stringMatching(/no value for \{\{1\}\} in the body/), count: 1 },
    ]);
  });

  it("two accounts' SMS campaigns share the SMS provider's pace: neither takes it all", async () => {
    const start = async (n: number) => {
      const owner = await seedUser(t, { roles: ['CHATBOT'] });
      const api = createApiClient(t, owner);
      await t.db
        .insert(contacts)
        .values(Array.from({ length: 4 }, (_, i) => ({ ownerId: owner.user.id, msisdn: `+2332440${n}000${i}`, consent: optIn('sms') })));
      const audience = (await api.post('/api/audiences', { name: 'SMS', filter: {} })).json().data;
      const id = (
        await api.post('/api/campaigns', { name: 'SMS', audienceId: audience.audienceId, channels: 'sms', smsText: 'Offers' })
      ).json().data.campaignId;
      await api.post(`/api/campaigns/${id}/schedule`, {});
      return id as string;
    };
    const first = await start(1);
    const second = await start(2);
    const clock = frozenClock(t);
    const dispatcher = createCampaignDispatcher({ ...t.app.ctx, now: clock.now }, recordingProvider(), { intervalMs: 0 });
    await dispatcher.runOnce();
    const sentOf = async (id: string) =>
      (
        await t.db
          .select()
          .from(campaignMessages)
          .where(and(eq(campaignMessages.campaignId, id), eq(campaignMessages.status, 'sent')))
      ).length;
    expect([await sentOf(first), await sentOf(second)]).toEqual([1, 1]);
    clock.advance(1000);
    await dispatcher.runOnce();
    expect([await sentOf(first), await sentOf(second)]).toEqual([2, 2]);
  });
});

/** A clock for a dispatcher that starts a second after the server's and moves only when told. */
function frozenClock(t: TestApp) {
  let at = t.app.ctx.now().getTime() + 1000;
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

/** A WhatsApp provider that takes every template it is handed (the pace is what these tests are about). */
function recordingProvider() {
  const sent: string[] = [];
  return {
    sent,
    sendTemplate: async (_link: unknown, to: string) => {
      sent.push(to);
      return [{ providerMessageId: `wamid.${to}` }];
    },
  };
}
