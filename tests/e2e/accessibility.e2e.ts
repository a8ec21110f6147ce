import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Finding, findViolations } from './axe';
import { callApi, type LoginReplyBody, loginByApi, registerAccount, storeSession } from './accounts';
import { baseUrl, describeBrowser, DESKTOP, launchBrowser, openPage, PHONE, signIn, waitForAnimations } from './browser';
import { E2E_USERS, type E2eUserKind } from './fixtures';

/**
 * axe-core over every route of the console and the public site, at desktop and phone width in light mode, and
 * over the states that matter (a dialog open, the emulator's screen, a confirmation, an error). Any serious or
 * critical violation fails the test with its rule, its impact and the elements it found. docs/accessibility.md
 * says what is checked and why; no rule is switched off here.
 */
const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const;
type ViewportName = keyof typeof VIEWPORTS;

/** The ids a visit needs, made in beforeAll: the owner's app (cloned from a template), a custom function, a template. */
interface Ids {
  appId: string;
  customActionId: string;
  templateId: string;
  /** The seeded demo merchant (Boateng Retail) and admin (ops@e2e.test). */
  merchantUuid: string;
  adminUuid: string;
  /** The chatbot user's bot, with one menu and a number being linked (its simulated phone's path). */
  botId: string;
  simulatedPhonePath: string;
  /** The owner's contact: the emulator's caller of the completed session. */
  contactId: string;
  /** The owner's draft campaign (SMS only, to an audience of every contact). */
  campaignId: string;
}

/**
 * Who looks at a screen: nobody (public screens), 'owner' (a fresh account owning the app the app screens show),
 * or one of the seeded roles of fixtures.ts.
 */
type Visitor = 'nobody' | 'owner' | E2eUserKind;

interface Visit {
  as: Visitor;
  url: (ids: Ids) => string;
  /** What the screen shows once its content is in (not its loading state). */
  ready: (page: Page) => Locator;
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
/** Text that shows once the screen's data is in (the desktop table or the phone's cards, whichever is drawn). */
const shown = (text: string) => (page: Page) => page.getByText(text).filter({ visible: true }).first();

/**
 * One row per route path exactly as the route modules declare it. A route added to src/web/router.tsx or a
 * src/web/features/<area>/<area>.routes.tsx fails 'every route has a visit' until it gets a row here.
 */
const ROUTE_VISITS: Record<string, Visit> = {
  '/': { as: 'nobody', url: () => '/', ready: (page) => page.locator('#hero-heading') },
  '/faq': { as: 'nobody', url: () => '/faq', ready: heading('Frequently asked questions') },
  '/about': { as: 'nobody', url: () => '/about', ready: heading('The USSD cloud for African businesses') },
  '/contact': { as: 'nobody', url: () => '/contact', ready: heading('Talk to the Dialflow team') },
  '/pricing': { as: 'nobody', url: () => '/pricing', ready: heading('Simple plans. Shortcodes in your currency.') },
  '/login': { as: 'nobody', url: () => '/login', ready: heading('Log in to Dialflow') },
  '/register': { as: 'nobody', url: () => '/register', ready: heading('Create your account') },
  '/forgot-password': { as: 'nobody', url: () => '/forgot-password', ready: heading('Forgot your password?') },
  '/reset-password/:token': { as: 'nobody', url: () => '/reset-password/example-token', ready: heading('Choose a new password') },
  '/merchant/login': { as: 'nobody', url: () => '/merchant/login', ready: heading('Login As Merchant') },
  '/logout': { as: 'private', url: () => '/logout', ready: (page) => page.getByText('Logging out...') },
  '/get-started': { as: 'private', url: () => '/get-started', ready: heading('Hello, Welcome to Dialflow') },
  '/account-profile': { as: 'private', url: () => '/account-profile', ready: heading('Account Settings') },
  '/create-app': { as: 'private', url: () => '/create-app', ready: heading(/Create/) },
  '/app-list': { as: 'owner', url: () => '/app-list', ready: shown('Survey Shop') },
  '/app-list-admin': { as: 'admin', url: () => '/app-list-admin', ready: shown('Mensah Airtime') },
  '/app-templates': {
    as: 'private',
    url: () => '/app-templates',
    ready: (page) => page.getByRole('button', { name: 'Clone Community Poll' }),
  },
  '/subflows': { as: 'private', url: () => '/subflows', ready: heading('Sub-flows') },
  '/custom-functions': { as: 'owner', url: () => '/custom-functions', ready: shown('formatAmount') },
  '/custom-functions/:id': { as: 'owner', url: (ids) => `/custom-functions/${ids.customActionId}`, ready: heading('formatAmount') },
  '/app-settings/:id': { as: 'owner', url: (ids) => `/app-settings/${ids.appId}`, ready: (page) => page.getByLabel('App Name') },
  '/app-webhooks/:appId': { as: 'owner', url: (ids) => `/app-webhooks/${ids.appId}`, ready: heading('Webhooks') },
  '/app/design/:appId': {
    as: 'owner',
    url: (ids) => `/app/design/${ids.appId}`,
    ready: (page) => page.getByRole('button', { name: /^Edit / }).first(),
  },
  '/app/design/:appId/versions/:version': {
    as: 'owner',
    url: (ids) => `/app/design/${ids.appId}/versions/1`,
    ready: (page) => page.getByTestId('version-menu-facts'),
  },
  '/app/design/:appId/flow': {
    as: 'owner',
    url: (ids) => `/app/design/${ids.appId}/flow`,
    ready: (page) => page.locator('.react-flow__node').first(),
  },
  '/app/dashboard/:appId': {
    as: 'owner',
    url: (ids) => `/app/dashboard/${ids.appId}?environment=test`,
    ready: (page) => page.getByTestId('chart-menu-outcomes').locator('path.recharts-rectangle').first(),
  },
  '/app/tests/:appId': { as: 'owner', url: (ids) => `/app/tests/${ids.appId}`, ready: (page) => page.getByTestId('tests-empty') },
  '/app/liveview/:id': { as: 'owner', url: (ids) => `/app/liveview/${ids.appId}`, ready: heading('Live Data') },
  '/app/actionlogs/:id': { as: 'owner', url: (ids) => `/app/actionlogs/${ids.appId}`, ready: heading('Application Logs') },
  '/app/completesession/:id': { as: 'owner', url: (ids) => `/app/completesession/${ids.appId}`, ready: shown('233200000071') },
  '/app/uncompletedsession/:id': { as: 'owner', url: (ids) => `/app/uncompletedsession/${ids.appId}`, ready: shown('233200000072') },
  '/app/search/:id': { as: 'owner', url: (ids) => `/app/search/${ids.appId}`, ready: heading('Session Search') },
  '/app/emulator/:appId': {
    as: 'owner',
    url: (ids) => `/app/emulator/${ids.appId}`,
    ready: (page) => page.getByRole('group', { name: 'Dial pad' }),
  },
  '/apptemplate/emulator/:appId': {
    as: 'nobody',
    url: (ids) => `/apptemplate/emulator/${ids.templateId}`,
    ready: (page) => page.getByRole('group', { name: 'Dial pad' }),
  },
  '/shortcode-providers': { as: 'admin', url: () => '/shortcode-providers', ready: heading('ShortCode Providers') },
  '/provision-shortcode': { as: 'admin', url: () => '/provision-shortcode', ready: heading('Available USSD Extensions') },
  '/buy-shortcode': { as: 'owner', url: () => '/buy-shortcode', ready: heading('Buy ShortCode Extension') },
  '/my-shortcodes': { as: 'owner', url: () => '/my-shortcodes', ready: heading('My Shortcode Extensions') },
  '/connect-shortcode/:uuid': { as: 'owner', url: () => '/connect-shortcode/no-such-purchase', ready: heading('Connect ShortCode to App') },
  '/account-billing': {
    as: 'owner',
    url: () => '/account-billing',
    ready: (page) => page.getByTestId('billing-current').or(page.getByTestId('billing-error')),
  },
  '/merchant/list': { as: 'admin', url: () => '/merchant/list', ready: shown('Boateng Retail') },
  '/merchant/my-merchants': { as: 'admin', url: () => '/merchant/my-merchants', ready: heading('My Merchants') },
  '/merchant/register': { as: 'admin', url: () => '/merchant/register', ready: heading('Register New Merchant') },
  '/merchant/profile/:merchantUuid': {
    as: 'admin',
    url: (ids) => `/merchant/profile/${ids.merchantUuid}`,
    ready: (page) => page.getByTestId('merchant-users-table'),
  },
  '/merchant/list-users/:merchantUuid': {
    as: 'admin',
    url: (ids) => `/merchant/list-users/${ids.merchantUuid}`,
    ready: (page) => page.getByTestId('merchant-users-table'),
  },
  '/merchant/manage-account': {
    as: 'merchant',
    url: () => '/merchant/manage-account',
    ready: (page) => page.getByTestId('merchant-users-table'),
  },
  '/merchant/trxns': { as: 'merchant', url: () => '/merchant/trxns', ready: heading('Merchant Transactions') },
  '/merchant/trxns/:merchantUuid': { as: 'admin', url: (ids) => `/merchant/trxns/${ids.merchantUuid}`, ready: shown('Boateng Retail') },
  '/admin/list': { as: 'superAdmin', url: () => '/admin/list', ready: shown('ops@e2e.test') },
  '/admin/create': { as: 'superAdmin', url: () => '/admin/create', ready: heading('Create New Admin User') },
  '/admin/manage/:adminUuid': {
    as: 'superAdmin',
    url: (ids) => `/admin/manage/${ids.adminUuid}`,
    ready: (page) => page.getByRole('tab', { name: 'Profile Details' }),
  },
  '/admin/audit-log': { as: 'superAdmin', url: () => '/admin/audit-log', ready: heading('Audit Log') },
  '/admin/contact-requests': { as: 'admin', url: () => '/admin/contact-requests', ready: heading('Contact Requests') },
  '/admin/mail-outbox': { as: 'superAdmin', url: () => '/admin/mail-outbox', ready: heading('Mail Outbox') },
  '/admin/subscriber-data': { as: 'superAdmin', url: () => '/admin/subscriber-data', ready: heading('Subscriber data (every account)') },
  '/sms-outbox': { as: 'private', url: () => '/sms-outbox', ready: heading('SMS Outbox') },
  '/contacts': { as: 'owner', url: () => '/contacts', ready: heading('Contacts') },
  '/contacts/subscriber-data': { as: 'owner', url: () => '/contacts/subscriber-data', ready: heading('Subscriber data') },
  '/contacts/:contactId': { as: 'owner', url: (ids) => `/contacts/${ids.contactId}`, ready: (page) => page.getByTestId('contact-title') },
  '/campaigns': { as: 'owner', url: () => '/campaigns', ready: shown('A11y offers') },
  '/campaigns/audiences': { as: 'owner', url: () => '/campaigns/audiences', ready: shown('Everyone') },
  '/campaigns/new': { as: 'owner', url: () => '/campaigns/new', ready: heading('New campaign') },
  '/campaigns/:campaignId': {
    as: 'owner',
    url: (ids) => `/campaigns/${ids.campaignId}`,
    ready: (page) => page.getByRole('button', { name: 'Schedule' }),
  },
  '/campaigns/:campaignId/edit': { as: 'owner', url: (ids) => `/campaigns/${ids.campaignId}/edit`, ready: heading('Edit A11y offers') },
  '/admin/subscriptions': {
    as: 'admin',
    url: () => '/admin/subscriptions?email=demo@dialflow.local',
    ready: (page) => page.getByTestId('account-subscription'),
  },
  '/whatsapp-bots': { as: 'chatbot', url: () => '/whatsapp-bots', ready: shown('Akua Orders') },
  '/inbox': {
    as: 'chatbot',
    url: () => '/inbox',
    ready: (page) => page.getByTestId('inbox-empty').or(page.getByTestId('inbox-list')),
  },
  '/inbox/agents': { as: 'chatbot', url: () => '/inbox/agents', ready: heading('Agents') },
  '/inbox/saved-replies': { as: 'chatbot', url: () => '/inbox/saved-replies', ready: heading('Saved replies') },
  '/whatsapp-bot/settings/:appId': {
    as: 'chatbot',
    url: (ids) => `/whatsapp-bot/settings/${ids.botId}`,
    ready: (page) => page.getByTestId('numbers-table'),
  },
  '/whatsapp-bot/design/:id': {
    as: 'chatbot',
    url: (ids) => `/whatsapp-bot/design/${ids.botId}`,
    ready: (page) => page.getByRole('button', { name: /^Edit / }).first(),
  },
  '/whatsapp-bot/simulator/:appId': {
    as: 'chatbot',
    url: (ids) => `/whatsapp-bot/simulator/${ids.botId}`,
    ready: (page) => page.getByRole('textbox', { name: 'Message', exact: true }),
  },
  '/whatsapp-simulator/:linkId': {
    as: 'nobody',
    url: (ids) => ids.simulatedPhonePath,
    ready: (page) => page.getByRole('button', { name: 'Link device' }),
  },
  '*': { as: 'nobody', url: () => '/no-such-page', ready: heading('Page not found') },
};

/** Every `const NAME = '/path'` of the console's sources, for route paths written as a constant. */
function findPathConstants(dir: string): Map<string, string> {
  const constants = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) for (const [name, value] of findPathConstants(file)) constants.set(name, value);
    else if (/\.tsx?$/.test(entry.name))
      for (const match of readFileSync(file, 'utf8').matchAll(/\bconst\s+([A-Z][A-Z0-9_]*)\s*=\s*'(\/[^']*)'/g))
        constants.set(match[1]!, match[2]!);
  }
  return constants;
}

/**
 * The route paths the console declares, read from the route modules' source: `path: '...'`, `path: A_CONSTANT`
 * and `index: true`. Importing the modules would load every screen's code into the test, so they are
 * read as text; a path this cannot read fails the test rather than going unchecked. The public routes sit under
 * a layout route without a path, so a relative path such as 'faq' means '/faq'.
 */
function findDeclaredRoutePaths(): string[] {
  const featuresDir = 'src/web/features';
  const constants = findPathConstants('src/web');
  const files = [
    'src/web/routes.tsx',
    ...readdirSync(featuresDir).flatMap((area) =>
      readdirSync(join(featuresDir, area))
        .filter((name) => /\.routes\.tsx?$/.test(name))
        .map((name) => join(featuresDir, area, name)),
    ),
  ];
  const paths = files.flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const declared = [...source.matchAll(/\bpath:\s*([^,}\s]+)/g)].map(([, value]) => {
      const literal = /^'([^'$]*)'$/.exec(value!)?.[1] ?? constants.get(value!);
      if (literal === undefined) throw new Error(`${file}: cannot read the route path ${value}; write it as a string or a const`);
      return literal;
    });
    const index = /\bindex:\s*true\b/.test(source) ? ['/'] : [];
    return [...index, ...declared].map((path) => (path === '*' || path.startsWith('/') ? path : `/${path}`));
  });
  return [...new Set(paths)].sort();
}

/** What each screen and state had, by viewport: written to test-results/ for docs/accessibility.md's table. */
const report: Record<string, Record<string, Finding[]>> = {};

function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `  ${f.rule} (${f.impact}, ${f.targets.length}): ${f.help}\n    ${f.targets.join('\n    ')}`).join('\n');
}

async function check(page: Page, screen: string, viewport: ViewportName): Promise<void> {
  // Skeletons stand in for content still loading: axe looks at the content. A hidden tab's panel keeps its
  // skeletons (its content loads when the tab opens) and axe skips it: only skeletons on screen are waited for.
  await page.waitForFunction(
    () => ![...document.querySelectorAll('.mantine-Skeleton-root[data-visible]')].some((skeleton) => skeleton.checkVisibility()),
  );
  await waitForAnimations(page);
  const findings = await findViolations(page);
  report[screen] = { ...report[screen], [viewport]: findings };
}

/** Fails with every screen that has a serious or critical violation, naming its rules and elements. */
function expectNoViolations(screens: string[], viewport: ViewportName): void {
  const failures = screens
    .filter((screen) => (report[screen]?.[viewport] ?? []).length > 0)
    .map((screen) => `${screen} at ${viewport} width:\n${describeFindings(report[screen]![viewport]!)}`);
  expect(failures.join('\n\n'), 'serious or critical axe violations').toBe('');
}

async function emulatorHop(
  token: string,
  appId: string,
  sessionId: string,
  msisdn: string,
  userdata: string,
  mode: 'start' | 'continue' | 'end',
) {
  const res = await fetch(`${baseUrl()}/ussd-emulator/${appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ session_id: sessionId, userdata, msisdn, session_mode: mode, network_id: 'MTN', appId }),
  });
  if (!res.ok) throw new Error(`emulator hop failed: ${res.status} ${await res.text()}`);
}

/** The owner's app: the Customer Survey template cloned, with one session completed and one abandoned in the emulator. */
async function createOwnerData(token: string): Promise<Ids> {
  const templates = (await (await fetch(`${baseUrl()}/featuredTemplates`)).json()) as { data: { appId: string; appName: string }[] };
  const survey = templates.data.find((template) => template.appName === 'Customer Survey');
  if (!survey) throw new Error('the Customer Survey template is not seeded');
  const clone = await callApi<{ appId: string }>(token, '/api/cloneApp', {
    appId: survey.appId,
    appName: 'Survey Shop',
    description: 'Survey',
  });
  if (clone.status !== '00' || !clone.data) throw new Error(`cloneApp failed: ${JSON.stringify(clone)}`);
  const appId = clone.data.appId;
  const app = await callApi<{ shortCode: string }>(token, `/api/getAppByAppId/${appId}`);
  const code = app.data?.shortCode ?? '*920*14#';
  for (const [userdata, mode] of [
    [code, 'start'],
    ['5', 'continue'],
    ['1', 'continue'],
    ['0', 'continue'],
  ] as const)
    await emulatorHop(token, appId, 'a11y-done', '233200000071', userdata, mode);
  await emulatorHop(token, appId, 'a11y-open', '233200000072', code, 'start');
  await emulatorHop(token, appId, 'a11y-open', '233200000072', '9', 'continue');
  await emulatorHop(token, appId, 'a11y-open', '233200000072', '', 'end');
  const action = await callApi(token, '/api/custom-action/create', {
    actionName: 'formatAmount',
    description: 'Formats an amount in cedis',
    code: 'return { amount: 1 };',
  });
  const customActionId = action.uuid;
  // Version 1, so a version's read-only screen has one to show.
  const deployed = await callApi(token, `/api/deployChanges/${appId}?name=Launch`);
  if (deployed.status !== '00') throw new Error(`deploy failed: ${JSON.stringify(deployed)}`);
  if (!customActionId) throw new Error(`custom action create failed: ${JSON.stringify(action)}`);
  const { merchantUuid, adminUuid } = await findSeededMerchantAndAdmin();
  const { botId, simulatedPhonePath } = await createBotData();
  const contactId = await findContactId(token, '233200000071');
  const campaignId = await createDraftCampaign(token, appId);
  return { appId, customActionId, templateId: survey.appId, merchantUuid, adminUuid, botId, simulatedPhonePath, contactId, campaignId };
}

/** A draft campaign of the owner's: SMS only, naming the app's dial string, to an audience of every contact. */
async function createDraftCampaign(token: string, ussdAppId: string): Promise<string> {
  const audience = await callApi<{ audienceId: string }>(token, '/api/audiences', { name: 'Everyone', filter: {} });
  if (audience.status !== '00') throw new Error(`audience create failed: ${JSON.stringify(audience)}`);
  const campaign = await callApi<{ campaignId: string }>(token, '/api/campaigns', {
    name: 'A11y offers',
    audienceId: audience.data.audienceId,
    channels: 'sms',
    ussdAppId,
    smsText: 'Dial {dial} to see our offers',
  });
  if (campaign.status !== '00') throw new Error(`campaign create failed: ${JSON.stringify(campaign)}`);
  return campaign.data.campaignId;
}

/** The contact a session's caller became: written with the session's records, so asked for until it is there. */
async function findContactId(token: string, number: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const list = await callApi<{ contacts: Array<{ contactId: string }> }>(token, `/api/contacts?search=${number}`);
    const found = list.data?.contacts[0];
    if (found) return found.contactId;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no contact for ${number}`);
}

/** The chatbot user's bot: one menu with two options, and a number waiting for its QR code to be scanned. */
async function createBotData(): Promise<Pick<Ids, 'botId' | 'simulatedPhonePath'>> {
  const { token } = await loginByApi(E2E_USERS.chatbot);
  const bot = await callApi<{ appId: string }>(token, '/api/chatbot/app/create', {
    appName: 'Akua Orders',
    description: 'Order status on WhatsApp',
    botType: 'whatsapp',
  });
  if (bot.status !== '00') throw new Error(`bot create failed: ${JSON.stringify(bot)}`);
  const botId = bot.data.appId;
  const menu = await callApi(token, '/api/createMenu', {
    appId: botId,
    userDefinedName: 'home',
    isFirst: true,
    displayText: 'Welcome to Akua Orders\n1. Last order\n2. Talk to us',
  });
  if (menu.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(menu)}`);
  const link = await callApi<{ linkId: string }>(token, '/api/chatbot/whatsapp/link', { chatBotAppId: botId });
  if (link.status !== '00') throw new Error(`link failed: ${JSON.stringify(link)}`);
  // The simulator shows the code as the link starts; a few reads cover a connector that takes a moment.
  for (let attempt = 0; attempt < 50; attempt++) {
    const { qrCode } = (await callApi<{ qrCode: string | null }>(token, `/api/chatbot/whatsapp/link-status/${link.data.linkId}`)).data;
    if (qrCode) {
      const url = new URL(qrCode);
      return { botId, simulatedPhonePath: `${url.pathname}${url.search}` };
    }
  }
  throw new Error('the simulator gave the link no QR code');
}

/** The demo merchant and the seeded admin, read as the super admin. */
async function findSeededMerchantAndAdmin(): Promise<Pick<Ids, 'merchantUuid' | 'adminUuid'>> {
  const { token } = await loginByApi(E2E_USERS.superAdmin);
  const merchants = await callApi<Array<{ uuid: string; companyName: string }>>(token, '/api/merchant/list');
  const admins = await callApi<Array<{ uuid: string; email: string }>>(token, '/api/admin/list');
  const merchantUuid = merchants.data?.find((m) => m.companyName === 'Boateng Retail')?.uuid;
  const adminUuid = admins.data?.find((a) => a.email === E2E_USERS.admin.email)?.uuid;
  if (!merchantUuid || !adminUuid) throw new Error('the demo merchant or the seeded admin is missing');
  return { merchantUuid, adminUuid };
}

it('every route has a visit, and every visit a route', () => {
  expect(Object.keys(ROUTE_VISITS).sort()).toEqual(findDeclaredRoutePaths());
});

describeBrowser('accessibility (axe-core, serious and critical)', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let ids: Ids;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Adwoa Owusu');
    ids = await createOwnerData(owner.reply.token);
  });

  afterAll(async () => {
    await browser?.close();
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/accessibility.json', `${JSON.stringify(report, null, 2)}\n`);
  });

  async function openAs(visitor: Visitor, viewport: ViewportName): Promise<Page> {
    const page = await openPage(browser, VIEWPORTS[viewport]);
    if (visitor === 'owner') await storeSession(page, owner.reply);
    else if (visitor !== 'nobody') await signIn(page, visitor);
    return page;
  }

  /**
   * Visits each route with the visitor it needs (one page per visitor) and checks it. A visitor's first route loads
   * the console; the next ones are reached as a link would reach them (the router's own navigation), which is how
   * people move between screens and spares loading the console again for each of some 90 routes.
   */
  async function checkRoutes(viewport: ViewportName, paths: string[]): Promise<void> {
    const pages = new Map<Visitor, Page>();
    for (const path of paths) {
      const visit = ROUTE_VISITS[path]!;
      let page = pages.get(visit.as);
      const isLoaded = page !== undefined;
      // The logout screen goes to /login after a second: on a page of its own, whose clock holds it while axe runs.
      if (path === '/logout') {
        page = await openAs(visit.as, viewport);
        await page.clock.install();
      } else if (!page) {
        page = await openAs(visit.as, viewport);
        pages.set(visit.as, page);
      }
      if (isLoaded && path !== '/logout')
        await page.evaluate((url) => {
          window.history.pushState(null, '', url);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, visit.url(ids));
      else await page.goto(visit.url(ids));
      await visit.ready(page).waitFor({ state: 'visible', timeout: 15_000 });
      await check(page, path, viewport);
      if (path === '/logout') await page.context().close();
    }
    for (const page of pages.values()) await page.context().close();
    expectNoViolations(paths, viewport);
  }

  const publicPaths = Object.keys(ROUTE_VISITS).filter((path) => ROUTE_VISITS[path]!.as === 'nobody');
  const signedInPaths = Object.keys(ROUTE_VISITS).filter((path) => ROUTE_VISITS[path]!.as !== 'nobody');

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`public and sign-in routes at ${viewport} width`, async () => {
      await checkRoutes(viewport, publicPaths);
    }, 180_000);

    it(`signed-in routes at ${viewport} width`, async () => {
      await checkRoutes(viewport, signedInPaths);
    }, 300_000);

    it(`dialogs, the emulator's screens and error states at ${viewport} width`, async () => {
      const states: string[] = [];
      const checkState = async (page: Page, name: string) => {
        states.push(name);
        await check(page, name, viewport);
      };

      const page = await openAs('owner', viewport);
      // The clone dialog of the templates screen.
      await page.goto('/app-templates');
      await page.getByRole('button', { name: 'Clone Community Poll' }).click();
      await page.getByRole('dialog', { name: 'Clone Community Poll' }).waitFor();
      await checkState(page, 'state: clone dialog (/app-templates)');

      // The designer's delete confirmation.
      await page.goto(`/app/design/${ids.appId}`);
      await page
        .getByRole('button', { name: /^Delete / })
        .first()
        .click();
      await page.getByRole('dialog', { name: /^Delete / }).waitFor();
      await checkState(page, 'state: menu delete confirmation (designer)');

      // The emulator: a number typed on the dial pad, its menu screen, a validation error, the ended screen.
      await page.goto(`/app/emulator/${ids.appId}`);
      await page.getByRole('group', { name: 'Dial pad' }).waitFor();
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const screen = page.getByTestId('menu-display');
      await screen.waitFor();
      await checkState(page, 'state: emulator menu screen');
      await page.getByRole('textbox', { name: 'Reply' }).fill('9');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await screen.getByText('Reply with a number from 1 to 5').waitFor();
      await checkState(page, 'state: emulator validation error');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await screen.waitFor({ state: 'detached' });
      await page.keyboard.press('Backspace');
      await page.getByTestId('dial-number').getByText(/#$/).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'A USSD code starts with * and ends with #' }).waitFor();
      await checkState(page, 'state: emulator dial error');

      // An unknown app: the 'App not found' panel.
      await page.goto('/app/design/no-such-app');
      await page.getByText('App not found').first().waitFor();
      await checkState(page, 'state: app not found');

      // Import app with a file the server refuses: the problems list.
      await page.goto('/app-list');
      await page.getByRole('button', { name: 'Import app' }).click();
      const importDialog = page.getByRole('dialog', { name: 'Import app' });
      const broken = { format: 'dialflow.app', version: 1, exportedAt: '', app: {}, menus: [{ uniqueId: 'm1' }] };
      await importDialog
        .locator('input[type="file"]')
        .setInputFiles({ name: 'broken.dialflow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
      await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
      await importDialog.getByTestId('import-problems').waitFor();
      await checkState(page, 'state: import app problems (app list)');

      // Account Settings, API keys: a new key shown once, then the list.
      await page.goto('/account-profile');
      await page.getByRole('tab', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Create key' }).click();
      const keyDialog = page.getByRole('dialog', { name: 'Create API key' });
      await keyDialog.getByRole('textbox', { name: 'Name' }).fill(`Axe ${viewport}`);
      await keyDialog.getByRole('button', { name: 'Create key' }).click();
      await keyDialog.getByRole('textbox', { name: 'API key' }).waitFor();
      await checkState(page, 'state: API key shown once');
      await keyDialog.getByRole('button', { name: 'Done' }).click();
      await keyDialog.waitFor({ state: 'detached' });
      await page.getByTestId('api-key-table').waitFor();
      await checkState(page, 'state: API keys tab');
      await page.context().close();

      // The bots: New Bot, the QR code of a number being linked, a chat with reply buttons.
      const bots = await openAs('chatbot', viewport);
      await bots.goto('/whatsapp-bots');
      await bots.getByRole('button', { name: 'New Bot' }).click();
      await bots.getByRole('dialog', { name: 'New Bot' }).waitFor();
      await checkState(bots, 'state: New Bot dialog');
      await bots.goto(`/whatsapp-bot/settings/${ids.botId}`);
      await bots.getByRole('button', { name: 'Add Number' }).click();
      await bots.getByRole('dialog', { name: 'Connect WhatsApp Number' }).getByRole('button', { name: 'Continue' }).click();
      await bots.getByTestId('qr-canvas').waitFor({ timeout: 15_000 });
      await checkState(bots, 'state: WhatsApp QR code');
      await bots.goto(`/whatsapp-bot/simulator/${ids.botId}`);
      await bots.getByRole('textbox', { name: 'Message', exact: true }).fill('hi');
      await bots.getByRole('button', { name: 'Send', exact: true }).click();
      await bots.getByRole('button', { name: 'Last order' }).waitFor();
      await checkState(bots, 'state: chat simulator with reply buttons');
      await bots.context().close();

      // The login form's error.
      const visitor = await openAs('nobody', viewport);
      await visitor.goto('/login');
      await visitor.getByLabel('Email').fill('demo@dialflow.local');
      await visitor.getByLabel('Password', { exact: true }).fill('wrong-password');
      await visitor.getByRole('button', { name: 'Log in' }).click();
      await visitor.getByTestId('form-alert').filter({ hasText: 'Invalid email or password' }).waitFor();
      await checkState(visitor, 'state: login error');
      // The register form's field errors.
      await visitor.goto('/register');
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await visitor.getByText('Full name is required', { exact: true }).waitFor();
      await checkState(visitor, 'state: register field errors');
      await visitor.context().close();

      expectNoViolations(states, viewport);
    }, 180_000);
  }
});
