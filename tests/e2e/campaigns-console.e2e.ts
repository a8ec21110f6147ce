import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findViolations } from './axe';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import {
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotTop,
  screenshotViewport,
} from './browser';

/**
 * The campaign form's SMS and audience, and a campaign's failures (docs/campaigns.md, "The console"): the SMS is
 * shown and counted as it goes out, with the installation's opt-out line (the e2e server's default, "Reply STOP to
 * opt out"); the sender is checked as the SMS service checks it; Upload a CSV imports a file tagged
 * list=<its name> and chooses the audience of exactly its contacts; the campaign sent to it says why two messages
 * did not go, and one that sent everything says nothing. At 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const OPT_OUT = 'Reply STOP to opt out';

// Ama and Kofi take SMS, Esi opted out of it, Yaw never said.
const LIST_CSV = ['phone,name,sms_consent', '0241000721,Ama,yes', '0241000722,Kofi,yes', '0241000723,Esi,no', '0241000724,Yaw,'].join('\n');

/** Asks again every 200 ms until `isDone` (expect.poll is for tests, not their setup); throws after `timeout` ms. */
async function waitUntil(isDone: () => Promise<boolean>, timeout = 10_000): Promise<void> {
  for (const end = Date.now() + timeout; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (await isDone()) return;
  }
  throw new Error(`not done within ${timeout} ms`);
}

describeBrowser('the campaign console: the SMS as it goes out, its sender, a CSV for one campaign, why messages did not go', () => {
  let browser: Browser;
  let owner: LoginReplyBody;
  let ussdAppId: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = (await registerAccount('Adwoa Lists', { plan: 'ENTERPRISE' })).reply;
    const app = await callApi<{ appId: string }>(owner.token, '/api/createApp', {
      appName: 'Lists Shop',
      description: 'offers by USSD',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*72#',
      useTemplateTag: false,
    });
    expect(app.status, JSON.stringify(app)).toBe('00');
    ussdAppId = app.data.appId;
    // A contact of the account who is not in the file: the file's audience leaves her out.
    const started = await callApi<{ importId: string }>(owner.token, '/api/contacts/imports', {
      csv: 'phone,name,sms_consent\n0241000729,Akua,yes',
      defaultCountry: 'ghana',
      consentSource: 'Signed up at the shop',
    });
    expect(started.status, JSON.stringify(started)).toBe('00');
    await waitUntil(
      async () => (await callApi<{ status: string }>(owner.token, `/api/contacts/imports/${started.data.importId}`)).data.status === 'done',
    );
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

  it('the SMS with the opt-out line, counted in its parts; a sender refused; a CSV becomes the audience; the failures in a table', async () => {
    const page = await open('/campaigns/new');
    await visible(page.getByRole('heading', { name: 'New campaign' }));
    await page.getByText('SMS only', { exact: true }).click();
    await visible(page.getByRole('region', { name: 'SMS' }));
    // The SMS as the contact reads it: the dial string, then the installation's line, counted with it.
    expect(await page.getByTestId('sms-opt-out-note').textContent()).toBe(
      `Every campaign SMS ends with “${OPT_OUT}”, as the installation requires.`,
    );
    expect(await page.getByTestId('sms-preview').textContent()).toBe(`Dial *920*72# to see our offers\n${OPT_OUT}`);
    expect(await page.getByTestId('sms-parts').textContent()).toBe('1 part, GSM-7, 53 characters');
    // 140 characters alone fit one part; the line makes them two.
    const text = `Dial {dial} now. ${'x'.repeat(140 - 'Dial *920*72# now. '.length)}`;
    await page.getByRole('textbox', { name: 'SMS text' }).fill(text);
    expect(await page.getByTestId('sms-parts').textContent()).toBe('2 parts, GSM-7, 162 characters');
    await page.getByRole('textbox', { name: 'SMS text' }).fill('Harmattan offers: dial {dial}');

    await page.getByRole('textbox', { name: 'Name' }).fill('Harmattan offers');
    const sender = page.getByRole('textbox', { name: 'Sender' });
    await sender.fill('Adwoa Shop!');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await visible(page.getByText('The SMS sender must be a shortcode, a number, or a name of at most 11 letters and digits'));
    await sender.fill('AdwoaShop');

    // Upload a CSV: the import, every contact tagged with the file's name, then its audience chosen.
    await page.getByRole('button', { name: 'Upload a CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts from a CSV file' });
    await visible(dialog);
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'Harmattan List.csv', mimeType: 'text/csv', buffer: Buffer.from(LIST_CSV) });
    expect(await dialog.getByTestId('contact-import-tag').textContent()).toBe(
      'Every contact in this file gets the attribute list=harmattan-list, new or already there.',
    );
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await visible(dialog.getByTestId('contact-import-preview'));
    await dialog.getByLabel('Consent source').fill('Harmattan sign-up sheet');
    await screenshotViewport(page, 'campaigns-console-csv-desktop');
    expect(await findViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Import 4 contacts' }).click();
    await visible(dialog.locator('[data-testid="contact-import-progress"][data-status="done"]'));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('combobox', { name: 'Audience' }).inputValue()).toBe('Harmattan List');
    // Exactly the file's four: Akua, not in it, is left out; two take SMS.
    await expect.poll(() => page.getByTestId('audience-reach-total').textContent()).toBe('2 of 4 contacts reached');
    const audiences = await callApi<Array<{ name: string; filter: { attribute?: string[] } }>>(owner.token, '/api/audiences');
    expect(audiences.data.find((a) => a.name === 'Harmattan List')?.filter).toEqual({ attribute: ['list=harmattan-list'] });
    // The toast said the audience was saved; it goes before the picture and axe (its grey text is Mantine's).
    await closeToasts(page);
    await screenshotTop(page, 'campaigns-console-form-desktop');
    expect(await findViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save draft' }).click();

    await visible(page.getByRole('heading', { name: 'Harmattan offers' }));
    await visible(page.getByText('AdwoaShop', { exact: true }));
    expect(await page.getByTestId('campaign-failures').count()).toBe(0);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('dialog', { name: 'Schedule Harmattan offers' }).getByRole('button', { name: 'Start now' }).click();
    await expect.poll(() => page.getByTestId('funnel-all-sent').textContent(), { timeout: 20_000 }).toBe('2');
    // Why the other two did not go, in words, with their counts.
    const failures = page.getByTestId('campaign-failures');
    await visible(failures);
    const rows = (await failures.locator('tbody tr').allTextContents()).sort();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Never opted in');
    expect(rows[1]).toContain('Opted out');
    for (const row of rows) expect(row).toMatch(/Not sent.*1$/);
    await screenshot(page, 'campaigns-console-failures-desktop');
    expect(await findViolations(page)).toEqual([]);
    await page.close();

    // The SMS went as the form showed it, from the sender given.
    const outbox = await callApi<Array<{ recipient: string; sender: string; message: string }>>(owner.token, '/api/sms/outbox');
    const toAma = outbox.data.find((m) => m.recipient.endsWith('241000721'));
    expect(toAma).toMatchObject({ sender: 'AdwoaShop', message: `Harmattan offers: dial *920*72#\n${OPT_OUT}` });

    const phone = await open('/campaigns/new', PHONE);
    await phone.getByText('SMS only', { exact: true }).click();
    await visible(phone.getByTestId('sms-preview'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-console-form-phone');
    await phone.getByRole('button', { name: 'Upload a CSV' }).click();
    await visible(phone.getByRole('dialog', { name: 'Import contacts from a CSV file' }));
    await screenshotViewport(phone, 'campaigns-console-csv-phone');
    await phone.close();
  });

  it("a campaign's failures on a phone, and none for a campaign that sent every message", async () => {
    const campaigns = await callApi<Array<{ campaignId: string; name: string }>>(owner.token, '/api/campaigns');
    const harmattan = campaigns.data.find((c) => c.name === 'Harmattan offers')!;
    const phone = await open(`/campaigns/${harmattan.campaignId}`, PHONE);
    await visible(phone.getByTestId('campaign-failures'));
    await expectNoSidewaysScroll(phone);
    await screenshot(phone, 'campaigns-console-failures-phone');
    expect(await findViolations(phone)).toEqual([]);
    await phone.close();

    const audience = await callApi<{ audienceId: string }>(owner.token, '/api/audiences', {
      name: 'SMS takers',
      filter: { consentChannel: 'sms', consentStatus: 'in' },
    });
    expect(audience.status, JSON.stringify(audience)).toBe('00');
    const made = await callApi<{ campaignId: string }>(owner.token, '/api/campaigns', {
      name: 'Everyone who takes SMS',
      audienceId: audience.data.audienceId,
      channels: 'sms',
      ussdAppId,
      smsText: 'Dial {dial} for more',
    });
    expect(made.status, JSON.stringify(made)).toBe('00');
    expect((await callApi(owner.token, `/api/campaigns/${made.data.campaignId}/schedule`, {})).status).toBe('00');
    // Ama, Kofi and Akua: every message went, so nothing is said of failures.
    await waitUntil(
      async () => (await callApi<{ status: string }>(owner.token, `/api/campaigns/${made.data.campaignId}`)).data.status === 'done',
      20_000,
    );
    const page = await open(`/campaigns/${made.data.campaignId}`);
    await visible(page.getByTestId('campaign-status').getByText('Done'));
    // Done once its SMS are in the outbox: the page reads it again until the outbox has sent them.
    await expect.poll(() => page.getByTestId('funnel-all-sent').textContent(), { timeout: 20_000 }).toBe('3');
    expect(await page.getByTestId('campaign-failures').count()).toBe(0);
    expect(await page.getByText('Why messages did not go').count()).toBe(0);
    await page.close();
  });

  it('an installation without an opt-out line: nothing said or counted for it; its settings not read: said, counted without', async () => {
    // The e2e server has the default line; an installation's other settings are stood in for by the call's answer.
    const page = await openPage(browser, WIDE);
    await storeSession(page, owner);
    await page.route('**/api/campaigns/settings', (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', data: { smsOptOut: '', priced: false } } }),
    );
    await page.goto('/campaigns/new');
    await page.getByText('SMS only', { exact: true }).click();
    expect(await page.getByTestId('sms-preview').textContent()).toBe('Dial *920*72# to see our offers');
    expect(await page.getByTestId('sms-parts').textContent()).toBe('1 part, GSM-7, 31 characters');
    expect(await page.getByTestId('sms-opt-out-note').count()).toBe(0);
    // Without {dial} and without a line, the text is read as written: no second copy of it.
    await page.getByRole('textbox', { name: 'SMS text' }).fill('Our offers are in the shop');
    expect(await page.getByTestId('sms-preview').count()).toBe(0);

    await page.unroute('**/api/campaigns/settings');
    await page.route('**/api/campaigns/settings', (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: 'The database is not answering.' } }),
    );
    await page.reload();
    await page.getByText('SMS only', { exact: true }).click();
    await expect
      .poll(() => page.getByTestId('sms-opt-out-note').textContent())
      .toBe('The database is not answering. The parts are counted without the opt-out line the installation may add.');
    expect(await page.getByTestId('sms-parts').textContent()).toBe('1 part, GSM-7, 31 characters');
    await screenshot(page, 'campaigns-console-settings-error-desktop');
    await page.close();
  });
});
