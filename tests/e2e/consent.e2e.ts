import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, describeBrowser, launchBrowser, openPage, PHONE, screenshotTop, waitForAnimations } from './browser';

/**
 * A rule's consent choice in the designer (docs/contacts.md, "Consent"): "1. Yes" opts the caller in to WhatsApp,
 * "2. No" opts them out of SMS; saved with the menu and shown again when it is reopened.
 */
const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });
const form = (page: Page) => page.getByTestId('menu-edit-form');
const LAPTOP = { width: 1280, height: 800 };

async function createOffersApp(token: string): Promise<string> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: 'Ama Offers',
    description: 'Offers',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*71#',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const { appId } = app.data;
  const menu = async (body: Record<string, unknown>) => {
    const reply = await callApi(token, '/api/createMenu', { appId, ...body });
    if (reply.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId as string;
  };
  const done = await menu({ userDefinedName: 'done', displayText: 'Noted.', terminate: true });
  await menu({
    userDefinedName: 'offers',
    isFirst: true,
    displayText: 'Offers by WhatsApp?\n1. Yes\n2. No',
    switchOperations: [
      { operator: 'eq', compareVal: '1', action: 'goto', actionParam: done },
      { operator: 'eq', compareVal: '2', action: 'goto', actionParam: done },
    ],
  });
  return appId;
}

describeBrowser("a rule's consent in the designer", () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Owusu');
    appId = await createOffersApp(owner.reply.token);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openNavigation = async (page: Page) => {
    await page.goto(`/app/design/${appId}`);
    await page.getByRole('button', { name: 'Edit offers', exact: true }).click();
    await visible(form(page).getByText('Edit menu offers', { exact: true }));
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
  };

  it('records an opt in or out on a rule, saved with the menu and shown again', async () => {
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);
    await openNavigation(page);
    const rule1 = form(page).getByRole('combobox', { name: 'Rule 1 consent' });
    await visible(rule1);
    expect(await rule1.inputValue()).toBe('No consent change');
    await rule1.click();
    await page.getByRole('option', { name: 'Opt in to WhatsApp' }).click();
    await form(page).getByRole('combobox', { name: 'Rule 2 consent' }).click();
    await page.getByRole('option', { name: 'Opt out of SMS' }).click();
    await waitForAnimations(page);
    await screenshotTop(page, 'consent-rules-desktop');
    await page.setViewportSize(PHONE);
    await form(page).getByRole('combobox', { name: 'Rule 2 consent' }).scrollIntoViewIfNeeded();
    await waitForAnimations(page);
    await capture(page, 'consent-rules-phone', { animations: 'disabled' });
    await page.setViewportSize(LAPTOP);
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });

    const menus = await callApi<Array<{ userDefinedName: string; switchOperations: Array<{ consent?: unknown }> }>>(
      owner.reply.token,
      `/api/getAllMenus/${appId}`,
    );
    const offers = menus.data?.find((m) => m.userDefinedName === 'offers');
    expect(offers?.switchOperations.map((r) => r.consent)).toEqual([
      { channel: 'whatsapp', status: 'in' },
      { channel: 'sms', status: 'out' },
    ]);

    await openNavigation(page);
    await visible(form(page).getByRole('combobox', { name: 'Rule 1 consent' }));
    expect(await form(page).getByRole('combobox', { name: 'Rule 1 consent' }).inputValue()).toBe('Opt in to WhatsApp');
    expect(await form(page).getByRole('combobox', { name: 'Rule 2 consent' }).inputValue()).toBe('Opt out of SMS');
    // Back to none: the rule saves without a consent.
    await form(page).getByRole('combobox', { name: 'Rule 2 consent' }).click();
    await page.getByRole('option', { name: 'No consent change' }).click();
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });
    const after = await callApi<Array<{ userDefinedName: string; switchOperations: Array<{ consent?: unknown }> }>>(
      owner.reply.token,
      `/api/getAllMenus/${appId}`,
    );
    expect(after.data?.find((m) => m.userDefinedName === 'offers')?.switchOperations.map((r) => r.consent)).toEqual([
      { channel: 'whatsapp', status: 'in' },
      undefined,
    ]);
    await page.context().close();
  });
});
