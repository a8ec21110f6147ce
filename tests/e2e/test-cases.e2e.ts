import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { callApi, createMenu, createUssdApp, type LoginReplyBody, registerAccount, storeSession, waitForPath } from './accounts';
import { findViolations } from './axe';
import { capture, closeToasts, describeBrowser, holdRequests, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/** The Tests screen's own sizes, as its screenshots are looked at (a laptop, a phone). */
const LAPTOP = { width: 1280, height: 800 };
const SHORT_CODE = '*920*94#';
const WELCOME = 'Welcome to Esi Airtime\nWhat is your name?';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

/**
 * A laptop and a phone screenshot of the page as it is (the phone's drawn at its width, then the laptop's again); a
 * drawer's only as far as the window shows (a full page would leave the page below it uncovered).
 */
async function shots(page: Page, name: string, fullPage = true): Promise<void> {
  await waitForAnimations(page);
  await capture(page, `tests-${name}-1280`, { fullPage, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await waitForAnimations(page);
  await capture(page, `tests-${name}-390`, { fullPage, animations: 'disabled' });
  await page.setViewportSize(LAPTOP);
}

async function expectNoViolations(page: Page): Promise<void> {
  // Off the button just clicked: the pointer's hover shade is not what the screen shows.
  await page.mouse.move(0, 0);
  expect(await findViolations(page)).toEqual([]);
}

/** Two menus of the builder's own: the first asks a name (a script greets), the second thanks them by it. */
async function createApp(token: string): Promise<{ appId: string; firstMenu: Record<string, unknown> }> {
  const appId = await createUssdApp(token, { appName: 'Esi Airtime', description: 'Airtime on a shortcode', shortCode: SHORT_CODE });
  const done = await createMenu(token, {
    appId,
    userDefinedName: 'done',
    displayText: 'Thanks {{ session.inputs.name }}, see you soon.',
    terminate: true,
  });
  const firstMenu = {
    appId,
    isFirst: true,
    userDefinedName: 'name',
    displayText: WELCOME,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
    actions: [{ actionName: 'greet', actionType: 'post', inheritsPlugin: 'javascript', code: "return { greeting: 'Akwaaba' };" }],
  };
  return { appId, firstMenu: { ...firstMenu, uniqueId: await createMenu(token, firstMenu) } };
}

const runAll = (page: Page) => page.getByRole('button', { name: 'Run all' }).click();
const summary = (page: Page) => page.getByTestId('run-summary');

describeBrowser('saved test cases in the console', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let app: { appId: string; firstMenu: Record<string, unknown> };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Esi Tetteh');
    app = await createApp(owner.reply.token);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('records an emulator run, runs it green, shows where a changed menu differs, and passes again with {*}', async () => {
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);

    // No case yet: the screen says how to make one.
    await page.goto(`/app/tests/${app.appId}`);
    await visible(page.getByTestId('tests-empty'));
    await page.getByText('press Save as test case', { exact: false }).waitFor();
    await expectNoViolations(page);
    await shots(page, 'empty');

    // A run in the emulator, then Save as test case.
    await page.goto(`/app/emulator/${app.appId}`);
    await visible(page.getByRole('group', { name: 'Dial pad' }));
    expect(await page.getByTestId('save-test-case').count()).toBe(0);
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await visible(page.getByTestId('menu-text').getByText('What is your name?'));
    await page.getByRole('textbox', { name: 'Reply' }).fill('Ama');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await visible(page.getByTestId('menu-text').getByText('Thanks Ama, see you soon.'));
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await visible(page.getByTestId('save-test-case'));
    await waitForAnimations(page);
    await capture(page.getByTestId('debug-panel'), 'tests-emulator-save-button-1280');
    await page.getByTestId('save-test-case').click();
    const dialog = page.getByRole('dialog', { name: 'Save as test case' });
    // A name is needed first.
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText('Give the test case a name.').waitFor();
    await dialog.getByRole('textbox', { name: 'Test case name' }).fill('Greets by name');
    await waitForAnimations(page);
    await capture(page, 'tests-emulator-save-dialog-1280');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByText('Test case saved').waitFor();
    await dialog.getByText('2 steps', { exact: false }).waitFor();
    await page.setViewportSize(PHONE);
    await waitForAnimations(page);
    await capture(page, 'tests-emulator-save-dialog-390');
    await page.setViewportSize(LAPTOP);
    await dialog.getByRole('link', { name: 'Open Tests' }).click();
    await waitForPath(page, `/app/tests/${app.appId}`);

    // The recorded case: the dial and one reply, the script's reply kept.
    const row = page.getByTestId('test-case').filter({ hasText: 'Greets by name' });
    await row.getByText('2 steps · 1 recorded reply').waitFor();
    await runAll(page);
    await summary(page).getByText('1 of 1 passed', { exact: false }).waitFor();
    expect(await row.getAttribute('data-result')).toBe('passed');
    await expectNoViolations(page);
    await shots(page, 'passing');

    // The first menu's text changes: the run fails and names the first line the screen lacks.
    const changed = await callApi(owner.reply.token, '/api/updateMenu', {
      ...app.firstMenu,
      displayText: 'Welcome back to Esi Airtime\nWhat is your name?',
    });
    expect(changed.status).toBe('00');
    await runAll(page);
    await summary(page).getByText('0 of 1 passed', { exact: false }).waitFor();
    expect(await row.getAttribute('data-result')).toBe('failed');
    // The failed case opens on its steps: expected against shown, the differing line marked.
    await expect.poll(() => row.getByRole('button', { name: /^Failed: hide 1 step/ }).getAttribute('aria-expanded')).toBe('true');
    const step = row.getByTestId('step-result');
    expect(await step.count()).toBe(1);
    expect(await step.getByTestId('difference-line').textContent()).toContain('Welcome to Esi Airtime');
    await step.getByText('Line 1 of the expected screen is not on the screen shown: “Welcome to Esi Airtime”.').waitFor();
    await step.getByText('Welcome back to Esi Airtime').waitFor();
    await expectNoViolations(page);
    await shots(page, 'failing-expanded');

    // A deploy runs the cases first: refused, the failing case named; deployed anyway with a reason.
    await page.goto(`/app/design/${app.appId}`);
    await page.getByTestId('deploy-button').click();
    await page.getByTestId('deploy-confirm').click();
    const failure = page.getByTestId('deploy-test-failure');
    await visible(failure);
    expect(await failure.textContent()).toContain('Greets by name');
    expect(await page.getByTestId('deploy-anyway').isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Deploy anyway, because' }).fill('The new greeting is intended');
    await expectNoViolations(page);
    await shots(page, 'deploy-refused');
    await page.getByTestId('deploy-anyway').click();
    await page.getByText('Deployed version 1', { exact: false }).first().waitFor();
    await closeToasts(page);
    await page.goto(`/app/tests/${app.appId}`);
    await runAll(page);
    await summary(page).getByText('0 of 1 passed', { exact: false }).waitFor();

    // The expectation allows what varies: {*} on the first line.
    await row.getByRole('button', { name: 'Edit Greets by name' }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit test case' });
    const firstScreen = drawer.getByRole('textbox', { name: 'Step 1: expected screen' });
    expect(await firstScreen.inputValue()).toBe(WELCOME);
    expect(await drawer.getByRole('textbox', { name: 'Step 2: reply typed' }).inputValue()).toBe('Ama');
    // A recorded reply that is not JSON is named before anything is sent.
    const reply = drawer.getByRole('textbox', { name: 'Reply of greet (JSON)' });
    const recorded = await reply.inputValue();
    expect(JSON.parse(recorded)).toEqual({ ok: true, result: { greeting: 'Akwaaba' } });
    await reply.fill('{ ok: true }');
    await drawer.getByRole('button', { name: 'Save test case' }).click();
    await drawer.getByText('Not valid JSON', { exact: false }).waitFor();
    await reply.fill(recorded);
    await firstScreen.fill('Welcome {*}Esi Airtime\nWhat is your name?');
    await expectNoViolations(page);
    await drawer.evaluate((element) => element.scrollTo(0, 0));
    await shots(page, 'case-form', false);
    await drawer.getByRole('button', { name: 'Add a recorded reply' }).scrollIntoViewIfNeeded();
    await shots(page, 'case-form-replies', false);
    await drawer.getByRole('button', { name: 'Save test case' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await closeToasts(page);
    await runAll(page);
    await summary(page).getByText('1 of 1 passed', { exact: false }).waitFor();
    expect(await row.getAttribute('data-result')).toBe('passed');
    await page.context().close();
  }, 120_000);

  it('writes a case by hand, shows the server refusing a field inline, and deletes it after asking', async () => {
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/tests/${app.appId}`);
    await visible(page.getByTestId('test-case').first());
    await page.getByRole('button', { name: 'New test case' }).click();
    const drawer = page.getByRole('dialog', { name: 'New test case' });
    await drawer.getByRole('button', { name: 'Save test case' }).click();
    // The name is the server's to refuse: its message shows on the field.
    await drawer.getByText('Give the test case a name (at most 100 characters).').waitFor();
    await drawer.getByRole('textbox', { name: 'Name' }).fill('Unknown name');
    // Closing with changes not saved asks first.
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('dialog', { name: 'Discard changes?' }).waitFor({ state: 'detached' });
    expect(await drawer.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Unknown name');
    await drawer.getByRole('textbox', { name: 'Step 1: expected screen' }).fill('Welcome {*}Esi Airtime');
    await drawer.getByRole('button', { name: 'Add a step' }).click();
    await drawer.getByRole('textbox', { name: 'Step 2: reply typed' }).fill('Kwame');
    await drawer.getByRole('textbox', { name: 'Step 2: expected screen' }).fill('Thanks Kwame');
    await drawer.getByRole('button', { name: 'Add a step' }).click();
    await drawer.getByRole('button', { name: 'Remove step 3' }).click();
    expect(await drawer.getByTestId('step-form').count()).toBe(2);
    await drawer.getByRole('button', { name: 'Save test case' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await closeToasts(page);
    await visible(page.getByTestId('test-case').filter({ hasText: 'Unknown name' }));
    await runAll(page);
    await summary(page).getByText('2 of 2 passed', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Edit Unknown name' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit test case' });
    await edit.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Unknown name' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('test-case').filter({ hasText: 'Unknown name' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('test-case').count()).toBe(1);
    await page.context().close();
  }, 60_000);

  it('shows the list loading, a list that could not load with Try again, a run under way, and a run the server refused', async () => {
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, owner.reply);
    const casesUrl = `**/api/apps/${app.appId}/test-cases`;
    const release = await holdRequests(page, casesUrl);
    await page.goto(`/app/tests/${app.appId}`);
    await visible(page.getByLabel('Loading the test cases'));
    await shots(page, 'loading');
    await release();
    await visible(page.getByTestId('test-case').first());

    await page.route(casesUrl, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: '99', message: 'Database unavailable' }),
      }),
    );
    await page.reload();
    const failed = page.getByRole('alert').filter({ hasText: 'Test cases not loaded' });
    await failed.getByText('Database unavailable').waitFor();
    await expectNoViolations(page);
    await shots(page, 'load-error');
    await page.unroute(casesUrl);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByTestId('test-case').first());

    // A run under way: the button says so and the list waits.
    const releaseRun = await holdRequests(page, `${casesUrl}/run`);
    await runAll(page);
    await visible(page.getByTestId('run-progress').getByText('Running 1 test case against the draft…'));
    expect(await page.getByRole('button', { name: 'Running…' }).getAttribute('aria-busy')).toBe('true');
    await shots(page, 'running');
    await releaseRun();
    await summary(page).getByText('1 of 1 passed', { exact: false }).waitFor();

    await page.route(`${casesUrl}/run`, (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ status: '07', message: 'Too many attempts: wait a minute and try again.' }),
      }),
    );
    await runAll(page);
    await page.getByText('Too many attempts: wait a minute and try again.').waitFor();
    expect(await summary(page).count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
