/**
 * Seeds the bench shop (shop.ts) into a built Dialflow app through its HTTP API, as a builder would: a user,
 * the app, its three menus wired together, and a deploy. Used by servers/dialflow.ts, hop-loop.ts and (over HTTP) shipped.ts; and for the
 * provider target, the purchased extensions that route to it (seedShortcodes).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apps, shortcodePurchases } from '../src/db/schema';
import { createUser } from '../src/server/core/accounts';
import { SHOP, SHORTCODE_COUNT, SHORTCODE_PROVIDER, shortcodeDialOf } from './shop';

/** The parts of the API's envelope the seeding reads. */
interface Envelope {
  status: string;
  message: string;
  token?: string;
  uniqueId?: string;
  data?: { appId?: string };
}

/** One call to the API: resolves to the envelope when it answers 200 with status "00", else throws. */
type ShopApi = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) => Promise<Envelope>;

function checkEnvelope(method: string, url: string, statusCode: number, text: string): Envelope {
  const body = JSON.parse(text) as Envelope;
  if (statusCode !== 200 || body.status !== '00') throw new Error(`${method} ${url} failed (${statusCode}): ${text}`);
  return body;
}

/**
 * The shop's amount menu reading and saving the caller's contact (hop-loop.ts's HOPS_CONTACT=1, docs/contacts.md):
 * a header `{{ contact.name }}`, empty for the bench's callers so the screens stay the same, and the amount saved
 * to the contact. Each session then reads its contact once and writes what it saved with its records.
 */
const CONTACT_AMOUNT = { headerText: '{{ contact.name }}', saveToContact: 'amount' };

/**
 * The three-menu shop (same as runtime.int.test.ts): options + valueIn navigation, an isNumeric validation with
 * an Always goto, and a terminating menu rendering templates from session.inputs; then a deploy.
 */
async function buildShop(
  api: ShopApi,
  email: string,
  password: string,
  options: { readsContact?: boolean } = {},
): Promise<{ appId: string; deployMessage: string }> {
  const token = (await api('POST', '/api/auth/login', undefined, { email, password })).token!;
  const appId = (await api('POST', '/api/createApp', token, { ...SHOP.app })).data!.appId!;
  const menu = async (fields: object) => (await api('POST', '/api/createMenu', token, { appId, ...fields })).uniqueId!;
  const done = await menu(SHOP.done);
  const amount = await menu({
    ...SHOP.amount,
    ...(options.readsContact ? CONTACT_AMOUNT : {}),
    switchOperations: [{ ...SHOP.amount.switchOperations[0], actionParam: done }],
  });
  await menu({ ...SHOP.product, switchOperations: [{ ...SHOP.product.switchOperations[0], actionParam: amount }] });
  const deployed = await api('GET', `/api/deployChanges/${appId}`, token);
  return { appId, deployMessage: deployed.message };
}

export async function seedShop(
  app: FastifyInstance,
  options: { readsContact?: boolean } = {},
): Promise<{ appId: string; deployMessage: string }> {
  const email = 'bench@bench.dialflow';
  const password = 'bench-secret-123';
  await createUser(app.ctx.db, { fullName: 'Bench User', mobileNumber: '233200000000', email, password });
  return buildShop(
    async (method, url, token, payload) => {
      const res = await app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : undefined, payload });
      return checkEnvelope(method, url, res.statusCode, res.body);
    },
    email,
    password,
    options,
  );
}

/** The same shop built in a running server over HTTP (the shipped target), signed in as an existing user. */
export async function seedShopOverHttp(
  baseUrl: string,
  user: { email: string; password: string },
): Promise<{ appId: string; deployMessage: string }> {
  return buildShop(
    async (method, url, token, payload) => {
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: payload ? JSON.stringify(payload) : undefined,
      });
      return checkEnvelope(method, url, res.status, await res.text());
    },
    user.email,
    user.password,
  );
}

/**
 * The provider target's routing table: an admin creates the open extension `*920*` + 4 digits on the provider
 * `benchgh` through the API, then SHORTCODE_COUNT purchases of it (`*920*1000#`..) are written at once, active for a
 * year and connected to the shop's deployed version (`production`), as provisioning and connecting would leave them.
 */
export async function seedShortcodes(app: FastifyInstance, appId: string): Promise<void> {
  const email = 'bench-admin@bench.dialflow';
  const password = 'bench-secret-123';
  await createUser(app.ctx.db, { fullName: 'Bench Admin', email, password, userType: 'internal_admin', roles: ['ADMIN'] });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const created = await app.inject({
    method: 'POST',
    url: '/api/subscription/createShortCode',
    headers: { authorization: `Bearer ${login.json().token as string}` },
    payload: {
      country: 'Ghana',
      shortCode: '*920*',
      provider: 'other',
      otherprovider: SHORTCODE_PROVIDER,
      method: 'POST',
      extLength: 4,
      price: '150',
    },
  });
  if (created.json().status !== '00') throw new Error(`createShortCode failed: ${created.body}`);
  const [owner] = await app.ctx.db.select({ userId: apps.userId }).from(apps).where(eq(apps.id, appId));
  const now = new Date();
  const expiryDate = new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000);
  await app.ctx.db.insert(shortcodePurchases).values(
    Array.from({ length: SHORTCODE_COUNT }, (_, i) => ({
      userId: owner!.userId,
      extensionId: created.json().data.uuid as string,
      providerKey: SHORTCODE_PROVIDER,
      dialString: shortcodeDialOf(i),
      country: 'Ghana',
      requestMethod: 'POST',
      price: '150.00',
      currency: 'GHS',
      status: 'active',
      startDate: now,
      expiryDate,
      appId,
      linkedAppEnv: 'production',
      provisioned: true,
    })),
  );
  app.ctx.shortcodeRoutes.invalidate();
}
