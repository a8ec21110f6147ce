/**
 * Seeds the bench shop (shop.ts) into a built Dialflow app through its HTTP API, as a builder would: a user,
 * the app, its three menus wired together, and a deploy. Used by servers/dialflow.ts and hop-loop.ts; and for the
 * provider target, the purchased extensions that route to it (seedShortcodes).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apps, shortcodePurchases } from '../src/db/schema';
import { createUser } from '../src/server/features/auth/auth.service';
import { SHOP, SHORTCODE_COUNT, SHORTCODE_PROVIDER, shortcodeDialOf } from './shop';

export async function seedShop(app: FastifyInstance): Promise<{ appId: string; deployMessage: string }> {
  const api = async (method: 'GET' | 'POST', url: string, auth?: Record<string, string>, payload?: object) => {
    const res = await app.inject({ method, url, headers: auth, payload });
    const body = res.json();
    if (res.statusCode !== 200 || body.status !== '00') throw new Error(`${method} ${url} failed (${res.statusCode}): ${res.body}`);
    return body;
  };
  const email = 'bench@bench.dialflow';
  const password = 'bench-secret-123';
  await createUser(app.ctx.db, { fullName: 'Bench User', mobileNumber: '233200000000', email, password });
  const login = await api('POST', '/api/auth/login', undefined, { email, password });
  const auth = { authorization: `Bearer ${login.token as string}` };

  // The three-menu shop (same as runtime.int.test.ts): options + valueIn navigation, an isNumeric
  // validation with an Always goto, and a terminating menu rendering templates from session.inputs.
  const appId = (await api('POST', '/api/createApp', auth, { ...SHOP.app })).data.appId as string;
  const menu = async (fields: object) => (await api('POST', '/api/createMenu', auth, { appId, ...fields })).uniqueId as string;
  const done = await menu(SHOP.done);
  const amount = await menu({ ...SHOP.amount, switchOperations: [{ ...SHOP.amount.switchOperations[0], actionParam: done }] });
  await menu({ ...SHOP.product, switchOperations: [{ ...SHOP.product.switchOperations[0], actionParam: amount }] });
  const deployed = await api('GET', `/api/deployChanges/${appId}`, auth);
  return { appId, deployMessage: deployed.message as string };
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
