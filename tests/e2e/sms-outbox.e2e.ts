import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SMS_REPLIES_EMPTY_TEXT } from '../../src/web/features/sms/sms-replies-panel';
import { findViolations } from './axe';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import {
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotViewport,
} from './browser';

/**
 * The SMS outbox's replies and delivery (docs/runtime.md, "SMS outbox"): an account's SMS campaign sends two
 * contacts an SMS through the local outbox (the e2e server's SMS_PROVIDER); on the outbox page the owner replies as
 * Ama (STOP opts her out of SMS, START back in, any other text is a reply), sees each message's replies counted
 * and the Replies tab list them newest first. The outbox keeps no delivery report, so no message says one (the
 * words for a report are unit-tested in sms.api.test.ts). Empty, loading and error states at 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const AMA = '+233241000711';
const KOFI = '+233241000712';

async function expectOk(reply: Promise<{ status: string }>) {
  const answered = await reply;
  expect(answered.status, JSON.stringify(answered)).toBe('00');
  return answered;
}

/** Asks again every 200 ms until `isDone` (expect.poll is for tests, not their setup); throws after `timeout` ms. */
async function waitUntil(isDone: () => Promise<boolean>, timeout = 10_000): Promise<void> {
  for (const end = Date.now() + timeout; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (await isDone()) return;
  }
  throw new Error(`not done within ${timeout} ms`);
}

interface ContactConsent {
  msisdn: string;
  consent: { sms: { status: 'in' | 'out'; source: string } | null };
}

describeBrowser('the SMS outbox: delivery, replies as the recipient, the Replies tab', () => {
  let browser: Browser;
  let owner: LoginReplyBody;
  let stranger: LoginReplyBody;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = (await registerAccount('Ama Outbox', { plan: 'ENTERPRISE' })).reply;
    stranger = (await registerAccount('Yaw Quiet')).reply;
    const token = owner.token;
    const app = await callApi<{ appId: string }>(token, '/api/createApp', {
      appName: 'Outbox Shop',
      description: 'offers by USSD',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*71#',
      useTemplateTag: false,
    });
    expect(app.status, JSON.stringify(app)).toBe('00');
    const started = await callApi<{ importId: string }>(token, '/api/contacts/imports', {
      csv: ['phone,name,sms_consent', '0241000711,Ama,yes', '0241000712,Kofi,yes'].join('\n'),
      defaultCountry: 'ghana',
      consentSource: 'Signed up at the shop',
    });
    expect(started.status, JSON.stringify(started)).toBe('00');
    await waitUntil(
      async () => (await callApi<{ status: string }>(token, `/api/contacts/imports/${started.data.importId}`)).data.status === 'done',
    );
    const audience = await callApi<{ audienceId: string }>(token, '/api/audiences', { name: 'Everyone', filter: {} });
    expect(audience.status, JSON.stringify(audience)).toBe('00');
    const campaign = await callApi<{ campaignId: string }>(token, '/api/campaigns', {
      name: 'Outbox offers',
      audienceId: audience.data.audienceId,
      channels: 'sms',
      ussdAppId: app.data.appId,
      smsText: 'Dial {dial} for our offers',
    });
    expect(campaign.status, JSON.stringify(campaign)).toBe('00');
    await expectOk(callApi(token, `/api/campaigns/${campaign.data.campaignId}/schedule`, {}));
    // The campaign dispatcher queues both SMS and the SMS dispatcher keeps them in the outbox, sent.
    await waitUntil(
      async () => (await callApi<Array<{ status: string }>>(token, '/api/sms/outbox')).data.filter((m) => m.status === 'SENT').length === 2,
      20_000,
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(path: string, viewport = WIDE, who = owner): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, who);
    await page.goto(path);
    return page;
  }

  const smsConsentOf = async (msisdn: string) => {
    const list = await callApi<{ contacts: ContactConsent[] }>(owner.token, `/api/contacts?search=${encodeURIComponent(msisdn)}`);
    return list.data.contacts.find((c) => c.msisdn === msisdn)?.consent.sms?.status ?? null;
  };
  const rowOf = (page: Page, msisdn: string) => page.getByTestId('sms-outbox-table').locator('tbody tr').filter({ hasText: msisdn });
  // A row's replies show in their column, or folded under the message on a phone: the one on screen.
  const repliesOf = (row: Locator, count: string) =>
    row.getByTestId('sms-replies-count').filter({ visible: true, hasText: new RegExp(`^${count}$`) });

  it('a reply as the recipient: the schema asks for a text, STOP opts out, START opts back in, a text is a reply; counted per message', async () => {
    const page = await open('/sms-outbox');
    const ama = rowOf(page, AMA);
    await visible(ama);
    // The text as it went: the dial string and the installation's opt-out line.
    await visible(ama.getByText('Dial *920*71# for our offers'));
    await visible(ama.getByText('Reply STOP to opt out', { exact: false }));
    await visible(repliesOf(ama, '0 replies'));
    // The local outbox has no network, so no delivery report: nothing is said of delivery.
    expect(await page.getByTestId('sms-delivery').count()).toBe(0);
    await screenshot(page, 'sms-outbox-replies-before-desktop');
    expect(await findViolations(page)).toEqual([]);

    await ama.getByRole('button', { name: 'Reply as the recipient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply as the recipient' });
    const reply = dialog.getByRole('textbox', { name: 'Reply' });
    // STOP is a hint, not a value: sending nothing is refused in the schema's words.
    expect(await reply.inputValue()).toBe('');
    expect(await reply.getAttribute('placeholder')).toBe('STOP');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(dialog.getByText('Write the reply'));
    await reply.fill('   ');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(dialog.getByText('Write the reply'));
    // The pointer leaves Send reply: its hover colour is not what axe is asked about.
    await page.mouse.move(0, 0);
    await screenshotViewport(page, 'sms-outbox-reply-dialog-desktop');
    expect(await findViolations(page)).toEqual([]);
    await reply.fill('STOP');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(page.getByText(`${AMA} opted out of SMS.`));
    await dialog.waitFor({ state: 'hidden' });
    expect(await smsConsentOf(AMA)).toBe('out');
    await visible(repliesOf(ama, '1 reply'));
    await closeToasts(page);

    await ama.getByRole('button', { name: 'Reply as the recipient' }).click();
    await reply.fill('START');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(page.getByText(`${AMA} opted back in to SMS.`));
    expect(await smsConsentOf(AMA)).toBe('in');
    await closeToasts(page);

    await rowOf(page, KOFI).getByRole('button', { name: 'Reply as the recipient' }).click();
    await reply.fill('Which offers?');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(page.getByText(`${KOFI}'s reply is listed under Replies.`));
    expect(await smsConsentOf(KOFI)).toBe('in');
    await visible(repliesOf(ama, '2 replies'));
    await visible(repliesOf(rowOf(page, KOFI), '1 reply'));
    await closeToasts(page);
    await screenshot(page, 'sms-outbox-replies-counted-desktop');

    // The Replies tab: each reply's number, text and time, newest first; its address keeps the tab.
    await page.getByRole('tab', { name: 'Replies' }).click();
    const replies = page.getByTestId('sms-replies-table');
    await visible(replies);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('replies');
    const texts = await replies.locator('tbody tr').allTextContents();
    expect(texts.length).toBe(3);
    expect(texts[0]).toContain('Which offers?');
    expect(texts[0]).toContain(KOFI);
    expect(texts[1]).toContain('START');
    expect(texts[2]).toContain('STOP');
    expect(texts[2]).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await screenshot(page, 'sms-outbox-replies-tab-desktop');
    expect(await findViolations(page)).toEqual([]);
    await page.close();

    const phone = await open('/sms-outbox', PHONE);
    const phoneAma = rowOf(phone, AMA);
    await visible(phoneAma.getByRole('button', { name: 'Reply as the recipient' }));
    await visible(repliesOf(phoneAma, '2 replies'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'sms-outbox-replies-phone');
    expect(await findViolations(phone)).toEqual([]);
    await phoneAma.getByRole('button', { name: 'Reply as the recipient' }).click();
    await visible(phone.getByRole('dialog', { name: 'Reply as the recipient' }).getByRole('textbox', { name: 'Reply' }));
    await screenshotViewport(phone, 'sms-outbox-reply-dialog-phone');
    await phone.goto('/sms-outbox?tab=replies');
    await visible(phone.getByTestId('sms-replies-table').getByText('Which offers?'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'sms-outbox-replies-tab-phone');
    await phone.close();
  });

  it("another account's message is not found; a refusal (the per-minute limit's) is said in the dialog", async () => {
    const messages = await callApi<Array<{ id: string; recipient: string }>>(owner.token, '/api/sms/outbox');
    const amaSms = messages.data.find((m) => m.recipient.endsWith('241000711'))!;
    // The stranger cannot play a reply to the owner's message.
    const refused = await callApi(stranger.token, `/api/sms/outbox/${amaSms.id}/reply`, { text: 'STOP' });
    expect(refused.status).not.toBe('00');
    expect(refused.message).toBe('SMS not found in the outbox');

    const page = await open('/sms-outbox');
    await page.route('**/api/sms/outbox/*/reply', (route) =>
      route.fulfill({ status: 429, json: { status: '99', message: 'Too many replies: try again in a minute.' } }),
    );
    await rowOf(page, AMA).getByRole('button', { name: 'Reply as the recipient' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply as the recipient' });
    await dialog.getByRole('textbox', { name: 'Reply' }).fill('Hello');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(dialog.getByTestId('form-alert').getByText('Too many replies: try again in a minute.'));
    await screenshotViewport(page, 'sms-outbox-reply-refused-desktop');
    await page.close();
  });

  it("the Replies tab's loading, error and empty states", async () => {
    const page = await openPage(browser, WIDE);
    await storeSession(page, stranger);
    const release = await holdRequests(page, '**/api/sms/replies**');
    await page.goto('/sms-outbox?tab=replies');
    await visible(page.getByRole('status', { name: 'Loading the replies' }));
    await screenshotViewport(page, 'sms-outbox-replies-loading-desktop');
    await release();
    await visible(page.getByTestId('sms-replies-empty').getByText(SMS_REPLIES_EMPTY_TEXT));
    await screenshot(page, 'sms-outbox-replies-empty-desktop');
    await page.route('**/api/sms/replies**', (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: 'The database is not answering.' } }),
    );
    await page.reload();
    const error = page.getByTestId('sms-replies-error');
    await visible(error.getByText('The database is not answering.'));
    await screenshot(page, 'sms-outbox-replies-error-desktop');
    await page.unroute('**/api/sms/replies**');
    await error.getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByTestId('sms-replies-empty'));
    await page.close();

    const phone = await open('/sms-outbox?tab=replies', PHONE, stranger);
    await visible(phone.getByTestId('sms-replies-empty'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'sms-outbox-replies-empty-phone');
    await phone.close();
  });
});
