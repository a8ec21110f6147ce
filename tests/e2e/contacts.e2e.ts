import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { registerAccount, storeSession, waitForPath, type LoginReplyBody } from './accounts';
import {
  PHONE,
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  screenshotTop,
  screenshotViewport,
} from './browser';

const WIDE = { width: 1280, height: 800 };

/** Both widths of what the page shows now. */
async function shootBoth(page: Page, name: string, viewportOnly = false) {
  const shoot = viewportOnly ? screenshotViewport : screenshotTop;
  await shoot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await shoot(page, `${name}-phone`);
  await expectNoSidewaysScroll(page);
  await page.setViewportSize(WIDE);
}

const CSV = [
  'phone,name,city,whatsapp_consent',
  '0241000001,Ama Owusu,Accra,yes',
  '0241000002,Kofi Mensah,Kumasi,no',
  'not-a-number,Nobody,Tema,',
  '233241000001,Ama twice,Accra,yes',
  '0551000003,Akosua Boateng,Accra,',
].join('\n');

/**
 * The Contacts screen end to end: empty, loading and error states; a CSV import with its preview (an error row
 * and a duplicate), the consent source and the progress to done; finding a contact by search and by filter;
 * its page (edit, consent, delete with what is erased).
 */
describeBrowser('contacts', () => {
  let browser: Browser;
  let page: Page;
  let owner: { email: string; reply: LoginReplyBody };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Efua Contacts', { plan: 'ENTERPRISE' });
    page = await openPage(browser, WIDE);
    await storeSession(page, owner.reply);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('starts empty, shows its loading state, and says when the list could not be loaded', async () => {
    const release = await holdRequests(page, '**/api/contacts?*');
    await page.goto('/contacts');
    await page.getByRole('status', { name: 'Loading contacts' }).waitFor();
    await shootBoth(page, 'contacts-loading');
    await release();
    await page.getByTestId('contacts-empty').waitFor();
    expect(await page.getByTestId('contacts-empty').textContent()).toContain(
      'No contacts yetThey appear when someone dials your app or writes to your bot, or import a CSV.',
    );
    await shootBoth(page, 'contacts-empty');

    await page.route('**/api/contacts?*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: '99', message: 'Something went wrong' }),
      }),
    );
    await page.reload();
    await page.getByTestId('contacts-error').waitFor();
    await shootBoth(page, 'contacts-error');
    await page.unroute('**/api/contacts?*');
  });

  it('imports a CSV: the preview shows each number as E.164 and the rows that will be skipped, then the progress', async () => {
    await page.goto('/contacts');
    await page.getByTestId('contacts-empty').waitFor();
    await page.getByRole('button', { name: 'Import CSV' }).first().click();
    await page.locator('input[type="file"]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('contact-import-preview');
    await preview.waitFor();
    expect(await page.getByTestId('contact-import-summary').textContent()).toBe('5 rows; 2 with errors will be skipped.');
    expect(await preview.locator('[data-row="2"]').textContent()).toContain('+233241000001');
    expect(await preview.locator('[data-row="4"]').textContent()).toContain('Not a phone number: not-a-number');
    expect(await page.getByTestId('contact-import-errors').textContent()).toContain('Row 5: Same number as row 2 (+233241000001)');
    await shootBoth(page, 'contacts-import-preview', true);

    // The file carries consent: its source is required.
    await page.getByRole('button', { name: 'Import 3 contacts' }).click();
    await expect.poll(() => page.getByTestId('form-alert').textContent()).toContain('say where that consent was given');
    await page.getByLabel('Consent source').fill('Paper sign-up forms, Accra shop');
    await page.getByRole('button', { name: 'Import 3 contacts' }).click();
    const progress = page.getByTestId('contact-import-progress');
    await page.locator('[data-testid="contact-import-progress"][data-status="done"]').waitFor();
    expect(await progress.textContent()).toContain('3 created');
    expect(await progress.textContent()).toContain('2 skipped');
    await shootBoth(page, 'contacts-import-done', true);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('contacts-table').waitFor();
    expect(await page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(3);
    await shootBoth(page, 'contacts-list');
  });

  it('finds a contact by search and by filters', async () => {
    await page.getByLabel('Search', { exact: true }).fill('kofi');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('contacts-table').textContent()).toContain('Kofi Mensah');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Attribute', { exact: true }).fill('city');
    await page.getByLabel('Attribute value').fill('Accra');
    await page.getByLabel('Consent on', { exact: true }).first().click();
    await page.getByRole('option', { name: 'WhatsApp' }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('contacts-table').textContent()).toContain('Ama Owusu');
    await shootBoth(page, 'contacts-filtered');

    await page.getByRole('textbox', { name: 'Search', exact: true }).fill('+23399');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('contacts-no-match').waitFor();
  });

  it("opens a contact's page, edits it, opts it in on SMS, and deletes it after saying what is erased", async () => {
    await page.goto('/contacts?search=Ama');
    await page.getByRole('link', { name: '+233241000001' }).click();
    await page.getByTestId('contact-title').waitFor();
    expect(await page.getByTestId('contact-title').textContent()).toBe('Ama Owusu');
    const whatsapp = page.locator('[data-consent="whatsapp"]');
    expect(await whatsapp.textContent()).toContain('Opted in');
    expect(await whatsapp.textContent()).toContain('import: Paper sign-up forms, Accra shop');

    await page.getByLabel('Name').fill('Ama O. Owusu');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByRole('textbox', { name: 'Attribute key' }).last().fill('tier');
    await page.getByRole('textbox', { name: 'Attribute value' }).last().fill('gold');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('contact-title').textContent()).toBe('Ama O. Owusu');

    await page.locator('[data-consent="sms"]').getByText('Opt in').click();
    await expect.poll(() => page.locator('[data-consent="sms"]').textContent()).toContain('Opted in');
    expect(await page.locator('[data-consent="sms"]').textContent()).toContain(`console: ${owner.email}`);
    await closeToasts(page);
    await shootBoth(page, 'contact-page');

    await page.getByRole('button', { name: 'Delete contact' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('their number in every session becomes an anonymous token');
    expect(await dialog.textContent()).toContain('Kept: session counts and outcomes on the dashboard, payment transactions');
    await shootBoth(page, 'contact-delete-confirm', true);
    await dialog.getByRole('button', { name: 'Delete and erase' }).click();
    await waitForPath(page, '/contacts');
    await page.getByTestId('contacts-table').waitFor();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('contacts-table').textContent()).not.toContain('+233241000001');
  });

  it('pages by number: Next and Previous carry the cursor in the address, which a reload keeps', async () => {
    const rows = Array.from({ length: 28 }, (_, i) => `02420000${String(i + 10)},Page ${i + 10}`);
    await page.goto('/contacts');
    await page.getByTestId('contacts-table').waitFor();
    await page.getByRole('button', { name: 'Import CSV' }).first().click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(['phone,name', ...rows].join('\n')) });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 28 contacts' }).click();
    await page.locator('[data-testid="contact-import-progress"][data-status="done"]').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    // The search's rule is said under the field.
    expect(await page.getByTestId('contacts-search-rule').textContent()).toContain(
      "1-2 letters: a name's start; 3 or more: any part of a name",
    );

    const count = page.getByTestId('contacts-count');
    await expect.poll(() => count.textContent()).toBe('1-25');
    const table = page.getByTestId('contacts-table');
    const lastOfFirst = await table.locator('tbody tr').last().getAttribute('data-row');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => count.textContent()).toBe('26-30 of 30');
    const address = new URL(page.url());
    expect(address.searchParams.get('page')).toBe('1');
    expect(address.searchParams.get('after')).toBe(lastOfFirst);
    expect(await table.textContent()).toContain('+233551000003');
    await shootBoth(page, 'contacts-page-two');

    await page.reload();
    await expect.poll(() => count.textContent()).toBe('26-30 of 30');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => count.textContent()).toBe('1-25');
    expect(new URL(page.url()).search).toBe('');
    expect(await table.locator('tbody tr').last().getAttribute('data-row')).toBe(lastOfFirst);

    // A short search: the name's start.
    await page.getByLabel('Search', { exact: true }).fill('pa');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => count.textContent()).toBe('1-25');
    await page.getByLabel('Search', { exact: true }).fill('ag');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('contacts-no-match').waitFor();
  });
});
