import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createMenu, createUssdApp, registerAccount, storeSession, type LoginReplyBody } from './accounts';
import { PHONE, baseUrl, describeBrowser, expectNoSidewaysScroll, launchBrowser, openPage, screenshotTop } from './browser';

const WIDE = { width: 1280, height: 800 };

/** One hop on the app's test URL, as Africa's Talking posts it: the reply's text. */
async function dial(appId: string, sessionId: string, phoneNumber: string, text: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/ussd/${appId}/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sessionId, serviceCode: '*920*531#', phoneNumber, networkCode: '62001', text }).toString(),
  });
  return res.text();
}

/**
 * A number's subscriber data in the console (docs/security.md, "Subscriber data"): the owner finds it from
 * Contacts, looks a national number up with its country, sees what is kept, and erases it with a reason and the
 * number typed again, watching the job to done.
 */
describeBrowser('subscriber data', () => {
  let browser: Browser;
  let page: Page;
  let owner: { email: string; reply: LoginReplyBody };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Esi Subscriber', { plan: 'ENTERPRISE' });
    const appId = await createUssdApp(owner.reply.token, { appName: 'Erasable', description: 'Asks a name', shortCode: '*920*531#' });
    const bye = await createMenu(owner.reply.token, { appId, userDefinedName: 'bye', displayText: 'Bye', terminate: true });
    await createMenu(owner.reply.token, {
      appId,
      userDefinedName: 'name',
      displayText: 'Your name?',
      isFirst: true,
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: bye }],
    });
    expect(await dial(appId, 'sd-1', '233241777001', '')).toContain('Your name?');
    expect(await dial(appId, 'sd-1', '233241777001', 'Adjoa')).toContain('Bye');
    page = await openPage(browser, WIDE);
    await storeSession(page, owner.reply);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('looks a number up from Contacts, then erases it with a reason and the number typed again', async () => {
    await page.goto('/contacts');
    await page.getByRole('link', { name: 'Subscriber data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscriber data' }).waitFor();
    // A national number without its country is refused, said on the screen.
    await page.getByLabel('Phone number').fill('0241 777 001');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.getByTestId('form-alert').textContent()).toContain('Enter a phone number with its country code');
    await page.getByPlaceholder('None').click();
    await page.getByRole('option', { name: 'Ghana' }).click();
    await page.getByRole('button', { name: 'Look up' }).click();
    const counts = page.getByTestId('subscriber-data-counts');
    await counts.waitFor();
    expect(await page.getByTestId('subscriber-data-summary').textContent()).toContain('+233241777001');
    expect(await counts.locator('tr', { hasText: 'Sessions' }).textContent()).toContain('1');
    await screenshotTop(page, 'subscriber-data-desktop');
    await page.setViewportSize(PHONE);
    await screenshotTop(page, 'subscriber-data-phone');
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(WIDE);

    await page.getByRole('button', { name: 'Erase…' }).click();
    const erase = page.getByRole('button', { name: 'Erase for good' });
    await page.getByLabel('Why (kept in the audit log)').fill('The caller asked on 30 November');
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel('Type +233241777001 to confirm').fill('+233241777001');
    await erase.click();
    const job = page.locator('[data-testid="subscriber-erasure"][data-status="done"]');
    await job.waitFor();
    expect(await job.textContent()).toContain('Erased: +233•••••••01');
    expect(await job.textContent()).toContain('The caller asked on 30 November');
    await screenshotTop(page, 'subscriber-data-erased-desktop');

    // Looked up again: nothing is kept.
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => page.getByTestId('subscriber-data-summary').textContent())
      .toContain('Nothing is kept about this number in your apps and bots.');
  });
});
