import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerAccount, storeSession } from './accounts';
import { baseUrl, describeBrowser, launchBrowser, openPage, PHONE, screenshot } from './browser';

const getStatus = async (token: string) =>
  (await fetch(`${baseUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

const passwordInput = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}`));

async function fillPasswords(page: Page, oldPassword: string, newPassword: string, confirmPassword: string) {
  await passwordInput(page, 'Old Password').fill(oldPassword);
  await passwordInput(page, 'New Password').fill(newPassword);
  await passwordInput(page, 'Confirm Password').fill(confirmPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
}

describeBrowser('account profile', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the profile read-only, the Change Password, Two-factor, API keys and Retention tabs', async () => {
    const page = await openPage(browser);
    const { email, reply } = await registerAccount('Efua Asante');
    await storeSession(page, reply);
    await page.goto('/account-profile');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Change Password', 'Two-factor', 'API keys', 'Retention']);
    const details = await page.getByTestId('profile-details').textContent();
    for (const text of ['Efua Asante', email, '233244000111', 'Asante Foods', 'Private user']) expect(details).toContain(text);
    expect(await page.getByTestId('profile-details').locator('input').count()).toBe(0);
    await page.context().close();
  });

  it('checks the three fields with their messages', async () => {
    const page = await openPage(browser);
    const { reply } = await registerAccount();
    await storeSession(page, reply);
    await page.goto('/account-profile');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Old password is required.').waitFor();
    await page.getByText('New password must be at least 6 characters long.').waitFor();

    await fillPasswords(page, 'first-pass-1', '12345', '12345');
    await page.getByText('New password must be at least 6 characters long.').waitFor();
    expect(await page.getByText('Old password is required.').count()).toBe(0);

    await fillPasswords(page, 'first-pass-1', 'second-pass-2', 'second-pass-3');
    await page.getByText('New password and confirmation do not match.').waitFor();

    // The server's rules, checked in the form with the same shared schema.
    await fillPasswords(page, 'first-pass-1', '        ', '        ');
    await page.getByText('New password must have at least 6 characters other than spaces.').waitFor();
    await fillPasswords(page, 'first-pass-1', 'first-pass-1', 'first-pass-1');
    await page.getByText('New password must be different from the old password.').waitFor();
    await page.context().close();
  });

  it('shows the server message for a wrong old password and changes nothing', async () => {
    const page = await openPage(browser);
    const { reply } = await registerAccount();
    await storeSession(page, reply);
    await page.goto('/account-profile');
    await fillPasswords(page, 'wrong-old-pass', 'second-pass-2', 'second-pass-2');
    await page.getByText('Old password is incorrect.').waitFor();
    expect(await getStatus(reply.token)).toBe(200);
    await page.context().close();
  });

  it('changes the password, shows the toast and keeps the session on the new token', async () => {
    const page = await openPage(browser);
    const { email, reply } = await registerAccount();
    await storeSession(page, reply);
    await page.goto('/account-profile');
    await fillPasswords(page, 'first-pass-1', 'second-pass-2', 'second-pass-2');
    await page.getByText('Password changed successfully.').waitFor();
    const storedToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(storedToken).not.toBe(reply.token);
    expect(await getStatus(reply.token)).toBe(401);
    expect(await getStatus(storedToken!)).toBe(200);
    expect(await passwordInput(page, 'Old Password').inputValue()).toBe('');
    // Still signed in: the console keeps working on the new token.
    await page.goto('/get-started');
    await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
    const login = await fetch(`${baseUrl()}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'second-pass-2' }),
    });
    expect(login.status).toBe(200);
    await page.context().close();
  });

  it('reports a network failure with its text', async () => {
    const page = await openPage(browser);
    const { reply } = await registerAccount();
    await storeSession(page, reply);
    await page.route('**/api/changePassword', (route) => route.abort('failed'));
    await page.goto('/account-profile');
    await fillPasswords(page, 'first-pass-1', 'second-pass-2', 'second-pass-2');
    await page.getByText(/^An error occurred\. Please try again!! /).waitFor();
    await page.context().close();
  });
  it('shows how long each kind of data is kept, and keeps some for fewer days; 0 or past the bound is refused', async () => {
    const { reply } = await registerAccount('Kojo Boateng');
    for (const [viewport, name] of [
      [{ width: 1280, height: 800 }, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openPage(browser, viewport);
      await storeSession(page, reply);
      await page.goto('/account-profile?tab=retention');
      // A new account is on the trial: 30 days of everything.
      await page.getByTestId('retention-kept-logs').getByText('Kept 30 days').waitFor();
      await screenshot(page, `account-retention-${name}`);
      await page.context().close();
    }

    const page = await openPage(browser);
    await storeSession(page, reply);
    await page.goto('/account-profile?tab=retention');
    const logs = page.getByRole('textbox', { name: 'Keep log lines for (days)' });
    await logs.fill('0');
    await page.getByText('At least 1 day.').waitFor();
    await logs.fill('400');
    await page.getByText('At most 30 days on this account.').waitFor();
    await screenshot(page, 'account-retention-refused-desktop');
    expect(await page.getByRole('button', { name: 'Save retention' }).isDisabled()).toBe(true);
    await logs.fill('14');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByTestId('retention-kept-logs').getByText('Kept 14 days').waitFor();
    // Kept after a reload: the account's setting, not the form's.
    await page.reload();
    await page.getByTestId('retention-kept-logs').getByText('Kept 14 days').waitFor();
    expect(await page.getByRole('textbox', { name: 'Keep log lines for (days)' }).inputValue()).toBe('14');
    expect(await page.getByTestId('retention-kept-sessions').textContent()).toBe('Kept 30 days');
    await page.context().close();
  });
});
