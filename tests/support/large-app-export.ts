import type { AppExport } from '../../src/shared/api/app-transfer.schema';

/**
 * An export file of `count` menus that the designer's rules accept (fields left at their defaults are left out,
 * as a hand-written file would): each menu offers three choices that go to
 * the next menus and back to the first, and the last menus end the session. About 280 bytes a menu, so 2,000
 * menus are some 560 KB, well within an import's 2 MB. Used by the import tests and bench/import-stall.ts.
 */
export function createLargeAppExport(count: number, appName = 'Large'): AppExport {
  const id = (i: number) => `m${i}`;
  const menus = Array.from({ length: count }, (_, i) => ({
    uniqueId: id(i),
    userDefinedName: `menu${i}`,
    displayText: `Menu ${i}\n1. Next\n2. Skip\n3. Home`,
    terminate: i === count - 1,
    parentMenuId: i === 0 ? null : id(i - 1),
    switchOperations:
      i >= count - 2
        ? []
        : [
            { operator: 'eq' as const, compareVal: '1', action: 'goto' as const, actionParam: id(i + 1) },
            { operator: 'eq' as const, compareVal: '2', action: 'goto' as const, actionParam: id(i + 2) },
            { operator: 'eq' as const, compareVal: '3', action: 'goto' as const, actionParam: id(0) },
          ],
  }));
  return {
    format: 'dialflow.app',
    version: 1,
    exportedAt: '2026-11-27T00:00:00.000Z',
    app: {
      appName,
      description: 'A large app',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      shortCode: '*920*88#',
      baseShortCode: '',
      customShortCode: '*920*88#',
      screenLimit: 160,
    },
    menus,
    secretsRemoved: [],
  } as unknown as AppExport;
}
