import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Locator, Page, Request, Response } from 'playwright-core';
import { POLL_INTERVAL_MS } from '../../src/web/features/emulator/emulator-session';
import { createMenu, createUssdApp, type LoginReplyBody, pathOf, registerAccount, storeSession, waitForPath } from './accounts';
import {
  capture,
  DESKTOP,
  PHONE,
  baseUrl,
  describeBrowser,
  launchBrowser,
  openPage,
  waitForAnimations,
  waitForEarlierRequests,
} from './browser';

interface TemplateRow {
  appId: string;
  appName: string;
  shortCode: string;
}

interface EmulatorBody {
  session_id: string;
  userdata: string;
  msisdn: string;
  session_mode: string;
  network_id: string;
  appId: string;
}

const POLL_QUESTION = 'Which project should the community fund first?';
const POLL_THANKS = 'Thank you! Your vote for Street lights has been counted.';
const SURVEY_QUESTION = 'How happy are you with our service? Reply 1 (poor) to 5 (excellent)';
const SURVEY_ERROR = 'Reply with a number from 1 to 5';
const SURVEY_RECOMMEND = 'Would you recommend us to a friend?';
const UNAVAILABLE_NOTE = 'Logs appear here once logging is available';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const hidden = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

/** The phone's screen as the customer sees it (the viewport, not the full page, so the modal shows as it looks). */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await waitForAnimations(page); // the dialog's pop-in
  await capture(page, name, { fullPage, animations: 'disabled' });
}

async function findTemplate(name: string): Promise<TemplateRow> {
  const res = await fetch(`${baseUrl()}/featuredTemplates`);
  const reply = (await res.json()) as { status: string; data: TemplateRow[] };
  const template = reply.data.find((row) => row.appName === name);
  if (!template) throw new Error(`template ${name} is not seeded`);
  return template;
}

/** A two-menu app of the user's own: asks a name, thanks them, with a post action that leaves an action result. */
async function createOwnApp(token: string): Promise<{ appId: string; shortCode: string }> {
  const shortCode = '*920*55#';
  const appId = await createUssdApp(token, { appName: 'Kofi Shop', description: 'A shop on a shortcode', shortCode });
  const done = await createMenu(token, {
    appId,
    userDefinedName: 'done',
    displayText: 'Thanks {{ session.inputs.name }}, see you soon.',
    terminate: true,
  });
  await createMenu(token, {
    appId,
    isFirst: true,
    userDefinedName: 'name',
    displayText: 'Welcome to Kofi Shop\nWhat is your name?',
    inputHolder: 'e.g. Ama',
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
    actions: [{ actionName: 'greet', actionType: 'post', inheritsPlugin: 'javascript', code: "return { greeting: 'Akwaaba' };" }],
  });
  return { appId, shortCode };
}

const isEmulatorCall = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/ussd-emulator/');
const bodyOf = (request: Request) => request.postDataJSON() as EmulatorBody;

const menuText = (page: Page) => page.getByTestId('menu-text');
const replyInput = (page: Page) => page.getByRole('textbox', { name: 'Reply' });
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const cancelButton = (page: Page) => page.getByRole('button', { name: 'Cancel', exact: true });
const callButton = (page: Page) => page.getByRole('button', { name: 'Call', exact: true });

/** Dials and returns the start request the page sent. */
async function dial(page: Page): Promise<EmulatorBody> {
  const [request] = await Promise.all([page.waitForRequest(isEmulatorCall), callButton(page).click()]);
  await visible(page.getByTestId('menu-display'));
  return bodyOf(request);
}

/** Empties the number on the dial pad with the keyboard's Backspace. */
async function clearNumber(page: Page): Promise<void> {
  const shown = (await page.getByTestId('dial-number').textContent()) ?? '';
  for (let i = 0; i < shown.length; i += 1) await page.keyboard.press('Backspace');
  await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('Enter a USSD code');
}

/** Types a reply, sends it and waits for the next screen to show the expected text. */
async function reply(page: Page, input: string, expected: string): Promise<EmulatorBody> {
  await replyInput(page).fill(input);
  const [request] = await Promise.all([page.waitForRequest(isEmulatorCall), sendButton(page).click()]);
  await visible(menuText(page).getByText(expected, { exact: false }));
  return bodyOf(request);
}

describeBrowser('emulator', () => {
  let browser: Browser;
  let poll: TemplateRow;
  let survey: TemplateRow;
  let owner: { reply: LoginReplyBody };
  let ownApp: { appId: string; shortCode: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    [poll, survey] = await Promise.all([findTemplate('Community Poll'), findTemplate('Customer Survey')]);
    owner = await registerAccount('Kofi Mensah');
    ownApp = await createOwnApp(owner.reply.token);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('runs the Community Poll template: pre-filled shortcode, dial, reply 3, ended session, home link', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*13#');
    expect(poll.shortCode).toBe('*920*13#');
    await expect.poll(() => page.title()).toContain('Community Poll');
    // The keypad: 12 keys with the letters under 2-9, named by both ('2 ABC') as a screen reader says them.
    for (const [key, letters] of [
      ['2', 'ABC'],
      ['7', 'PQRS'],
      ['9', 'WXYZ'],
    ]) {
      expect(await page.locator(`[data-key="${key}"]`).getAttribute('aria-label')).toBeNull();
      expect(await page.getByRole('button', { name: `${key} ${letters}`, exact: true }).getAttribute('data-key')).toBe(key);
    }
    expect(await page.getByRole('button', { name: '1', exact: true }).getAttribute('data-key')).toBe('1');
    expect(await page.getByRole('group', { name: 'Dial pad' }).getByRole('button').count()).toBe(12);
    await shot(page, 'emulator-desktop-idle');

    const before = new Date();
    const start = await dial(page);
    // The id is the local time (yyyyMMddHHmmss) of the dial, then 128 random bits: it cannot be guessed.
    expect(start.session_id).toMatch(/^\d{14}-[A-Za-z0-9_-]{22}$/);
    const year = start.session_id.slice(0, 4);
    expect(Number(year)).toBe(before.getFullYear());
    // The visitor's session is bound to the browser id the server set, which page scripts cannot read.
    const [browserId] = (await page.context().cookies()).filter((cookie) => cookie.name === 'df_emulator');
    expect(browserId).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/ussd-emulator' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('df_emulator');
    expect(start).toMatchObject({
      session_mode: 'start',
      userdata: '*920*13#',
      network_id: 'MTN',
      appId: poll.appId,
      msisdn: '233241234567',
    });

    const lines = await menuText(page).locator(':scope > div').allTextContents();
    expect(lines).toEqual([POLL_QUESTION, '1. Borehole', '2. School library', '3. Street lights']);
    await expect.poll(() => replyInput(page).isVisible()).toBe(true);
    await shot(page, 'emulator-desktop-mid');

    const next = await reply(page, '3', POLL_THANKS);
    expect(next).toMatchObject({ session_id: start.session_id, session_mode: 'continue', userdata: '3' });
    expect(await menuText(page).textContent()).toBe(POLL_THANKS);
    expect(await page.getByTestId('menu-display').getAttribute('data-session-mode')).toBe('end');
    expect(await replyInput(page).count()).toBe(0);
    expect(await sendButton(page).count()).toBe(0);
    await shot(page, 'emulator-desktop-ended');

    await cancelButton(page).click();
    await hidden(page.getByTestId('menu-display'));
    expect(await page.getByTestId('dial-home').getAttribute('href')).toBe('/');
    await page.getByTestId('dial-home').click();
    await waitForPath(page, '/');
    await page.context().close();
  });

  it("opens from the home page gallery's Test Run, with the home link back to /", async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto('/');
    const gallery = page.getByRole('region', { name: 'Things you can build' });
    await gallery.getByRole('link', { name: 'Test Run Community Poll' }).click();
    await waitForPath(page, `/apptemplate/emulator/${poll.appId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*13#');
    expect(await page.getByTestId('dial-home').getAttribute('href')).toBe('/');
    await page.context().close();
  });

  it('hides the modal after a reply and shows it again no sooner than 500 ms later', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.clock.install();
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await dial(page);
    await replyInput(page).fill('1');
    // The page's clock stands still from here: only runFor moves it.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    const [answer] = await Promise.all([page.waitForResponse((r) => isEmulatorCall(r.request())), sendButton(page).click()]);
    await answer.finished();
    await hidden(page.getByTestId('menu-display'));
    await visible(page.getByRole('status').getByText('USSD code running'));
    // The answer is in; 499 ms later the phone still shows the running code, at 500 ms the new screen.
    await page.clock.runFor(499);
    expect(await page.getByTestId('menu-display').count()).toBe(0);
    await page.clock.runFor(1);
    await visible(page.getByTestId('menu-display'));
    expect(await menuText(page).textContent()).toContain('Borehole has been counted');
    await page.context().close();
  });

  it('shows the Customer Survey validation error, goes Back with 0, and Cancel ends the session', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${survey.appId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*14#');
    // No returnUrl: the home link takes the empty value, i.e. it stays on this page.
    expect(new URL((await page.getByTestId('dial-home').getAttribute('href')) ?? '', baseUrl()).pathname).toBe(
      `/apptemplate/emulator/${survey.appId}`,
    );

    // Keyboard typing works like the keys: clear, type the code, Enter to call.
    for (let i = 0; i < 8; i += 1) await page.keyboard.press('Backspace');
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('Enter a USSD code');
    await page.keyboard.type('*920*14#');
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*14#');
    const [start] = await Promise.all([page.waitForRequest(isEmulatorCall), page.keyboard.press('Enter')]);
    expect(bodyOf(start)).toMatchObject({ session_mode: 'start', userdata: '*920*14#' });
    await visible(menuText(page).getByText(SURVEY_QUESTION));

    await reply(page, '9', SURVEY_ERROR);
    expect(await menuText(page).locator(':scope > div').allTextContents()).toEqual([SURVEY_ERROR, SURVEY_QUESTION]);
    await reply(page, '4', SURVEY_RECOMMEND);
    await reply(page, '0', SURVEY_QUESTION);
    expect(await menuText(page).textContent()).toBe(SURVEY_QUESTION);

    const [end] = await Promise.all([page.waitForRequest(isEmulatorCall), cancelButton(page).click()]);
    expect(bodyOf(end)).toMatchObject({ session_mode: 'end', session_id: bodyOf(start).session_id });
    await hidden(page.getByTestId('menu-display'));
    await page.context().close();
  });

  it('rejects a number that is not a USSD code without calling the server', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await visible(callButton(page));
    let calls = 0;
    page.on('request', (request) => {
      if (isEmulatorCall(request)) calls += 1;
    });
    await page.getByRole('button', { name: 'Backspace' }).click(); // '*920*13'
    await callButton(page).click();
    await visible(page.getByRole('alert').getByText('A USSD code starts with * and ends with #'));
    await page.getByRole('button', { name: 'Hash' }).click();
    await hidden(page.getByRole('alert').getByText('A USSD code starts with'));
    expect(calls).toBe(0);
    await page.context().close();
  });

  it("runs a signed-in user's own app at /app/emulator, with logs, inputs and action results", async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.evaluate(() => localStorage.setItem('dialerMobile', '233209998877'));
    await page.goto(`/app/emulator/${ownApp.appId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe(ownApp.shortCode);
    await visible(page.getByRole('heading', { name: 'Kofi Shop' }));
    const home = await page.getByTestId('dial-home').getAttribute('href');
    expect([`/app/design/${ownApp.appId}`, '/app-list', '/get-started']).toContain(home);
    expect(await page.getByLabel('Dial Number').inputValue()).toBe('233209998877');

    const start = await dial(page);
    expect(start).toMatchObject({ session_mode: 'start', userdata: '*920*55#', msisdn: '233209998877', appId: ownApp.appId });
    expect(start.session_id).toMatch(/^\d{14}-[A-Za-z0-9_-]{22}$/);
    expect(await menuText(page).locator(':scope > div').allTextContents()).toEqual(['Welcome to Kofi Shop', 'What is your name?']);
    expect(await page.getByLabel('Dial Number').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('debug-session-id').textContent()).toBe(start.session_id);
    await reply(page, 'Ama', 'Thanks Ama, see you soon.');

    // The panels poll every 2.5 s: the session's log lines, its inputs and the action's result show up.
    const logs = page.getByTestId('action-logs');
    await visible(logs.getByText('Session started for 233209998877'), 15_000);
    await visible(page.getByTestId('debug-user-inputs').getByRole('cell', { name: 'Ama' }), 15_000);
    await visible(page.getByTestId('debug-action-results').getByText('greet', { exact: true }), 15_000);
    expect(await logs.locator('[data-level]').first().locator('span').first().textContent()).toBe('1'); // numbered lines
    const systemLine = logs.locator('[data-level="system"]').first();
    expect(await systemLine.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(248, 249, 250)'); // system: white
    const infoLine = logs.locator('[data-level="info"]').first();
    expect(await infoLine.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(116, 192, 252)'); // info: light blue
    await shot(page, 'emulator-desktop-signed-in');

    // Filters narrow the lines by level; CLEAR empties the panel.
    await logs.getByRole('button', { name: 'SYSTEM', exact: true }).click();
    const levels = await logs.locator('[data-level]').evaluateAll((els) => els.map((el) => el.getAttribute('data-level')));
    expect(levels.length).toBeGreaterThan(0);
    expect(new Set(levels)).toEqual(new Set(['system']));
    await logs.getByRole('button', { name: 'ALL', exact: true }).click();
    await logs.getByRole('button', { name: 'CLEAR', exact: true }).click();
    expect(await logs.locator('[data-level]').count()).toBe(0);
    await visible(logs.getByText('No logs yet'));
    await page.context().close();
  });

  it('sends a signed-out visitor of /app/emulator to /login', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/app/emulator/${ownApp.appId}`);
    await waitForPath(page, '/login');
    expect(pathOf(page)).toBe('/login');
    await page.context().close();
  });

  it('shows a clear not-found state for an unknown app or template', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto('/app/emulator/no-such-app-123');
    await visible(page.getByRole('heading', { name: 'App not found' }));
    await visible(page.getByText('no-such-app-123', { exact: false }));
    expect(await callButton(page).count()).toBe(0);

    await page.goto('/apptemplate/emulator/no-such-template?returnUrl=/');
    await visible(page.getByRole('heading', { name: 'Template not found' }));
    await page.getByRole('link', { name: 'Go back' }).click();
    await waitForPath(page, '/');
    await page.context().close();
  });

  it("shows the menu's input holder in the reply box, at desktop and phone width", async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openPage(browser, viewport);
      await storeSession(page, owner.reply);
      await page.goto(`/app/emulator/${ownApp.appId}`);
      await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe(ownApp.shortCode);
      await dial(page);
      expect(await replyInput(page).getAttribute('placeholder')).toBe('e.g. Ama');
      await shot(page, `emulator-${name}-input-holder`, false);
      // The next screen ends the session: no reply box, so no holder.
      await reply(page, 'Kwame', 'Thanks Kwame, see you soon.');
      expect(await replyInput(page).count()).toBe(0);
      await page.context().close();
    }
    // A menu without an input holder keeps the box empty of hints.
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await dial(page);
    expect(await replyInput(page).getAttribute('placeholder')).toBeNull();
    await page.context().close();
  });

  it('places the call and sends the reply with Enter wherever the mouse clicked last; Space still presses a focused key', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*13#');
    // Mouse on the pad: Backspace, then #. The # key now has the focus; Enter calls instead of typing # again.
    await page.getByRole('button', { name: 'Backspace' }).click();
    await page.getByRole('button', { name: 'Hash' }).click();
    const [start] = await Promise.all([page.waitForRequest(isEmulatorCall, { timeout: 5_000 }), page.keyboard.press('Enter')]);
    expect(bodyOf(start)).toMatchObject({ session_mode: 'start', userdata: '*920*13#' });
    await visible(menuText(page).getByText(POLL_QUESTION));

    // A click on the screen's text takes the focus from the reply box: typing still goes there, Enter sends it.
    await menuText(page).click();
    await page.keyboard.type('3');
    expect(await replyInput(page).inputValue()).toBe('3');
    await menuText(page).click();
    const [next] = await Promise.all([page.waitForRequest(isEmulatorCall, { timeout: 5_000 }), page.keyboard.press('Enter')]);
    expect(bodyOf(next)).toMatchObject({ session_mode: 'continue', userdata: '3', session_id: bodyOf(start).session_id });
    await visible(menuText(page).getByText(POLL_THANKS));

    // The ended screen closes with Enter too, wherever the click was.
    await menuText(page).click();
    await page.keyboard.press('Enter');
    await hidden(page.getByTestId('menu-display'));

    // Keyboard users still press a focused key with Space: it types its digit, and Enter from there calls.
    await page.locator('[data-key="5"]').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*13#5');
    await page.context().close();
  });

  it("answers a number that is not the app's code as the network does, and keeps deep dials and template codes working", async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*13#');
    await clearNumber(page);
    await page.keyboard.type('*1#');
    const [start] = await Promise.all([page.waitForRequest(isEmulatorCall), page.keyboard.press('Enter')]);
    expect(bodyOf(start)).toMatchObject({ session_mode: 'start', userdata: '*1#' });
    await visible(page.getByTestId('menu-display'));
    expect(await menuText(page).textContent()).toBe('UNKNOWN APPLICATION');
    expect(await page.getByTestId('menu-display').getAttribute('data-session-mode')).toBe('end');
    expect(await replyInput(page).count()).toBe(0);
    await shot(page, 'emulator-desktop-unknown-code', false);
    await cancelButton(page).click();
    await hidden(page.getByTestId('menu-display'));

    // Another template's code is not this one's either.
    await clearNumber(page);
    await page.keyboard.type('*920*14#');
    await dial(page);
    expect(await menuText(page).textContent()).toBe('UNKNOWN APPLICATION');
    await cancelButton(page).click();

    // A deep dial is the app's code extended: it votes for 3 in one go.
    await clearNumber(page);
    await page.keyboard.type('*920*13*3#');
    await dial(page);
    expect(await menuText(page).textContent()).toBe(POLL_THANKS);
    await page.context().close();

    // A template whose code carries tags runs on its pre-filled code and on the values dialled in its place.
    const merchant = await findTemplate('Pay a Merchant');
    const tagged = await openPage(browser, PHONE);
    await tagged.goto(`/apptemplate/emulator/${merchant.appId}?returnUrl=/`);
    await expect.poll(() => tagged.getByTestId('dial-number').textContent()).toBe('*920*12**#');
    await dial(tagged);
    expect(await menuText(tagged).textContent()).not.toBe('UNKNOWN APPLICATION');
    await cancelButton(tagged).click();
    for (let i = 0; i < 2; i += 1) await tagged.keyboard.press('Backspace'); // '*920*12*'
    await tagged.keyboard.type('77*50#');
    await dial(tagged);
    expect(await menuText(tagged).locator(':scope > div').first().textContent()).toBe('Pay GHS 50 to merchant 77?');
    await cancelButton(tagged).click();
    await clearNumber(tagged);
    await tagged.keyboard.type('*920*1#');
    await dial(tagged);
    expect(await menuText(tagged).textContent()).toBe('UNKNOWN APPLICATION');
    await shot(tagged, 'emulator-phone-unknown-code', false);
    await tagged.context().close();
  });

  it('turns a network or server error into the ended-session error text', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await page.route('**/ussd-emulator/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ status: '04', message: 'App not found' }) }),
    );
    await dial(page);
    expect(await menuText(page).textContent()).toBe('Error making webservice call : App not found');
    expect(await replyInput(page).count()).toBe(0);
    expect(await sendButton(page).count()).toBe(0);
    await cancelButton(page).click();

    await page.unroute('**/ussd-emulator/**');
    await page.route('**/ussd-emulator/**', (route) => route.abort());
    await dial(page);
    expect(await menuText(page).textContent()).toMatch(/^Error making webservice call : .+/);
    expect(await sendButton(page).count()).toBe(0);
    await page.context().close();
  });

  it('degrades the log and debug panels when their calls are missing or failing', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    const missing = (route: import('playwright-core').Route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ status: '04', message: 'No route' }) });
    await page.route('**/streamLogs', missing);
    await page.route('**/debug/**', missing);
    await page.goto(`/app/emulator/${ownApp.appId}`);
    await visible(page.getByTestId('logs-unavailable').getByText(UNAVAILABLE_NOTE), 10_000);
    await dial(page);
    await visible(page.getByTestId('debug-unavailable').first(), 10_000);
    expect(await page.getByText('Error getting logs').count()).toBe(0);

    // A call that gets no answer is a real failure: the 'Error getting logs>>' line, once, not once per poll.
    await page.unroute('**/streamLogs');
    await page.route('**/streamLogs', (route) => route.abort());
    let logPolls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/streamLogs') logPolls += 1;
    });
    const errorLine = page.getByTestId('action-logs').locator('[data-level="error"]', { hasText: 'Error getting logs>>' });
    await visible(errorLine, 10_000);
    // A poll starts only once the one before has been handled: two more starts, one more failure handled.
    const pollsAtFirstError = logPolls;
    await expect.poll(() => logPolls, { timeout: 15_000 }).toBeGreaterThanOrEqual(pollsAtFirstError + 2);
    expect(await errorLine.count()).toBe(1);
    expect(await errorLine.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 107, 107)'); // error: red
    await page.context().close();
  });

  it('shows a visitor trying a template how to see logs, without calling the sign-in-only endpoints', async () => {
    const page = await openPage(browser, DESKTOP);
    let logCalls = 0;
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/streamLogs' || path.startsWith('/debug/')) logCalls += 1;
    });
    await page.clock.install();
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await visible(page.getByTestId('logs-signed-out'));
    await dial(page);
    // Four polling periods pass on the page's clock.
    await page.clock.fastForward(4 * POLL_INTERVAL_MS);
    await waitForEarlierRequests(page);
    expect(logCalls).toBe(0);
    await visible(page.getByTestId('logs-signed-out'));
    await page.context().close();
  });

  it('stacks the panels under the phone at phone width', async () => {
    const page = await openPage(browser, PHONE);
    await storeSession(page, owner.reply);
    await page.goto(`/apptemplate/emulator/${poll.appId}?returnUrl=/`);
    await visible(callButton(page));
    const phone = await page.getByRole('group', { name: 'Dial pad' }).boundingBox();
    const logs = await page.getByTestId('action-logs').boundingBox();
    const debug = await page.getByTestId('debug-panel').boundingBox();
    expect(phone && logs && debug).toBeTruthy();
    expect(logs!.y).toBeGreaterThan(phone!.y + phone!.height);
    expect(debug!.y).toBeGreaterThan(logs!.y + logs!.height);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'emulator-phone-idle');

    await dial(page);
    await shot(page, 'emulator-phone-mid', false);
    const isPanelPoll = (prefix: string) => (response: Response) => new URL(response.url()).pathname.startsWith(prefix);
    const panelsPolled = Promise.all([page.waitForResponse(isPanelPoll('/streamLogs')), page.waitForResponse(isPanelPoll('/debug/'))]);
    await reply(page, '2', 'School library');
    await panelsPolled;
    await shot(page, 'emulator-phone-ended');
    await page.context().close();
  });
});
