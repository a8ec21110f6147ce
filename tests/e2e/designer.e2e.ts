import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MISSING_MENU_TEXT } from '../../src/engine';
import { MENU_MESSAGES } from '../../src/shared/app';
import { FORM_MESSAGES } from '../../src/web/features/menus/menu-form-state';
import { FILTER_DEBOUNCE_MS, SAVE_ORDER_FILTERED_HINT } from '../../src/web/features/menus/menu-list-order';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, closeToasts, describeBrowser, DESKTOP, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * The Menu Design View: a builder's day. Empty list and form errors, five menus with navigation (Always goto and
 * Terminate), a validation and a javascript action, reorder by drag and Save order, the filter, the live preview
 * and its count, deploy refused by a check then fixed, versions and a rollback. One fresh account for the file.
 */

interface MenuRow {
  uniqueId: string;
  userDefinedName: string;
  isFirst: boolean;
  terminate: boolean;
  allowGoBack: boolean;
  displayText: string;
  switchOperations: { operator: string; compareVal: string; action: string; actionParam: string }[];
  actions: { actionName: string; inheritsPlugin: string; actionType: string; code: unknown }[];
  inputValidations: { validationMethod: string; errorMessage: string }[];
}

/** The whole page: the viewport grows to the page's height, so the console's fixed header and sidebar stay in place. */
async function shot(page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await waitForAnimations(page);
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await capture(page, name, { animations: 'disabled' });
  if (height > viewport.height) await page.setViewportSize(viewport);
}

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const hidden = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

const form = (page: Page) => page.getByTestId('menu-edit-form');
const card = (page: Page, identifier: string) => page.locator(`[data-testid="menu-card"][data-menu="${identifier}"]`);
const fieldError = (scope: Locator, message: string) => scope.getByText(message, { exact: true });

async function pick(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

async function toast(page: Page, text: string | RegExp) {
  await visible(page.locator('.mantine-Notification-root').filter({ hasText: text }).first());
}

async function openTab(page: Page, name: string) {
  await form(page)
    .getByRole('tab', { name: new RegExp(`^${name}`) })
    .click();
}

/** Replaces a CodeMirror editor's text (insertText: no auto-closed brackets, no completion popup). */
async function typeCode(page: Page, editorLabel: string, code: string) {
  const editor = page.getByRole('textbox', { name: editorLabel });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

async function saveMenu(page: Page, expectToast: string | RegExp = /Menu (saved|updated)/) {
  await form(page).getByRole('button', { name: 'Save', exact: true }).click();
  await toast(page, expectToast);
  await hidden(form(page));
}

async function addMenu(page: Page, after: string | null, identifier: string, text: string) {
  if (after === null) await page.getByRole('button', { name: 'Add the first menu' }).click();
  else await page.getByRole('button', { name: `Add a menu after ${after}` }).click();
  await visible(form(page).getByText('New menu', { exact: true }));
  await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill(identifier);
  await form(page).getByRole('textbox', { name: 'Menu text' }).fill(text);
}

/** Deploy, and Deploy again in its dialog (no name, no note). */
async function deploy(page: Page) {
  await page.getByTestId('deploy-button').click();
  await page
    .getByRole('dialog', { name: /^Deploy/ })
    .getByRole('button', { name: 'Deploy', exact: true })
    .click();
}

async function editMenu(page: Page, identifier: string) {
  await page.getByRole('button', { name: `Edit ${identifier}`, exact: true }).click();
  await visible(form(page).getByText(`Edit menu ${identifier}`, { exact: true }));
}

describeBrowser('menu designer', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';
  let page: Page;
  const menus = async () => (await callApi<MenuRow[]>(owner.reply.token, `/api/getAllMenus/${appId}`)).data;
  const _idOf = async (identifier: string) => (await menus()).find((m) => m.userDefinedName === identifier)!.uniqueId;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Designer');
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Kofi Shop',
      description: 'Airtime and balance for the designer tests',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*71#',
    });
    if (app.status !== '00') throw new Error(`createApp failed: ${JSON.stringify(app)}`);
    appId = app.data.appId;
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** `withClock`: the page's clock is Playwright's, running until the test moves or pauses it. */
  async function openDesigner(viewport = DESKTOP, withClock = false): Promise<Page> {
    const p = await openPage(browser, viewport);
    await storeSession(p, owner.reply);
    if (withClock) await p.clock.install();
    await p.goto(`/app/design/${appId}`);
    await visible(p.getByRole('heading', { name: 'Kofi Shop' }));
    return p;
  }

  it('an empty app shows the lone plus; a new menu has Back Menu on with 0; each invalid field shows its message at its tab', async () => {
    page = await openDesigner();
    await visible(page.getByTestId('menu-list-empty'));
    expect(await page.getByRole('link', { name: 'Emulator' }).getAttribute('href')).toBe(`/app/emulator/${appId}`);
    await shot(page, 'designer-empty-desktop');

    await page.getByRole('button', { name: 'Add the first menu' }).click();
    await visible(form(page));
    expect(
      await form(page)
        .getByRole('checkbox', { name: /Back Menu/ })
        .isChecked(),
    ).toBe(true);
    expect(await form(page).getByRole('textbox', { name: 'Back indicator' }).inputValue()).toBe('0');
    // The identifier's tooltip.
    await form(page).getByRole('button', { name: 'About the menu identifier' }).hover();
    await visible(page.getByRole('tooltip').filter({ hasText: 'unique, no spaces' }));

    // Required identifier and text, then an invalid identifier and an empty indicator.
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await visible(fieldError(form(page), MENU_MESSAGES.identifierRequired));
    await visible(fieldError(form(page), MENU_MESSAGES.textRequired));
    expect(await form(page).getByRole('tab', { name: /^Menu/ }).getAttribute('data-has-errors')).toBe('true');
    await shot(page, 'designer-form-errors-desktop');
    await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill('1 home');
    await form(page).getByRole('textbox', { name: 'Back indicator' }).fill('');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await visible(fieldError(form(page), MENU_MESSAGES.identifierInvalid));
    await visible(fieldError(form(page), MENU_MESSAGES.indicatorRequired));

    // Actions: a new action is post, Rest Api, POST, application/json; its rules, then a javascript one.
    await openTab(page, 'Actions');
    await form(page).getByRole('button', { name: 'Add action' }).click();
    const actionForm = page.getByTestId('action-form');
    expect(await actionForm.getByRole('combobox', { name: 'Type', exact: true }).inputValue()).toBe('Rest Api');
    expect(await actionForm.getByRole('combobox', { name: 'Method', exact: true }).inputValue()).toBe('POST');
    expect(await actionForm.getByRole('combobox', { name: 'Content type' }).inputValue()).toBe('application/json');
    expect(await actionForm.getByRole('radio', { name: 'Post' }).isChecked()).toBe(true);
    // Two sets of buttons, each named for what it saves: the action's in its panel, the menu's (off for now) below.
    expect(
      await actionForm
        .getByRole('button')
        .filter({ hasText: /^(Cancel|Save)/ })
        .allTextContents(),
    ).toEqual(['Cancel action', 'Save action']);
    expect(await page.getByTestId('menu-form-footer').getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await visible(page.getByTestId('menu-save-hint').filter({ hasText: FORM_MESSAGES.actionOpen }));
    await actionForm.getByRole('button', { name: 'Save action', exact: true }).click();
    await visible(fieldError(actionForm, MENU_MESSAGES.actionNameRequired));
    await visible(fieldError(actionForm, MENU_MESSAGES.urlRequired));
    await visible(fieldError(actionForm, MENU_MESSAGES.bodyRequired));
    await visible(actionForm.getByText('Validation failed in the Rest API action component.'));
    await actionForm.getByRole('textbox', { name: 'Action name' }).fill('2charge');
    await actionForm.getByRole('textbox', { name: 'Request URL' }).fill('https://api.example.com/charge');
    await actionForm.getByRole('textbox', { name: 'Request body' }).fill('{"amount": ');
    await actionForm.getByRole('button', { name: 'Save action', exact: true }).click();
    await visible(fieldError(actionForm, MENU_MESSAGES.actionNameInvalid));
    await visible(fieldError(actionForm, MENU_MESSAGES.bodyInvalidJson));
    await shot(page, 'designer-action-restapi-errors-desktop');

    await pick(page, 'Type', 'Javascript');
    await actionForm.getByRole('textbox', { name: 'Action name' }).fill('greet');
    await typeCode(page, 'Javascript code', 'const name = session.mobile;\nreturn { greeting: "hi " + name ');
    await actionForm.getByRole('button', { name: 'Save action', exact: true }).click();
    await visible(actionForm.getByText(/Unexpected token \(line 2, column \d+\)/).first());
    await visible(actionForm.getByText('Validation failed in the Javascript action component.'));
    await visible(page.locator('.cm-lint-marker-error').first());
    await shot(page, 'designer-action-javascript-error-desktop');
    await typeCode(page, 'Javascript code', 'const name = session.mobile;\nreturn { greeting: "hi " + name };');
    await visible(actionForm.getByText('Parses as ECMAScript 2020'));
    await actionForm.getByRole('button', { name: 'Save action', exact: true }).click();
    await hidden(actionForm);
    await hidden(page.getByTestId('menu-save-hint'));
    expect(await page.getByTestId('menu-form-footer').getByRole('button', { name: 'Save', exact: true }).isEnabled()).toBe(true);
    await visible(form(page).getByTestId('action-card').filter({ hasText: 'greet' }));

    // Fix the Menu tab and save: the first menu.
    await openTab(page, 'Menu');
    await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill('home');
    await form(page).getByRole('textbox', { name: 'Back indicator' }).fill('0');
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Welcome to Kofi Shop\n1. Buy airtime\n2. Check balance\n3. Exit');
    await saveMenu(page, 'Menu saved');
    await visible(card(page, 'home'));
    const [home] = await menus();
    expect(home).toMatchObject({
      userDefinedName: 'home',
      isFirst: true,
      actions: [{ actionName: 'greet', inheritsPlugin: 'javascript', actionType: 'post' }],
    });
    await page.context().close();
  });

  it("a builder's day: five menus inserted in place, navigation with rules, Always goto and Terminate, a validation", async () => {
    page = await openDesigner();
    await visible(card(page, 'home'));
    // A new menu pressed between cards sits where its plus was, not yet saved; deleting it is local only.
    const deletes: string[] = [];
    page.on('request', (r) => r.url().includes('/api/deleteMenu') && deletes.push(r.url()));
    await page.getByRole('button', { name: 'Add a menu after home' }).click();
    await visible(page.locator('[data-testid="menu-card"][data-key="new-menu"]'));
    await page.getByRole('button', { name: 'Delete New menu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await hidden(page.locator('[data-testid="menu-card"][data-key="new-menu"]'));
    await hidden(form(page));
    expect(deletes).toEqual([]);

    await addMenu(page, 'home', 'buyAirtime', 'Enter the amount of airtime to buy');
    await form(page).getByRole('textbox', { name: 'Input holder' }).fill('Amount');
    await openTab(page, 'Validation');
    await form(page).getByRole('button', { name: 'Add validation' }).click();
    expect(await form(page).getByRole('combobox', { name: 'Validation 1 method' }).inputValue()).toBe('numeric');
    // Every method carries its own label: lt and lte are not mislabelled.
    await form(page).getByRole('combobox', { name: 'Validation 1 method' }).click();
    for (const label of ['alphanumeric', 'less than', 'less than or equal to', 'greater than or equal to', 'javascript']) {
      await visible(page.getByRole('option', { name: label, exact: true }));
    }
    await shot(page, 'designer-validation-methods-desktop');
    await page.getByRole('option', { name: 'numeric', exact: true }).click();
    await form(page).getByRole('textbox', { name: 'Validation 1 error message' }).fill('Enter a number, e.g. 5');
    await saveMenu(page, 'Menu saved');

    await addMenu(
      page,
      'buyAirtime',
      'confirm',
      'Buy GHS {{ session.inputs.buyAirtime }} of airtime for {{ session.mobile }}?\n1. Yes\n2. No',
    );
    await saveMenu(page, 'Menu saved');
    await addMenu(page, 'confirm', 'balance', 'Your balance is GHS 20.00.');
    // A new menu has Back Menu on; an ending one has no Back: Terminate turns it off and locks it.
    const back = form(page).getByRole('checkbox', { name: /Back Menu/ });
    expect(await back.isChecked()).toBe(true);
    await form(page)
      .getByRole('checkbox', { name: /Terminate/ })
      .check();
    expect(await back.isChecked()).toBe(false);
    expect(await back.isDisabled()).toBe(true);
    await visible(form(page).getByText('A menu that ends the session has no Back'));
    await shot(page, 'designer-terminate-no-back-desktop');
    await form(page)
      .getByRole('checkbox', { name: /Terminate/ })
      .uncheck();
    expect(await back.isChecked()).toBe(true);
    await form(page)
      .getByRole('checkbox', { name: /Terminate/ })
      .check();
    await saveMenu(page, 'Menu saved');
    await addMenu(page, 'confirm', 'goodbye', 'Thank you for using Kofi Shop.');
    await form(page)
      .getByRole('checkbox', { name: /Terminate/ })
      .check();
    await saveMenu(page, 'Menu saved');
    // Inserted in place: goodbye went after confirm, before balance.
    const order = async () => (await menus()).map((m) => m.userDefinedName);
    expect((await menus()).filter((m) => m.terminate).map((m) => [m.userDefinedName, m.allowGoBack])).toEqual([
      ['goodbye', false],
      ['balance', false],
    ]);
    expect(await order()).toEqual(['home', 'buyAirtime', 'confirm', 'goodbye', 'balance']);
    expect(await page.getByTestId('menu-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu')))).toEqual([
      'home',
      'buyAirtime',
      'confirm',
      'goodbye',
      'balance',
    ]);

    // home: 1 -> buyAirtime, 2 -> balance, 3 ends with a closing text; an empty rule is dropped on save.
    await editMenu(page, 'home');
    await openTab(page, 'Navigation');
    for (let i = 0; i < 4; i++) await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByRole('textbox', { name: 'Rule 1 compare value' }).fill('1');
    await pick(page, 'Rule 1 target menu', /^buyAirtime/);
    await form(page).getByRole('textbox', { name: 'Rule 2 compare value' }).fill('2');
    await pick(page, 'Rule 2 target menu', /^balance/);
    await form(page).getByRole('textbox', { name: 'Rule 3 compare value' }).fill('3');
    await pick(page, 'Rule 3 action', 'Terminate');
    await form(page).getByRole('textbox', { name: 'Rule 3 closing text' }).fill('Goodbye from Kofi Shop');
    await form(page).getByRole('combobox', { name: 'Rule 1 operator' }).click();
    for (const label of ['equal to', 'not equal to', 'value in', 'between', 'matches regexp'])
      await visible(page.getByRole('option', { name: label, exact: true }));
    await page.keyboard.press('Escape');
    expect(await form(page).getByRole('textbox', { name: 'Rule 1 compare value' }).getAttribute('placeholder')).toBe('1 or 1,2,3');
    await shot(page, 'designer-navigation-rules-desktop');
    await saveMenu(page);
    const ids = Object.fromEntries((await menus()).map((m) => [m.userDefinedName, m.uniqueId]));
    expect((await menus()).find((m) => m.userDefinedName === 'home')!.switchOperations).toEqual([
      { operator: 'eq', compareVal: '1', action: 'goto', actionParam: ids.buyAirtime },
      { operator: 'eq', compareVal: '2', action: 'goto', actionParam: ids.balance },
      { operator: 'eq', compareVal: '3', action: 'Terminate', actionParam: 'Goodbye from Kofi Shop' },
    ]);

    // buyAirtime: Always goto confirm. Loading it again shows the checkbox on and no rules.
    await editMenu(page, 'buyAirtime');
    await openTab(page, 'Navigation');
    await form(page)
      .getByRole('checkbox', { name: /Always goto/ })
      .check();
    await pick(page, 'Always go to', /^confirm/);
    await saveMenu(page);
    expect((await menus()).find((m) => m.userDefinedName === 'buyAirtime')!.switchOperations).toEqual([
      { operator: 'always', compareVal: '', action: 'goto', actionParam: ids.confirm },
    ]);
    await editMenu(page, 'buyAirtime');
    await openTab(page, 'Navigation');
    expect(
      await form(page)
        .getByRole('checkbox', { name: /Always goto/ })
        .isChecked(),
    ).toBe(true);
    expect(await form(page).getByTestId('navigation-rule').count()).toBe(0);
    await shot(page, 'designer-always-goto-desktop');
    await form(page).getByRole('button', { name: 'Cancel' }).click();

    // confirm: 1 -> goodbye, 2 -> home.
    await editMenu(page, 'confirm');
    await openTab(page, 'Navigation');
    await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByRole('textbox', { name: 'Rule 1 compare value' }).fill('1');
    await pick(page, 'Rule 1 target menu', /^goodbye/);
    await form(page).getByRole('textbox', { name: 'Rule 2 compare value' }).fill('2');
    await pick(page, 'Rule 2 target menu', /^home/);
    await saveMenu(page);
    await closeToasts(page);
    await shot(page, 'designer-five-menus-desktop');
    await page.context().close();
  }, 120_000);

  it('reorder by drag, then Save order; the filter narrows from 3 characters', async () => {
    page = await openDesigner(DESKTOP, true);
    await visible(card(page, 'balance'));
    const handle = page.getByRole('button', { name: 'Drag balance to reorder' });
    const target = card(page, 'goodbye');
    await handle.scrollIntoViewIfNeeded();
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    const x = from.x + from.width / 2;
    const startY = from.y + from.height / 2;
    const endY = to.y + 8;
    await page.mouse.move(x, startY);
    await page.mouse.down();
    for (let y = startY; y > endY; y -= 12) await page.mouse.move(x, y);
    await page.mouse.move(x, endY);
    await visible(page.locator('[data-testid="menu-card"][data-menu="balance"]').and(page.locator('[class*="cardDragging"]')));
    await capture(page, 'designer-dragging-desktop', { animations: 'disabled' });
    await page.mouse.up();
    await visible(page.getByTestId('order-unsaved'));
    const cardOrder = () => page.getByTestId('menu-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu')));
    expect(await cardOrder()).toEqual(['home', 'buyAirtime', 'confirm', 'balance', 'goodbye']);
    await shot(page, 'designer-order-changed-desktop');
    await page.getByRole('button', { name: 'Save order' }).click();
    await toast(page, 'Menu order saved');
    await hidden(page.getByTestId('order-unsaved'));
    expect((await menus()).map((m) => m.userDefinedName)).toEqual(['home', 'buyAirtime', 'confirm', 'balance', 'goodbye']);

    // Keyboard drag: focus goodbye's handle, space, up, space. Each step waits for dnd-kit's announcement of it
    // (its live region) and for the cards to stop moving, as the keyboard sensor measures them before the next.
    await page.getByRole('button', { name: 'Drag goodbye to reorder' }).focus();
    const announcement = page.locator('[id^="DndLiveRegion"]');
    // The menus by their identifiers; over its own place (where every move starts) nothing new is said.
    for (const [key, said] of [
      ['Space', 'Picked up menu goodbye.'],
      ['ArrowUp', 'Menu goodbye is now at the place of balance.'],
      ['Space', 'Menu goodbye was dropped at the place of balance. Save order keeps it.'],
    ] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => announcement.textContent()).toBe(said);
      await waitForAnimations(page);
    }
    await visible(page.getByTestId('order-unsaved'));
    expect(await cardOrder()).toEqual(['home', 'buyAirtime', 'confirm', 'goodbye', 'balance']);
    await page.getByRole('button', { name: 'Save order' }).click();
    await toast(page, 'Menu order saved');
    expect((await menus()).map((m) => m.userDefinedName)).toEqual(['home', 'buyAirtime', 'confirm', 'goodbye', 'balance']);

    const filter = page.getByRole('textbox', { name: 'Filter menus' });
    await filter.fill('go');
    await visible(page.getByText('Type at least 3 characters to filter'));
    // The list follows the box once typing has paused: past that on the page's clock, two characters narrow nothing.
    await page.clock.fastForward(FILTER_DEBOUNCE_MS);
    await waitForAnimations(page);
    expect(await page.getByTestId('menu-card').count()).toBe(5);
    await filter.fill('goo');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="menu-card"]').length === 1);
    expect(await cardOrder()).toEqual(['goodbye']);
    // Save order saves the whole list: off while a filter narrows it, and the page says why.
    const saveOrder = page.getByRole('button', { name: 'Save order' });
    expect(await saveOrder.isDisabled()).toBe(true);
    await visible(page.getByTestId('save-order-hint').filter({ hasText: SAVE_ORDER_FILTERED_HINT }));
    await page.getByTestId('save-order-wrapper').hover();
    await visible(page.getByRole('tooltip').filter({ hasText: SAVE_ORDER_FILTERED_HINT }));
    await filter.fill('KOFI');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="menu-card"]').length === 2);
    expect(await cardOrder()).toEqual(['home', 'goodbye']);
    // While filtering, the handles are off.
    expect(await page.getByRole('button', { name: 'Drag home to reorder' }).isDisabled()).toBe(true);
    await shot(page, 'designer-filter-desktop');
    await filter.fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="menu-card"]').length === 5);
    expect(await saveOrder.isEnabled()).toBe(true);
    await hidden(page.getByTestId('save-order-hint'));
    await page.context().close();
  });

  it('the live preview renders the screen and counts its characters against the limit, red when over', async () => {
    page = await openDesigner();
    await editMenu(page, 'confirm');
    const preview = form(page).getByTestId('menu-preview');
    await visible(preview.getByTestId('menu-preview-text').filter({ hasText: 'of airtime for 233244000111?' }));
    await preview.getByRole('textbox', { name: 'session.inputs.buyAirtime' }).fill('5');
    await visible(preview.getByTestId('menu-preview-text').filter({ hasText: 'Buy GHS 5 of airtime for 233244000111?' }));
    const count = preview.getByTestId('menu-char-count');
    const length = 'Buy GHS 5 of airtime for 233244000111?\n1. Yes\n2. No'.length;
    expect(await count.textContent()).toBe(`${length} / 160 characters`);
    expect(await count.getAttribute('data-over')).toBe('false');
    await shot(page, 'designer-preview-desktop');

    await form(page)
      .getByRole('textbox', { name: 'Menu text' })
      .fill(`${'Airtime bundles for every network. '.repeat(6)}\n1. Yes\n2. No`);
    await page.waitForFunction(() => document.querySelector('[data-testid="menu-char-count"]')?.getAttribute('data-over') === 'true');
    await visible(preview.getByText(/callers see 2 pages/));
    await visible(preview.getByText('Page 1 of 2'));
    await visible(preview.getByTestId('menu-preview-text').filter({ hasText: '98. More' }));
    await shot(page, 'designer-preview-over-limit-desktop');
    // A Twi screen of 51 characters fits 160 in GSM-7, but ɛ and ɔ send it as UCS-2: 70 a screen, and the preview says why.
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Akwaaba! Wo ho te sɛn?\n1. Tɔ airtime\n2. Hwɛ wo sika');
    await expect.poll(() => count.textContent()).toBe('51 / 70 characters · UCS-2');
    const encoding = preview.getByTestId('menu-encoding');
    await visible(encoding);
    expect(await encoding.textContent()).toBe(
      'Sent as UCS-2 because of "ɛ", "ɔ": 70 characters a screen, not 160. GSM look-alikes: ɛ → e, ɔ → o.',
    );
    await shot(page, 'designer-preview-twi-desktop');
    // The builder may take the look-alikes: the screen goes back to GSM-7 and its 160 characters.
    await preview.getByTestId('menu-apply-look-alikes').click();
    await expect.poll(() => count.textContent()).toBe('51 / 160 characters');
    expect(await form(page).getByRole('textbox', { name: 'Menu text' }).inputValue()).toBe(
      'Akwaaba! Wo ho te sen?\n1. To airtime\n2. Hwe wo sika',
    );
    await hidden(preview.getByTestId('menu-encoding'));
    await shot(page, 'designer-preview-twi-look-alikes-desktop');
    // Leaving with unsaved changes asks first.
    await form(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await hidden(form(page));
    await page.context().close();
  });

  it('deploy: version 1; a check refuses a goto to a deleted menu and links to it; fixed, version 2; roll back with confirmation', async () => {
    page = await openDesigner();
    await deploy(page);
    await toast(page, 'Deployed version 1');
    await visible(page.getByText('Version 1 live'));
    await closeToasts(page);

    // Deploying again with nothing changed makes no version: a blue notice says since which.
    await deploy(page);
    await toast(page, 'No changes since version 1');
    expect(await page.locator('.mantine-Notification-root').filter({ hasText: 'Nothing to deploy' }).getAttribute('style')).toContain(
      '--notification-color: var(--mantine-color-blue-filled)',
    );
    await closeToasts(page);

    // Delete balance: the confirmation names home's rule 2, which goes there.
    await page.getByRole('button', { name: 'Delete balance' }).click();
    await visible(page.getByRole('dialog').getByText('Are you sure you want to delete this menu?'));
    const referrers = page.getByRole('dialog').getByTestId('delete-menu-referrers');
    await visible(referrers);
    expect(await referrers.getByRole('listitem').allTextContents()).toEqual(['home: Rule 2']);
    await visible(referrers.getByText(MISSING_MENU_TEXT, { exact: false }));
    await shot(page, 'designer-delete-referrers-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'designer-delete-referrers-phone');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Menu deleted');
    await hidden(card(page, 'balance'));
    await closeToasts(page);

    // The designer marks the broken rule where it is, before any deploy: home's card, then its Navigation tab.
    await visible(card(page, 'home').getByTestId('menu-broken-rules').getByText('Rule 2 goes to a menu that no longer exists.'));
    expect(await card(page, 'confirm').getByTestId('menu-broken-rules').count()).toBe(0);
    await shot(page, 'designer-broken-rule-card-phone');
    await page.setViewportSize(DESKTOP);
    await shot(page, 'designer-broken-rule-card-desktop');
    // Opened with its edit button, the form marks the Navigation tab and, there, the rule's target.
    await editMenu(page, 'home');
    expect(
      await form(page)
        .getByRole('tab', { name: /^Navigation/ })
        .getAttribute('data-has-errors'),
    ).toBe('true');
    await openTab(page, 'Navigation');
    await visible(fieldError(form(page), MENU_MESSAGES.targetMissing));
    expect(await form(page).getByRole('combobox', { name: 'Rule 2 target menu' }).inputValue()).toBe(
      'Deleted menu (no longer in this app)',
    );
    await shot(page, 'designer-broken-rule-navigation-desktop');
    await form(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await hidden(form(page));
    // The card's link opens the Navigation tab at once.
    await card(page, 'home').getByRole('button', { name: 'Fix the rules of home' }).click();
    await visible(form(page).getByRole('tab', { name: /^Navigation/, selected: true }));
    await visible(fieldError(form(page), MENU_MESSAGES.targetMissing));
    await form(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await hidden(form(page));

    // The running call shows 'Deployment in progress'; a refusal shows the server's message and each issue.
    // The deploy's reply is held until the page has shown it running.
    let releaseDeploy = () => {};
    const deployReleased = new Promise<void>((resolve) => {
      releaseDeploy = resolve;
    });
    await page.route('**/api/deployChanges/**', async (route) => {
      await deployReleased;
      await route.continue();
    });
    await deploy(page);
    await visible(page.getByRole('button', { name: 'Deployment in progress' }));
    releaseDeploy();
    await visible(page.getByTestId('deploy-panel'));
    await toast(page, /Deploy refused/);
    expect(await page.getByText('Deployment in progress').count()).toBe(0);
    const issue = page.getByTestId('deploy-errors').getByTestId('deploy-issue').filter({ hasText: MENU_MESSAGES.targetMissing });
    await visible(issue);
    await shot(page, 'designer-deploy-refused-desktop');
    await issue.getByRole('button', { name: 'home' }).click();
    await visible(form(page).getByText('Edit menu home', { exact: true }));
    await visible(form(page).getByRole('tab', { name: /^Navigation/, selected: true }));
    await visible(fieldError(form(page), MENU_MESSAGES.targetMissing));
    await shot(page, 'designer-deploy-issue-opened-desktop');
    await pick(page, 'Rule 2 target menu', /^goodbye/);
    await saveMenu(page);
    await closeToasts(page);

    await deploy(page);
    await toast(page, 'Deployed version 2');
    await visible(page.getByText('Version 2 live'));
    await closeToasts(page);
    await hidden(card(page, 'home').getByTestId('menu-broken-rules'));

    await page.getByRole('button', { name: 'Versions' }).click();
    const drawer = page.getByRole('dialog', { name: 'Versions' });
    await visible(drawer.locator('[data-testid="version-row"][data-version="2"]').getByText('Live'));
    await visible(drawer.locator('[data-testid="version-row"][data-version="1"]'));
    await shot(page, 'designer-versions-desktop');
    await drawer.getByRole('button', { name: 'Roll back to version 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Roll back to version 1?' });
    await visible(confirm);
    await shot(page, 'designer-rollback-confirm-desktop');
    await confirm.getByRole('button', { name: 'Roll back' }).click();
    await toast(page, /Rolled back/);
    const v3 = drawer.locator('[data-testid="version-row"][data-version="3"]');
    await visible(v3.getByText('Live'));
    await visible(v3.getByText(/restores version 1/));
    await shot(page, 'designer-versions-after-rollback-desktop');
    await page.context().close();
  });

  it("typing {{ offers the app's variables by keyboard; a variable that names no menu is flagged in the preview and by the deploy", async () => {
    page = await openDesigner();
    await editMenu(page, 'goodbye');
    const text = form(page).getByRole('textbox', { name: 'Menu text' });
    await text.fill('Thank you, ');
    await text.press('End');
    await text.pressSequentially('{{ session.inputs.b');
    const suggestions = page.getByRole('listbox', { name: 'Template variables' });
    await visible(suggestions);
    expect(await suggestions.getByRole('option').allTextContents()).toEqual([
      'session.inputs.buyAirtimeWhat the caller typed at menu buyAirtime',
      'session.inputs.buyAirtimeLabelThe text of the option picked at menu buyAirtime',
    ]);
    // Down and Up move the choice (the field names it for screen readers); Enter puts it in and closes the list.
    await text.press('ArrowDown');
    expect(await text.getAttribute('aria-activedescendant')).toBe(await suggestions.getByRole('option').nth(1).getAttribute('id'));
    await text.press('ArrowUp');
    await shot(page, 'designer-variable-suggestions-desktop');
    // The preview asks for no sample of a name still being typed.
    expect(await form(page).getByTestId('menu-preview-unknown').count()).toBe(0);
    await page.setViewportSize(PHONE);
    await visible(suggestions);
    await shot(page, 'designer-variable-suggestions-phone');
    await page.setViewportSize(DESKTOP);
    await text.press('Enter');
    await hidden(suggestions);
    expect(await text.inputValue()).toBe('Thank you, {{ session.inputs.buyAirtime }}');
    // Escape closes the list and leaves the text as typed.
    await text.pressSequentially(' {{ app');
    await visible(suggestions.getByRole('option', { name: /^app\.name/ }));
    await text.press('Escape');
    await hidden(suggestions);
    await visible(form(page));
    // A name no menu has: the preview offers no sample for it and says why.
    await text.fill('Thank you, {{ session.inputs.name }}!');
    const preview = form(page).getByTestId('menu-preview');
    await visible(preview.getByTestId('menu-preview-unknown').getByText(/session\.inputs\.name matches no menu identifier/));
    expect(await preview.getByRole('textbox', { name: 'session.inputs.name' }).count()).toBe(0);
    await shot(page, 'designer-unknown-variable-preview-desktop');
    await saveMenu(page);
    await closeToasts(page);

    await deploy(page);
    await toast(page, /Deployed version/);
    const warning = page.getByTestId('deploy-warnings').getByTestId('deploy-issue').filter({
      hasText: '{{ session.inputs.name }} in displayText names nothing: no menu has the identifier "name". It shows as empty text.',
    });
    await visible(warning);
    await shot(page, 'designer-unknown-variable-deploy-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'designer-unknown-variable-deploy-phone');
    await page.setViewportSize(DESKTOP);
    await warning.getByRole('button', { name: 'goodbye' }).click();
    await visible(form(page).getByText('Edit menu goodbye', { exact: true }));
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Thank you for using Kofi Shop.');
    await saveMenu(page);
    await page.context().close();
  });

  it('at phone width: the list, the form above it, the actions tab and the versions drawer', async () => {
    page = await openDesigner(PHONE);
    await visible(card(page, 'home'));
    await shot(page, 'designer-list-phone');
    await page.getByRole('textbox', { name: 'Filter menus' }).fill('KOFI');
    await visible(page.getByTestId('save-order-hint'));
    await shot(page, 'designer-filter-phone');
    await page.getByRole('textbox', { name: 'Filter menus' }).fill('');
    await hidden(page.getByTestId('save-order-hint'));
    await editMenu(page, 'confirm');
    await shot(page, 'designer-form-phone');
    await openTab(page, 'Navigation');
    await shot(page, 'designer-navigation-phone');
    await editMenu(page, 'home');
    await openTab(page, 'Actions');
    await form(page).getByRole('button', { name: 'Edit action greet' }).click();
    await visible(page.getByTestId('action-form').getByRole('button', { name: 'Done' }));
    await shot(page, 'designer-action-edit-phone');
    await page.getByTestId('action-form').getByRole('button', { name: 'Cancel action' }).click();
    await form(page).getByRole('button', { name: 'Add action' }).click();
    await pick(page, 'Type', 'My Custom Functions');
    await visible(page.getByTestId('custom-functions-empty'));
    await pick(page, 'Type', 'Database Query');
    await shot(page, 'designer-action-dbaccess-phone');
    await page.getByTestId('action-form').getByRole('button', { name: 'Cancel action' }).click();
    await form(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Versions' }).click();
    await visible(page.getByRole('dialog', { name: 'Versions' }).locator('[data-testid="version-row"]').first());
    await shot(page, 'designer-versions-phone');
    await page.context().close();
  });

  it('menu cards break a word only when it is wider than the card: never "messag e", however narrow the list gets', async () => {
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Kofi Messages',
      description: 'Menu cards with long words',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*72#',
    });
    const text = 'Your confirmation message is on its way: thank you for choosing Kofi Shop today.';
    await callApi(owner.reply.token, '/api/createMenu', {
      appId: app.data!.appId,
      userDefinedName: 'confirmationMessage',
      isFirst: true,
      terminate: true,
      displayText: text,
    });
    for (const viewport of [DESKTOP, PHONE]) {
      const p = await openPage(browser, viewport);
      await storeSession(p, owner.reply);
      await p.goto(`/app/design/${app.data!.appId}`);
      const menuCard = card(p, 'confirmationMessage');
      await visible(menuCard.getByTestId('menu-short-text'));
      // Each text of the card (identifier, short text): no word on two lines as drawn, and squeezed to its narrowest
      // (a narrow column, a long badge beside it) the box is still as wide as its widest word, so it wraps at spaces.
      const texts = await menuCard.evaluate((cardElement) =>
        [...cardElement.querySelectorAll<HTMLElement>('*')]
          .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /[A-Za-z]{3,}/.test(n.textContent ?? '')))
          .map((el) => {
            const words = [...el.childNodes]
              .filter((n) => n.nodeType === Node.TEXT_NODE)
              .flatMap((n) =>
                [...(n.textContent ?? '').matchAll(/[A-Za-z]{3,}/g)].map((m) => {
                  const range = document.createRange();
                  range.setStart(n, m.index);
                  range.setEnd(n, m.index + m[0].length);
                  const rects = [...range.getClientRects()];
                  return {
                    word: m[0],
                    lines: new Set(rects.map((r) => Math.round(r.top))).size,
                    width: range.getBoundingClientRect().width,
                  };
                }),
              );
            const { width } = el.style;
            el.style.width = 'min-content';
            const narrowest = el.getBoundingClientRect().width;
            el.style.width = width;
            const widest = Math.max(...words.map((w) => w.width));
            return {
              text: el.textContent,
              split: words.filter((w) => w.lines > 1).map((w) => w.word),
              squeezesBelowAWord: narrowest + 1 < widest,
            };
          }),
      );
      expect(texts.map((t) => t.text)).toEqual(expect.arrayContaining(['confirmationMessage', text]));
      for (const t of texts) expect(t, `${viewport.width}px: ${t.text}`).toMatchObject({ split: [], squeezesBelowAWord: false });
      await p.context().close();
    }
  });
});
