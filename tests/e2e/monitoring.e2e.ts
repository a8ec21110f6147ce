import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, DESKTOP, PHONE, baseUrl, describeBrowser, launchBrowser, waitForAnimations } from './browser';

/**
 * The monitoring screens against real traffic: an app of three menus, two sessions completed and one left open
 * through the Africa's Talking format on the test URL, one released through Hubtel's JSON; one completed on the
 * live URL after a deploy, and one in the emulator; then each screen must show them, saying which is which.
 */
const WELCOME = 'Welcome to Kofi Shop\nWhat is your name?';
const ITEM = 'Pick an item\n1. Rice\n2. Beans';

async function createShopApp(token: string): Promise<string> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: 'Kofi Shop Monitor',
    description: 'Monitoring e2e app',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*77#',
    shortCode: '',
    baseShortCode: '',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const appId = app.data.appId;
  const menu = async (body: Record<string, unknown>) => {
    const reply = await callApi(token, '/api/createMenu', { appId, ...body });
    if (reply.status !== '00' || !reply.uniqueId) throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId;
  };
  const done = await menu({
    userDefinedName: 'done',
    displayText: 'Thanks {{ session.inputs.name }}, your order is placed.',
    terminate: true,
  });
  const item = await menu({
    userDefinedName: 'item',
    displayText: ITEM,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
  });
  await menu({
    isFirst: true,
    userDefinedName: 'name',
    displayText: WELCOME,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: item }],
    actions: [{ actionName: 'greet', actionType: 'post', inheritsPlugin: 'javascript', code: "return { greeting: 'Akwaaba' };" }],
  });
  return appId;
}

/** One Africa's Talking hop; `text` is cumulative. */
async function atHop(
  appId: string,
  sessionId: string,
  phoneNumber: string,
  text: string,
  { environment = 'test', networkCode = '62001' } = {},
): Promise<string> {
  const res = await fetch(`${baseUrl()}/ussd/${appId}/${environment}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sessionId, serviceCode: '*920*77#', phoneNumber, networkCode, text }).toString(),
  });
  return res.text();
}

/** One hop of the console's emulator, signed in as the app's owner. */
async function emulatorHop(token: string, appId: string, sessionId: string, userdata: string, mode: 'start' | 'continue'): Promise<string> {
  const res = await fetch(`${baseUrl()}/ussd-emulator/${appId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session_id: sessionId, userdata, msisdn: '233200000077', session_mode: mode, network_id: 'MTN', appId }),
  });
  return res.text();
}

async function hubtelHop(appId: string, body: Record<string, string>): Promise<string> {
  const res = await fetch(`${baseUrl()}/ussd/${appId}/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.text();
}

async function shot(page: Page, name: string): Promise<void> {
  await waitForAnimations(page);
  await capture(page, name, { fullPage: true, animations: 'disabled' });
}

/**
 * A download's text, BOM kept, read through Playwright (the browser may be another process's: no local path to
 * open). Buffer's decoding, not a TextDecoder's, which would drop the BOM the CSV check looks for.
 */
async function readDownload(download: Download): Promise<string> {
  return (await buffer(await download.createReadStream())).toString('utf8');
}

/** On a phone a table fits the screen: nothing to scroll sideways to. */
async function expectTableFits(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** The cells of a downloaded CSV (BOM first, every cell quoted; the test data has no line breaks in cells). */
function csvCells(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"')));
}

describeBrowser('monitoring screens', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId: string;
  const contexts: BrowserContext[] = [];

  async function open(path: string, viewport = DESKTOP, timezoneId?: string): Promise<Page> {
    const context = await browser.newContext({
      viewport,
      timezoneId,
      baseURL: baseUrl(),
      permissions: ['clipboard-read', 'clipboard-write'],
      acceptDownloads: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    await storeSession(page, owner.reply);
    await page.goto(path);
    await page.getByTestId('monitoring-app-name').getByText('Kofi Shop Monitor').waitFor({ timeout: 10_000 });
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kofi Mensah');
    appId = await createShopApp(owner.reply.token);
    // Two completed sessions (Africa's Talking).
    for (const [sessionId, mobile, name, choice] of [
      ['at-1', '+233241000001', 'Ama', '1'],
      ['at-2', '+233241000002', 'Kwesi', '2'],
    ]) {
      expect(await atHop(appId, sessionId, mobile, '')).toContain('CON Welcome to Kofi Shop');
      expect(await atHop(appId, sessionId, mobile, name)).toContain('CON Pick an item');
      expect(await atHop(appId, sessionId, mobile, `${name}*${choice}`)).toContain(`END Thanks ${name}`);
    }
    // One left open at the item menu: the live view's.
    expect(await atHop(appId, 'at-open', '+233241000003', '')).toContain('CON');
    expect(await atHop(appId, 'at-open', '+233241000003', 'Yaw')).toContain('CON Pick an item');
    // One released by Hubtel at the item menu: abandoned.
    const hubtel = { SessionId: 'hub-1', ServiceCode: '920', Operator: 'vodafone', Mobile: '233201000004' };
    expect(await hubtelHop(appId, { ...hubtel, Type: 'Initiation', Message: '*920*77#' })).toContain('Welcome');
    expect(await hubtelHop(appId, { ...hubtel, Type: 'Response', Message: 'Esi' })).toContain('Pick an item');
    await hubtelHop(appId, { ...hubtel, Type: 'Release', Message: '' });
    // One completed on the live URL (Telecel's network code), once deployed.
    expect((await callApi(owner.reply.token, `/api/deployChanges/${appId}`)).status).toBe('00');
    const live = { environment: 'live', networkCode: '62002' };
    expect(await atHop(appId, 'live-1', '+233201000005', '', live)).toContain('CON Welcome');
    expect(await atHop(appId, 'live-1', '+233201000005', 'Abena', live)).toContain('CON Pick an item');
    expect(await atHop(appId, 'live-1', '+233201000005', 'Abena*1', live)).toContain('END Thanks Abena');
    // One completed in the emulator.
    const token = owner.reply.token;
    expect(await emulatorHop(token, appId, 'emu-1', '*920*77#', 'start')).toContain('Welcome');
    expect(await emulatorHop(token, appId, 'emu-1', 'Efua', 'continue')).toContain('Pick an item');
    expect(await emulatorHop(token, appId, 'emu-1', '2', 'continue')).toContain('Thanks Efua');
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it('live view shows the open session after the 2 s delay', async () => {
    const page = await open(`/app/liveview/${appId}`);
    const item = page.getByTestId('live-item').filter({ hasText: '233241000003' });
    await item.waitFor({ timeout: 10_000 });
    expect(await item.textContent()).toContain('Pick an item');
    expect(await item.textContent()).toContain('at-open');
    expect(await item.getByTestId('session-source').textContent()).toBe('Test URL');
    const network = item.getByTestId('network-name');
    expect([await network.textContent(), await network.getAttribute('title')]).toEqual(['MTN', 'MTN Ghana, network code 62001']);
    await shot(page, 'monitoring-live-desktop');
    const phone = await open(`/app/liveview/${appId}`, PHONE);
    await phone.getByTestId('live-item').first().waitFor({ timeout: 10_000 });
    await shot(phone, 'monitoring-live-phone');
  });

  it('application logs: auto-load, level filter, table view, CSV, clear logs', async () => {
    const all = await callApi<{ logLevel: string }[]>(owner.reply.token, '/actionlogs/searchLogs', { appId });
    expect(all.data?.length ?? 0).toBeGreaterThan(0);
    const level = all.data![0]!.logLevel;

    const page = await open(`/app/actionlogs/${appId}`);
    await page.getByTestId('log-line').first().waitFor({ timeout: 10_000 });
    await shot(page, 'monitoring-logs-desktop');
    // Log View reads as the sessions happened: each one's start above its end, whatever their level.
    const messages = await page.getByTestId('log-line').evaluateAll((lines) => lines.map((l) => l.textContent ?? ''));
    const firstStart = messages.findIndex((m) => m.includes('Session started'));
    expect(firstStart).toBeGreaterThanOrEqual(0);
    expect(firstStart).toBeLessThan(messages.findIndex((m) => m.includes('Session ended')));

    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: level, exact: true }).click();
    expect(await page.getByRole('checkbox', { name: 'Filter by level' }).isChecked()).toBe(true);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/actionlogs/searchLogs')),
      page.getByRole('button', { name: 'Filter', exact: true }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ appId, filterByLevel: true, level });
    await request.response();
    const readLevels = () => page.getByTestId('log-line').evaluateAll((lines) => lines.map((l) => l.getAttribute('data-level')));
    await expect.poll(async () => new Set(await readLevels())).toEqual(new Set([level]));

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    expect(await page.getByRole('checkbox', { name: 'Filter by level' }).isChecked()).toBe(false);

    await page.getByText('Table View').click();
    const table = page.getByTestId('log-table');
    await table.waitFor();
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toEqual(['Time', 'Level', 'Plugin:Action:Menu', 'Message', 'Details']);
    // Table View orders by level ascending (system, debug, info, error).
    const order: Record<string, number> = { system: 0, debug: 1, info: 2, error: 3 };
    const tableLevels = (await table.locator('tbody tr td:nth-child(2)').allTextContents()).filter(Boolean).map((l) => order[l]);
    expect(tableLevels.length).toBeGreaterThan(0);
    expect(tableLevels).toEqual([...tableLevels].sort((a, b) => a! - b!));
    await table.getByRole('button', { name: 'Show details' }).first().click();
    await page.getByTestId('log-details').waitFor();
    await shot(page, 'monitoring-logs-table-desktop');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
    const csv = csvCells(await readDownload(download));
    expect(csv[0]).toEqual(['Time', 'Level', 'Plugin:Action:Menu', 'Message', 'Details']);
    expect(csv.length).toBeGreaterThan(2);

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Plugin:Action:Menu');

    const phone = await open(`/app/actionlogs/${appId}`, PHONE);
    await phone.getByTestId('log-line').first().waitFor({ timeout: 10_000 });
    await shot(phone, 'monitoring-logs-phone');

    await page.getByRole('button', { name: 'Clear Logs' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear Logs' }).click();
    await page.getByText('Logs cleared successfully').waitFor();
    expect(await page.getByTestId('log-table').getByText('No logs found').count()).toBe(1);
    const after = await callApi<unknown[]>(owner.reply.token, '/actionlogs/searchLogs', { appId });
    expect(after.data).toEqual([]);
  });

  it('dashboard: live traffic by default, test runs on request; the four cards and both charts, networks by name', async () => {
    const page = await open(`/app/dashboard/${appId}`);
    const value = (label: string) => page.getByRole('group', { name: label }).getByTestId('dashboard-card-value');
    const legend = page.getByTestId('network-legend-item');
    await value('Total Menus').waitFor({ timeout: 10_000 });
    // Live: only the session on the live URL.
    expect(await page.getByRole('radio', { name: 'Live' }).isChecked()).toBe(true);
    expect(await value('Total Menus').textContent()).toBe('3');
    expect(await value('Total Users').textContent()).toBe('1');
    expect(await value('Connected Users').textContent()).toBe('0');
    expect(await value('Transactions').textContent()).toBe('0');
    await legend.first().waitFor();
    expect(await legend.allTextContents()).toEqual(['Telecel']);
    expect(await legend.first().getAttribute('title')).toBe('Telecel Ghana (formerly Vodafone), network code 62002');
    await page.getByTestId('chart-sessions-by-hour').locator('path.recharts-rectangle').first().waitFor();
    await page.getByTestId('chart-menu-outcomes').locator('path.recharts-rectangle').first().waitFor();
    await shot(page, 'monitoring-dashboard-desktop');

    // Test runs: the test URL's sessions (Africa's Talking, Hubtel) and the emulator's.
    await page.getByText('Test runs', { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('environment') === 'test');
    await page
      .getByTestId('dashboard-environment-text')
      .getByText(/^Test runs/)
      .waitFor();
    await expect.poll(() => value('Total Users').textContent()).toBe('4');
    expect(Number(await value('Connected Users').textContent())).toBeGreaterThanOrEqual(1);
    expect(await legend.allTextContents()).toEqual(['MTN', 'Vodafone']);
    expect(await legend.first().getAttribute('title')).toBe('MTN Ghana, network code 62001; Sent by the gateway as "MTN"');
    await shot(page, 'monitoring-dashboard-test-desktop');

    const phone = await open(`/app/dashboard/${appId}?environment=test`, PHONE);
    await phone.getByTestId('chart-menu-outcomes').locator('path.recharts-rectangle').first().waitFor({ timeout: 10_000 });
    expect(await phone.getByRole('radio', { name: 'Test runs' }).isChecked()).toBe(true);
    await shot(phone, 'monitoring-dashboard-phone');
  });

  it('completed sessions: sorted by mobile, the plus button shows the inputs', async () => {
    const page = await open(`/app/completesession/${appId}`);
    const rows = page.getByTestId('session-row');
    await rows.first().waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(4);
    const mobiles = await rows.locator('td:nth-child(2)').evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent ?? ''));
    expect(mobiles).toEqual([...mobiles].sort());
    // Each row says where it came from, and names its network with the code on hover.
    const source = (mobile: string) => rows.filter({ hasText: mobile }).getByTestId('session-source').last().textContent();
    expect(await source('233241000001')).toBe('Test URL');
    expect(await source('233201000005')).toBe('Live');
    expect(await source('233200000077')).toBe('Emulator');
    const network = rows.filter({ hasText: '233201000005' }).getByTestId('network-name').last();
    expect([await network.textContent(), await network.getAttribute('title')]).toEqual([
      'Telecel',
      'Telecel Ghana (formerly Vodafone), network code 62002',
    ]);
    expect(await page.locator('thead th').allTextContents()).toEqual(['ID', 'MOBILE', 'NETWORK', 'DATE', 'SOURCE', 'ENDED', 'ACTIONS']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
    const csv = csvCells(await readDownload(download));
    expect(csv[0]).toEqual(['ID', 'MOBILE', 'NETWORK', 'NETWORK CODE', 'DATE', 'SOURCE', 'ENDED', 'GATEWAY SAID', 'INPUTS']);
    expect(csv.find((row) => row[0] === 'live-1')?.slice(1, 4)).toEqual(['+233201000005', 'Telecel', '62002']);
    expect(csv.find((row) => row[0] === 'emu-1')?.slice(2, 4)).toEqual(['MTN', '']);
    expect(csv.find((row) => row[0] === 'emu-1')?.[5]).toBe('Emulator');
    await rows
      .filter({ hasText: '233241000001' })
      .getByRole('button', { name: /Show inputs/ })
      .click();
    const inputs = page.getByTestId('session-inputs');
    await inputs.waitFor();
    expect(await inputs.locator('thead th').allTextContents()).toEqual(['Input Field', 'Data']);
    expect(await inputs.textContent()).toContain('Ama');
    await shot(page, 'monitoring-completed-desktop');
    const phone = await open(`/app/completesession/${appId}`, PHONE);
    await phone.getByTestId('session-row').first().waitFor({ timeout: 10_000 });
    await expectTableFits(phone, 'session-table');
    expect(
      await phone.getByTestId('session-row').filter({ hasText: '233241000001' }).getByTestId('session-row-details').textContent(),
    ).toMatch(/^MTN · \d{4}-\d\d-\d\d.*Test URL/);
    await shot(phone, 'monitoring-completed-phone');
  });

  it('uncompleted sessions show the menu where the dialer stopped', async () => {
    const page = await open(`/app/uncompletedsession/${appId}`);
    const row = page.getByTestId('session-row').filter({ hasText: '233201000004' });
    await row.waitFor({ timeout: 10_000 });
    await page.getByTestId('stop-menu').getByText('item', { exact: true }).first().waitFor();
    await row.getByRole('button', { name: /Show inputs/ }).click();
    expect(await page.getByTestId('session-inputs').textContent()).toContain('Esi');
    await shot(page, 'monitoring-uncompleted-desktop');
    const phone = await open(`/app/uncompletedsession/${appId}`, PHONE);
    await phone.getByTestId('session-row').first().waitFor({ timeout: 10_000 });
    await expectTableFits(phone, 'session-table');
    await shot(phone, 'monitoring-uncompleted-phone');
  });

  it('search: range required, by date, by word, flat headers, CSV and Excel downloads', async () => {
    const page = await open(`/app/search/${appId}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Please select a date range').waitFor();
    await shot(page, 'monitoring-search-empty-desktop');

    // By date: today as both ends of the range.
    await page.getByRole('button', { name: 'Date range' }).click();
    const today = page.locator('[data-today]:not([data-outside])').first();
    await today.click();
    await today.click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-table').waitFor();
    expect(await page.getByTestId('search-row').count()).toBe(5);
    expect(await page.getByTestId('search-row').filter({ hasText: '233201000004' }).getByTestId('network-name').last().textContent()).toBe(
      'Vodafone',
    );
    expect(
      await page.getByTestId('search-row').filter({ hasText: '233201000005' }).getByTestId('session-source').last().textContent(),
    ).toBe('Live');

    // The days are the viewer's own: in Nairobi (UTC+3) "today" starts at 21:00 UTC the day before.
    const nairobi = await open(`/app/search/${appId}`, DESKTOP, 'Africa/Nairobi');
    await nairobi.getByRole('button', { name: 'Date range' }).click();
    const nairobiToday = nairobi.locator('[data-today]:not([data-outside])').first();
    await nairobiToday.click();
    await nairobiToday.click();
    const [request] = await Promise.all([
      nairobi.waitForRequest((r) => r.url().endsWith('/dashboard/search')),
      nairobi.getByRole('button', { name: 'Search', exact: true }).click(),
    ]);
    const { startDate, endDate } = request.postDataJSON() as { startDate: string; endDate: string };
    expect(startDate).toMatch(/T21:00:00\.000Z$/);
    expect(endDate).toMatch(/T20:59:59\.999Z$/);
    expect(new Date(endDate).getTime() - new Date(startDate).getTime()).toBe(24 * 3600 * 1000 - 1);
    await nairobi.getByTestId('search-table').waitFor();
    expect(await nairobi.getByTestId('search-row').count()).toBe(5);
    await page.getByTestId('search-row').first().getByRole('button', { name: 'Show inputs' }).click();
    await page.getByTestId('session-inputs').waitFor();
    await shot(page, 'monitoring-search-date-desktop');

    // By word.
    await page.getByText('Search By Word').click();
    await page.getByRole('textbox', { name: 'Word' }).fill('Kwesi');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-count').getByText('1 session found').waitFor();
    expect(await page.getByTestId('search-row').first().textContent()).toContain('233241000002');

    // Flat.
    await page.getByRole('checkbox', { name: 'Flatten Results' }).check();
    await page.getByRole('textbox', { name: 'Word' }).fill('2332');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const flat = page.getByTestId('flat-table');
    await flat.waitFor();
    const headers = await flat.locator('thead th').allTextContents();
    expect(headers.slice(0, 5)).toEqual(['mobile', 'network', 'networkCode', 'date', 'source']);
    expect(headers).toContain('name');
    const liveRow = flat.locator('tbody tr').filter({ hasText: '233201000005' });
    expect(await liveRow.locator('td').nth(1).textContent()).toBe('Telecel');
    expect(await liveRow.locator('td').nth(1).getByTestId('network-name').getAttribute('title')).toBe(
      'Telecel Ghana (formerly Vodafone), network code 62002',
    );
    expect(await liveRow.locator('td').nth(4).textContent()).toBe('Live');
    await shot(page, 'monitoring-search-flat-desktop');

    // The files come from the server (every matching session, streamed), not from the rows on screen.
    const [csvDownload, csvRequest] = await Promise.all([
      page.waitForEvent('download'),
      page.waitForRequest((r) => r.url().endsWith('/dashboard/search/export') && r.postDataJSON().format === 'csv'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    expect(csvRequest.postDataJSON()).toMatchObject({ appId, searchBy: 'word', searchQuery: '2332', flatResults: true });
    expect(csvDownload.suggestedFilename()).toMatch(/\.csv$/);
    const csv = csvCells(await readDownload(csvDownload));
    expect(csv[0]).toEqual(headers);
    expect(csv.length - 1).toBe(await flat.locator('tbody tr').count());
    expect(csv.flat()).toContain('Kwesi');
    expect(csv.find((row) => row[0] === '+233201000005')?.slice(1, 3)).toEqual(['Telecel', '62002']);
    const [xlsDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Excel' }).click()]);
    expect(xlsDownload.suggestedFilename()).toMatch(/\.xls$/);
    const xml = await readDownload(xlsDownload);
    expect(xml).toContain('<Workbook');
    expect(xml).toContain('<Data ss:Type="String">Ama</Data>');

    const phone = await open(`/app/search/${appId}`, PHONE);
    await phone.getByText('Search By Word').click();
    await phone.getByRole('textbox', { name: 'Word' }).fill('2332');
    await phone.getByRole('button', { name: 'Search', exact: true }).click();
    await phone.getByTestId('search-table').waitFor();
    await expectTableFits(phone, 'search-table');
    await shot(phone, 'monitoring-search-phone');
  });

  it('the app list links to the dashboard, and the tabs move between the screens', async () => {
    const page = await open(`/app/dashboard/${appId}`);
    await page.getByRole('tab', { name: 'Completed', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/app/completesession/${appId}`);
    await page.goto('/app-list');
    await page.getByRole('link', { name: 'Monitor Kofi Shop Monitor' }).first().click();
    await page.waitForURL((url) => url.pathname === `/app/dashboard/${appId}`);
  });
});
