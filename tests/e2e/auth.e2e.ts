import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, pathOf, registerAccount, storeSession, waitForPath } from './accounts';
import { baseUrl, DESKTOP, describeBrowser, launchBrowser, openPage, PHONE, screenshot, screenshotViewport, signIn } from './browser';
import { E2E_USERS } from './fixtures';
import { findFreePort } from '../support/free-port';
import { createTestApp, seedUser } from '../support/test-app';

/** Fills the login form and presses Log in. */
async function logInWith(page: Page, credentials: { email: string; password: string }) {
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describeBrowser('auth screens', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the server message in a dismissible warning box when the password is wrong', async () => {
    const page = await openPage(browser);
    await page.goto('/login');
    await page.getByLabel('Email').fill(E2E_USERS.private.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByTestId('form-alert');
    await expect(alert.textContent()).resolves.toContain('Invalid email or password');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await alert.getByRole('button', { name: 'Dismiss message' }).click();
    await alert.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('asks for both fields before calling the server', async () => {
    const page = await openPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('form-alert').textContent()).resolves.toContain('Please fill all the fields');
    await page.context().close();
  });

  it('logs in and lands on /get-started with the greeting', async () => {
    const page = await openPage(browser);
    await page.goto('/login');
    await page.getByLabel('Email').fill(E2E_USERS.private.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_USERS.private.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await waitForPath(page, '/get-started');
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Hello, Ama');
    await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('userType'), localStorage.getItem('uuid') !== null])).toEqual(['user', true]);
    await page.context().close();
  });

  it('signs in while the platform sign-in ceiling is used up: the form solves the proof of work by itself', async () => {
    // A server of its own whose ceiling (1 a minute) one wrong sign-in uses up.
    const port = await findFreePort();
    const origin = `http://127.0.0.1:${port}`;
    const own = await createTestApp({ PORT: port, PUBLIC_URL: origin, LOGIN_GLOBAL_RATE_LIMIT: 1 });
    try {
      await own.app.listen({ port, host: '127.0.0.1' });
      const { email, password } = await seedUser(own);
      const spray = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'sprayed@example.com', password: 'Summer2024!' }),
      });
      expect(spray.status).toBe(429);
      const context = await browser.newContext({ viewport: DESKTOP, baseURL: origin });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await waitForPath(page, '/get-started');
      // The browser is now a known device of the account: its cookie is HttpOnly, for the API's paths only.
      const [cookie] = await context.cookies(`${origin}/api/auth/login`);
      expect(cookie).toMatchObject({ name: 'df_device', httpOnly: true, sameSite: 'Strict', path: '/api' });
      await context.close();
    } finally {
      await own.close();
    }
  });

  it('links the login page to register and forgot password', async () => {
    const page = await openPage(browser);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await waitForPath(page, '/register');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await waitForPath(page, '/forgot-password');
    await page.context().close();
  });

  it('merchant login: its texts, empty fields, non-merchant refused, merchant signed in', async () => {
    const page = await openPage(browser);
    await page.goto('/merchant/login');
    await page.getByRole('heading', { name: 'Login As Merchant' }).waitFor();
    await page.getByRole('link', { name: /Forgot password/ }).waitFor();
    expect(await page.getByRole('link', { name: /Forgot password/ }).getAttribute('href')).toBe('/forgot-password');
    await page.getByRole('button', { name: 'SIGN IN' }).click();
    await expect(page.getByTestId('form-alert').textContent()).resolves.toContain('Please fill all the fields');

    await page.getByLabel('Email').fill(E2E_USERS.private.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_USERS.private.password);
    await page.getByRole('button', { name: 'SIGN IN' }).click();
    await page.getByText('This account is not a merchant account').waitFor();

    await page.getByLabel('Email').fill(E2E_USERS.merchant.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_USERS.merchant.password);
    await page.getByRole('button', { name: 'SIGN IN' }).click();
    await waitForPath(page, '/get-started');
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Hello, Kofi');
    await page.context().close();
  });

  it('registers a new account and signs it in', async () => {
    const page = await openPage(browser);
    const email = `new-${Date.now()}@e2e.test`;
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Full name is required').waitFor();
    await page.getByLabel('Full name').fill('Abena Owusu');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mobile number').fill('233209876543');
    await page.getByLabel('Company name').fill('Owusu Farms');
    await page.getByLabel(/^Password/).fill('12345');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Password must be at least 6 characters long.').waitFor();
    await page.getByLabel(/^Password/).fill('abena-pass-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitForPath(page, '/get-started');
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Hello, Abena');

    // The same email again is refused with the server's message in the warning box.
    const again = await openPage(browser);
    await again.goto('/register');
    await again.getByLabel('Full name').fill('Abena Owusu');
    await again.getByLabel('Email').fill(email);
    await again.getByLabel('Mobile number').fill('233209876543');
    await again.getByLabel(/^Password/).fill('abena-pass-1');
    await again.getByRole('button', { name: 'Create account' }).click();
    await expect(again.getByTestId('form-alert').textContent()).resolves.toContain('An account with this email already exists');
    await page.context().close();
    await again.context().close();
  });

  it('register: an empty email says it is required, a malformed one that it is invalid', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await openPage(browser, viewport);
      await page.goto('/register');
      await page.getByLabel('Full name').fill('Esi Badu');
      await page.getByLabel('Mobile number').fill('233209876500');
      await page.getByLabel(/^Password/).fill('esi-pass-12');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      expect(await page.getByText('Invalid email', { exact: true }).count()).toBe(0);
      await screenshot(page, `auth-register-email-required-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await page.getByLabel('Email').fill('esi.example.com');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Invalid email', { exact: true }).waitFor();
      expect(await page.getByText('Email is required', { exact: true }).count()).toBe(0);
      await page.context().close();
    }
  });

  it('forgot password answers the same for a known and an unknown email', async () => {
    const page = await openPage(browser);
    const messages: string[] = [];
    for (const email of [E2E_USERS.private.email, `nobody-${Date.now()}@e2e.test`]) {
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      const alert = page.getByTestId('form-alert');
      await alert.waitFor();
      messages.push((await alert.textContent()) ?? '');
    }
    expect(messages[0]).toContain('If an account exists for this email');
    expect(messages[1]).toBe(messages[0]);
    await page.context().close();
  });

  it('reset password checks the fields and shows the server message for a bad link', async () => {
    const page = await openPage(browser);
    await page.goto('/reset-password/not-a-real-token');
    await page.getByLabel('New password').fill('abc');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('New password must be at least 6 characters long.').waitFor();
    await page.getByLabel('New password').fill('         ');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('New password must have at least 6 characters other than spaces.').waitFor();
    await page.getByLabel('New password').fill('abcdef1');
    await page.getByLabel('Confirm password').fill('abcdef2');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('New password and confirmation do not match.').waitFor();
    await page.getByLabel('Confirm password').fill('abcdef1');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByTestId('form-alert').textContent()).resolves.toContain('invalid or has expired');
    await page.context().close();
  });

  it('logout shows Logging out..., clears the session and goes to /login', async () => {
    const page = await openPage(browser);
    const { reply } = await registerAccount('Logout Tester');
    await storeSession(page, reply);
    await page.goto('/get-started');
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.getByText('Logging out...').waitFor();
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);
    // The server revoked the token, not only the browser forgetting it.
    const me = await fetch(new URL('/api/auth/me', page.url()), { headers: { authorization: `Bearer ${reply.token}` } });
    expect(me.status).toBe(401);
    await page.context().close();
  });

  it('logout of a merchant goes to /merchant/login', async () => {
    const page = await openPage(browser);
    await signIn(page, 'merchant');
    await page.goto('/logout');
    await page.getByText('Logging out...').waitFor();
    await waitForPath(page, '/merchant/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.context().close();
  });

  it('sends a visitor without a token from /get-started to /login', async () => {
    const page = await openPage(browser);
    await page.goto('/get-started');
    await waitForPath(page, '/login');
    await page.goto('/account-profile');
    await waitForPath(page, '/login');
    await page.context().close();
  });

  it('a signed-out visit to a console page comes back to it after sign-in; another site is never a place to go back to', async () => {
    const { email, password } = await registerAccount('Yaw Return');
    const page = await openPage(browser);
    await page.goto('/account-billing?tab=history');
    await waitForPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/account-billing?tab=history');
    await logInWith(page, { email, password });
    await waitForPath(page, '/account-billing');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('history');
    await page.getByRole('tab', { name: 'Payment History', selected: true }).waitFor();
    await page.context().close();

    for (const next of ['//evil.example/account-billing', 'https://evil.example/', '/\\evil.example', '/\t/evil.example', '/logout']) {
      const other = await openPage(browser);
      await other.goto(`/login?next=${encodeURIComponent(next)}`);
      await logInWith(other, { email, password });
      await waitForPath(other, '/get-started');
      expect(new URL(other.url()).origin, next).toBe(new URL(baseUrl()).origin);
      await other.context().close();
    }
  });

  it('two-factor sign-in comes back to the page asked for after the code', async () => {
    const account = await registerAccount('Esi Twofactor');
    const setup = await callApi<{ secret: string }>(account.reply.token, '/api/auth/two-factor/setup', {});
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.secret) });
    const enabled = await callApi(account.reply.token, '/api/auth/two-factor/enable', { code: totp.generate() });
    expect(enabled.status).toBe('00');
    const page = await openPage(browser);
    await page.goto('/account-profile');
    await waitForPath(page, '/login');
    await logInWith(page, account);
    // The code of the next step: the enrolment used this one's.
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/account-profile');
    await page.context().close();
  });

  it("Pricing's Start Now, signed out: registering on the way goes on to that plan's payment, for one period as priced", async () => {
    for (const [viewport, width] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openPage(browser, viewport);
      await page.goto('/pricing');
      await page.getByRole('link', { name: 'Start Now with Basic 3 months' }).click();
      await waitForPath(page, '/login');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await waitForPath(page, '/register');
      expect(new URL(page.url()).searchParams.get('next')).toBe('/account-billing?plan=BASIC-3');
      await page.getByLabel('Full name').fill('Kwesi Pricing');
      await page.getByLabel('Email').fill(`pricing-${width}-${Date.now()}@e2e.test`);
      await page.getByLabel('Mobile number').fill('233209876501');
      await page.getByLabel(/^Password/).fill('kwesi-pass-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await waitForPath(page, '/account-billing');
      const dialog = page.getByRole('dialog', { name: 'Make Payment' });
      await expect(dialog.getByTestId('confirm-plan').textContent()).resolves.toBe('Basic 3 months');
      await expect(dialog.getByTestId('confirm-amount').textContent()).resolves.toBe('$50 USD');
      // The plan parameter is used once: a reload shows the page without asking again.
      expect(new URL(page.url()).search).toBe('');
      await screenshotViewport(page, `auth-pricing-start-now-billing-${width}`);
      await page.context().close();
    }
  });

  it('Clone on the public home, signed out: signing in on the way clones the template and lands on the copy', async () => {
    const { email, password, reply } = await registerAccount('Adjoa Cloner');
    const page = await openPage(browser);
    await page.goto('/');
    await page.getByRole('link', { name: 'Clone Community Poll' }).click();
    await waitForPath(page, '/register');
    // The register screen's own link to log in keeps the way back (the public header's is a plain /login).
    await page
      .locator(`a[href="/login?next=${encodeURIComponent(`/app-templates?clone=${await templateId(page, 'Community Poll')}`)}"]`)
      .click();
    await waitForPath(page, '/login');
    await page.getByRole('heading', { name: 'Log in to Dialflow' }).waitFor();
    await logInWith(page, { email, password });
    await page.waitForURL((url) => url.pathname.startsWith('/app/design/'), { timeout: 15_000 });
    const apps = (await callApi<Array<{ appId: string; appName: string }>>(reply.token, '/api/getAllApps')).data;
    expect(apps.map((a) => a.appName)).toEqual(['Community Poll']);
    expect(pathOf(page)).toBe(`/app/design/${apps[0]!.appId}`);
    // The designer's code may still be loading while the address has changed.
    await page.getByText('Menu Design View').waitFor();
    await page.getByRole('heading', { name: 'Community Poll', level: 1 }).waitFor();
    await screenshot(page, 'auth-clone-after-sign-in-designer-desktop');

    // A link to the same request, without the press on Clone, only opens the dialog: nothing is copied unasked.
    await page.goto(`/app-templates?clone=${encodeURIComponent(await templateId(page, 'Community Poll'))}`);
    const dialog = page.getByRole('dialog', { name: 'Clone Community Poll' });
    await dialog.getByRole('button', { name: 'Clone' }).waitFor();
    expect((await callApi<unknown[]>(reply.token, '/api/getAllApps')).data).toHaveLength(1);
    await page.context().close();
  });

  it('sends the user to /login when the server no longer accepts the stored token', async () => {
    const page = await openPage(browser);
    const { reply } = await registerAccount('Stale Token');
    await storeSession(page, { ...reply, token: 'revoked-or-made-up-token' });
    await page.goto('/get-started');
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.context().close();
  });
});

/** A featured template's id, as the gallery call answers it. */
async function templateId(page: Page, appName: string): Promise<string> {
  const reply = (await (await fetch(new URL('/featuredTemplates', page.url()))).json()) as {
    data: Array<{ appId: string; appName: string }>;
  };
  return reply.data.find((t) => t.appName === appName)!.appId;
}
