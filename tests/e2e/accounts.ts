import type { Page } from 'playwright-core';
import { baseUrl } from './browser';
import { E2E_USERS } from './fixtures';

export { storeSession } from './chromium';

export interface LoginReplyBody {
  status: string;
  message: string;
  token: string;
  data: {
    fullName: string;
    email: string;
    role: string;
    userType: string;
    roles: string[];
    merchantUser: boolean;
    merchantUuid: string | null;
    merchantName: string | null;
    uuid: string;
  };
}

let counter = 0;

/** A console API reply: the envelope and the ids some calls return beside it (`data` is absent on a refusal). */
export interface ApiReply<T> {
  status: string;
  message: string;
  data: T;
  uniqueId?: string;
  uuid?: string;
}

/** A console API call with a bearer token: GET without a body, POST with one; `origin` names a server of a test's own. */
export async function callApi<T>(token: string, path: string, body?: unknown, origin = baseUrl()): Promise<ApiReply<T>> {
  const res = await fetch(`${origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as ApiReply<T>;
}

/** Signs in through the API, as the login screen does; the reply holds the token. */
export async function loginByApi(credentials: { email: string; password: string }, origin = baseUrl()): Promise<LoginReplyBody> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  return (await res.json()) as LoginReplyBody;
}

/** Puts an account on a plan through the super admin's call, as support would for a customer (docs/billing.md). */
async function activatePlan(email: string, plan: 'ENTERPRISE'): Promise<void> {
  const admin = await loginByApi(E2E_USERS.superAdmin);
  const activated = await callApi(admin.token, '/api/subscription/activate', { email, plan, reason: 'browser tests build freely' });
  if (activated.status !== '00') throw new Error(`activating ${plan} failed: ${JSON.stringify(activated)}`);
}

/**
 * A fresh account for tests that change it (password...), so the seeded accounts stay as other files expect. It
 * is on TRIAL, as a newly registered account is; `plan: 'ENTERPRISE'` lifts the plan limits for tests that build
 * more apps or menus than TRIAL allows.
 */
export async function registerAccount(
  fullName = 'Efua Asante',
  options: { plan?: 'TRIAL' | 'ENTERPRISE' } = {},
): Promise<{ email: string; password: string; reply: LoginReplyBody }> {
  counter += 1;
  const email = `e2e-${Date.now()}-${counter}@e2e.test`;
  const password = 'first-pass-1';
  const res = await fetch(`${baseUrl()}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName, email, mobileNumber: '233244000111', companyName: 'Asante Foods', password }),
  });
  const reply = (await res.json()) as LoginReplyBody;
  if (!reply.token) throw new Error(`registration failed: ${JSON.stringify(reply)}`);
  if (options.plan === 'ENTERPRISE') await activatePlan(email, options.plan);
  return { email, password, reply };
}

/**
 * A fresh account that builds WhatsApp bots (chatbot access given by the seeded super admin), signed in: for files
 * that create bots, so that the seeded chatbot user's plan limit is not shared by every such file on the one server.
 */
export async function registerBotBuilder(fullName = 'Yaa Mensah'): Promise<LoginReplyBody> {
  const account = await registerAccount(fullName, { plan: 'ENTERPRISE' });
  const admin = await loginByApi(E2E_USERS.superAdmin);
  const granted = await callApi(admin.token, '/api/admin/chatbot-access', { email: account.email, enabled: true });
  if (granted.status !== '00') throw new Error(`chatbot access refused: ${JSON.stringify(granted)}`);
  return loginByApi(account);
}

/** A new WhatsApp bot of the signed-in builder: its app id (a refusal fails the test with the server's words). */
export async function createWhatsAppBot(token: string, appName: string, description: string): Promise<string> {
  const bot = await callApi<{ appId: string }>(token, '/api/chatbot/app/create', { appName, description, botType: 'whatsapp' });
  if (bot.status !== '00') throw new Error(`create bot failed: ${JSON.stringify(bot)}`);
  return bot.data.appId;
}

/** A new USSD app of the signed-in builder on a code of its own (an existing shortcode): its app id. */
export async function createUssdApp(token: string, app: { appName: string; description: string; shortCode: string }): Promise<string> {
  const created = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: app.appName,
    description: app.description,
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: app.shortCode,
    shortCode: '',
    baseShortCode: '',
    useTemplateTag: false,
  });
  if (created.status !== '00' || !created.data) throw new Error(`createApp failed: ${JSON.stringify(created)}`);
  return created.data.appId;
}

/** A new menu of one of the builder's apps (the body of POST /api/createMenu): its uniqueId. */
export async function createMenu(token: string, menu: Record<string, unknown>): Promise<string> {
  const created = await callApi(token, '/api/createMenu', menu);
  if (created.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(created)}`);
  return String(created.uniqueId);
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the page is at exactly this path (waitForURL globs would let /merchant/login pass for /login). */
export async function waitForPath(page: Page, path: string, timeout = 10_000): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}
