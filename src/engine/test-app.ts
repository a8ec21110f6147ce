/**
 * For the engine's tests: an app version as the server stores one (app a1, "Shop" on *920#), made of the
 * given menus. Not used by the engine itself.
 */
import { appVersionSchema, type AppVersion, type AppVersionInput, type MenuInput } from '../shared/app';

export function buildTestApp(menus: Array<Partial<MenuInput>>, app: Partial<AppVersionInput> = {}): AppVersion {
  return appVersionSchema.parse({
    appId: 'a1',
    versionId: 'v1',
    appName: 'Shop',
    shortCode: '*920#',
    ...app,
    menus: menus.map((menu) => ({ appId: 'a1', ...menu })),
  });
}
