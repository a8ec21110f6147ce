import type { TestApp } from './test-app';

/** Creates an app through the API as the given user; returns its id. */
export async function seedApp(t: TestApp, auth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/createApp',
    headers: auth,
    payload: { appName: 'Shop', description: 'A shop', country: 'ghana', connectionMode: 'existing-shortcode', customShortCode: '*920*55#', useTemplateTag: false, ...overrides },
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
