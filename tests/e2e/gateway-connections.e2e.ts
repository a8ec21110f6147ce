import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GATEWAY_CONNECTION_MESSAGES } from '../../src/shared/gateway-profiles';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { findViolations } from './axe';
import { baseUrl, capture, closeToasts, describeBrowser, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * An app's gateways on Application Settings (docs/runtime.md, "Gateway profiles"): connect Nalo, a limit wider than
 * Nalo's refused at its field and nothing saved, a narrower budget saved; after a reload it is there, and the
 * designer's counter holds the menu to Nalo's 120 characters and says why.
 */
const LAPTOP = { width: 1280, height: 800 };
const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });
const section = (page: Page) => page.getByRole('group', { name: 'Gateways' });

/** The section (or the designer's preview) alone, and the screen around it as a person sees it, once nothing moves. */
async function shot(target: Locator, page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await target.scrollIntoViewIfNeeded();
  await waitForAnimations(page);
  await capture(target, name, { animations: 'disabled' });
  await capture(page, `${name}-screen`, { animations: 'disabled' });
}

describeBrowser('gateway connections', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';
  const screen = 'Welcome to Ama Trips\n1. Buy a ticket\n2. My tickets';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Boateng');
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Ama Trips',
      description: 'Bus tickets',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*67#',
      useTemplateTag: false,
    });
    if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
    appId = app.data.appId;
    const menu = await callApi(owner.reply.token, '/api/createMenu', {
      appId,
      userDefinedName: 'home',
      displayText: screen,
      isFirst: true,
    });
    if (menu.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(menu)}`);
    // A session through Hubtel on the test URL, the caller hanging up: the app has had Hubtel's traffic.
    for (const Type of ['Initiation', 'Release']) {
      const hop = { SessionId: 'HB-e2e', Type, Message: Type === 'Initiation' ? '*920*67#' : '', ServiceCode: '920', Operator: 'mtn' };
      const res = await fetch(`${baseUrl()}/ussd/${appId}/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...hop, ClientState: '', Mobile: '233200000001', Sequence: 1, Platform: 'USSD' }),
      });
      if (!res.ok) throw new Error(`Hubtel hop failed: ${res.status} ${await res.text()}`);
    }
    // The session's record is written after its last hop has been answered.
    for (let tries = 0; tries < 50; tries++) {
      const traffic = await callApi<unknown[]>(owner.reply.token, `/api/getAppGatewayTraffic/${appId}`);
      if (traffic.data?.length) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('The Hubtel session was never recorded');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('connects Nalo on Application Settings: a wider limit refused at its field, a narrower budget saved and shown again', async () => {
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app-settings/${appId}`);
    await visible(section(page));
    const line = page.getByTestId('gateway-design-limit');
    expect(await line.textContent()).toBe(
      'Connect the gateways your provider uses: the designer then holds menus to the strictest of them.',
    );
    const hint = section(page).getByTestId('gateway-traffic-hubtel');
    await visible(hint);
    expect(await hint.textContent()).toContain('Hubtel sent this app 1 session in the last 30 days but is not connected.');

    await page.getByRole('combobox', { name: 'Connect a gateway' }).click();
    await page.getByRole('option', { name: 'Nalo', exact: true }).click();
    const nalo = section(page).getByRole('group', { name: 'Nalo' });
    await visible(nalo.getByText('Nalo · 120 characters · waits 10 s'));
    expect(await line.textContent()).toBe('The designer holds menus to the strictest connected gateway (now: 120 characters, Nalo).');

    const limit = nalo.getByRole('textbox', { name: 'Screen limit (characters)' });
    await limit.fill('150');
    const wider = GATEWAY_CONNECTION_MESSAGES.screenWider('Nalo', 120);
    await visible(nalo.getByText(wider));
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: wider }));
    const unsaved = await callApi<{ gatewayConnections: unknown[] }>(owner.reply.token, `/api/getAppByAppId/${appId}`);
    expect(unsaved.data?.gatewayConnections).toEqual([]);
    await shot(section(page), page, 'gateways-settings-error-desktop');

    await limit.fill('');
    await nalo.getByRole('textbox', { name: 'Response budget (seconds)' }).fill('6');
    expect(await limit.getAttribute('aria-invalid')).not.toBe('true');
    expect(await findViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'App updated successfully' }));
    const saved = await callApi<{ gatewayConnections: unknown[] }>(owner.reply.token, `/api/getAppByAppId/${appId}`);
    expect(saved.data?.gatewayConnections).toEqual([{ gateway: 'nalo', screenLimit: null, budgetMs: 6000 }]);

    await page.goto(`/app-settings/${appId}`);
    await visible(section(page).getByRole('group', { name: 'Nalo' }));
    expect(await nalo.getByRole('textbox', { name: 'Response budget (seconds)' }).inputValue()).toBe('6');
    expect(await limit.inputValue()).toBe('');
    await shot(section(page), page, 'gateways-settings-desktop');

    // The hint's Connect adds Hubtel (160 characters: Nalo stays the strictest), saved with the rest.
    await hint.getByRole('button', { name: 'Connect Hubtel' }).click();
    await visible(section(page).getByRole('group', { name: 'Hubtel' }).getByText('Hubtel · 160 characters · waits 10 s'));
    expect(await hint.count()).toBe(0);
    expect(await line.textContent()).toBe('The designer holds menus to the strictest connected gateway (now: 120 characters, Nalo).');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'App updated successfully' }));
    const both = await callApi<{ gatewayConnections: unknown[] }>(owner.reply.token, `/api/getAppByAppId/${appId}`);
    expect(both.data?.gatewayConnections).toEqual([
      { gateway: 'nalo', screenLimit: null, budgetMs: 6000 },
      { gateway: 'hubtel', screenLimit: null, budgetMs: null },
    ]);
    await page.context().close();

    const phone = await openPage(browser, PHONE);
    await storeSession(phone, owner.reply);
    await phone.goto(`/app-settings/${appId}`);
    await visible(section(phone).getByRole('group', { name: 'Nalo' }));
    await shot(section(phone), phone, 'gateways-settings-phone');
    await phone.context().close();
  });

  it("the designer's counter holds the menu to Nalo's 120 characters, and names Nalo", async () => {
    for (const [viewport, name] of [
      [LAPTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openPage(browser, viewport);
      await storeSession(page, owner.reply);
      await page.goto(`/app/design/${appId}`);
      await page.getByRole('button', { name: 'Edit home', exact: true }).click();
      const preview = page.getByTestId('menu-edit-form').getByTestId('menu-preview');
      await visible(preview);
      await expect.poll(() => preview.getByTestId('menu-char-count').textContent()).toBe(`${screen.length} / 120 characters`);
      expect(await preview.getByTestId('menu-limit-gateway').textContent()).toBe(
        'Nalo carries 120 characters a screen: the strictest gateway this app is connected to.',
      );
      await shot(preview, page, `gateways-designer-counter-${name}`);
      await page.context().close();
    }
  });
});
