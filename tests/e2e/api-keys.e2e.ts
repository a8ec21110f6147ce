import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { baseUrl, closeToasts, describeBrowser, launchBrowser, openPage, screenshotTop, screenshotViewport } from './browser';

/**
 * Account Settings, API keys (docs/api-keys.md): a key is created and shown once, works from outside the
 * browser (this test's own fetch) for a read and a write, shows its last use, and once revoked is refused.
 */
describeBrowser('API keys', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kwame Ofori', { plan: 'ENTERPRISE' });
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Ofori Deliveries',
      description: 'Track a parcel',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*71#',
    });
    appId = app.data.appId;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const callWithKey = (key: string, path: string, body?: unknown) =>
    fetch(`${baseUrl()}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('creates a key shown once, uses it from outside the console, sees its last use, and revokes it', async () => {
    const page = await openPage(browser);
    await storeSession(page, owner.reply);
    await page.goto('/account-profile');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('Please give the key a name.').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('GitHub deploy');
    await dialog.getByRole('radio', { name: 'Write' }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const field = dialog.getByRole('textbox', { name: 'API key' });
    await field.waitFor();
    const key = await field.inputValue();
    expect(key).toMatch(/^dfk_[A-Za-z0-9_-]{43}$/);
    await dialog.getByText('you will not see it again').waitFor();
    await dialog.getByRole('button', { name: 'Copy API key' }).waitFor();
    await screenshotViewport(page, 'api-keys-created-desktop');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // The key works from anywhere: a read and a write, as the account.
    const apps = await (await callWithKey(key, '/api/getAllApps')).json();
    expect(apps.data.map((a: { appId: string }) => a.appId)).toEqual([appId]);
    const menu = await (
      await callWithKey(key, '/api/createMenu', { appId, userDefinedName: 'track', displayText: 'Enter your parcel code' })
    ).json();
    expect(menu.status).toBe('00');
    expect((await callWithKey(key, '/api/auth/me')).status).toBe(403);

    await page.reload();
    await page.getByRole('tab', { name: 'API keys' }).click();
    const row = page.getByTestId('api-key-table').getByRole('row').filter({ hasText: 'GitHub deploy' });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain(`${key.slice(0, 8)}…`);
    expect(text).toContain('write');
    expect(text).not.toContain('Never');
    expect(text).not.toContain(key.slice(8));
    await screenshotTop(page, 'api-keys-list-desktop');

    await row.getByRole('button', { name: 'Revoke GitHub deploy' }).click();
    await page.getByRole('dialog', { name: 'Revoke GitHub deploy' }).getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();
    await closeToasts(page);
    expect((await callWithKey(key, '/api/getAllApps')).status).toBe(401);
    await screenshotTop(page, 'api-keys-revoked-desktop');
    await page.context().close();
  });
});
