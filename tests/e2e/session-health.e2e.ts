import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, loginByApi, storeSession } from './accounts';
import { findViolations } from './axe';
import {
  capture,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotTop,
  screenshotViewport,
} from './browser';
import { HEALTH_USER } from './fixtures';

/**
 * The dashboard's session health panels (docs/monitoring.md, "Session health") over the finished sessions global
 * setup seeds for HEALTH_USER's app (tests/e2e/session-health-seed.ts says which figures they make): why sessions
 * ended, drop-off by menu, networks, response time against each gateway's budget; a cause's link to its sessions;
 * the empty, loading and error states; at 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const visible = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'visible', timeout });
const cellTexts = (rows: Locator) =>
  rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent?.trim() ?? '')));

describeBrowser('session health on the dashboard', () => {
  let browser: Browser;
  let appId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const { token } = await loginByApi(HEALTH_USER);
    const apps = await callApi<Array<{ appId: string; appName: string }>>(token, '/api/getAllApps');
    appId = apps.data.find((app) => app.appName === HEALTH_USER.appName)!.appId;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openDashboard(viewport = WIDE, query = ''): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, await loginByApi(HEALTH_USER));
    await page.goto(`/app/dashboard/${appId}${query}`);
    return page;
  }

  it('shows why sessions ended, drop-off by menu, networks and response time against each budget', async () => {
    for (const [width, viewport] of [
      ['desktop', WIDE],
      ['phone', PHONE],
    ] as const) {
      const page = await openDashboard(viewport);
      const causes = page.getByTestId('health-causes');
      await visible(causes.getByTestId('cause-row').first());
      const byCause = await causes
        .getByTestId('cause-row')
        .evaluateAll((rows) =>
          rows.map((row) => [row.getAttribute('data-cause'), row.querySelector('[data-testid="cause-sessions"]')?.textContent]),
        );
      expect(byCause).toEqual([
        ['completed', '2'],
        ['terminated', '1'],
        ['timed_out', '2'],
        ['network_error', '1'],
        ['budget_exceeded', '1'],
        ['none', '1'],
      ]);
      expect(await causes.getByTestId('cause-row').last().textContent()).toContain('Not recorded');

      const menus = page.getByTestId('health-menus');
      await visible(menus.locator('path.recharts-rectangle').first());
      await menus.getByRole('button', { name: 'Show as table' }).click();
      const menuTable = menus.getByTestId('table-health-menus');
      expect(await menuTable.locator('thead th').allTextContents()).toEqual([
        'Menu',
        'Completed',
        'Terminated by a menu',
        'Timed out',
        'Network error',
        'Budget exceeded',
        'Not recorded',
        'Total',
      ]);
      expect(await cellTexts(menuTable.locator('tbody tr'))).toEqual([
        ['pay', '0', '0', '2', '1', '1', '0', '4'],
        ['home', '2', '1', '0', '0', '0', '0', '3'],
        ['before the first menu', '0', '0', '0', '0', '0', '1', '1'],
      ]);
      await menus.getByRole('button', { name: 'Show as chart' }).click();

      const networks = page.getByTestId('health-networks').getByTestId('network-row');
      expect((await cellTexts(networks)).map((cells) => cells.slice(0, 4))).toEqual([
        ['MTN', '5', '50%', '300 ms'],
        ['Telecel', '3', '33%', '4.5 s'],
      ]);

      const latency = page.getByTestId('health-latency');
      const gateway = (name: string) => latency.locator(`[data-gateway="${name}"]`);
      expect(await gateway('africastalking').getByTestId('gateway-over-budget').textContent()).toBe('Budget 15 s · 1 of 5 hops over');
      expect(await gateway('hubtel').getByTestId('gateway-over-budget').textContent()).toBe('Budget 4 s · 2 of 3 hops over');
      // The budget's line is drawn on the chart (its label names it).
      await gateway('hubtel').locator('.recharts-reference-line-line').first().waitFor({ state: 'attached', timeout: 15_000 });
      expect(await gateway('hubtel').getByTestId('series-legend').textContent()).toContain('Budget 4 s');
      await gateway('africastalking').getByRole('button', { name: 'Show as table' }).click();
      expect(await cellTexts(gateway('africastalking').getByTestId('table-gateway-latency').locator('tbody tr'))).toEqual([
        ['Middle (p50)', '300', '150', '50', '15000'],
        ['Slowest 5% (p95)', '12880', '880', '12040', '15000'],
      ]);
      await gateway('africastalking').getByRole('button', { name: 'Show as chart' }).click();
      expect(await cellTexts(latency.getByTestId('slow-action'))).toEqual([
        ['charge on pay', '3', '13.9 s', '2'],
        ['checkBalance on home', '3', '3.7 s', '0'],
      ]);

      await expectNoSidewaysScroll(page);
      // Away from the last button clicked: axe reads the page as it rests, not a hovered button's colours.
      await page.mouse.move(0, 0);
      if (width === 'desktop') expect(await findViolations(page)).toEqual([]);
      await screenshotTop(page, `health-dashboard-${width}`);
      for (const card of ['health-causes', 'health-menus', 'health-networks', 'health-latency'])
        await capture(page.getByTestId(card), `${card}-${width}`);
      await page.context().close();
    }
  });

  it("a cause leads to its sessions, which show the gateway's words; the list filters by cause", async () => {
    for (const [width, viewport] of [
      ['desktop', WIDE],
      ['phone', PHONE],
    ] as const) {
      const page = await openDashboard(viewport);
      await page.getByTestId('health-causes').getByRole('link', { name: 'Network error' }).click();
      await expect
        .poll(() => new URL(page.url()).pathname + new URL(page.url()).search)
        .toBe(`/app/uncompletedsession/${appId}?cause=network_error`);
      const rows = page.getByTestId('session-row');
      await visible(rows.first());
      expect(await rows.count()).toBe(1);
      const said = '"Subscriber absent" · 12 s by its clock · cost KES 0.0500';
      if (width === 'desktop') {
        expect(await rows.first().getByTestId('end-cause').textContent()).toBe(`Network error${said}`);
      } else {
        expect(await rows.first().getByTestId('session-row-details').textContent()).toContain('Network error');
        await rows
          .first()
          .getByRole('button', { name: /^Show inputs/ })
          .click();
        expect(await page.getByTestId('gateway-ending-details').textContent()).toBe(`The gateway said: ${said}`);
      }
      await expectNoSidewaysScroll(page);
      await screenshot(page, `health-uncompleted-network-error-${width}`);
      // Another cause from the filter: the two timed-out sessions.
      await page.getByTestId('session-cause-filter').click();
      await page.getByRole('option', { name: 'Timed out' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('cause')).toBe('timed_out');
      await expect.poll(() => rows.count()).toBe(2);
      await page.context().close();
    }
  });

  it('says so when the period has no sessions, while the figures load, and when they cannot be read', async () => {
    const empty = await openDashboard(PHONE, '?environment=test');
    const panel = empty.getByTestId('session-health');
    await visible(panel.getByTestId('health-empty').first());
    expect(await panel.getByTestId('health-empty').allTextContents()).toEqual(Array(4).fill('No sessions in the last 24 hours'));
    await panel.scrollIntoViewIfNeeded();
    await screenshotViewport(empty, 'health-dashboard-empty-phone');
    await empty.context().close();

    const page = await openPage(browser, PHONE);
    await storeSession(page, await loginByApi(HEALTH_USER));
    const release = await holdRequests(page, '**/api/dashboard/sessionHealth/**');
    await page.goto(`/app/dashboard/${appId}`);
    const loading = page.getByTestId('session-health');
    await visible(loading.getByTestId('health-loading').first());
    await loading.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'health-dashboard-loading-phone');
    await release();
    await visible(loading.getByTestId('cause-row').first());

    await page.route('**/api/dashboard/sessionHealth/**', (route) => route.abort());
    await page.locator('label', { hasText: '7 days' }).first().click();
    await visible(loading.getByTestId('session-health-error'), 20_000);
    await loading.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'health-dashboard-error-phone');
    await page.unroute('**/api/dashboard/sessionHealth/**');
    await loading.getByRole('button', { name: 'Try again' }).click();
    await visible(loading.getByTestId('cause-row').first());
    await page.context().close();
  });
});
