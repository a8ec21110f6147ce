import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, loginByApi, storeSession } from './accounts';
import {
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshotTop,
  screenshotViewport,
} from './browser';
import { E2E_USERS } from './fixtures';

/**
 * WhatsApp message templates end to end on a simulator number (docs/whatsapp-templates.md): the Templates tab of a
 * bot's settings, empty; a new template written with its variables' examples and previewed live as WhatsApp shows
 * it (a bad name refused with Meta's rule first); saved APPROVED; previewed from its row; marked REJECTED for
 * testing; deleted. Then a list that fails to load, and the screen at both widths.
 */

const DESKTOP = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const toast = (page: Page, text: string | RegExp) => visible(page.locator('.mantine-Notification-root').filter({ hasText: text }).first());
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

describeBrowser('WhatsApp templates', () => {
  let browser: Browser;
  let token = '';
  let appId = '';
  let linkId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    token = (await loginByApi(E2E_USERS.chatbot)).token;
    appId = (
      await callApi<{ appId: string }>(token, '/api/chatbot/app/create', {
        appName: 'Akosua Orders',
        description: 'Orders',
        botType: 'whatsapp',
      })
    ).data!.appId;
    // A simulator number, linked as its phone page would: the QR's address holds the page's secret.
    linkId = (await callApi<{ linkId: string }>(token, '/api/chatbot/whatsapp/link', { chatBotAppId: appId })).data!.linkId;
    const status = await callApi<{ qrCode: string }>(token, `/api/chatbot/whatsapp/link-status/${linkId}`);
    const secret = new URL(status.data!.qrCode).searchParams.get('secret');
    const scanned = await callApi(token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '233301112222' });
    expect(scanned.status).toBe('00');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openTemplates(viewport = DESKTOP): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, await loginByApi(E2E_USERS.chatbot));
    await page.goto(`/whatsapp-bot/settings/${appId}?tab=templates`);
    return page;
  }

  it('a template written with a live preview, saved APPROVED, previewed, marked REJECTED and deleted', async () => {
    const page = await openTemplates();
    await visible(page.getByTestId('templates-empty').getByText('No templates yet'));
    await screenshotTop(page, 'templates-empty-desktop');

    await page.getByTestId('templates-empty').getByRole('button', { name: 'New Template' }).click();
    const form = dialog(page, 'New Template');
    await visible(form);
    await form.getByRole('textbox', { name: 'Name' }).fill('Order Shipped');
    await form.getByRole('textbox', { name: 'Header' }).fill('Order {{1}}');
    await form.getByRole('textbox', { name: 'Body' }).fill('Hi {{1}}, your order of {{2}} is on its way.');
    await form.getByRole('textbox', { name: 'Footer' }).fill('Akosua Orders');
    await form.getByRole('button', { name: 'Add button' }).click();
    await form.getByRole('textbox', { name: 'Button 1' }).fill('Track order');
    const preview = form.getByTestId('template-preview');
    // Until a variable has its example, the preview shows where it goes.
    expect(await preview.textContent()).toContain('Hi {{1}}, your order of {{2}} is on its way.');
    await form.getByRole('textbox', { name: '{{1}} in the header' }).fill('#4521');
    await form.getByRole('textbox', { name: '{{1}} in the body' }).fill('Ama');
    await form.getByRole('textbox', { name: '{{2}} in the body' }).fill('3 shirts');
    await visible(preview.getByText('Hi Ama, your order of 3 shirts is on its way.'));
    await visible(preview.getByText('Order #4521'));
    await visible(preview.getByRole('button', { name: 'Track order' }));

    // Meta's naming rule, said before anything is sent.
    await form.getByRole('button', { name: 'Save template' }).click();
    await visible(form.getByTestId('template-problems').getByText('A template name is lowercase letters, digits and underscores only'));
    await screenshotViewport(page, 'templates-create-desktop');
    await form.getByRole('textbox', { name: 'Name' }).fill('order_shipped');
    await form.getByRole('button', { name: 'Save template' }).click();
    await toast(page, 'Template saved');
    const table = page.getByTestId('templates-table');
    await visible(table.getByText('order_shipped'));
    expect(await table.getByTestId('template-status').textContent()).toBe('APPROVED');
    await closeToasts(page);
    await screenshotTop(page, 'templates-list-desktop');

    await page.getByRole('button', { name: 'Preview order_shipped' }).click();
    const shown = dialog(page, 'order_shipped (en_US)');
    await visible(shown.getByText('Hi {{1}}, your order of {{2}} is on its way.'));
    await visible(shown.getByText('Akosua Orders'));
    await screenshotViewport(page, 'templates-preview-desktop');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Set the status of order_shipped' }).click();
    await page.getByRole('menuitem', { name: 'Mark REJECTED' }).click();
    await toast(page, 'order_shipped is now REJECTED');
    await visible(table.getByTestId('template-status').getByText('REJECTED'));
    await visible(table.getByTestId('template-reason').getByText('Marked REJECTED in the console, for testing'));
    const stored = await callApi<{ templates: Array<{ status: string }> }>(token, `/api/chatbot/whatsapp/templates/${linkId}`);
    expect(stored.data!.templates.map((t) => t.status)).toEqual(['REJECTED']);
    await closeToasts(page);
    await screenshotTop(page, 'templates-rejected-desktop');

    const phone = await openTemplates(PHONE);
    await visible(phone.getByTestId('templates-table').getByText('order_shipped'));
    await expectNoSidewaysScroll(phone);
    await screenshotTop(phone, 'templates-list-phone');
    await phone.getByRole('button', { name: 'New Template' }).click();
    await visible(dialog(phone, 'New Template'));
    await screenshotViewport(phone, 'templates-create-phone');
    await phone.context().close();

    await page.getByRole('button', { name: 'Delete order_shipped' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Template deleted');
    await visible(page.getByTestId('templates-empty'));
    await page.context().close();
  });

  it('a list that cannot be loaded says so and loads again on Try again', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, await loginByApi(E2E_USERS.chatbot));
    await page.route(`**/api/chatbot/whatsapp/templates/${linkId}`, (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: 'Something went wrong' } }),
    );
    await page.goto(`/whatsapp-bot/settings/${appId}?tab=templates`);
    await visible(page.getByTestId('templates-error').getByText('Something went wrong'), 20_000);
    await screenshotTop(page, 'templates-error-desktop');
    await page.unrouteAll();
    await page.getByTestId('templates-error').getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByTestId('templates-empty'));
    await page.context().close();
  });
});
