/**
 * Seeds the bench shop (shop.ts) into a built Dialflow app through its HTTP API, as a builder would: a user,
 * the app, its three menus wired together, and a deploy. Used by servers/dialflow.ts and hop-loop.ts.
 */
import type { FastifyInstance } from 'fastify';
import { createUser } from '../src/server/features/auth/auth.service';
import { SHOP } from './shop';

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
