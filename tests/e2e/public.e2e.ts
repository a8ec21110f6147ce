import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { capture, DESKTOP, PHONE, baseUrl, describeBrowser, launchBrowser, openPage, screenshot, waitForAnimations } from './browser';
import { loginByApi } from './accounts';
import { E2E_USERS } from './fixtures';
import { FAQ_ENTRIES } from '../../src/web/features/public/faq.data';
import { OFFICES } from '../../src/web/features/public/offices.data';
import { PAID_PLAN_NAMES, PLAN_NOTES, PLANS as PLAN_TABLE } from '../../src/shared/billing/plans';
import {
  DEDICATED_SHORTCODE,
  PROVISIONING_NOTE,
  SHARED_SHORTCODE,
  PRICING_COUNTRIES,
  formatMoney,
} from '../../src/web/features/public/pricing.data';

/** The pricing page's plan cards: the paid plans of the one plan table, in its order. */
const PLANS = PAID_PLAN_NAMES.map((name) => PLAN_TABLE[name]);
const ENTERPRISE_FEATURES = PLAN_TABLE.ENTERPRISE.features;

const SERVER_THANKS = 'Thank you. We have received your message and will get back to you shortly.';
const PAGES = [
  { path: '/', name: 'home' },
  { path: '/faq', name: 'faq' },
  { path: '/about', name: 'about' },
  { path: '/contact', name: 'contact' },
  { path: '/pricing', name: 'pricing' },
];

/** Modals and sticky headers look wrong in a full-page capture: this one shows what the visitor sees. */
async function viewportShot(page: Page, name: string): Promise<void> {
  await waitForAnimations(page); // the modal or drawer opening
  await capture(page, name, { animations: 'disabled' });
}

const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });
const hidden = (locator: Locator) => locator.waitFor({ state: 'hidden', timeout: 10_000 });
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The contact requests an admin sees, read straight from the API with a super admin's bearer token. */
async function findStoredContactSubjects(): Promise<string[]> {
  const { token } = await loginByApi(E2E_USERS.superAdmin);
  expect(token).toBeTruthy();
  const res = await fetch(`${baseUrl()}/api/admin/contact-requests`, { headers: { authorization: `Bearer ${token}` } });
  const reply = (await res.json()) as { status: string; data: { subject: string }[] };
  expect(reply.status).toBe('00');
  return reply.data.map((row) => row.subject);
}

/** Landmarks and headings every public page must have: one main, one h1, no skipped heading level, alt on images. */
async function checkPageStructure(page: Page): Promise<void> {
  const report = await page.evaluate(() => {
    const levels = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')]
      .filter((h) => (h as HTMLElement).offsetParent !== null)
      .map((h) => Number(h.tagName[1]));
    const skipped = levels.some((level, i) => i > 0 && level > levels[i - 1]! + 1);
    return {
      mains: document.querySelectorAll('main').length,
      headers: document.querySelectorAll('header').length,
      footers: document.querySelectorAll('footer').length,
      h1s: document.querySelectorAll('h1').length,
      firstLevel: levels[0],
      skipped,
      imagesWithoutAlt: [...document.querySelectorAll('img')].filter((img) => !img.hasAttribute('alt')).length,
      title: document.title,
    };
  });
  expect(report).toMatchObject({ mains: 1, headers: 1, footers: 1, h1s: 1, firstLevel: 1, skipped: false, imagesWithoutAlt: 0 });
  expect(report.title).toContain('Dialflow');
}

describeBrowser('public site', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every page renders with the shared header and footer, sound structure, at desktop and phone width', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await openPage(browser, viewport);
      for (const { path, name } of PAGES) {
        await page.goto(path);
        await visible(page.getByRole('heading', { level: 1 }));
        await visible(page.getByRole('link', { name: 'Dialflow home' }).first());
        await checkPageStructure(page);
        // Nothing may overflow sideways on a phone.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        await screenshot(page, `public-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      }
      await page.context().close();
    }
  });

  it('the header links to every public page, Log in and Get Started (desktop and phone menu)', async () => {
    const page = await openPage(browser, DESKTOP);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [label, path] of [
      ['Pricing', '/pricing'],
      ['FAQ', '/faq'],
      ['About', '/about'],
      ['Contact', '/contact'],
    ] as const) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**${path}`);
      await visible(nav.locator('a[aria-current="page"]', { hasText: label }));
    }
    expect(await page.getByRole('banner').getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('banner').getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/register');
    await page.context().close();

    const phone = await openPage(browser, PHONE);
    await phone.goto('/');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const drawer = phone.getByRole('dialog');
    await visible(drawer.getByRole('link', { name: 'FAQ' }));
    await viewportShot(phone, 'public-menu-phone');
    await drawer.getByRole('link', { name: 'FAQ' }).click();
    await phone.waitForURL('**/faq');
    await hidden(phone.getByRole('dialog'));
    await phone.context().close();
  });

  it('home shows the hero, the USSD, SMS and PAYMENT cards, how it works, and Get Started goes to /register', async () => {
    const page = await openPage(browser);
    await page.goto('/');
    const h1 = page.getByRole('heading', { level: 1 });
    expect((await h1.textContent())?.trim()).toBe('Build your USSD app now. Collect payments instantly.');
    for (const card of ['USSD', 'SMS', 'PAYMENT']) await visible(page.getByRole('heading', { level: 3, name: card, exact: true }));
    await visible(page.getByRole('heading', { level: 2, name: 'How it works' }));
    await visible(page.getByRole('figure').getByText('Welcome to Mama Akos Kitchen'));
    await page.getByRole('main').getByRole('link', { name: 'Get Started' }).first().click();
    await page.waitForURL('**/register');
    expect(new URL(page.url()).pathname).toBe('/register');
    await page.context().close();
  });

  it('the template gallery renders only when /featuredTemplates answers 00 with templates', async () => {
    const page = await openPage(browser);
    await page.route('**/featuredTemplates', (route) => route.fulfill({ json: { status: '00', message: 'OK', data: [] } }));
    await page.goto('/');
    await visible(page.getByRole('heading', { name: 'How it works' }));
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Things you can build').count()).toBe(0);

    await page.unroute('**/featuredTemplates');
    await page.route('**/featuredTemplates', (route) => route.fulfill({ json: { status: '99', message: 'down' } }));
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Things you can build').count()).toBe(0);

    // The real gallery: the seeded featured templates, each with Test Run opening the template emulator
    // and Clone leading a visitor to an account.
    await page.unroute('**/featuredTemplates');
    await page.reload();
    const gallery = page.getByRole('region', { name: 'Things you can build' });
    const templates = (await (await fetch(`${baseUrl()}/featuredTemplates`)).json()).data as Array<{ appId: string; appName: string }>;
    expect(templates.map((t) => t.appName)).toEqual([
      'Airtime Top-Up',
      'Pay a Merchant',
      'Community Poll',
      'Customer Survey',
      'Balance Enquiry',
      'Event Registration',
    ]);
    for (const { appId, appName } of templates) {
      await visible(gallery.getByRole('heading', { name: appName }));
      expect(await gallery.getByRole('link', { name: `Test Run ${appName}` }).getAttribute('href')).toBe(
        `/apptemplate/emulator/${appId}?returnUrl=%2F`,
      );
      // Registration (or sign-in) first, then on to this template's clone (auth.e2e.ts follows it through).
      expect(await gallery.getByRole('link', { name: `Clone ${appName}` }).getAttribute('href')).toBe(
        `/register?next=${encodeURIComponent(`/app-templates?clone=${appId}`)}`,
      );
    }
    // Flags are images named for their country, drawn the same on every system (emoji flags are letters on Windows).
    expect(await gallery.getByTestId('country-flag').count()).toBe(templates.length);
    await gallery.getByRole('article').filter({ hasText: 'Community Poll' }).getByRole('img', { name: 'Nigeria', exact: true }).waitFor();
    expect(await gallery.getByText(/^(gh|ng|ke)$/i).count()).toBe(0);
    await gallery.scrollIntoViewIfNeeded();
    await waitForAnimations(page);
    await capture(gallery, 'public-template-gallery-desktop');
    await page.context().close();
  });

  it('the public pages load the public site code only: no console, designer or flow map code, the home page under 400 kB', async () => {
    // Strings only the console's code holds: the sidebar, the code editor (designer, custom actions), the flow map.
    const CONSOLE_MARKERS = ['Merchant Management', 'cm-editor', 'react-flow__'];
    // The markers are real: each is in a file of the build, so finding none on the public pages means something.
    const built = readdirSync('dist/web/assets').filter((f) => f.endsWith('.js'));
    for (const marker of CONSOLE_MARKERS)
      expect(
        built.some((f) => readFileSync(join('dist/web/assets', f), 'utf8').includes(marker)),
        marker,
      ).toBe(true);

    const page = await openPage(browser, DESKTOP);
    // Each script and style sheet with its text, read as it arrives (a page left behind takes its bodies along).
    const code: { res: Response; text: Promise<string> }[] = [];
    page.on('response', (res) => {
      if (['script', 'stylesheet'].includes(res.request().resourceType())) code.push({ res, text: res.text() });
    });
    await page.goto('/');
    await visible(page.locator('#hero-heading'));
    await page.waitForLoadState('networkidle');
    // What the home page downloads, as sent (compressed): its scripts and style sheets.
    let homeBytes = 0;
    for (const { res, text } of code) {
      // Brotli, as precompressed at build, for every file but the smallest (under 1 kB, sent as they are).
      if ((await text).length >= 1024) expect(res.headers()['content-encoding'], res.url()).toBe('br');
      homeBytes += (await res.request().sizes()).responseBodySize;
    }
    expect(homeBytes).toBeLessThan(400 * 1024);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Pricing', exact: true }).click();
    await visible(page.locator('#plans-heading'));
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await visible(page.getByRole('button', { name: 'Log in' }));
    await page.goto('/');
    const gallery = page.getByRole('region', { name: 'Things you can build' });
    await gallery.getByRole('link', { name: 'Test Run Airtime Top-Up' }).click();
    await visible(page.getByRole('group', { name: 'Dial pad' }));
    await page.waitForLoadState('networkidle');
    expect(code.length).toBeGreaterThan(5);
    for (const { res, text } of code) {
      const body = await text;
      for (const marker of CONSOLE_MARKERS) expect(body.includes(marker), `${res.url()} holds ${marker}`).toBe(false);
    }
    await page.context().close();
  });

  it('a screen whose code is gone after a deploy reloads into the new build once; with the build unchanged it says the page did not load', async () => {
    // A deploy since the page loaded: the old build's chunk answers 404 and the server's page names a new entry script.
    const page = await openPage(browser, DESKTOP);
    await page.goto('/');
    await visible(page.locator('#hero-heading'));
    let isDeployed = false;
    await page.route(/\/assets\/public-[\w-]+\.js$/, (route) => (isDeployed ? route.continue() : route.fulfill({ status: 404, body: '' })));
    await page.route(`${baseUrl()}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><script type="module" src="/assets/index-NewBuild.js"></script>' }),
    );
    page.on('request', (req) => {
      if (req.isNavigationRequest()) isDeployed = true;
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing', exact: true }).click();
    await visible(page.locator('#plans-heading'));
    expect(isDeployed).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('dialflow:reloaded-for-new-build'))).toBeTruthy();
    await page.context().close();

    // The build unchanged (the connection dropped): no reload, a message and Reload.
    for (const viewport of [DESKTOP, PHONE]) {
      const failing = await openPage(browser, viewport);
      await failing.route(/\/assets\/public-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
      await failing.goto('/pricing');
      await visible(failing.getByRole('heading', { name: 'This page did not load' }));
      await visible(failing.getByText('Part of Dialflow could not be downloaded. Check your connection, then reload the page.'));
      await screenshot(failing, `public-chunk-failed-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await failing.unroute(/\/assets\/public-[\w-]+\.js$/);
      await failing.getByRole('button', { name: 'Reload' }).click();
      await visible(failing.locator('#plans-heading'));
      await failing.context().close();
    }
  });

  it('shows a page-not-found screen for an unknown address', async () => {
    const page = await openPage(browser);
    await page.goto('/no-such-page');
    await visible(page.getByRole('heading', { name: 'Page not found' }));
    await screenshot(page, 'public-not-found-desktop');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('the FAQ answers each of the five questions', async () => {
    const page = await openPage(browser);
    await page.goto('/faq');
    for (const entry of FAQ_ENTRIES) {
      const control = page.getByRole('button', { name: entry.question });
      if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
      await visible(page.getByText(entry.answer));
    }
    const text = await page.getByRole('main').textContent();
    expect(text).toContain('ready within minutes of clicking Deploy');
    expect(text).toContain('engineers will help you build your app at no charge');
    expect(text).toContain('Send us your contact details and we will get back to you with a quote');
    expect(text).toContain('Ghana, Nigeria, Kenya, Eswatini and Burundi');
    expect(text).toContain('REST API call. We advise against it');
    await page.context().close();
  });

  it('about describes a USSD cloud solution owned by a software company', async () => {
    const page = await openPage(browser);
    await page.goto('/about');
    await visible(page.getByText('Dialflow is a USSD cloud solution owned by a software company.', { exact: false }));
    await page.context().close();
  });

  it('contact validates with its messages, sends, clears the form, and the request is stored', async () => {
    const page = await openPage(browser);
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    for (const office of OFFICES) {
      await visible(page.getByRole('heading', { name: `${office.country} office` }));
      await visible(page.getByText(office.phone));
    }

    await form.getByRole('button', { name: 'Send message' }).click();
    for (const message of ['Email is required', 'Subject is required', 'Message is required'])
      await visible(form.getByText(message, { exact: true }));
    expect(await form.getByText('Invalid email').count()).toBe(0);
    await viewportShot(page, 'public-contact-errors-desktop');

    await form.getByRole('textbox', { name: 'Email', exact: true }).fill('someone.example.com');
    await form.getByRole('button', { name: 'Send message' }).click();
    await visible(form.getByText('Invalid email', { exact: true }));

    const subject = unique('E2E contact');
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill('ama@example.com');
    await form.getByRole('textbox', { name: 'Mobile (optional)', exact: true }).fill('+233240000000');
    await form.getByRole('textbox', { name: 'Subject', exact: true }).fill(subject);
    await form.getByRole('textbox', { name: 'Message', exact: true }).fill('We want a USSD menu for our savings group.');
    await visible(form.getByText('42/500'));
    await form.getByRole('button', { name: 'Send message' }).click();
    await visible(page.getByText(SERVER_THANKS));
    for (const label of ['Email', 'Mobile (optional)', 'Subject', 'Message'])
      expect(await form.getByRole('textbox', { name: label, exact: true }).inputValue()).toBe('');
    await visible(form.getByText('0/500'));

    expect(await findStoredContactSubjects()).toContain(subject);
    await page.context().close();
  });

  it('contact caps the message at 500 characters and counts them', async () => {
    const page = await openPage(browser, PHONE);
    await page.goto('/contact');
    const message = page.getByRole('textbox', { name: 'Message', exact: true });
    await message.fill('x'.repeat(600));
    expect((await message.inputValue()).length).toBe(500);
    await visible(page.getByText('500/500'));
    await message.press('y');
    expect((await message.inputValue()).length).toBe(500);
    await page.context().close();
  });

  it('contact shows "Failed to send contact info" when the server does not answer 00', async () => {
    const page = await openPage(browser);
    await page.route('**/api/contactus', (route) => route.fulfill({ json: { status: '02', message: 'Subject is required' } }));
    await page.goto('/contact');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ama@example.com');
    await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Hello');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hi there');
    await page.getByRole('button', { name: 'Send message' }).click();
    await visible(page.getByText('Failed to send contact info'));
    expect(await page.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).toBe('Hello');
    await page.context().close();
  });

  it("pricing lists the four plans with their figures and features, Enterprise and the notes; Start Now goes to the plan's payment on /account-billing", async () => {
    const page = await openPage(browser);
    await page.goto('/pricing');
    for (const plan of PLANS) {
      const card = page.locator(`article[data-plan="${plan.name}"]`);
      expect((await card.getByRole('heading', { level: 3 }).textContent())?.replace(/\s+/g, ' ').trim()).toBe(
        `${plan.tier} ${plan.period}`,
      );
      await visible(card.getByText(`$${plan.price}`, { exact: true }));
      for (const feature of plan.features) await visible(card.getByText(feature, { exact: true }));
    }
    expect(PLANS.map((p) => [p.title, p.price])).toEqual([
      ['Basic 3 months', 50],
      ['Basic 6 months', 85],
      ['Standard 1 year', 150],
      ['Premium 1 year', 250],
    ]);
    const standard = page.locator('article[data-plan="STANDARD"]');
    for (const feature of [
      '10 apps',
      'Unlimited menus',
      '50,000 sessions monthly',
      '2000 SMS monthly',
      'Application support and development',
    ]) {
      await visible(standard.getByText(feature, { exact: true }));
    }
    expect(await page.locator('article[data-plan="BASIC-3"]').getByText('Application support and development').count()).toBe(0);

    const enterprise = page.getByRole('article', { name: 'Enterprise' });
    for (const feature of ENTERPRISE_FEATURES) await visible(enterprise.getByText(feature, { exact: true }));
    for (const note of Object.values(PLAN_NOTES)) await visible(page.getByText(note));

    const startNow = page.getByRole('link', { name: 'Start Now with Standard 1 year' });
    expect(await startNow.getAttribute('href')).toBe('/account-billing?plan=STANDARD');
    await startNow.click();
    // The console sends a visitor on to log in first (at once, so the billing address may never settle).
    await page.waitForURL(/\/(account-billing|login)(\?.*)?$/, { waitUntil: 'commit' });
    await page.context().close();
  });

  it('shortcode pricing has Ghana first and the shared and dedicated figures in each country currency', async () => {
    const page = await openPage(browser);
    await page.goto('/pricing');
    const tabs = page.getByRole('tablist', { name: 'Country' });
    expect(await tabs.getAttribute('aria-orientation')).toBe('vertical');
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['Ghana', 'Nigeria', 'Kenya', 'Eswatini', 'OTHERS']);
    expect(await tabs.getByRole('tab', { name: 'Ghana' }).getAttribute('aria-selected')).toBe('true');

    for (const country of PRICING_COUNTRIES) {
      await tabs.getByRole('tab', { name: country.name }).click();
      const panel = page.getByRole('tabpanel', { name: country.name });
      const shared = panel.getByRole('article', { name: 'Shared Shortcode' });
      const dedicated = panel.getByRole('article', { name: 'Dedicated Shortcode' });
      await visible(shared);
      for (const format of SHARED_SHORTCODE.formats) await visible(shared.getByText(format, { exact: true }));
      await visible(shared.getByText(formatMoney(country.currency, 0.005), { exact: true }));
      for (const [label, amount] of [
        ['Setup, 1 year', 1700],
        ['Setup, 6 months', 900],
        ['Setup, 3 months', 500],
      ] as const) {
        await visible(shared.getByText(label, { exact: true }));
        await visible(shared.getByText(formatMoney(country.currency, amount), { exact: true }));
      }
      for (const network of DEDICATED_SHORTCODE.networks) await visible(dedicated.getByText(network, { exact: true }));
      for (const amount of [3000, 100, 2700]) await visible(dedicated.getByText(formatMoney(country.currency, amount), { exact: true }));
      expect(await panel.getByText(PROVISIONING_NOTE).count()).toBe(2);
      expect(await panel.getByRole('button', { name: /^Talk to us/ }).count()).toBe(2);
    }
    expect(formatMoney('GHS', 1700)).toBe('GHS 1,700');

    await tabs.getByRole('tab', { name: 'OTHERS' }).click();
    const others = page.getByRole('tabpanel', { name: 'OTHERS' });
    await visible(others.getByText('We cover other countries too', { exact: false }));
    await visible(others.getByRole('button', { name: /^Talk to us/ }));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'public-pricing-others-desktop');
    await page.context().close();
  });

  it('Talk to us opens Confirm Purchase with the subject prefilled, cancels, closes, resets and submits', async () => {
    const page = await openPage(browser);
    await page.goto('/pricing');
    const tabs = page.getByRole('tablist', { name: 'Country' });
    const dialog = page.getByRole('dialog', { name: 'Confirm Purchase' });

    // Shared, Ghana: Cancel closes, and what was typed is gone next time.
    await page.getByRole('button', { name: 'Talk to us about a Shared Shortcode for Ghana' }).click();
    await visible(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).toBe('I want a Shared Shortcode for Ghana');
    for (const label of ['Email', 'Mobile (Optional)', 'Message']) await visible(dialog.getByRole('textbox', { name: label, exact: true }));
    await viewportShot(page, 'public-pricing-modal-desktop');
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('typed@example.com');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hidden(dialog);
    await page.getByRole('button', { name: 'Talk to us about a Shared Shortcode for Ghana' }).click();
    await visible(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toBe('');

    // The close button closes too; validation uses the contact form's messages.
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await visible(dialog.getByText('Email is required'));
    await dialog.getByRole('button', { name: 'Close' }).click();
    await hidden(dialog);

    // Dedicated, Kenya.
    await tabs.getByRole('tab', { name: 'Kenya' }).click();
    await page.getByRole('button', { name: 'Talk to us about a Dedicated Shortcode for Kenya' }).click();
    await visible(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).toBe('I want a Dedicated Shortcode for Kenya');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hidden(dialog);

    // OTHERS, then a real submit that closes the modal and is stored.
    await tabs.getByRole('tab', { name: 'OTHERS' }).click();
    await page
      .getByRole('tabpanel', { name: 'OTHERS' })
      .getByRole('button', { name: /^Talk to us/ })
      .click();
    await visible(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).toBe(
      'I want a Shared Shortcode for Another Country',
    );
    const subject = unique('I want a Shared Shortcode for Another Country');
    await dialog.getByRole('textbox', { name: 'Subject', exact: true }).fill(subject);
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('kofi@example.com');
    await dialog.getByRole('textbox', { name: 'Message', exact: true }).fill('We are launching in Togo next quarter.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await visible(page.getByText(SERVER_THANKS));
    await hidden(dialog);
    expect(await findStoredContactSubjects()).toContain(subject);

    // Phone: the tabs turn horizontal and the modal still works.
    const phone = await openPage(browser, PHONE);
    await phone.goto('/pricing');
    await phone.getByRole('button', { name: 'Talk to us about a Dedicated Shortcode for Ghana' }).click();
    await visible(phone.getByRole('dialog', { name: 'Confirm Purchase' }));
    await viewportShot(phone, 'public-pricing-modal-phone');
    await phone.context().close();
    await page.context().close();
  });
});
