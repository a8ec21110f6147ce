import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONTACT_FIELD_MESSAGE } from '../../src/shared/app';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, closeToasts, DESKTOP, describeBrowser, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * The designer's contact fields (docs/contacts.md): a menu's "Save the input to contact field" and a rule that tests
 * a contact field instead of the input. One fresh account for the file.
 */

interface MenuRow {
  userDefinedName: string;
  saveToContact?: string;
  switchOperations: { subject?: string; operator: string; compareVal: string; action: string; actionParam: string }[];
}

async function shot(page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await waitForAnimations(page);
  await capture(page, name, { animations: 'disabled', fullPage: true });
}

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const form = (page: Page) => page.getByTestId('menu-edit-form');

describeBrowser('menu designer: contact fields', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';
  const menus = async () => (await callApi<MenuRow[]>(owner.reply.token, `/api/getAllMenus/${appId}`)).data;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Contacts');
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Club',
      description: 'Members by their contact',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*91#',
    });
    if (app.status !== '00') throw new Error(`createApp failed: ${JSON.stringify(app)}`);
    appId = app.data.appId;
    // The account's contacts have keys no menu of the app uses: the designer offers them too.
    const started = await callApi<{ importId: string }>(owner.reply.token, '/api/contacts/imports', {
      csv: 'phone,loyalty_tier,branch\n0241000101,gold,Osu\n0241000102,silver,\n',
      defaultCountry: 'ghana',
    });
    if (started.status !== '00') throw new Error(`import failed: ${JSON.stringify(started)}`);
    for (let i = 0; i < 50; i += 1) {
      const job = await callApi<{ status: string }>(owner.reply.token, `/api/contacts/imports/${started.data.importId}`);
      if (job.data.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openDesigner(viewport = DESKTOP): Promise<Page> {
    const p = await openPage(browser, viewport);
    await storeSession(p, owner.reply);
    await p.goto(`/app/design/${appId}`);
    await visible(p.getByRole('heading', { name: 'Club' }));
    return p;
  }

  it('saves the input to a contact field, refusing language with the schema message, and a rule on a contact field', async () => {
    const page = await openDesigner();
    await page.getByRole('button', { name: 'Add the first menu' }).click();
    await visible(form(page));
    await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill('city');
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Your city?');
    const saveTo = form(page).getByLabel('Save the input to contact field', { exact: true });
    await saveTo.fill('language');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await visible(form(page).getByText(CONTACT_FIELD_MESSAGE, { exact: true }));
    await shot(page, 'designer-save-to-contact-error-desktop');
    await saveTo.fill('city');

    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByLabel('Rule 1 tests', { exact: true }).fill('contact.tier');
    await form(page).getByRole('combobox', { name: 'Rule 1 operator' }).click();
    await page.getByRole('option', { name: 'is set', exact: true }).click();
    expect(await form(page).getByRole('textbox', { name: 'Rule 1 compare value' }).isDisabled()).toBe(true);
    await form(page).getByRole('combobox', { name: 'Rule 1 action' }).click();
    await page.getByRole('option', { name: 'Terminate' }).first().click();
    await form(page).getByRole('textbox', { name: 'Rule 1 closing text' }).fill('Welcome back');
    await shot(page, 'designer-contact-rule-desktop');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });

    const [city] = await menus();
    expect(city).toMatchObject({
      saveToContact: 'city',
      switchOperations: [{ subject: 'contact.tier', operator: 'isSet', compareVal: '', action: 'Terminate', actionParam: 'Welcome back' }],
    });
    await page.close();
  });

  it("offers the account's contacts' attribute keys, the most used first, beside the app's own", async () => {
    const page = await openDesigner();
    await page.getByRole('button', { name: 'Edit city', exact: true }).click();
    await visible(form(page));
    const saveTo = form(page).getByLabel('Save the input to contact field', { exact: true });
    await saveTo.fill('');
    await saveTo.click();
    const accountKeys = page.getByRole('listbox').getByRole('group', { name: 'On your contacts' });
    await visible(accountKeys);
    expect(await accountKeys.getByRole('option').allTextContents()).toEqual(['loyalty_tier', 'branch']);
    await shot(page, 'designer-save-to-contact-account-keys-desktop');
    await accountKeys.getByRole('option', { name: 'loyalty_tier' }).click();
    expect(await saveTo.inputValue()).toBe('loyalty_tier');
    await page.close();
  });

  it('at phone width: the field and the rule load as saved', async () => {
    const page = await openDesigner(PHONE);
    await page.getByRole('button', { name: 'Edit city', exact: true }).click();
    await visible(form(page));
    expect(await form(page).getByLabel('Save the input to contact field', { exact: true }).inputValue()).toBe('city');
    await shot(page, 'designer-save-to-contact-phone');
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    expect(await form(page).getByLabel('Rule 1 tests', { exact: true }).inputValue()).toBe('contact.tier');
    await shot(page, 'designer-contact-rule-phone');
    await page.close();
  });
});
