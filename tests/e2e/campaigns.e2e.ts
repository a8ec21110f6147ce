import { buffer } from 'node:stream/consumers';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerBotBuilder, storeSession } from './accounts';
import {
  baseUrl,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotTop,
  screenshotViewport,
} from './browser';

/**
 * Campaigns (docs/campaigns.md, "The console"): a bot builder with a bot on a simulator number (an approved
 * template), a USSD app (*920*64#) and six imported contacts builds an audience of the gold ones and sees its reach
 * per channel, makes a campaign (WhatsApp, then SMS) with the template and the default SMS, schedules it now, and
 * watches the dispatcher send it: the funnel moves to 3 sent (2 WhatsApp, 1 SMS), the opted out and never asked
 * skipped. The list's empty, loading and error states, at 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

// Ama and Kofi on WhatsApp, Esi by SMS (she opted out of WhatsApp), Yaw opted out of both, Abena never asked; Kwame is silver.
const CONTACTS_CSV = [
  'phone,name,tier,whatsapp_consent,sms_consent',
  '0241000641,Ama,gold,yes,yes',
  '0241000642,Kofi,gold,yes,',
  '0241000643,Esi,gold,no,yes',
  '0241000644,Yaw,gold,no,no',
  '0241000645,Abena,gold,,',
  '0241000646,Kwame,silver,yes,yes',
].join('\n');

describeBrowser('campaigns in the console', () => {
  let browser: Browser;
  let owner: LoginReplyBody;
  let botId = '';
  let linkId = '';
  let secret = '';
  let shopId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerBotBuilder('Adwoa Campaigns');
    const token = owner.token;
    botId = (await callApi<{ appId: string }>(token, '/api/chatbot/app/create', { appName: 'Adwoa Offers', description: 'campaigns' })).data
      .appId;
    await callApi(token, '/api/createMenu', {
      appId: botId,
      userDefinedName: 'home',
      displayText: 'Our offers',
      isFirst: true,
      terminate: true,
    });
    expect((await callApi(token, `/api/deployChanges/${botId}`)).status).toBe('00');
    linkId = ((await callApi(token, '/api/chatbot/whatsapp/link', { chatBotAppId: botId })) as unknown as { linkId: string }).linkId;
    const status = (await callApi(token, `/api/chatbot/whatsapp/link-status/${linkId}`)) as unknown as { qrCode: string };
    secret = new URL(status.qrCode).searchParams.get('secret')!;
    expect((await callApi(token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000064' })).status).toBe('00');
    const template = await callApi(token, `/api/chatbot/whatsapp/templates/${linkId}`, {
      name: 'news',
      language: 'en',
      category: 'MARKETING',
      body: 'Hello {{1}}, our new offers are here.',
      buttons: ['See offers'],
      examples: { body: { '1': 'Ama' } },
    });
    expect(template.status, JSON.stringify(template)).toBe('00');
    const app = await callApi(token, '/api/createApp', {
      appName: 'Adwoa Shop',
      description: 'offers by USSD',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*64#',
      useTemplateTag: false,
    });
    expect(app.status, JSON.stringify(app)).toBe('00');
    shopId = (app as unknown as { data: { appId: string } }).data.appId;
    // The code the SMS names answers with the offers and ends: a dial and a completed session.
    await callApi(token, '/api/createMenu', {
      appId: shopId,
      userDefinedName: 'offers',
      displayText: 'Weekend offers: 2 for 1 on rice',
      isFirst: true,
      terminate: true,
    });
    expect((await callApi(token, `/api/deployChanges/${shopId}`)).status).toBe('00');
    const started = await callApi<{ importId: string }>(token, '/api/contacts/imports', {
      csv: CONTACTS_CSV,
      defaultCountry: 'ghana',
      consentSource: 'Signed up at the shop',
    });
    expect(started.status, JSON.stringify(started)).toBe('00');
    for (let i = 0; i < 50; i += 1) {
      const job = await callApi<{ status: string }>(token, `/api/contacts/imports/${started.data.importId}`);
      if (job.data.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(path: string, viewport = WIDE): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, owner);
    await page.goto(path);
    return page;
  }

  it("the list's loading, error and empty states", async () => {
    const page = await openPage(browser, WIDE);
    await storeSession(page, owner);
    // Loading: the campaigns' call held.
    const release = await holdRequests(page, '**/api/campaigns');
    await page.goto('/campaigns');
    await visible(page.getByRole('status', { name: 'Loading campaigns' }));
    await screenshotViewport(page, 'campaigns-loading-desktop');
    await release();
    // Empty: what a campaign is, and both ways to start.
    const empty = page.getByTestId('campaigns-empty');
    await visible(empty.getByText('No campaigns yet'));
    await visible(empty.getByRole('link', { name: 'New audience' }));
    await visible(empty.getByRole('link', { name: 'New campaign' }));
    await screenshot(page, 'campaigns-empty-desktop');
    // Error: the server's words and Try again.
    await page.route('**/api/campaigns', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: '99', message: 'The database is not answering.' }),
      }),
    );
    await page.reload();
    await visible(page.getByTestId('campaigns-error').getByText('The database is not answering.'));
    await screenshot(page, 'campaigns-error-desktop');
    await page.close();

    // The audiences' empty state, and a campaign that is not there.
    const more = await open('/campaigns/audiences');
    await visible(more.getByTestId('audiences-empty').getByText('No audiences yet'));
    await screenshot(more, 'campaigns-audiences-empty-desktop');
    await more.goto('/campaigns/00000000-0000-4000-8000-000000000000');
    await visible(more.getByTestId('campaign-not-found').getByText('Campaign not found'));
    await screenshot(more, 'campaigns-not-found-desktop');
    await more.close();

    const phone = await open('/campaigns', PHONE);
    await visible(phone.getByTestId('campaigns-empty'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-empty-phone');
    await phone.close();
  });

  it('an audience of the gold contacts: its reach per channel as the filter is typed, saved with its filter in words', async () => {
    const page = await open('/campaigns');
    await page.getByTestId('campaigns-empty').getByRole('link', { name: 'New audience' }).click();
    const dialog = page.getByRole('dialog', { name: 'New audience' });
    await visible(dialog);
    // No filter yet: all six contacts, and what each channel does with them.
    await expect.poll(() => dialog.getByTestId('audience-reach-total').textContent()).toBe('4 of 6 contacts reached');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Gold members');
    await dialog.getByRole('button', { name: 'Add a condition' }).click();
    await dialog.getByRole('combobox', { name: 'Field 1' }).fill('tier');
    await dialog.getByLabel('Value 1').fill('gold');
    await expect.poll(() => dialog.getByTestId('audience-reach-total').textContent()).toBe('3 of 5 contacts reached');
    const figure = (key: string) => dialog.getByTestId(`reach-${key}`).locator('p').last().textContent();
    expect([await figure('whatsapp'), await figure('sms'), await figure('optedOut'), await figure('noConsent')]).toEqual([
      '2',
      '1',
      '1',
      '1',
    ]);
    // SMS only: Kofi has no SMS consent, so he joins the never asked.
    await dialog.getByText('SMS only').click();
    await expect.poll(() => dialog.getByTestId('audience-reach-total').textContent()).toBe('2 of 5 contacts reached');
    await dialog.getByText('WhatsApp, then SMS').click();
    await expect.poll(() => dialog.getByTestId('audience-reach-total').textContent()).toBe('3 of 5 contacts reached');
    await screenshotViewport(page, 'campaigns-audience-form-desktop');
    await dialog.getByRole('button', { name: 'Save audience' }).click();
    await visible(page.getByTestId('audience-filter-words').getByText('tier = gold'));
    await dialog.waitFor({ state: 'hidden' });
    await screenshotTop(page, 'campaigns-audiences-desktop');
    await page.close();

    const phone = await open('/campaigns/audiences', PHONE);
    await visible(phone.getByTestId('audiences-table').getByText('Gold members'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-audiences-phone');
    await phone.getByRole('button', { name: 'Edit Gold members' }).click();
    await visible(phone.getByRole('dialog', { name: 'Edit Gold members' }).getByTestId('audience-reach-total'));
    await screenshotViewport(phone, 'campaigns-audience-form-phone');
    await phone.close();
  });

  it('a campaign: the template with the contact name, the SMS with its parts, saved as a draft, started now, and the funnel moves', async () => {
    const page = await open('/campaigns/new');
    await visible(page.getByRole('heading', { name: 'New campaign' }));
    // The schema's words for what is missing.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await visible(page.getByText('Give the campaign a name of at most 80 characters'));
    await visible(page.getByText('Choose the WhatsApp bot the campaign writes from'));

    await page.getByRole('textbox', { name: 'Name' }).fill('December offers');
    // Leaving with changes asks first.
    await page.getByRole('link', { name: 'Campaigns' }).first().click();
    const discard = page.getByRole('dialog', { name: 'Discard changes?' });
    await visible(discard);
    await discard.getByRole('button', { name: 'Keep editing' }).click();
    await discard.waitFor({ state: 'hidden' });
    await page.getByRole('combobox', { name: 'Audience' }).click();
    await page.getByRole('option', { name: 'Gold members' }).click();
    await expect.poll(() => page.getByTestId('audience-reach-total').textContent()).toBe('3 of 5 contacts reached');
    await page.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Adwoa Offers' }).click();
    await page.getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'news (en)' }).click();
    expect(await page.getByRole('combobox', { name: '{{1}} in the body' }).inputValue()).toBe('{{contact.name}}');
    await visible(page.getByTestId('template-preview').getByText('Hello {{contact.name}}, our new offers are here.'));
    // The SMS starts from the app's dial string and counts its parts as it goes out.
    await visible(page.getByTestId('sms-preview').getByText('Dial *920*64# to see our offers'));
    expect(await page.getByTestId('sms-parts').textContent()).toBe('1 part, GSM-7, 53 characters');
    const sms = page.getByRole('textbox', { name: 'SMS text' });
    await sms.fill('Dial {dial} to see our offers ✓');
    expect(await page.getByTestId('sms-parts').textContent()).toBe('1 part, UCS-2, 55 characters: UCS-2 because of "✓"');
    await sms.fill('Dial {dial} to see our offers');
    await page.getByRole('switch', { name: 'Send only between set hours' }).click();
    await page.getByLabel('To', { exact: true }).fill('07:00');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await visible(page.getByText('The send window must end after it starts'));
    await page.getByLabel('To', { exact: true }).fill('23:59');
    await page.getByLabel('From', { exact: true }).fill('00:00');
    await screenshot(page, 'campaigns-new-desktop');
    await page.getByRole('button', { name: 'Save draft' }).click();

    await visible(page.getByRole('heading', { name: 'December offers' }));
    await visible(page.getByTestId('campaign-status').getByText('Draft'));
    await visible(page.getByTestId('funnel-none'));
    // Before it starts: reach, the SMS's parts and the cost at the server's prices (2 x 0.04 + 1 part x 0.02).
    expect(await page.getByTestId('campaign-estimate-parts').textContent()).toBe('1 part, GSM-7, 53 characters');
    expect(await page.getByTestId('campaign-estimate-cost').textContent()).toBe('USD 0.10 (WhatsApp USD 0.08, SMS USD 0.02)');
    // Preview per contact: Ama by WhatsApp with her name, Esi by SMS with the dial string, Yaw not at all.
    const number = page.getByRole('textbox', { name: "A contact's number" });
    await number.fill('+233241000641');
    await visible(page.getByTestId('campaign-preview').getByText('By WhatsApp'));
    expect(await page.getByTestId('campaign-preview-text').textContent()).toContain('Hello Ama, our new offers are here.');
    await number.fill('+233241000643');
    await visible(page.getByTestId('campaign-preview').getByText('By SMS'));
    expect(await page.getByTestId('campaign-preview-text').textContent()).toBe('Dial *920*64# to see our offers\nReply STOP to opt out');
    await number.fill('+233241000644');
    await visible(page.getByTestId('campaign-preview').getByText('Nothing sent'));
    // A test to the builder's own number first.
    await page.getByRole('button', { name: 'Send a test to my number' }).click();
    await visible(page.getByTestId('campaign-test-result').getByText(/^Test to /));
    await screenshot(page, 'campaigns-draft-desktop');
    await page.getByRole('button', { name: 'Schedule' }).click();
    const schedule = page.getByRole('dialog', { name: 'Schedule December offers' });
    await schedule.getByRole('button', { name: 'Start now' }).click();
    // The dispatcher starts it and sends on its timer; the page hears each run's change on the live stream.
    await expect.poll(() => page.getByTestId('funnel-all-sent').textContent(), { timeout: 20_000 }).toBe('3');
    expect(await page.getByTestId('funnel-whatsapp-sent').textContent()).toBe('2');
    expect(await page.getByTestId('funnel-sms-sent').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-all-others').textContent()).toContain('2 skipped');
    await expect
      .poll(() => page.getByTestId('campaign-cost').textContent())
      .toBe('Cost so far: USD 0.10 (WhatsApp USD 0.08, SMS USD 0.02)');
    await visible(page.getByRole('region', { name: 'Over time' }).getByRole('button', { name: 'Show as table' }));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    // Read as a stream: the download is on the shared browser's side.
    const csv = (await buffer(await download.createReadStream())).toString('utf8');
    expect(csv.split('\n').filter((line) => line.includes('+23324100064')).length).toBe(5);
    await screenshot(page, 'campaigns-results-desktop');
    await page.close();

    const phone = await open('/campaigns', PHONE);
    await visible(phone.getByTestId('campaigns-table').getByText('3 sent', { exact: false }).first());
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-list-phone');
    await phone.getByRole('link', { name: 'December offers' }).click();
    await visible(phone.getByTestId('funnel-all'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-results-phone');
    await phone.goto('/campaigns/new');
    await visible(phone.getByRole('heading', { name: 'New campaign' }));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-new-phone');
    await phone.close();

    const wide = await open('/campaigns');
    await visible(wide.getByTestId('campaigns-table').getByText('December offers'));
    await screenshot(wide, 'campaigns-list-desktop');
    await wide.close();
  });

  it('scheduled for later: pause, resume, and cancel after a confirmation', async () => {
    const audiences = await callApi<Array<{ audienceId: string; name: string }>>(owner.token, '/api/audiences');
    const audienceId = audiences.data.find((a) => a.name === 'Gold members')!.audienceId;
    const made = await callApi<{ campaignId: string }>(owner.token, '/api/campaigns', {
      name: 'January offers',
      audienceId,
      channels: 'sms',
      smsText: 'Our January offers are in the shop',
    });
    expect(made.status, JSON.stringify(made)).toBe('00');
    const page = await open(`/campaigns/${made.data.campaignId}`);
    await page.getByRole('button', { name: 'Schedule' }).click();
    const schedule = page.getByRole('dialog', { name: 'Schedule January offers' });
    await schedule.getByRole('radio', { name: 'At a date and time' }).check();
    await visible(schedule.getByLabel('Starts at'));
    await screenshotViewport(page, 'campaigns-schedule-desktop');
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await visible(page.getByTestId('campaign-status').getByText('Scheduled'));
    await visible(page.getByTestId('campaign-times').getByText(/starts /));
    await page.getByRole('button', { name: 'Pause' }).click();
    await visible(page.getByTestId('campaign-status').getByText('Paused'));
    await page.getByRole('button', { name: 'Resume' }).click();
    await visible(page.getByTestId('campaign-status').getByText('Scheduled'));
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel January offers' });
    await visible(confirm.getByText('What was not yet sent is never sent', { exact: false }));
    await screenshotViewport(page, 'campaigns-cancel-desktop');
    await confirm.getByRole('button', { name: 'Cancel campaign' }).click();
    await visible(page.getByTestId('campaign-status').getByText('Cancelled'));
    await visible(page.getByRole('button', { name: 'Delete' }));
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await page.close();

    const phone = await open(`/campaigns/${made.data.campaignId}`, PHONE);
    await visible(phone.getByTestId('campaign-status').getByText('Cancelled'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-cancelled-phone');
    await phone.close();
  });

  it('due while its send window is shut: it says it waits, and till when', async () => {
    const audiences = await callApi<Array<{ audienceId: string; name: string }>>(owner.token, '/api/audiences');
    // A window of this UTC day that is not now: the late evening in the morning, the small hours after noon.
    const window = new Date().getUTCHours() < 12 ? { from: '23:00', to: '23:59' } : { from: '00:00', to: '01:00' };
    const made = await callApi<{ campaignId: string }>(owner.token, '/api/campaigns', {
      name: 'Night offers',
      audienceId: audiences.data.find((a) => a.name === 'Gold members')!.audienceId,
      channels: 'sms',
      ussdAppId: shopId,
      smsText: 'Our night offers: dial {dial}',
      timeZone: 'UTC',
      sendWindow: window,
    });
    expect(made.status, JSON.stringify(made)).toBe('00');
    const page = await open(`/campaigns/${made.data.campaignId}`);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('dialog', { name: 'Schedule Night offers' }).getByRole('button', { name: 'Start now' }).click();
    const wait = page.getByTestId('campaign-window-wait');
    await visible(wait.getByText('Waiting for its send window'));
    expect(await wait.textContent()).toContain(`It sends between ${window.from} and ${window.to} (UTC)`);
    await screenshotViewport(page, 'campaigns-window-wait-desktop');
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByRole('dialog', { name: 'Cancel Night offers' }).getByRole('button', { name: 'Cancel campaign' }).click();
    await visible(page.getByTestId('campaign-status').getByText('Cancelled'));
    expect(await wait.count()).toBe(0);
    await page.close();
  });

  // Last: it opts Ama and Esi out of SMS, which the tests before it send to.
  it('watched as it goes: a reply on WhatsApp, a dial of the code and a STOP by SMS counted; a contact opted out mid-way gets nothing more', async () => {
    const token = owner.token;
    const audiences = await callApi<Array<{ audienceId: string; name: string }>>(token, '/api/audiences');
    const made = await callApi<{ campaignId: string }>(token, '/api/campaigns', {
      name: 'Weekend offers',
      audienceId: audiences.data.find((a) => a.name === 'Gold members')!.audienceId,
      channels: 'whatsapp_then_sms',
      botId,
      template: { name: 'news', language: 'en', variables: { body: { '1': '{{contact.name}}' } } },
      ussdAppId: shopId,
      smsText: 'Dial {dial} for our weekend offers',
    });
    expect(made.status, JSON.stringify(made)).toBe('00');
    const campaignId = made.data.campaignId;
    const page = await open(`/campaigns/${campaignId}`);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('dialog', { name: 'Schedule Weekend offers' }).getByRole('button', { name: 'Start now' }).click();
    // Ama and Kofi by WhatsApp, Esi by SMS; the page follows it without a reload.
    await expect.poll(() => page.getByTestId('funnel-all-sent').textContent(), { timeout: 20_000 }).toBe('3');
    await visible(page.getByTestId('campaign-status').getByText('Sending'));
    await visible(page.getByTestId('campaign-live').getByText('Live'));

    // Kofi reads the template on his phone and answers it.
    const kofi = await openPage(browser, PHONE);
    await kofi.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await kofi.getByLabel('Customer number').fill('233241000642');
    await visible(kofi.getByText('Hello Kofi, our new offers are here.').last());
    await kofi.getByRole('textbox', { name: 'Message', exact: true }).fill('Yes please');
    await kofi.getByRole('button', { name: 'Send', exact: true }).click();
    await visible(kofi.getByText('Our offers').last());
    await kofi.context().close();

    // Esi dials the code her SMS named (the network posts it as Africa's Talking does), and writes STOP to the SMS.
    const dial = await fetch(`${baseUrl()}/ussd/${shopId}/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sessionId: `weekend-${Date.now()}`,
        serviceCode: '*920*64#',
        phoneNumber: '233241000643',
        networkCode: '62001',
        text: '',
      }).toString(),
    });
    expect(await dial.text()).toContain('Weekend offers: 2 for 1 on rice');
    const outbox = await callApi<Array<{ id: string; recipient: string; message: string }>>(token, '/api/sms/outbox');
    const esi = outbox.data.find((m) => m.recipient === '+233241000643' && m.message.includes('weekend offers'))!;
    expect(esi.message).toBe('Dial *920*64# for our weekend offers\nReply STOP to opt out');
    const stop = await callApi<{ consent: string | null }>(token, `/api/sms/outbox/${esi.id}/reply`, { text: 'STOP' });
    expect(stop.data.consent).toBe('out');

    // Mid-way: Ama is opted out of SMS in the console while the campaign waits to hear how her WhatsApp went.
    const contacts = await callApi<{ contacts: Array<{ contactId: string }> }>(token, '/api/contacts?search=%2B233241000641');
    const contactPage = await open(`/contacts/${contacts.data.contacts[0]!.contactId}`);
    await contactPage.locator('[data-consent="sms"]').getByText('Opt out', { exact: true }).click();
    await visible(contactPage.getByText('Consent saved'));
    await contactPage.close();
    // Then her phone says the template failed: the campaign would send it by SMS, but she opted out.
    const ama = await openPage(browser, PHONE);
    await ama.route('**/api/whatsapp-simulator/*/receipts', (route) =>
      route.request().postDataJSON().status === 'failed' ? route.continue() : route.abort(),
    );
    await ama.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await ama.getByLabel('Customer number').fill('233241000641');
    await visible(ama.getByText('Hello Ama, our new offers are here.').last());
    const failed = ama.waitForResponse((r) => r.url().endsWith('/receipts') && r.request().postDataJSON().status === 'failed');
    await ama.getByRole('button', { name: "Make the bot's last message fail" }).click();
    expect((await failed).status()).toBe(200);
    await ama.context().close();

    // The funnel, read again on its own: Kofi read and replied; Esi dialled, completed, answered and opted out; Ama's
    // failed template went to SMS and was skipped there, as she had opted out.
    const others = () => page.getByTestId('funnel-all-others').textContent();
    await expect.poll(others, { timeout: 20_000 }).toBe('3 skipped · 1 by SMS after WhatsApp failed');
    expect(await page.getByTestId('funnel-whatsapp-read').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-whatsapp-replied').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-sms-dialled').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-sms-completed').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-sms-replied').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-sms-optedOut').textContent()).toBe('1');
    expect(await page.getByTestId('funnel-all-completed').textContent()).toBe('2');
    const after = await callApi<Array<{ recipient: string }>>(token, '/api/sms/outbox');
    expect(after.data.filter((m) => m.recipient === '+233241000641')).toEqual([]);
    await screenshot(page, 'campaigns-replies-desktop');
    await page.close();
  });
});
