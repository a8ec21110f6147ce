import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, describeBrowser, DESKTOP, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * The flow map: an app with a Terminate rule, an Always goto, a back-enabled menu, an unreachable menu and a
 * goto to a deleted menu, drawn as a graph; a click opens the menu's edit form. Also a 50-menu app for readability.
 */

interface Rule {
  operator: string;
  compareVal: string;
  action: 'goto' | 'Terminate';
  actionParam: string;
}

async function shot(page: Page, name: string): Promise<void> {
  await waitForAnimations(page);
  await capture(page, name, { animations: 'disabled' });
}

const visible = (page: Page, selector: string, timeout = 15_000) => page.locator(selector).first().waitFor({ state: 'visible', timeout });
const flowNode = (page: Page, identifier: string) => page.locator(`[data-testid="flow-node"][data-menu="${identifier}"]`);

/** Where a menu's children are drawn from it: all below it, all right of it, or neither. */
async function readChildrenSide(page: Page, parent: string, children: string[]): Promise<'below' | 'right' | 'mixed'> {
  const box = async (identifier: string) => (await flowNode(page, identifier).boundingBox())!;
  const from = await box(parent);
  const boxes = await Promise.all(children.map(box));
  if (boxes.every((b) => b.y >= from.y + from.height)) return 'below';
  if (boxes.every((b) => b.x >= from.x + from.width)) return 'right';
  return 'mixed';
}

/** Rule labels that lie over another rule's line (each line sampled every 3 px) or over a box. */
function findLabelsOverLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const edges = [...document.querySelectorAll('.react-flow__edge')];
    const lines = edges.map((edge) => {
      const path = edge.querySelector<SVGPathElement>('path.react-flow__edge-path')!;
      const toScreen = path.getScreenCTM()!;
      const points: DOMPoint[] = [];
      for (let at = 0; at <= path.getTotalLength(); at += 3) {
        const p = path.getPointAtLength(at);
        points.push(new DOMPoint(p.x, p.y).matrixTransform(toScreen));
      }
      return { edge, points };
    });
    return edges.flatMap((edge) => {
      const label = edge.querySelector('.react-flow__edge-textwrapper');
      if (!label) return [];
      const box = label.getBoundingClientRect();
      return lines
        .filter((line) => line.edge !== edge)
        .filter((line) => line.points.some((p) => p.x > box.left && p.x < box.right && p.y > box.top && p.y < box.bottom))
        .map((line) => `"${label.textContent}" over ${line.edge.getAttribute('aria-label')}`)
        .concat(
          [...document.querySelectorAll('[data-testid="flow-node"]')]
            .filter((node) => {
              const n = node.getBoundingClientRect();
              return box.left < n.right && box.right > n.left && box.top < n.bottom && box.bottom > n.top;
            })
            .map((node) => `"${label.textContent}" over the box ${node.getAttribute('data-menu') ?? node.getAttribute('data-kind')}`),
        );
    });
  });
}

/** The whole box is on the screen: inside the map and inside the window, below the console's header. */
async function isWhollyOnScreen(page: Page, box: Locator): Promise<boolean> {
  const b = await box.boundingBox();
  const map = await page.getByTestId('flow-map').boundingBox();
  const windowHeight = await page.evaluate(() => window.innerHeight);
  if (!b || !map) return false;
  const inMap = b.x >= map.x && b.y >= map.y && b.x + b.width <= map.x + map.width && b.y + b.height <= map.y + map.height;
  return inMap && b.y >= 60 && b.y + b.height <= windowHeight;
}

describeBrowser('flow map', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let token = '';

  async function createApp(appName: string, shortCode: string): Promise<string> {
    const app = await callApi<{ appId: string }>(token, '/api/createApp', {
      appName,
      description: 'Flow map tests',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: shortCode,
    });
    if (app.status !== '00') throw new Error(`createApp failed: ${JSON.stringify(app)}`);
    return app.data.appId;
  }

  /** Creates a menu at the top of the list (parentMenuId null); returns its uniqueId. */
  async function createMenu(
    appId: string,
    identifier: string,
    fields: { displayText?: string; isFirst?: boolean; terminate?: boolean; allowGoBack?: boolean; rules?: Rule[] } = {},
  ): Promise<string> {
    const reply = await callApi(token, '/api/createMenu', {
      appId,
      isFirst: fields.isFirst ?? false,
      displayText: fields.displayText ?? `${identifier} screen`,
      headerText: '',
      footerText: '',
      userDefinedName: identifier,
      inputHolder: '',
      allowGoBack: fields.allowGoBack ?? false,
      goBackInputIndicator: fields.allowGoBack ? '0' : '',
      terminate: fields.terminate ?? false,
      parentMenuId: null,
      switchOperations: fields.rules ?? [],
      actions: [],
      inputValidations: [],
    });
    if (reply.status !== '00' || !reply.uniqueId) throw new Error(`createMenu ${identifier} failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId;
  }

  async function openMap(appId: string, viewport = DESKTOP): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${appId}/flow`);
    await visible(page, '[data-testid="flow-node"]');
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kwame Mapper', { plan: 'ENTERPRISE' });
    token = owner.reply.token;
  });
  afterAll(async () => {
    await browser?.close();
  });

  let appId = '';
  it('draws menus, rules, End, Back and missing targets with their marks; a click opens the edit form', async () => {
    appId = await createApp('Mapped Shop', '*920*81#');
    const goto = (target: string, operator = 'eq', compareVal = '1'): Rule => ({
      operator,
      compareVal,
      action: 'goto',
      actionParam: target,
    });
    // Each new menu goes to the top: create from the last to the first.
    await createMenu(appId, 'orphan', { displayText: 'Nobody comes here' });
    const gone = await createMenu(appId, 'gone');
    const confirm = await createMenu(appId, 'confirm', { displayText: 'Confirm airtime\n1. Yes', rules: [goto(gone)] });
    const airtime = await createMenu(appId, 'airtime', {
      displayText: 'Enter amount\n0. Back',
      allowGoBack: true,
      rules: [goto(confirm, 'always', '')],
    });
    const balance = await createMenu(appId, 'balance', { displayText: 'Your balance is GHS 10.00', terminate: true });
    await createMenu(appId, 'home', {
      isFirst: true,
      displayText: 'Welcome to Mapped Shop\n1. Balance\n2. Airtime\n3. Data\n9. Exit',
      rules: [
        goto(balance),
        goto(airtime, 'valueIn', '2,3'),
        { operator: 'eq', compareVal: '9', action: 'Terminate', actionParam: 'Goodbye and thank you' },
      ],
    });
    expect((await callApi(token, `/api/deleteMenu/${gone}`)).status).toBe('00');

    // The designer links to the map.
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${appId}`);
    await page.getByRole('link', { name: 'Flow map' }).click();
    await page.waitForURL((url) => url.pathname === `/app/design/${appId}/flow`);
    await visible(page, '[data-testid="flow-node"]');

    // 5 menus + End (home's Terminate rule) + the missing menu; 5 rules + 1 Back edge.
    expect(await page.locator('[data-testid="flow-node"]').count()).toBe(7);
    expect(await page.locator('[data-testid="flow-node"][data-kind="menu"]').count()).toBe(5);
    expect(await page.locator('[data-testid="flow-node"][data-kind="end"]').count()).toBe(1);
    expect(await page.locator('[data-testid="flow-node"][data-kind="missing"]').count()).toBe(1);
    expect(await page.locator('.react-flow__edge').count()).toBe(6);
    expect(await page.locator('.react-flow__edge.flow-edge-back').count()).toBe(1);
    expect(await page.locator('.react-flow__edge.flow-edge-terminate').count()).toBe(1);
    expect(await page.getByTestId('flow-summary').textContent()).toContain(
      '5 menus · 5 rules · 1 back link · 1 unreachable · 1 with a broken target',
    );

    // Edge labels: conditions, always, the closing text.
    const labels = await page.locator('.react-flow__edge-textwrapper, .react-flow__edge-text').allTextContents();
    const all = labels.join('|');
    for (const label of ['= 1', 'in 2,3', 'always', 'back 0', '= 9 → Goodbye']) expect(all).toContain(label);
    // A label never reaches into the next box: a long one is cut, the End box holds the closing text.
    await page.locator('[data-testid="flow-node"][data-kind="end"]').getByText('Goodbye and thank you').waitFor();

    // No label lies over another rule's line; screen readers hear each rule with identifiers, never ids.
    expect(await findLabelsOverLines(page)).toEqual([]);
    const described = await page.locator('.react-flow__edge').evaluateAll((edges) => edges.map((e) => e.getAttribute('aria-label')));
    expect(described).toEqual(
      expect.arrayContaining([
        "Option 1 'Balance' from home to balance",
        'Rule in 2,3 from home to airtime',
        "Option 9 'Exit' from home ends the session: Goodbye and thank you",
        'Always from airtime to confirm',
        "Option 1 'Yes' from confirm to a missing menu",
        'Back (0) from airtime to home',
      ]),
    );
    for (const label of described) expect(label).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|Edge from/);

    // Marks.
    expect(await flowNode(page, 'home').getAttribute('data-badges')).toBe('First');
    expect(await flowNode(page, 'balance').getAttribute('data-badges')).toBe('Terminate');
    expect(await flowNode(page, 'airtime').getAttribute('data-badges')).toBe('Back');
    await flowNode(page, 'airtime').getByText('Back 0').waitFor();
    expect(await flowNode(page, 'orphan').getAttribute('data-badges')).toBe('Unreachable');
    expect(await flowNode(page, 'confirm').getAttribute('data-badges')).toContain('Broken target');
    await flowNode(page, 'home').getByText('Welcome to Mapped Shop').waitFor();
    await visible(page, '[data-testid="flow-legend"]');
    await visible(page, '.react-flow__minimap');
    await visible(page, '.react-flow__controls');
    await shot(page, 'flowmap-desktop');

    // A click opens that menu's edit form beside the map; the End node opens its menu's rules.
    await flowNode(page, 'airtime').click();
    const panel = page.getByTestId('flow-panel');
    await panel.getByText('Edit menu airtime', { exact: true }).waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="flow-node"][data-kind="end"]').click();
    await panel.getByText('Edit menu home', { exact: true }).waitFor();
    expect(await panel.getByRole('tab', { name: /Navigation/ }).getAttribute('aria-selected')).toBe('true');
    await shot(page, 'flowmap-desktop-panel');
    await page.context().close();
  });

  it('reads only on a phone, where a tap opens the menu in the menu list', async () => {
    const page = await openMap(appId, PHONE);
    expect(await page.locator('[data-testid="flow-node"]').count()).toBe(7);
    await page.getByTestId('flow-read-only').waitFor();
    expect(await page.getByRole('button', { name: 'Add menu', exact: true }).count()).toBe(0);
    expect(await page.getByTestId('flow-rule-handle').count()).toBe(0);
    await shot(page, 'flowmap-phone');
    await flowNode(page, 'airtime').click();
    await page.waitForURL((url) => url.pathname === `/app/design/${appId}`);
    await page.getByTestId('menu-edit-form').getByText('Edit menu airtime', { exact: true }).waitFor({ timeout: 15_000 });
    await page.context().close();
  });

  /** The app's menus as saved, by identifier. */
  type SavedMenu = {
    uniqueId: string;
    userDefinedName: string;
    displayText: string;
    isFirst: boolean;
    switchOperations: Rule[];
    mapPosition?: object | null;
  };
  async function readMenus(id: string): Promise<Map<string, SavedMenu>> {
    const reply = await callApi<SavedMenu[]>(token, `/api/getAllMenus/${id}`);
    return new Map(reply.data.map((m) => [m.userDefinedName, m]));
  }

  /** Resolves once the element has stopped moving (the map glides to fit a new menu in). */
  async function waitForStill(target: Locator): Promise<void> {
    let last = '';
    await expect
      .poll(async () => {
        const box = JSON.stringify(await target.boundingBox());
        const still = box === last;
        last = box;
        return still;
      })
      .toBe(true);
  }

  /** Drags with the mouse from one element's centre to another's, in steps, as a hand would. */
  async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
    await waitForStill(from);
    await waitForStill(to);
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 20, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  // A whole journey (build, rewire, undo, place, run, show path): minutes on a loaded machine, not the usual minute.
  it('builds a four-menu app on the map alone, rewires a rule, undoes, and the app runs in the emulator', async () => {
    const canvasId = await createApp('Canvas Shop', '*920*84#');
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${canvasId}/flow`);
    await page.getByTestId('flow-empty').waitFor({ timeout: 15_000 });
    const panel = page.getByTestId('flow-panel');

    /** The side panel's form: identifier, text, Terminate; Save; the new box on the map. */
    async function addMenu(identifier: string, text: string, terminate = false) {
      await panel.getByText('New menu', { exact: true }).waitFor();
      await panel.getByRole('textbox', { name: 'Menu identifier' }).fill(identifier);
      await panel.getByRole('textbox', { name: 'Menu text' }).fill(text);
      if (terminate) await panel.getByLabel('Terminate').check();
      await panel.getByRole('button', { name: 'Save', exact: true }).click();
      await flowNode(page, identifier).waitFor({ timeout: 15_000 });
      await panel.waitFor({ state: 'detached' });
    }
    await page.getByRole('button', { name: 'Add the first menu' }).click();
    await addMenu('home', 'Welcome to Canvas Shop\n1. Balance\n2. Airtime');
    await page.getByRole('button', { name: 'Add menu', exact: true }).click();
    await addMenu('balance', 'Your balance is GHS 10.00', true);
    await page.getByRole('button', { name: 'Add menu', exact: true }).click();
    await addMenu('airtime', 'Enter amount');
    await page.getByRole('button', { name: 'Add menu', exact: true }).click();
    await addMenu('done', 'Sent {{ session.inputs.airtime }} cedis of airtime', true);
    expect(await flowNode(page, 'home').getAttribute('data-badges')).toContain('First');
    expect(await flowNode(page, 'airtime').getAttribute('data-badges')).toContain('Unreachable');

    /** A dot dragged to a menu: the rule dialog opens prefilled; Add rule saves it. */
    const dialog = page.getByRole('dialog', { name: 'New navigation rule' });
    async function drawRule(from: Locator, to: string, expected: { operator: string; value?: string }) {
      await drag(page, from, flowNode(page, to));
      await dialog.waitFor();
      expect(await dialog.getByLabel('Operator', { exact: true }).inputValue()).toBe(expected.operator);
      if (expected.value !== undefined) expect(await dialog.getByLabel('Compare value').inputValue()).toBe(expected.value);
      await dialog.getByRole('button', { name: 'Add rule' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    const option = (menu: string, n: string) => flowNode(page, menu).locator(`[data-testid="flow-option-handle"][data-option="${n}"]`);
    await drawRule(option('home', '1'), 'balance', { operator: 'equal to', value: '1' });
    // Option 2 drawn to the wrong menu first: rewired below.
    await drawRule(option('home', '2'), 'balance', { operator: 'equal to', value: '2' });
    await drawRule(flowNode(page, 'airtime').getByTestId('flow-rule-handle'), 'done', { operator: 'always' });
    await expect.poll(() => page.locator('.react-flow__edge.flow-edge-rule').count()).toBe(3);
    // Option 1 again: the dialog says the rule would never run; Cancel changes nothing.
    await drag(page, option('home', '1'), flowNode(page, 'airtime'));
    await dialog.getByTestId('flow-rule-duplicate').getByText('Rule 1 of home has the same condition', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    let saved = await readMenus(canvasId);
    const ids = Object.fromEntries([...saved].map(([name, m]) => [name, m.uniqueId]));
    expect(saved.get('home')!.switchOperations).toEqual([
      { operator: 'eq', compareVal: '1', action: 'goto', actionParam: ids.balance },
      { operator: 'eq', compareVal: '2', action: 'goto', actionParam: ids.balance },
    ]);
    expect(saved.get('airtime')!.switchOperations).toEqual([{ operator: 'always', compareVal: '', action: 'goto', actionParam: ids.done }]);

    // Rewire: the end of home's rule 2 dragged from balance to airtime.
    const ruleEdge = (menu: string, index: number) => page.locator(`.react-flow__edge[data-id="rule:${ids[menu]}:${index}"]`);
    await drag(page, ruleEdge('home', 1).locator('.react-flow__edgeupdater-target'), flowNode(page, 'airtime'));
    await expect.poll(async () => (await readMenus(canvasId)).get('home')!.switchOperations[1]!.actionParam).toBe(ids.airtime);
    await expect.poll(() => flowNode(page, 'airtime').getAttribute('data-badges')).not.toContain('Unreachable');

    // Delete a rule from its bar, then Undo brings it back.
    await ruleEdge('home', 1).locator('.react-flow__edge-textwrapper, .react-flow__edge-text').first().click();
    const bar = page.getByTestId('flow-rule-bar');
    await bar.getByText('rule 2: = 2', { exact: false }).waitFor();
    await shot(page, 'flowmap-edit-rule-bar');
    await bar.getByRole('button', { name: 'Delete rule' }).click();
    await expect.poll(async () => (await readMenus(canvasId)).get('home')!.switchOperations.length).toBe(1);
    await page.getByTestId('flow-undo').click();
    await expect.poll(async () => (await readMenus(canvasId)).get('home')!.switchOperations[1]?.actionParam).toBe(ids.airtime);

    // Delete a menu (the usual question names the rule that leads there); Undo creates it again and the rule follows.
    await flowNode(page, 'done').click();
    await panel.getByRole('button', { name: 'Delete menu' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete done' });
    await confirm.getByTestId('delete-menu-referrers').getByText('airtime', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await flowNode(page, 'done').waitFor({ state: 'detached' });
    await page.getByTestId('flow-undo').click();
    await flowNode(page, 'done').waitFor();
    await expect
      .poll(async () => {
        const now = await readMenus(canvasId);
        return now.get('airtime')!.switchOperations[0]!.actionParam === now.get('done')!.uniqueId;
      })
      .toBe(true);
    saved = await readMenus(canvasId);
    expect(saved.get('done')!.uniqueId).not.toBe(ids.done);
    expect([...saved.keys()]).toEqual(['home', 'balance', 'airtime', 'done']);

    // Make first, and back.
    await flowNode(page, 'balance').click();
    await panel.getByRole('button', { name: 'Make first' }).click();
    await expect.poll(async () => (await readMenus(canvasId)).get('balance')!.isFirst).toBe(true);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await readMenus(canvasId)).get('home')!.isFirst).toBe(true);
    await shot(page, 'flowmap-built-on-canvas');

    // A box dragged stays where it was put, after a reload too; Tidy up lays it out again.
    const boxOf = async (identifier: string) => (await flowNode(page, identifier).boundingBox())!;
    const before = await boxOf('balance');
    // Up to the top of the map, above home.
    const mapBox = (await page.getByTestId('flow-map').boundingBox())!;
    const grip = (await flowNode(page, 'balance').getByText('balance', { exact: true }).boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + 30, grip.y - 20, { steps: 4 });
    await page.mouse.move(grip.x + 30, mapBox.y + 24, { steps: 12 });
    await page.mouse.up();
    await expect.poll(async () => (await readMenus(canvasId)).get('balance')!.mapPosition ?? null).not.toBeNull();
    const placed = await boxOf('balance');
    expect(Math.abs(placed.y - before.y)).toBeGreaterThan(100);
    await page.reload();
    await flowNode(page, 'balance').waitFor({ timeout: 15_000 });
    const relative = async () => {
      const [a, b] = [await boxOf('balance'), await boxOf('home')];
      return { dx: Math.round(a.x - b.x), dy: Math.round(a.y - b.y) };
    };
    const placedRelative = await relative();
    expect(placedRelative.dy).toBeLessThan(0); // dragged up, above home
    await page.getByRole('button', { name: 'Tidy up' }).click();
    await expect.poll(async () => (await readMenus(canvasId)).get('balance')!.mapPosition ?? null).toBeNull();
    await expect.poll(async () => (await relative()).dy).toBeGreaterThan(0);

    // The menu list shows the same menus and rules.
    await page.goto(`/app/design/${canvasId}`);
    await page.getByTestId('menu-card').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('menu-card').count()).toBe(4);
    expect(await page.getByTestId('menu-broken-rules').count()).toBe(0);

    // And the app runs: dial, 2, an amount.
    await page.goto(`/app/emulator/${canvasId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*84#');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByTestId('menu-text').getByText('Welcome to Canvas Shop').waitFor({ timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Reply' }).fill('2');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('menu-text').getByText('Enter amount').waitFor({ timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Reply' }).fill('5');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('menu-text').getByText('Sent 5 cedis of airtime').waitFor({ timeout: 15_000 });

    // Show path: from the emulator to the map, with the menus the session was shown and the rules it took.
    await page.getByTestId('debug-show-path').click();
    await page.waitForURL((url) => url.pathname === `/app/design/${canvasId}/flow` && url.searchParams.has('session'));
    const banner = page.getByTestId('flow-path');
    await banner.getByText('3 screens, 2 rules taken; the app ended it.').waitFor({ timeout: 15_000 });
    expect(await flowNode(page, 'home').getAttribute('data-path')).toBe('1');
    expect(await flowNode(page, 'airtime').getAttribute('data-path')).toBe('2');
    expect(await flowNode(page, 'done').getAttribute('data-path')).toBe('3');
    expect(await flowNode(page, 'balance').getAttribute('data-path')).toBeNull();
    expect(await page.locator('.react-flow__edge.flow-edge-on-path').count()).toBe(2);
    await shot(page, 'flowmap-session-path');
    await banner.getByRole('button', { name: 'Clear path' }).click();
    await expect.poll(() => page.locator('[data-testid="flow-node"][data-path]').count()).toBe(0);

    // And from the completed sessions' list.
    await page.goto(`/app/completesession/${canvasId}`);
    await page.getByTestId('session-show-path').first().click();
    await banner.getByText('3 screens', { exact: false }).waitFor({ timeout: 15_000 });
    await page.context().close();
  }, 180_000);

  it('a form saved over a change made elsewhere still saves, says so, and Undo brings the other change back', async () => {
    const twoTabsId = await createApp('Two Tabs', '*920*85#');
    const home = await createMenu(twoTabsId, 'home', { isFirst: true, displayText: 'Welcome', terminate: true });
    const page = await openMap(twoTabsId);
    await flowNode(page, 'home').click();
    const panel = page.getByTestId('flow-panel');
    await panel.getByText('Edit menu home', { exact: true }).waitFor();
    // Another tab saves the same menu meanwhile.
    const elsewhere = await callApi(token, '/api/updateMenu', {
      appId: twoTabsId,
      uniqueId: home,
      userDefinedName: 'home',
      displayText: 'Welcome from the other tab',
      terminate: true,
    });
    expect(elsewhere.status).toBe('00');
    await panel.getByRole('textbox', { name: 'Menu text' }).fill('Welcome from the map');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('had been changed in another tab or by a teammate since you opened it', { exact: false }).waitFor();
    await shot(page, 'flowmap-changed-elsewhere');
    const text = async () => (await readMenus(twoTabsId)).get('home')!.displayText;
    expect(await text()).toBe('Welcome from the map');
    await page.getByTestId('flow-undo').click();
    await expect.poll(text).toBe('Welcome from the other tab');
    await page.context().close();
  });

  it('an app without menus shows the empty state', async () => {
    const emptyId = await createApp('Empty Map', '*920*82#');
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${emptyId}/flow`);
    await page.getByTestId('flow-empty').waitFor({ timeout: 15_000 });
    await page.context().close();
  });

  it('a menu added comes wholly on screen, even where the map runs below the fold', async () => {
    const shortId = await createApp('Short Window', '*920*86#');
    await createMenu(shortId, 'about', { displayText: 'Short Window sells airtime' });
    const thanks = await createMenu(shortId, 'thanks', { displayText: 'Thank you', terminate: true });
    await createMenu(shortId, 'home', {
      isFirst: true,
      displayText: 'Welcome\n1. Thanks',
      rules: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: thanks }],
    });
    // A laptop's short window, where the map's lower part is below the fold; left to right, a new menu (no rule
    // leads to it yet) goes under the others in the first column.
    const page = await openMap(shortId, { width: 1366, height: 600 });
    await page.getByText('Left to right', { exact: true }).click();
    await page.getByRole('button', { name: 'Add menu', exact: true }).click();
    const panel = page.getByTestId('flow-panel');
    await panel.getByRole('textbox', { name: 'Menu identifier' }).fill('help');
    await panel.getByRole('textbox', { name: 'Menu text' }).fill('Call 0800 100 200 for help');
    // Saved with the page at its top (a click would first scroll the page to the button, as Playwright does).
    await page.evaluate(() => window.scrollTo(0, 0));
    await panel.getByRole('button', { name: 'Save', exact: true }).dispatchEvent('click');
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => isWhollyOnScreen(page, flowNode(page, 'help'))).toBe(true);
    await shot(page, 'flowmap-added-on-screen');
    await page.context().close();
  });

  it('lays out 50 menus', async () => {
    const bigId = await createApp('Fifty Menus', '*920*83#');
    const ids: string[] = new Array(50);
    // Children first (each new menu goes to the top), so every goto has its target.
    for (let i = 49; i >= 0; i--) {
      const children = [i * 3 + 1, i * 3 + 2, i * 3 + 3].filter((c) => c < 50);
      const rules: Rule[] = children.map((c, k) => ({ operator: 'eq', compareVal: String(k + 1), action: 'goto', actionParam: ids[c]! }));
      if (i % 4 === 0) rules.push({ operator: 'eq', compareVal: '9', action: 'Terminate', actionParam: 'Thank you' });
      const text = `Menu ${i}\n${children.map((c, k) => `${k + 1}. Option ${c}`).join('\n')}`;
      ids[i] = await createMenu(bigId, `menu${i}`, {
        isFirst: i === 0,
        displayText: children.length ? text : `Menu ${i}: done`,
        terminate: children.length === 0 && i % 2 === 0,
        allowGoBack: i % 2 === 1,
        rules,
      });
    }
    const page = await openMap(bigId, { width: 1600, height: 1000 });
    // Zoomed in, the boxes out of view are not drawn: the fit view shows (and draws) all of them.
    await page.locator('.react-flow__controls-fitview').click();
    await expect.poll(() => page.locator('[data-testid="flow-node"][data-kind="menu"]').count()).toBe(50);
    // Top to bottom first: a menu's children in the row below it; left to right, in the column right of it.
    expect(await readChildrenSide(page, 'menu0', ['menu1', 'menu2', 'menu3'])).toBe('below');
    expect(await readChildrenSide(page, 'menu5', ['menu16', 'menu17', 'menu18'])).toBe('below');
    await shot(page, 'flowmap-50-desktop');
    await page.getByText('Left to right', { exact: true }).click();
    await page.locator('.react-flow__controls-fitview').click();
    await expect.poll(() => readChildrenSide(page, 'menu0', ['menu1', 'menu2', 'menu3'])).toBe('right');
    expect(await readChildrenSide(page, 'menu5', ['menu16', 'menu17', 'menu18'])).toBe('right');
    expect(await page.locator('[data-testid="flow-node"][data-kind="menu"]').count()).toBe(50);
    await shot(page, 'flowmap-50-desktop-lr');

    // "Find a menu" centres the map on the menu chosen and rings it; clearing it takes the ring away.
    const find = page.getByRole('combobox', { name: 'Find a menu' });
    await find.fill('menu47');
    await page.getByRole('option', { name: 'menu47', exact: true }).click();
    await expect.poll(() => flowNode(page, 'menu47').getAttribute('data-found')).toBe('true');
    expect(await page.locator('[data-testid="flow-node"][data-found="true"]').count()).toBe(1);
    const map = (await page.getByTestId('flow-map').boundingBox())!;
    const centreOf = async () => {
      const box = (await flowNode(page, 'menu47').boundingBox())!;
      return {
        dx: Math.abs(box.x + box.width / 2 - (map.x + map.width / 2)),
        dy: Math.abs(box.y + box.height / 2 - (map.y + map.height / 2)),
      };
    };
    // The view moves there (a 300 ms animation): the menu ends up in the middle of the map.
    await expect
      .poll(async () => {
        const c = await centreOf();
        return c.dx < 20 && c.dy < 20;
      })
      .toBe(true);
    await shot(page, 'flowmap-50-find');
    // Mantine's clear button is a mouse shortcut (aria-hidden, out of the tab order; the keyboard picks another menu).
    await page.locator('button[aria-label="Clear the menu search"]').click();
    await expect.poll(() => page.locator('[data-testid="flow-node"][data-found="true"]').count()).toBe(0);
    await find.fill('no such menu');
    await page.getByText('No menu by that name').waitFor();
    await page.context().close();
  });
});
