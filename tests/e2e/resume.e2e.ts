import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_MESSAGES } from '../../src/shared/api/apps.schema';
import { callApi, type LoginReplyBody, registerAccount, storeSession, waitForPath } from './accounts';
import { capture, DESKTOP, describeBrowser, launchBrowser, openPage, screenshotTop, waitForAnimations } from './browser';

/**
 * Resume on redial from the console: the switch and window on Application Settings (its message, saved through
 * updateApp), then the emulator: two answers, Cancel (a dropped session), dial again, the offer, 1, the menu it was on.
 */
const OFFER = ['1. Continue where you left off', '2. Start again'];

const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });
const isEmulatorCall = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/ussd-emulator/');
const menuText = (page: Page) => page.getByTestId('menu-text');

async function createTripApp(token: string): Promise<{ appId: string }> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: 'Ama Trips',
    description: 'Bus tickets',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*66#',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const { appId } = app.data;
  const menu = async (body: Record<string, unknown>) => {
    const reply = await callApi(token, '/api/createMenu', { appId, ...body });
    if (reply.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId as string;
  };
  const done = await menu({ userDefinedName: 'done', displayText: 'Booked, {{ session.inputs.name }}.', terminate: true });
  const confirm = await menu({
    userDefinedName: 'confirm',
    displayText: '{{ session.inputs.name }} to {{ session.inputs.cityLabel }}\n1. Confirm',
    switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: done }],
  });
  const city = await menu({
    userDefinedName: 'city',
    displayText: 'Travel to?\n1. Accra\n2. Kumasi',
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: confirm }],
  });
  await menu({
    userDefinedName: 'name',
    displayText: 'Your name?',
    isFirst: true,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: city }],
  });
  return { appId };
}

/** Calls the code on the dial pad and waits for the screen. */
async function dial(page: Page): Promise<void> {
  await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Call', exact: true }).click()]);
  await visible(page.getByTestId('menu-display'));
}

async function reply(page: Page, input: string, expected: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Reply' }).fill(input);
  await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Send', exact: true }).click()]);
  await visible(menuText(page).getByText(expected, { exact: false }));
}

describeBrowser('resume on redial', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let app: { appId: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Boateng');
    app = await createTripApp(owner.reply.token);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('turns it on in Application Settings: off by default, a window outside 1 to 60 refused, then saved', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app-settings/${app.appId}`);
    const toggle = page.getByRole('switch', { name: 'Resume on redial' });
    await visible(toggle);
    expect(await toggle.isChecked()).toBe(false);
    const minutes = page.getByRole('textbox', { name: 'Resume window (minutes)' });
    expect(await minutes.inputValue()).toBe('5');
    expect(await minutes.isDisabled()).toBe(true);

    await toggle.check();
    await minutes.fill('90');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: APP_MESSAGES.resumeWindow }));
    expect(await minutes.getAttribute('aria-invalid')).toBe('true');
    await screenshotTop(page, 'resume-settings-error-desktop');

    await minutes.fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'App updated successfully' }));
    const saved = await callApi<{ resumeOnRedial: boolean; resumeWindowMinutes: number }>(
      owner.reply.token,
      `/api/getAppByAppId/${app.appId}`,
    );
    expect(saved.data).toMatchObject({ resumeOnRedial: true, resumeWindowMinutes: 3 });
    await waitForPath(page, '/app-list');

    await page.goto(`/app-settings/${app.appId}`);
    await visible(toggle);
    expect(await toggle.isChecked()).toBe(true);
    expect(await minutes.inputValue()).toBe('3');
    await screenshotTop(page, 'resume-settings-desktop');

    // The office hours card beside it (docs/inbox.md): the app's country's zone to start with, saved on its own.
    const hours = page.getByRole('form', { name: 'Office hours' });
    await hours.getByRole('switch', { name: 'Set office hours' }).click();
    expect(await hours.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Africa/Accra');
    await hours.getByRole('button', { name: 'Update office hours' }).click();
    await visible(page.getByText('Office hours saved'));
    const withHours = await callApi<{ officeHours: { timeZone: string; days: object } }>(
      owner.reply.token,
      `/api/getAppByAppId/${app.appId}`,
    );
    expect(withHours.data.officeHours).toMatchObject({ timeZone: 'Africa/Accra', days: { mon: { from: '08:00', to: '17:00' } } });
    // The settings saved before are kept.
    expect(withHours.data).toMatchObject({ resumeOnRedial: true, resumeWindowMinutes: 3 });
    await hours.scrollIntoViewIfNeeded();
    await capture(page, 'app-office-hours-desktop', { animations: 'disabled' });
    await page.context().close();
  });

  it('in the emulator: Cancel drops the session, dialling again offers it, 1 shows the menu it was on', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/emulator/${app.appId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*66#');
    await dial(page);
    await visible(menuText(page).getByText('Your name?'));
    await reply(page, 'Kwame', 'Travel to?');
    await reply(page, '2', 'Kwame to Kumasi');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByTestId('menu-display').waitFor({ state: 'hidden' });

    await dial(page);
    await visible(menuText(page).getByText(OFFER[0]));
    expect(await menuText(page).textContent()).toContain(OFFER[1]);
    await waitForAnimations(page);
    await capture(page, 'resume-emulator-offer-desktop', { animations: 'disabled' });

    await reply(page, '7', 'Invalid choice');
    await reply(page, '1', 'Kwame to Kumasi');
    await waitForAnimations(page);
    await capture(page, 'resume-emulator-resumed-desktop', { animations: 'disabled' });
    await reply(page, '1', 'Booked, Kwame.');

    // Application Logs read the same lines: the offer, and which session the new one resumed.
    await page.goto(`/app/actionlogs/${app.appId}`);
    await visible(page.getByTestId('log-line').filter({ hasText: 'Resumed from session' }));
    expect(await page.getByTestId('log-line').filter({ hasText: 'Offered to resume session' }).count()).toBe(1);
    await screenshotTop(page, 'resume-logs-desktop');
    await page.context().close();
  });
});
