import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerAccount, storeSession, waitForPath, type LoginReplyBody } from './accounts';
import { describeBrowser, launchBrowser, openPage, screenshotTop } from './browser';

/** The code an authenticator app shows `steps` 30-second steps from now (the server runs on the same clock). */
const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/**
 * Two-factor sign-in (docs/security.md): a user enrols in Account Settings with the key an app would scan, gets
 * recovery codes, and the next sign-in asks for a code after the password.
 */
describeBrowser('two-factor sign-in', () => {
  let browser: Browser;
  let account: { email: string; password: string; reply: LoginReplyBody };

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerAccount('Akosua Mensah');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('enrols with the key and a code, then signs in with the password and a code', async () => {
    const page = await openPage(browser);
    await storeSession(page, account.reply);
    await page.goto('/account-profile?tab=two-factor');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await page.getByRole('textbox', { name: '2. Enter the six-digit code the app shows' }).fill(codeAt(secret, 0));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    expect((await codes.textContent())!.match(/[a-z2-7]{4}(-[a-z2-7]{4}){3}/g)).toHaveLength(10);
    await screenshotTop(page, 'two-factor-recovery-codes-desktop');
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByText('10 of 10 recovery codes left').waitFor();

    await page.goto('/logout');
    await waitForPath(page, '/login');
    await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    const code = page.getByRole('textbox', { name: 'Authentication code' });
    await code.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code');
    await screenshotTop(page, 'two-factor-login-step-desktop');
    // The code of the next step: the enrolment used this one's.
    await code.fill(codeAt(secret, 1));
    await page.getByRole('checkbox', { name: 'Trust this device for 30 days' }).check();
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/get-started');
    const deviceTokens = await page.evaluate(() => localStorage.getItem('dialflow.deviceTokens'));
    expect(Object.keys(JSON.parse(deviceTokens ?? '{}'))).toEqual([account.email]);

    await page.goto('/account-profile?tab=two-factor');
    await page.getByTestId('remembered-devices').getByRole('row').nth(1).waitFor();
    await page.close();
  });
});
