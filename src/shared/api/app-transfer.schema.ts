import { z } from 'zod';
import { appLanguagesSchema } from '../app/languages';
import { gatewayConnectionsSchema } from '../gateway-profiles';
import { MAX_MENUS_PER_APP } from '../billing/plans';
import { menuSchema } from '../app/menu.schema';
import { MAX_SUBFLOWS_PER_APP, subflowInputSchema, subflowOutputSchema } from '../app/subflow.schema';
import { readSpecVersion, SPEC_VERSION, upgradeDefinition } from '../app/spec-version';
import { isPlainObject } from '../json';
import { appSchema, createAppBodySchema } from './apps.schema';

/**
 * An app as one file (docs/import-export.md): its settings and its draft menus, never a secret.
 * `format` and `version` say what the file is; a reader refuses any other, so a later version can change the
 * shape without an old server misreading it. `specVersion` is the shape of the app and menus inside
 * (shared/app/spec-version.ts), the same as a deployed version's: an older one is brought forward on import.
 * @example { "format": "dialflow.app", "version": 1, "specVersion": 2, "exportedAt": "2026-11-26T22:00:00.000Z",
 *   "app": { "appName": "Balance", ... }, "menus": [{ "uniqueId": "…", "userDefinedName": "home", ... }], "secretsRemoved": [] }
 */
export const APP_EXPORT_FORMAT = 'dialflow.app';
export const APP_EXPORT_VERSION = 1;
/** The largest import the server reads; the console checks a file against it before sending. */
export const APP_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Deeper than any export goes (an action's header is 7 levels down): deeper input is not an export. */
export const APP_IMPORT_MAX_DEPTH = 12;
/** An export file's name: `<app-name>.dialflow.json`, the name made safe for every file system. */
export function getAppExportFileName(appName: string): string {
  const base = appName
    .trim()
    .replace(/[^A-Za-z0-9._ -]+/g, '')
    .replace(/\s+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 80);
  return `${base || 'app'}.dialflow.json`;
}

export const APP_TRANSFER_MESSAGES = {
  notAnExport: `This is not a Dialflow app export (its "format" must be "${APP_EXPORT_FORMAT}").`,
  wrongVersion: (version: unknown) =>
    `This file is version ${JSON.stringify(version)} of the app export format; this server reads version ${APP_EXPORT_VERSION}.`,
  tooDeep: `The file is nested more than ${APP_IMPORT_MAX_DEPTH} levels deep: it is not a Dialflow app export.`,
  tooLarge: `The file is larger than ${APP_IMPORT_MAX_BYTES / 1024 / 1024} MB, the most an import may be.`,
  unknownField: 'Unknown field: an app export has no such field.',
  duplicateMenuId: 'Two menus of the file share this uniqueId.',
  unknownParent: 'parentMenuId names no menu of the file.',
  unknownCustomAction: 'This custom function is not one of your account: create it under My Custom Functions, then choose it here.',
  refused: (count: number) => `The file was not imported: ${count} problem${count === 1 ? '' : 's'} to fix.`,
  secretRemoved: 'A secret was left out of the export: enter it again in the designer.',
} as const;

/**
 * The app's settings in a file: what the create-app form sets, plus the screen limit, its languages and the gateways
 * it is connected to (none in a file exported before they were written).
 */
export const exportedAppSchema = createAppBodySchema.extend({
  screenLimit: z.number().int().min(60).max(182).default(160),
  languages: appLanguagesSchema.nullish(),
  gatewayConnections: gatewayConnectionsSchema.default([]),
});

/**
 * A menu in a file: `uniqueId` is the file's own name for it (gotos and parentMenuId use it), remapped on import.
 * The flow map's box positions stay behind: an imported app is laid out afresh.
 */
export const exportedMenuSchema = menuSchema.omit({ appId: true, isFirst: true, mapPosition: true });
export type ExportedMenu = z.infer<typeof exportedMenuSchema>;

/**
 * A sub-flow the app's rules enter (docs/sub-flows.md), carried with it: `id` is the file's own name for it, which
 * the rules' `subflow.id` use; an import makes it a new sub-flow of the importing account. Its first menu is first.
 */
export const exportedSubflowSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(100),
  inputs: z.array(subflowInputSchema).max(20).default([]),
  outputs: z.array(subflowOutputSchema).max(20).default([]),
  menus: z.array(exportedMenuSchema).max(500),
});
export type ExportedSubflow = z.infer<typeof exportedSubflowSchema>;

export const appExportSchema = z.object({
  format: z.literal(APP_EXPORT_FORMAT),
  version: z.literal(APP_EXPORT_VERSION),
  /** Written by every export; a file without it (exported before it was written) is spec version 0. */
  specVersion: z.literal(SPEC_VERSION),
  exportedAt: z.string().max(40),
  app: exportedAppSchema,
  /** In order: the first is the app's first menu. */
  menus: z.array(exportedMenuSchema).max(MAX_MENUS_PER_APP),
  /** The sub-flows the menus enter; none in a file exported before sub-flows. */
  subflows: z.array(exportedSubflowSchema).max(MAX_SUBFLOWS_PER_APP).default([]),
  /** Where a secret (a password, an authorization header) was blanked, e.g. `menus.2.actions.0.code.dbpass`. */
  secretsRemoved: z.array(z.string().max(200)).max(2000).default([]),
});
export type AppExport = z.infer<typeof appExportSchema>;

/**
 * An export file with its app and menus brought forward to SPEC_VERSION, before today's schema reads them. Throws
 * SpecVersionError for a file from a newer version; a file without an app or menus is left for the schema to refuse.
 * Pure, as every migration is: the import checks the file's depth before and its shape after.
 */
export function migrateAppExport(document: Record<string, unknown>): Record<string, unknown> {
  const from = readSpecVersion(document.specVersion);
  const { app, menus } = document;
  if (!isPlainObject(app) || !Array.isArray(menus)) return { ...document, specVersion: SPEC_VERSION };
  const upgraded = upgradeDefinition({ app, menus }, from);
  return { ...document, specVersion: SPEC_VERSION, app: upgraded.app, menus: upgraded.menus };
}

/** A reason an import was refused, or a warning on one that was made: where in the file, and what. */
export const importProblemSchema = z.object({ field: z.string(), message: z.string() });
export type ImportProblem = z.infer<typeof importProblemSchema>;

/**
 * POST /api/importApp: the file as it was exported, and optionally the new app's name and shortcode (else the
 * file's). The document is checked in the service, so every problem comes back at once with its path.
 */
export const importAppBodySchema = z
  .object({
    document: z.unknown().describe('An export from GET /api/exportApp/{appId}'),
    appName: z.string().trim().max(120).optional(),
    shortCode: z.string().trim().max(100).optional(),
  })
  .strict();
export type ImportAppBody = z.infer<typeof importAppBodySchema>;

export const importAppReplySchema = z.object({
  status: z.literal('00'),
  message: z.string(),
  data: appSchema,
  /** The engine's pre-deploy checks on the new draft, and secrets to enter again. */
  warnings: z.array(importProblemSchema),
});
