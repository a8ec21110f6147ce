import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerAccount, waitForPath } from './accounts';
import { describeBrowser, DESKTOP, launchBrowser, openPage, screenshot, waitForAnimations } from './browser';

/**
 * The builder's main journey with the keyboard alone: after the first page.goto, only page.keyboard (Tab,
 * Shift+Tab, Enter, Space, arrows, Escape, typing). Sign in, create an app, add three menus with a rule and a
 * validation, reorder them, deploy, run the app in the emulator with the keyboard and its dial pad, open the
 * logs. Every stop of the focus must show that it has it, and a closed dialog gives the focus back to a
 * sensible place. Locators only read the page and say where the focus must go; they never act.
 */

const SHORT_CODE = '*920*47#';

interface FocusState {
  description: string;
  isShown: boolean;
}

/**
 * What has the focus and whether it shows: an outline or a focus ring (a box shadow) on the element, or on the
 * box that draws its ring: a Mantine field's box (theme.module.css), a CodeMirror editor, a radio card, the box
 * beside a visually hidden input (a switch's track, a checkbox).
 */
async function readFocus(page: Page): Promise<FocusState> {
  // A field's ring eases in: read it once it is there.
  await waitForAnimations(page);
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { description: 'nothing (the page)', isShown: false };
    const label = element.getAttribute('aria-label') ?? (element.textContent || element.getAttribute('name') || element.id || '');
    const role = element.getAttribute('role');
    const description = `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${label.trim().slice(0, 60)}"`;
    const hosts = [
      element,
      element.closest<HTMLElement>('.mantine-Input-input'),
      element.closest<HTMLElement>('.cm-editor'),
      element.closest<HTMLElement>('.mantine-RadioCard-root'),
      element.nextElementSibling as HTMLElement | null,
    ].filter((host): host is HTMLElement => !!host);
    const isShown = hosts.some((host) => {
      const style = getComputedStyle(host);
      return (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1) || style.boxShadow !== 'none';
    });
    return { description, isShown };
  });
}

async function expectFocusShown(page: Page): Promise<void> {
  const focus = await readFocus(page);
  expect(focus.isShown, `the focus on ${focus.description} shows no ring`).toBe(true);
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement).catch(() => false);

/**
 * Presses Tab (Shift+Tab backwards) until the target has the focus, checking at every stop that the focus
 * shows. Fails after `max` presses.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses <= max; presses += 1) {
    if (await isFocused(target)) {
      await expectFocusShown(page);
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const focus = await readFocus(page);
    expect(focus.isShown, `Tab ${presses + 1} towards ${target}: the focus on ${focus.description} shows no ring`).toBe(true);
  }
  throw new Error(`${target} never got the focus in ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** Picks an option of a Mantine Select with the arrows and Enter (typing first filters a searchable one). */
async function chooseOption(page: Page, combobox: Locator, option: string | RegExp, filter = ''): Promise<void> {
  await tabTo(page, combobox);
  if (filter) await page.keyboard.type(filter);
  const highlighted = page.locator('[data-combobox-selected]');
  for (let presses = 0; presses < 30; presses += 1) {
    await page.keyboard.press('ArrowDown');
    const text = (await highlighted.textContent().catch(() => null))?.trim() ?? '';
    if (typeof option === 'string' ? text === option : option.test(text)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`option ${option} never came up in ${combobox}`);
}

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).first();
const form = (page: Page) => page.getByTestId('menu-edit-form');

/** Opens a tab of the menu form: Tab onto the tab list (its selected tab), then the arrows, which select as they go. */
async function openFormTab(page: Page, name: string): Promise<void> {
  const tabs = form(page).getByRole('tab');
  await tabTo(page, form(page).getByRole('tab', { selected: true }), { backwards: true });
  const target = form(page).getByRole('tab', { name: new RegExp(`^${name}`) });
  for (let presses = 0; presses < (await tabs.count()); presses += 1) {
    if ((await target.getAttribute('aria-selected')) === 'true') return;
    await page.keyboard.press('ArrowRight');
  }
  expect(await target.getAttribute('aria-selected')).toBe('true');
}

async function saveMenu(page: Page): Promise<void> {
  await tabTo(page, page.getByTestId('menu-form-footer').getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  await toast(page, /Menu (saved|updated)/).waitFor();
  await form(page).waitFor({ state: 'hidden' });
  // The focus goes back to what opened the form (or the menu list), never to the page.
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);
}

describeBrowser('keyboard only: the builder journey', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in, creates an app, builds, reorders and deploys three menus, runs them in the emulator and opens the logs', async () => {
    const account = await registerAccount('Kwame Keyboard');
    const page = await openPage(browser, DESKTOP);
    try {
      await page.goto('/login');

      // Sign in.
      await tabTo(page, page.getByRole('textbox', { name: 'Email' }));
      await page.keyboard.type(account.email);
      await tabTo(page, page.getByLabel('Password', { exact: true }));
      await page.keyboard.type(account.password);
      await page.keyboard.press('Enter');
      await waitForPath(page, '/get-started');

      // Create the app.
      await tabTo(page, page.getByRole('link', { name: 'New App' }));
      await page.keyboard.press('Enter');
      await waitForPath(page, '/create-app');
      await tabTo(page, page.getByRole('textbox', { name: 'App Name', exact: true }));
      await page.keyboard.type('Keyboard Shop');
      await tabTo(page, page.getByRole('textbox', { name: 'Description', exact: true }));
      await page.keyboard.type('Built without a mouse');
      await chooseOption(page, page.getByRole('combobox', { name: 'Country' }), 'Ghana', 'Gha');
      await chooseOption(page, page.getByRole('combobox', { name: 'Base Shortcode' }), '*920*');
      await tabTo(page, page.getByRole('textbox', { name: 'Extension', exact: true }));
      await page.keyboard.type('*47#');
      await expect.poll(() => page.getByTestId('dial-preview').textContent()).toBe(SHORT_CODE);
      await tabTo(page, page.getByRole('button', { name: 'Create App' }));
      await page.keyboard.press('Enter');
      // Create App lands on the new app's designer; back to the list by the sidebar.
      await page.waitForURL((url) => url.pathname.startsWith('/app/design/'));
      await page.getByRole('heading', { name: 'Keyboard Shop' }).waitFor();
      await tabTo(page, page.getByRole('link', { name: 'My USSD Apps' }).filter({ visible: true }).last());
      await page.keyboard.press('Enter');
      await waitForPath(page, '/app-list');

      // The designer, from the app's row.
      await tabTo(page, page.getByRole('link', { name: 'Design Keyboard Shop' }).filter({ visible: true }));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Keyboard Shop' }).waitFor();

      // Three menus: home, amount (with a numeric validation), done (ends the session).
      await tabTo(page, page.getByRole('button', { name: 'Add the first menu' }));
      await page.keyboard.press('Enter');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu identifier' }));
      await page.keyboard.type('home');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu text' }));
      await page.keyboard.type('Welcome to Keyboard Shop');
      await page.keyboard.press('Enter');
      await page.keyboard.type('1. Buy airtime');
      await saveMenu(page);

      await tabTo(page, page.getByRole('button', { name: 'Add a menu after home' }));
      await page.keyboard.press('Enter');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu identifier' }));
      await page.keyboard.type('amount');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu text' }));
      await page.keyboard.type('Enter the amount');
      await openFormTab(page, 'Validation');
      await tabTo(page, form(page).getByRole('button', { name: 'Add validation' }));
      await page.keyboard.press('Enter');
      expect(await form(page).getByRole('combobox', { name: 'Validation 1 method' }).inputValue()).toBe('numeric');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Validation 1 error message' }));
      await page.keyboard.type('Type a number');
      await saveMenu(page);

      await tabTo(page, page.getByRole('button', { name: 'Add a menu after amount' }));
      await page.keyboard.press('Enter');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu identifier' }));
      await page.keyboard.type('done');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Menu text' }));
      await page.keyboard.type('Thank you, see you soon');
      await tabTo(page, form(page).getByRole('checkbox', { name: /Terminate/ }));
      await page.keyboard.press('Space');
      expect(
        await form(page)
          .getByRole('checkbox', { name: /Terminate/ })
          .isChecked(),
      ).toBe(true);
      await saveMenu(page);

      // The rule: home's 1 goes to amount; amount always goes to done.
      await tabTo(page, page.getByRole('button', { name: 'Edit home', exact: true }), { backwards: true });
      await page.keyboard.press('Enter');
      await openFormTab(page, 'Navigation');
      await tabTo(page, form(page).getByRole('button', { name: 'Add rule' }));
      await page.keyboard.press('Enter');
      await tabTo(page, form(page).getByRole('textbox', { name: 'Rule 1 compare value' }));
      await page.keyboard.type('1');
      await chooseOption(page, form(page).getByRole('combobox', { name: 'Rule 1 target menu' }), /^amount/);
      await saveMenu(page);

      // Saving gave the focus back to Edit home: amount's card comes next.
      await tabTo(page, page.getByRole('button', { name: 'Edit amount', exact: true }));
      await page.keyboard.press('Enter');
      await openFormTab(page, 'Navigation');
      await tabTo(page, form(page).getByRole('checkbox', { name: /Always goto/ }));
      await page.keyboard.press('Space');
      await chooseOption(page, form(page).getByRole('combobox', { name: 'Always go to' }), /^done/);
      await saveMenu(page);

      // Reorder with the keyboard: done's handle, Space, up, Space; then Save order.
      const order = () => page.getByTestId('menu-card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-menu')));
      expect(await order()).toEqual(['home', 'amount', 'done']);
      await tabTo(page, page.getByRole('button', { name: 'Drag done to reorder' }));
      const announcement = page.locator('[id^="DndLiveRegion"]');
      for (const [key, said] of [
        ['Space', /^Picked up menu done\./],
        ['ArrowUp', /^Menu done is now at the place of amount\./],
        ['Space', /^Menu done was dropped at the place of amount\./],
      ] as const) {
        await page.keyboard.press(key);
        await expect.poll(() => announcement.textContent()).toMatch(said);
        // dnd-kit measures the droppable cards in an effect after the pick-up; an arrow before that moves nothing.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      }
      await expect.poll(order).toEqual(['home', 'done', 'amount']);
      await tabTo(page, page.getByRole('button', { name: 'Save order' }), { backwards: true });
      await page.keyboard.press('Enter');
      await toast(page, 'Menu order saved').waitFor();

      // Deploy: its dialog opens on the Name field, where Enter deploys; the toast is an alert a screen reader says.
      await tabTo(page, page.getByRole('button', { name: 'Deploy' }), { backwards: true });
      await page.keyboard.press('Enter');
      await page.getByRole('textbox', { name: 'Name' }).waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('id')))
        .toBe(await page.getByRole('textbox', { name: 'Name' }).getAttribute('id'));
      await page.keyboard.press('Enter');
      await toast(page, 'Deployed version 1').waitFor();

      // The emulator: the number typed, # pressed on the pad, Enter calls; each screen said by the live region.
      await tabTo(page, page.getByRole('link', { name: 'Emulator' }), { backwards: true });
      await page.keyboard.press('Enter');
      const dialPad = page.getByRole('group', { name: 'Dial pad' });
      await dialPad.waitFor();
      const dialled = page.getByTestId('dial-number');
      await expect.poll(() => dialled.textContent()).toBe(SHORT_CODE);
      for (let i = 0; i < SHORT_CODE.length; i += 1) await page.keyboard.press('Backspace');
      await expect.poll(() => dialled.textContent()).toBe('Enter a USSD code');
      await page.keyboard.type(SHORT_CODE.slice(0, -1));
      await tabTo(page, dialPad.getByRole('button', { name: 'Hash' }));
      await page.keyboard.press('Space');
      await expect.poll(() => dialled.textContent()).toBe(SHORT_CODE);
      await tabTo(page, page.getByRole('button', { name: 'Call', exact: true }));
      await page.keyboard.press('Enter');

      const screen = page.getByTestId('menu-display');
      const announcer = page.getByTestId('menu-announcer');
      const reply = page.getByRole('textbox', { name: 'Reply' });
      await expect.poll(() => announcer.textContent()).toBe('Welcome to Keyboard Shop1. Buy airtime');
      expect(await isFocused(reply)).toBe(true);
      await expectFocusShown(page);
      await page.keyboard.type('1');
      await page.keyboard.press('Enter');
      await expect.poll(() => announcer.textContent()).toBe('Enter the amount');
      await expect.poll(() => isFocused(reply)).toBe(true);
      await page.keyboard.type('ten');
      await page.keyboard.press('Enter');
      await expect.poll(() => announcer.textContent()).toContain('Type a number');
      await expect.poll(() => isFocused(reply)).toBe(true);
      await page.keyboard.type('10');
      await page.keyboard.press('Enter');
      await expect.poll(() => announcer.textContent()).toBe('Session ended.Thank you, see you soon');
      // The ended screen's Cancel has the focus; Enter closes it and the focus goes back to the Call key.
      await expect.poll(() => isFocused(screen.getByRole('button', { name: 'Cancel' }))).toBe(true);
      await expectFocusShown(page);
      await page.keyboard.press('Enter');
      await screen.waitFor({ state: 'detached' });
      await expect.poll(() => isFocused(page.getByRole('button', { name: 'Call', exact: true }))).toBe(true);
      await expectFocusShown(page);

      // The logs: home to the designer, back to the list, the app's monitoring, the Logs tab.
      await tabTo(page, page.getByRole('link', { name: 'Home' }), { backwards: true });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Keyboard Shop' }).waitFor();
      await tabTo(page, page.getByRole('link', { name: 'My USSD Apps' }).filter({ visible: true }).last());
      await page.keyboard.press('Enter');
      await waitForPath(page, '/app-list');
      await tabTo(page, page.getByRole('link', { name: 'Monitor Keyboard Shop' }).filter({ visible: true }));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await tabTo(page, page.getByRole('tab', { name: 'Dashboard' }));
      await page.keyboard.press('ArrowLeft');
      await page.getByRole('heading', { name: 'Application Logs', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/app\/actionlogs\//);
      await expectFocusShown(page);
    } catch (error) {
      await screenshot(page, 'keyboard-journey-failure').catch(() => undefined);
      throw error;
    } finally {
      await page.context().close();
    }
  }, 180_000);
});
