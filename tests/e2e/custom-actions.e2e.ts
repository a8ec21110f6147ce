import type { Browser, Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CUSTOM_ACTION_MESSAGES } from '../../src/shared/api/custom-actions.schema';
import { callApi, type LoginReplyBody, registerAccount, storeSession, waitForPath } from './accounts';
import {
  baseUrl,
  closeToasts,
  describeBrowser,
  DESKTOP,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  waitForAnimations,
  waitForEarlierRequests,
} from './browser';

/**
 * My Custom Actions (/custom-functions) and the custom function editor (/custom-functions/{id}): create, list,
 * default code, templates, save, test in the real sandbox, the terminal, details, delete and another account's
 * function. The file registers its own accounts.
 */
const DEFAULT_CODE_MARK = 'This code runs on our servers';
const FORMAT_AMOUNT_MARK = 'Formats the amount the caller typed as money';
const REPLACE_QUESTION = 'This will replace your current code. Are you sure you want to proceed?';

async function createByApi(
  token: string,
  actionName: string,
  code: string,
  description = `${actionName} for the e2e tests`,
): Promise<string> {
  const reply = await callApi(token, '/api/custom-action/create', { actionName, description, code });
  if (reply.status !== '00' || !reply.uuid) throw new Error(`create failed: ${JSON.stringify(reply)}`);
  return reply.uuid;
}

const getByApi = async (token: string, uuid: string) =>
  (await callApi<{ actionName: string; description: string; code: string }>(token, `/api/custom-action/${uuid}`)).data;

async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await waitForAnimations(page);
  await screenshot(page, name);
}

/** Counts the page's requests for the default code from now on. */
function countDefaultCodeRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/docs/javascript') count += 1;
  });
  return () => count;
}

/** Moves the page's paused clock a millisecond at a time until the locator shows. */
async function tickUntilVisible(page: Page, locator: Locator): Promise<void> {
  for (let ticks = 0; ticks < 10_000; ticks += 1) {
    if (await locator.isVisible()) return;
    await page.clock.runFor(1);
  }
  throw new Error('never shown while the clock ticked');
}

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const codeContent = (page: Page) => page.locator('.cm-content');
const terminalLog = (page: Page) => page.getByRole('log', { name: 'Terminal output' });
const terminalLines = (page: Page, kind: string) => terminalLog(page).locator(`[data-kind="${kind}"]`);

/** Replaces the whole code with this text (insertText skips the editor's bracket auto-closing). */
async function typeCode(page: Page, code: string) {
  await codeContent(page).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  if (code) await page.keyboard.insertText(code);
}

async function pickTemplate(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Example template' }).click();
  await page.getByRole('option', { name, exact: true }).click();
}

describeBrowser('custom actions', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let stranger: { reply: LoginReplyBody };
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Abena Owusu');
    stranger = await registerAccount('Kwesi Appiah');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openAsOwner(viewport = DESKTOP): Promise<Page> {
    const p = await openPage(browser, viewport);
    await storeSession(p, owner.reply);
    return p;
  }

  async function openEditor(uuid: string, viewport = DESKTOP): Promise<Page> {
    const p = await openAsOwner(viewport);
    await p.goto(`/custom-functions/${uuid}`);
    await p.getByRole('heading', { name: /^Edit Custom Function - / }).waitFor();
    return p;
  }

  it('an empty list; New Action asks for the name, creates, and opens the editor, which loads the default code after 1 s', async () => {
    page = await openAsOwner();
    await page.clock.install();
    await page.goto('/custom-functions');
    await page.getByRole('heading', { name: 'My Custom Actions' }).waitFor();
    await page.getByTestId('custom-actions-empty').waitFor();
    // The sidebar entry is a link now that the route exists.
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await sidebar.locator('[data-sidebar-entry="My Custom Actions"]').getAttribute('href')).toBe('/custom-functions');
    await shoot(page, 'custom-actions-empty-desktop');

    await page.getByRole('button', { name: 'New Action' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Action' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create Action' }).click();
    await dialog.getByText(CUSTOM_ACTION_MESSAGES.nameRequired).waitFor();
    await shoot(page, 'custom-actions-create-required-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'New Action' }).click();
    await dialog.getByRole('textbox', { name: 'Action Name' }).fill('computeFee');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('A 1% fee on the amount typed');
    await shoot(page, 'custom-actions-create-filled-desktop');
    // From the click on, the page's clock moves a millisecond at a time until the editor shows: its timer for
    // the default code starts within a few milliseconds of the heading.
    const defaultCodeRequests = countDefaultCodeRequests(page);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await dialog.getByRole('button', { name: 'Create Action' }).click();
    await tickUntilVisible(page, page.getByRole('heading', { name: 'Edit Custom Function - computeFee' }));
    await page.clock.runFor(900);
    await waitForEarlierRequests(page);
    expect(defaultCodeRequests()).toBe(0);
    expect(await codeContent(page).textContent()).not.toContain(DEFAULT_CODE_MARK);
    await page.clock.resume();
    await codeContent(page).filter({ hasText: DEFAULT_CODE_MARK }).waitFor({ timeout: 5000 });
    expect(defaultCodeRequests()).toBe(1);
    await toast(page, 'Custom action created').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/custom-functions\/[0-9a-f-]{36}$/);
    await page.getByTestId('unsaved-badge').waitFor();
    // The test inputs start from the samples: mobile empty with sample inputs, a REST result with status true.
    const session = JSON.parse(await page.getByRole('textbox', { name: 'Session values' }).inputValue());
    expect(session).toMatchObject({ mobile: '', inputs: { amount: '20' } });
    const results = JSON.parse(await page.getByRole('textbox', { name: 'Action results' }).inputValue());
    expect(results.lookup).toMatchObject({ status: true });
    await shoot(page, 'custom-actions-editor-default-desktop');

    // The default code is not saved yet: leaving asks first.
    await page.getByRole('link', { name: 'Back to List' }).click();
    await page.getByRole('dialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Discard' }).click();
    await waitForPath(page, '/custom-functions');
    const card = page.getByRole('article', { name: 'computeFee' });
    await card.getByText('A 1% fee on the amount typed').waitFor();
    await shoot(page, 'custom-actions-list-desktop');
    await card.getByRole('link', { name: 'Edit computeFee' }).click();
    await page.getByRole('heading', { name: 'Edit Custom Function - computeFee' }).waitFor();
    await page.context().close();
  });

  it('a template replaces existing code only after the confirmation; empty code takes it at once', async () => {
    const uuid = await createByApi(owner.reply.token, 'templated', 'return 1; // mine');
    page = await openEditor(uuid);
    await codeContent(page).filter({ hasText: 'return 1; // mine' }).waitFor();

    await pickTemplate(page, 'formatAmount');
    const confirm = page.getByRole('dialog').filter({ hasText: REPLACE_QUESTION });
    await confirm.waitFor();
    await shoot(page, 'custom-actions-template-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await codeContent(page).textContent()).toContain('return 1; // mine');

    await pickTemplate(page, 'formatAmount');
    await confirm.getByRole('button', { name: 'Replace code' }).click();
    await codeContent(page).filter({ hasText: FORMAT_AMOUNT_MARK }).waitFor();

    await typeCode(page, '');
    await pickTemplate(page, 'computeFee');
    await codeContent(page).filter({ hasText: 'A 1% fee, at least GHS 0.50' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('the template dropdown names a template only while the code is that template', async () => {
    const uuid = await createByApi(owner.reply.token, 'retemplated', '');
    page = await openEditor(uuid);
    const dropdown = page.getByRole('combobox', { name: 'Example template' });
    await codeContent(page).filter({ hasText: DEFAULT_CODE_MARK }).waitFor();
    await typeCode(page, '');
    await pickTemplate(page, 'formatAmount');
    await codeContent(page).filter({ hasText: FORMAT_AMOUNT_MARK }).waitFor();
    expect(await dropdown.inputValue()).toBe('formatAmount');

    await codeContent(page).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('\n// my change');
    await expect.poll(() => dropdown.inputValue()).toBe('');
    await shoot(page, 'custom-actions-template-edited-desktop');

    // Undoing the change makes it the template's code again.
    await page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => dropdown.inputValue()).toBe('formatAmount');
    await page.context().close();
  });

  it('Save Function saves the code (invalid test JSON does not stop it), and a reload shows it', async () => {
    const uuid = await createByApi(owner.reply.token, 'saver', 'return 0;');
    page = await openEditor(uuid);
    await typeCode(page, 'log.info("saved version");\nreturn { saved: true };');
    await page.getByTestId('unsaved-badge').waitFor();
    await page.getByRole('textbox', { name: 'Session values' }).fill('{"mobile": ');
    await page.getByRole('button', { name: 'Save Function' }).click();
    await toast(page, 'Function code saved').waitFor();
    await page.getByTestId('unsaved-badge').waitFor({ state: 'detached' });
    await shoot(page, 'custom-actions-saved-desktop');
    expect((await getByApi(owner.reply.token, uuid)).code).toBe('log.info("saved version");\nreturn { saved: true };');

    // The default code is only for empty functions: two seconds on the page's clock bring no request for it.
    await page.clock.install();
    const defaultCodeRequests = countDefaultCodeRequests(page);
    await page.reload();
    await codeContent(page).filter({ hasText: 'log.info("saved version");' }).waitFor();
    await page.clock.fastForward(2_000);
    await waitForEarlierRequests(page);
    expect(defaultCodeRequests()).toBe(0);
    expect(await codeContent(page).textContent()).not.toContain(DEFAULT_CODE_MARK);
    await page.context().close();
  });

  it('Test Function runs the code in the sandbox with the session values and action results: log lines, then the output', async () => {
    const uuid = await createByApi(owner.reply.token, 'tester', '');
    page = await openEditor(uuid);
    await codeContent(page).filter({ hasText: DEFAULT_CODE_MARK }).waitFor();
    await typeCode(
      page,
      [
        'log.info("amount is " + session.inputs.amount);',
        'log.debug("mobile " + session.mobile);',
        'log.error("careful: " + input.length);',
        'return { amount: Number(session.inputs.amount), balance: actions.lookup.body.balance, ok: actions.lookup.status };',
      ].join('\n'),
    );
    await page.getByRole('textbox', { name: 'Session values' }).fill('{"mobile": "233244000111", "inputs": {"amount": "45"}}');
    await page.getByRole('button', { name: 'Test Function' }).click();
    await terminalLines(page, 'output').first().waitFor();
    expect(await terminalLines(page, 'info').allTextContents()).toEqual([expect.stringMatching(/^\[\d\d:\d\d:\d\d\]INFOamount is 45$/)]);
    expect(await terminalLines(page, 'debug').first().textContent()).toContain('mobile 233244000111');
    expect(await terminalLines(page, 'error').first().textContent()).toContain('careful: 0');
    const output = (await terminalLines(page, 'output').first().locator('span').last().textContent()) ?? '';
    expect(JSON.parse(output)).toEqual({ amount: 45, balance: 120, ok: true });
    // Log lines come first, the output last, then the prompt.
    const kinds = await terminalLog(page)
      .locator('[data-kind]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-kind')));
    expect(kinds).toEqual(['info', 'debug', 'error', 'output']);
    expect(await page.getByTestId('terminal-prompt').textContent()).toContain('Ready');
    await shoot(page, 'custom-actions-test-output-desktop');
    await page.context().close();
  });

  it('Test Function refuses invalid JSON with its message; a script error shows an error line', async () => {
    const uuid = await createByApi(owner.reply.token, 'breaker', 'return notDefinedAnywhere.value;');
    page = await openEditor(uuid);
    const results = page.getByRole('textbox', { name: 'Action results' });
    await results.fill('{"lookup": {status: true}}');
    await page.getByRole('button', { name: 'Test Function' }).click();
    await toast(page, CUSTOM_ACTION_MESSAGES.invalidJson).waitFor();
    await page.getByText('Not a valid JSON object').waitFor();
    expect(await terminalLog(page).locator('[data-kind]').count()).toBe(0);
    await shoot(page, 'custom-actions-invalid-json-desktop');

    await results.fill('{"lookup": {"status": true}}');
    await page.getByRole('button', { name: 'Test Function' }).click();
    await terminalLines(page, 'error').filter({ hasText: 'notDefinedAnywhere' }).waitFor();
    expect(await terminalLines(page, 'output').count()).toBe(0);
    // A failed run says so, with the error, never "Function ran".
    await toast(page, 'Test failed').filter({ hasText: 'notDefinedAnywhere' }).waitFor();
    expect(await toast(page, 'Function ran').count()).toBe(0);
    await shoot(page, 'custom-actions-script-error-desktop');

    // A SyntaxError too.
    await closeToasts(page);
    await typeCode(page, 'return (;');
    await page.getByRole('button', { name: 'Test Function' }).click();
    await toast(page, 'Test failed').filter({ hasText: 'SyntaxError' }).waitFor();
    await terminalLines(page, 'error').filter({ hasText: 'SyntaxError' }).waitFor();
    expect(await toast(page, 'Function ran').count()).toBe(0);
    await shoot(page, 'custom-actions-syntax-error-desktop');
    await page.context().close();
  });

  it('leaving with unsaved code asks first: Keep editing stays, Discard leaves; saved code leaves without asking', async () => {
    const uuid = await createByApi(owner.reply.token, 'leaver', 'return 1;');
    page = await openEditor(uuid);
    await typeCode(page, 'return 2;');
    await page.getByTestId('unsaved-badge').waitFor();
    const question = page.getByRole('dialog', { name: 'Discard changes?' });
    // The Back link and the sidebar both ask.
    await page.getByRole('link', { name: 'Back to List' }).click();
    await question.getByText('Your changes to this function are not saved. Discard them?').waitFor();
    await shoot(page, 'custom-actions-leave-question-desktop');
    await question.getByRole('button', { name: 'Keep editing' }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/custom-functions/${uuid}`);
    expect(await codeContent(page).textContent()).toContain('return 2;');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Templates' }).click();
    await question.getByRole('button', { name: 'Discard' }).click();
    await waitForPath(page, '/app-templates');
    expect((await getByApi(owner.reply.token, uuid)).code).toBe('return 1;');

    // Saved, the same link leaves at once.
    await page.goto(`/custom-functions/${uuid}`);
    await page.getByRole('heading', { name: /^Edit Custom Function - / }).waitFor();
    await typeCode(page, 'return 3;');
    await page.getByRole('button', { name: 'Save Function' }).click();
    await toast(page, 'Function code saved').waitFor();
    await page.getByRole('link', { name: 'Back to List' }).click();
    await waitForPath(page, '/custom-functions');
    expect(await question.count()).toBe(0);
    await page.context().close();
  });

  it('log() writes an info line; a call to something that is not a function names it and its line; the editor offers log', async () => {
    const uuid = await createByApi(owner.reply.token, 'logger', 'log("hello from log");\nlog.warn("low balance");');
    page = await openEditor(uuid);
    await page.getByRole('button', { name: 'Test Function' }).click();
    await terminalLines(page, 'error').filter({ hasText: 'log.warn is not a function' }).waitFor();
    expect(await terminalLines(page, 'info').allTextContents()).toEqual([expect.stringMatching(/INFOhello from log$/)]);
    expect(await terminalLines(page, 'error').allTextContents()).toEqual([
      expect.stringContaining('log.warn is not a function: use log(), log.info(), log.debug() or log.error() (line 2)'),
    ]);
    await shoot(page, 'custom-actions-not-a-function-desktop');

    // The completions are the sandbox's SDK: log itself is offered as a function.
    await codeContent(page).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('\nlo');
    await page.keyboard.press('Control+Space');
    const completions = page.locator('.cm-tooltip-autocomplete li');
    await completions.first().waitFor();
    expect(await completions.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^log/), expect.stringMatching(/^log\.info/)]),
    );
    await page.context().close();
  });

  it('the terminal collapses, copies its lines and clears', async () => {
    const uuid = await createByApi(owner.reply.token, 'terminal', 'log.info("copy me");\nreturn 7;');
    page = await openEditor(uuid);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.getByRole('button', { name: 'Test Function' }).click();
    await terminalLines(page, 'output').filter({ hasText: '7' }).waitFor();

    await page.getByRole('button', { name: 'Copy terminal' }).click();
    await toast(page, 'Terminal output copied to clipboard').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^\[\d\d:\d\d:\d\d\] INFO copy me\n\[\d\d:\d\d:\d\d\] OUTPUT 7$/);

    await page.getByRole('button', { name: 'Collapse terminal' }).click();
    await terminalLog(page).waitFor({ state: 'hidden' });
    await shoot(page, 'custom-actions-terminal-collapsed-desktop');
    await page.getByRole('button', { name: 'Expand terminal' }).click();
    await terminalLog(page).waitFor();

    await page.getByRole('button', { name: 'Clear terminal' }).click();
    expect(await terminalLog(page).locator('[data-kind]').count()).toBe(0);
    expect(await page.getByTestId('terminal-prompt').textContent()).toContain('Ready');
    await page.context().close();
  });

  it('Details saves the name and description apart from the code', async () => {
    const uuid = await createByApi(owner.reply.token, 'detailed', 'return "kept";');
    page = await openEditor(uuid);
    await typeCode(page, 'return "not saved";');
    await page.getByRole('tab', { name: 'Details' }).click();
    const name = page.getByRole('textbox', { name: 'Function Name' });
    await name.fill('');
    await page.getByRole('button', { name: 'Save Details' }).click();
    await page.getByText(CUSTOM_ACTION_MESSAGES.nameRequired).waitFor();
    await name.fill('renamedFunction');
    await page.getByRole('textbox', { name: 'Description' }).fill('Now with a better description');
    await page.getByRole('button', { name: 'Save Details' }).click();
    await toast(page, 'Function details saved').waitFor();
    await page.getByRole('heading', { name: 'Edit Custom Function - renamedFunction' }).waitFor();
    await shoot(page, 'custom-actions-details-desktop');

    const stored = await getByApi(owner.reply.token, uuid);
    expect(stored).toMatchObject({ actionName: 'renamedFunction', description: 'Now with a better description', code: 'return "kept";' });
    // The editor still holds the unsaved code.
    await page.getByRole('tab', { name: 'Editor' }).click();
    await codeContent(page).filter({ hasText: 'return "not saved";' }).waitFor();
    await page.context().close();
  });

  it('delete asks first, then removes the card', async () => {
    await createByApi(owner.reply.token, 'doomed', 'return 1;');
    page = await openAsOwner();
    await page.goto('/custom-functions');
    const card = page.getByRole('article', { name: 'doomed' });
    await card.getByRole('button', { name: 'Delete doomed' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete doomed' });
    await confirm.getByText('Are you sure you want to delete this custom action?').waitFor();
    await shoot(page, 'custom-actions-delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await card.waitFor();

    await card.getByRole('button', { name: 'Delete doomed' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Custom action deleted').waitFor();
    await card.waitFor({ state: 'detached' });
    const list = await callApi<Array<{ actionName: string }>>(owner.reply.token, '/api/custom-actions');
    expect(list.data.map((a) => a.actionName)).not.toContain('doomed');
    await page.context().close();
  });

  it("another account's function sends the user back to the list with the load failure", async () => {
    const uuid = await createByApi(stranger.reply.token, 'private', 'return "secret";');
    page = await openAsOwner();
    await page.goto(`/custom-functions/${uuid}`);
    await waitForPath(page, '/custom-functions');
    await toast(page, 'Failed to load function').waitFor();
    await page.getByRole('heading', { name: 'My Custom Actions' }).waitFor();
    await shoot(page, 'custom-actions-load-failed-desktop');
    await page.context().close();
  });

  it('phone width: empty list, list, create dialog, delete confirmation, editor, invalid JSON, template confirmation, test output, details', async () => {
    const newcomer = await registerAccount('Esi Newcomer');
    page = await openPage(browser, PHONE);
    await storeSession(page, newcomer.reply);
    await page.goto('/custom-functions');
    await page.getByTestId('custom-actions-empty').waitFor();
    await shoot(page, 'custom-actions-empty-phone');
    await page.context().close();

    const uuid = await createByApi(
      owner.reply.token,
      'phoneCheck',
      'log.info("from a phone");\nreturn { amount: Number(session.inputs.amount) };',
      'Checked at phone width',
    );
    page = await openAsOwner(PHONE);
    await page.goto('/custom-functions');
    await page.getByRole('article', { name: 'phoneCheck' }).waitFor();
    await shoot(page, 'custom-actions-list-phone');
    await page.getByRole('button', { name: 'New Action' }).click();
    await page.getByRole('dialog', { name: 'Create New Action' }).getByRole('button', { name: 'Create Action' }).click();
    await page.getByText(CUSTOM_ACTION_MESSAGES.nameRequired).waitFor();
    await shoot(page, 'custom-actions-create-phone');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Create New Action' }).waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'phoneCheck' }).getByRole('button', { name: 'Delete phoneCheck' }).click();
    await page.getByRole('dialog', { name: 'Delete phoneCheck' }).waitFor();
    await shoot(page, 'custom-actions-delete-confirm-phone');
    await page.getByRole('dialog', { name: 'Delete phoneCheck' }).getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/custom-functions/${uuid}`);
    await page.getByRole('heading', { name: 'Edit Custom Function - phoneCheck' }).waitFor();
    await codeContent(page).filter({ hasText: 'from a phone' }).waitFor();
    await shoot(page, 'custom-actions-editor-phone');
    const session = page.getByRole('textbox', { name: 'Session values' });
    const sessionText = await session.inputValue();
    await session.fill('{"mobile": "", inputs}');
    await page.getByRole('button', { name: 'Test Function' }).click();
    await toast(page, CUSTOM_ACTION_MESSAGES.invalidJson).waitFor();
    await shoot(page, 'custom-actions-invalid-json-phone');
    await session.fill(sessionText);
    await pickTemplate(page, 'readBalance');
    await page.getByRole('dialog').filter({ hasText: REPLACE_QUESTION }).waitFor();
    await shoot(page, 'custom-actions-template-confirm-phone');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // The invalid-JSON toast sits over the buttons at this width.
    await closeToasts(page);
    await page.getByRole('button', { name: 'Test Function' }).click();
    await terminalLines(page, 'output').first().waitFor();
    await toast(page, 'Function ran').waitFor();
    await closeToasts(page);
    await shoot(page, 'custom-actions-test-output-phone');
    await page.getByRole('tab', { name: 'Details' }).click();
    await shoot(page, 'custom-actions-details-phone');
    await page.context().close();
  });

  it('desktop: the loading skeleton of the editor and of the list', async () => {
    const uuid = await createByApi(owner.reply.token, 'slowOne', 'return 1;');
    page = await openAsOwner();
    // The replies are held until the screenshots are taken, so the skeletons stay on screen.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holdReply = async (route: Route) => {
      await released;
      await route.continue().catch(() => undefined);
    };
    await page.route('**/api/custom-action/*', holdReply);
    await page.route('**/api/custom-actions', holdReply);
    await page.goto(`/custom-functions/${uuid}`);
    await page.getByTestId('custom-action-loading').waitFor();
    await page.getByRole('heading', { name: 'Create Custom Function' }).waitFor();
    await screenshot(page, 'custom-actions-editor-loading-desktop');
    await page.goto('/custom-functions');
    await page.getByTestId('custom-actions-loading').waitFor();
    await screenshot(page, 'custom-actions-list-loading-desktop');
    release();
    await page.getByTestId('custom-actions-loading').waitFor({ state: 'detached' });
    await page.context().close();
  });
});
