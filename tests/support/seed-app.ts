import type { TestApp } from './test-app';

/** How many apps seedApp gave each caller a default dial string, by its credentials. */
const defaultDialStrings = new Map<string, number>();

/**
 * The default dial string of the caller's next seeded app: `*920*55#` for the first, then `*920*55*2#`, `*920*55*3#`:
 * an account's apps have different dial strings (docs/shortcodes.md).
 */
function nextDefaultDialString(auth: Record<string, string>): string {
  const key = JSON.stringify(auth);
  const n = (defaultDialStrings.get(key) ?? 0) + 1;
  defaultDialStrings.set(key, n);
  return n === 1 ? '*920*55#' : `*920*55*${n}#`;
}

/** Creates an app through the API as the given user; returns its id. */
export async function seedApp(t: TestApp, auth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<string> {
  const customShortCode = 'customShortCode' in overrides || 'shortCode' in overrides ? undefined : nextDefaultDialString(auth);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/createApp',
    headers: auth,
    payload: {
      appName: 'Shop',
      description: 'A shop',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode,
      useTemplateTag: false,
      ...overrides,
    },
  });
  const body = res.json();
  if (body.status !== '00') throw new Error(`seedApp failed: ${res.body}`);
  return body.data.appId as string;
}

/** Creates a menu through the API; returns its uniqueId. */
export async function seedMenu(t: TestApp, auth: Record<string, string>, appId: string, menu: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/createMenu', headers: auth, payload: { appId, ...menu } });
  const body = res.json();
  if (body.status !== '00') throw new Error(`seedMenu failed: ${res.body}`);
  return body.uniqueId as string;
}

/**
 * The three-menu shop the runtime tests dial: a menu with options, an amount with a validation, a closing screen
 * with templates (`You chose Airtime for GHS 20`). On `*920*55#` unless `app` says otherwise; returns its id.
 */
export async function seedShop(t: TestApp, auth: Record<string, string>, app: Record<string, unknown> = {}): Promise<string> {
  const appId = await seedApp(t, auth, app);
  const done = await seedMenu(t, auth, appId, {
    userDefinedName: 'done',
    displayText: 'You chose {{ session.inputs.productLabel }} for GHS {{ session.inputs.amount }}',
    terminate: true,
  });
  const amount = await seedMenu(t, auth, appId, {
    userDefinedName: 'amount',
    displayText: 'Enter amount',
    inputValidations: [{ validationMethod: 'isNumeric', compareValue: '', errorMessage: 'Enter a number' }],
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
  });
  await seedMenu(t, auth, appId, {
    userDefinedName: 'product',
    displayText: 'Welcome to the shop\n1. Airtime\n2. Data',
    isFirst: true,
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: amount }],
  });
  return appId;
}

/**
 * Seeds the smallest flow: `first`, the app's first menu, goes by one rule (`eq 1` unless given) to `last`, a
 * menu that ends the session. Returns both uniqueIds.
 */
export async function seedTwoMenus(
  t: TestApp,
  auth: Record<string, string>,
  appId: string,
  first: Record<string, unknown>,
  last: Record<string, unknown>,
  rule: { operator: string; compareVal: string } = { operator: 'eq', compareVal: '1' },
): Promise<{ first: string; last: string }> {
  const lastId = await seedMenu(t, auth, appId, { ...last, terminate: true });
  const firstId = await seedMenu(t, auth, appId, {
    ...first,
    isFirst: true,
    switchOperations: [{ ...rule, action: 'goto', actionParam: lastId }],
  });
  return { first: firstId, last: lastId };
}

/** POST /api/updateApp with the app as stored and `settings` over it; returns the reply. */
export async function updateAppSettings(t: TestApp, auth: Record<string, string>, appId: string, settings: Record<string, unknown>) {
  const current = (await t.app.inject({ method: 'GET', url: `/api/getAppByAppId/${appId}`, headers: auth })).json().data;
  return t.app.inject({ method: 'POST', url: '/api/updateApp', headers: auth, payload: { ...current, ...settings } });
}
