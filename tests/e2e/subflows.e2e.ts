import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, createMenu, createUssdApp, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { findViolations } from './axe';
import { capture, closeToasts, describeBrowser, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * Sub-flows (docs/sub-flows.md) from the console: a PIN check made on the Sub-flows screen and entered from two
 * apps, one rule set in the designer; an emulator run saved as a test case; the sub-flow broken and the app's deploy
 * refused with the difference; fixed, deployed with a name, and the version's changes read, the sub-flow's menus
 * among them. One fresh account; the tier's shared Chromium.
 */

const LAPTOP = { width: 1280, height: 800 };
const PIN_TEXT = 'Confirm GHS {{ session.vars.amount }}\nEnter your PIN';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const form = (page: Page) => page.getByTestId('menu-edit-form');

async function shots(page: Page, name: string): Promise<void> {
  await waitForAnimations(page);
  await capture(page, `subflows-${name}-1280`, { fullPage: true, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await waitForAnimations(page);
  await capture(page, `subflows-${name}-390`, { fullPage: true, animations: 'disabled' });
  await page.setViewportSize(LAPTOP);
}

async function expectNoViolations(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  expect(await findViolations(page)).toEqual([]);
}

async function pick(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).first().click();
}

describeBrowser('sub-flows in the console', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let payId = '';
  let topUpId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kofi Subflows');
    const token = owner.reply.token;
    // Two apps that will enter the sub-flow: Pay's rule is set in the designer below, Top-up's here.
    payId = await createUssdApp(token, { appName: 'Kofi Pay', description: 'Pays with a PIN', shortCode: '*920*431#' });
    const paid = await createMenu(token, {
      appId: payId,
      userDefinedName: 'paid',
      displayText: 'Paid GHS {{ session.vars.amount }} (PIN ok: {{ session.vars.pinOk }})',
      terminate: true,
    });
    await createMenu(token, {
      appId: payId,
      userDefinedName: 'home',
      isFirst: true,
      displayText: 'Kofi Pay\n1. Pay GHS 50',
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: paid }],
    });
    topUpId = await createUssdApp(token, { appName: 'Kofi Top-up', description: 'Tops up with a PIN', shortCode: '*920*432#' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('builds a PIN check used by two apps, gates a deploy on a case through it, and shows its version in the changes', async () => {
    const token = owner.reply.token;
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);

    // None yet: the screen says what one is for.
    await page.goto('/subflows');
    await visible(page.getByTestId('subflows-empty'));
    await expectNoViolations(page);
    await shots(page, 'empty');

    // Made on the screen: a name, an input and an output; a duplicate name is refused where it is typed.
    await page.getByRole('button', { name: 'New sub-flow' }).click();
    const dialog = page.getByRole('dialog', { name: 'New sub-flow' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('PIN check');
    await dialog.getByRole('button', { name: 'Add input' }).click();
    await dialog.getByRole('textbox', { name: 'Inputs 1 name' }).fill('amount');
    await dialog.getByRole('button', { name: 'Add output' }).click();
    await dialog.getByRole('textbox', { name: 'Outputs 1 name' }).fill('amount');
    await dialog.getByRole('textbox', { name: 'Outputs 1 value' }).fill("{% if session.inputs.pin == '1234' %}yes{% else %}no{% endif %}");
    await dialog.getByRole('button', { name: 'Create sub-flow' }).click();
    await visible(dialog.getByText('Two inputs or outputs of a sub-flow cannot have the same name'));
    await dialog.getByRole('textbox', { name: 'Outputs 1 name' }).fill('pinOk');
    await waitForAnimations(page);
    await capture(page, 'subflows-dialog-1280', { animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Create sub-flow' }).click();
    // It opens in the designer, marked as a sub-flow.
    await page.waitForURL(/\/app\/design\/[0-9a-f]+$/);
    const subflowId = new URL(page.url()).pathname.split('/').pop()!;
    await visible(page.getByText('Sub-flow', { exact: true }));
    expect(await page.getByTestId('deploy-button').count()).toBe(0);

    // Its two menus (the designer's calls, with the sub-flow as the app): the PIN, then Return.
    const taken = await createMenu(token, {
      appId: subflowId,
      userDefinedName: 'pinTaken',
      displayText: 'PIN taken\n1. Continue',
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Return' }],
    });
    const pinMenu = {
      appId: subflowId,
      userDefinedName: 'pin',
      isFirst: true,
      displayText: PIN_TEXT,
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: taken }],
    };
    const pinId = await createMenu(token, pinMenu);
    await page.reload();
    // A rule of a sub-flow's menu may Return.
    await page.getByRole('button', { name: 'Edit pinTaken', exact: true }).click();
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    expect(await page.getByRole('combobox', { name: 'Rule 1 action', exact: true }).inputValue()).toBe('Return');
    // Return is right here: the designer's checks mark nothing.
    expect(
      await form(page)
        .getByRole('tab', { name: /^Navigation/ })
        .getAttribute('data-has-errors'),
    ).not.toBe('true');
    await visible(form(page).getByText("Leaves the sub-flow with its outputs, back to the app's menu"));
    await shots(page, 'designer');

    // Pay's rule goes through the sub-flow, set in its designer with the amount to confirm.
    await page.goto(`/app/design/${payId}`);
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    await pick(page, 'Rule 1 sub-flow', 'PIN check');
    await form(page).getByRole('textbox', { name: 'Rule 1 sub-flow input amount' }).fill('50');
    await expectNoViolations(page);
    await shots(page, 'rule');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await visible(
      page
        .locator('.mantine-Notification-root')
        .filter({ hasText: /Menu (saved|updated)/ })
        .first(),
    );
    await closeToasts(page);

    // Top-up enters it too (written by the API).
    const done = await createMenu(token, { appId: topUpId, userDefinedName: 'done', displayText: 'Topped up', terminate: true });
    await createMenu(token, {
      appId: topUpId,
      userDefinedName: 'start',
      isFirst: true,
      displayText: '1. Top up GHS 5',
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: done, subflow: { id: subflowId, inputs: { amount: '5' } } },
      ],
    });

    // A run of Pay in the emulator goes through the PIN check and back; it is saved as a test case.
    await page.goto(`/app/emulator/${payId}`);
    await visible(page.getByRole('group', { name: 'Dial pad' }));
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await visible(page.getByTestId('menu-text').getByText('1. Pay GHS 50'));
    const reply = async (text: string, shows: string) => {
      await page.getByRole('textbox', { name: 'Reply' }).fill(text);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await visible(page.getByTestId('menu-text').getByText(shows));
    };
    await reply('1', 'Confirm GHS 50');
    await reply('1234', 'PIN taken');
    await reply('1', 'Paid GHS 50 (PIN ok: yes)');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByTestId('save-test-case').click();
    const save = page.getByRole('dialog', { name: 'Save as test case' });
    await save.getByRole('textbox', { name: 'Test case name' }).fill('Pays with the PIN');
    await save.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(save.getByText('Test case saved'));

    // The sub-flow changes its screen: Pay's deploy runs the case through it and is refused, the difference named.
    expect((await callApi(token, '/api/updateMenu', { ...pinMenu, uniqueId: pinId, displayText: 'Enter your PIN' })).status).toBe('00');
    await page.goto(`/app/design/${payId}`);
    await page.getByTestId('deploy-button').click();
    await page.getByTestId('deploy-confirm').click();
    const failure = page.getByTestId('deploy-test-failure');
    await visible(failure);
    expect(await failure.textContent()).toContain('Pays with the PIN');
    expect(await failure.textContent()).toContain('Confirm GHS 50');
    await expectNoViolations(page);
    await shots(page, 'deploy-refused');

    // Put back, it deploys with a name; the sub-flow gets its first version.
    expect((await callApi(token, '/api/updateMenu', { ...pinMenu, uniqueId: pinId })).status).toBe('00');
    await page.reload();
    await page.getByTestId('deploy-button').click();
    const deploy = page.getByRole('dialog', { name: /^Deploy version/ });
    await deploy.getByRole('textbox', { name: 'Name' }).fill('PIN check added');
    await deploy.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByText('Deployed version 1', { exact: false }).first().waitFor();
    await closeToasts(page);

    // The flow map draws the rule through a collapsed box of the sub-flow, which opens the sub-flow's own map.
    await page.goto(`/app/design/${payId}/flow`);
    const box = page.locator('[data-testid="flow-node"][data-kind="subflow"]');
    // Named once the account's sub-flows are read (until then a plain "Sub-flow", never "Missing").
    await visible(box.getByText('PIN check'));
    expect(await box.textContent()).toContain('in: amount');
    // The legend says what the box is (only on a map with one).
    await visible(page.getByTestId('flow-legend').getByText('Sub-flow (click to open its map)'));
    await shots(page, 'flow-map');
    await box.click();
    await page.waitForURL(new RegExp(`/app/design/${subflowId}/flow$`));
    await visible(page.locator('[data-testid="flow-node"][data-menu="pin"]'));

    // The version's changes name the sub-flow's menus beside the app's.
    await page.goto(`/app/design/${payId}/versions/1`);
    await page.getByRole('tab', { name: 'Changes (first version)' }).click();
    await visible(page.getByText('PIN check › pin', { exact: false }).first());
    await shots(page, 'version-changes');

    // The Sub-flows screen: who uses it and which version; deleting it is refused while they do.
    await page.goto('/subflows');
    const used = page.getByTestId('subflow-used-by');
    await visible(used.getByText('Kofi Pay'));
    await visible(used.getByText('runs version 1'));
    await visible(used.getByText('Kofi Top-up'));
    await visible(used.getByText('draft only'));
    await expectNoViolations(page);
    await shots(page, 'list');
    await page.getByRole('button', { name: 'Delete PIN check' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.locator('.mantine-Notification-root').filter({ hasText: 'Kofi Pay' }).first());
    await closeToasts(page);
    await visible(page.getByRole('article', { name: 'PIN check' }));

    // The Top-up draft runs through it too, at the amount it passes.
    await page.goto(`/app/emulator/${topUpId}`);
    await visible(page.getByRole('group', { name: 'Dial pad' }));
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await reply('1', 'Confirm GHS 5');
    await page.close();
  }, 240_000);
});
