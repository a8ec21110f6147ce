import { z } from 'zod';
import { MAP_DIRECTIONS, mapPositionSchema } from '../app/menu.schema';
import { appVersionSchema } from '../app/app-version.schema';
import { CHANGE_KINDS, type ChangeKind } from '../app/version-diff';

export const saveMenuOrderBodySchema = z.object({
  appId: z.string().min(1).max(64),
  menuIds: z.array(z.string().min(1).max(64)).max(2000),
});

/** POST /api/saveMenuPositions: the boxes the builder placed on the flow map; every other menu's position is cleared. */
export const saveMenuPositionsBodySchema = z.object({
  appId: z.string().min(1).max(64),
  direction: z.enum(MAP_DIRECTIONS),
  positions: z
    .array(z.object({ uniqueId: z.string().min(1).max(64), x: mapPositionSchema.shape.x, y: mapPositionSchema.shape.y }))
    .max(2000),
});

export const lintIssueSchema = z.object({
  level: z.enum(['error', 'warning']),
  menuId: z.string().nullable(),
  menu: z.string().nullable(),
  field: z.string().optional(),
  message: z.string(),
  /** The engine's stable issue names (LintIssue.code). */
  code: z
    .enum([
      'unreachable',
      'duplicate_rule',
      'no_exit',
      'over_length',
      'missing_translation',
      'unknown_variable',
      'media_on_ussd',
      'missing_target',
      'no_target',
    ])
    .optional(),
});
export type LintIssueDto = z.infer<typeof lintIssueSchema>;

export const VERSION_NAME_MAX = 80;
export const VERSION_NOTE_MAX = 1000;

/** What a deploy may be given (docs/versions.md): a name and a note, each optional; blank is none. */
export const deployQuerySchema = z.object({
  name: z
    .string()
    .trim()
    .max(VERSION_NAME_MAX, { message: `A version name is at most ${VERSION_NAME_MAX} characters.` })
    .optional(),
  note: z
    .string()
    .trim()
    .max(VERSION_NOTE_MAX, { message: `A version note is at most ${VERSION_NOTE_MAX} characters.` })
    .optional(),
  /** Deploy although saved test cases fail, for this reason (logged; docs/testing-apps.md, "Deploys"). */
  override: z.string().trim().max(500, { message: 'A reason to deploy anyway is at most 500 characters.' }).optional(),
});

const changeKindCounts = z.object(Object.fromEntries(CHANGE_KINDS.map((k) => [k, z.number()])) as Record<ChangeKind, z.ZodNumber>);

/** summarizeDiff's counts (shared/app/version-diff.ts). */
export const changeSummarySchema = z.object({
  menusAdded: z.number(),
  menusRemoved: z.number(),
  menusRenamed: z.number(),
  fields: changeKindCounts,
  app: z.number(),
  isReordered: z.boolean(),
});

export const appVersionInfoSchema = z.object({
  version: z.number(),
  /** The builder's name for it, null when none was given. */
  name: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  /** Who deployed it: their email, '' when the user no longer exists. */
  createdBy: z.string(),
  rolledBackFrom: z.number().nullable(),
  menuCount: z.number(),
  warnings: z.array(lintIssueSchema),
  isLive: z.boolean(),
  /** What changed since the version before it (every menu added for version 1); null when either cannot be read. */
  changes: changeSummarySchema.nullable(),
});
export type AppVersionInfo = z.infer<typeof appVersionInfoSchema>;

const fieldChangeSchema = z.object({
  field: z.string(),
  label: z.string(),
  kind: z.enum(CHANGE_KINDS),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

/** diffVersions' answer (shared/app/version-diff.ts). */
export const versionDiffSchema = z.object({
  app: z.array(fieldChangeSchema),
  isReordered: z.boolean(),
  menus: z.array(
    z.object({
      uniqueId: z.string(),
      name: z.string(),
      status: z.enum(['added', 'removed', 'changed']),
      renamedFrom: z.string().optional(),
      fields: z.array(fieldChangeSchema),
    }),
  ),
});

/** GET /api/getAppVersion/{appId}/{version}: `?against=` another version's number, or `draft`; absent, the one before. */
export const versionDetailsQuerySchema = z.object({
  against: z.union([z.literal('draft'), z.coerce.number().int().min(1)]).optional(),
});

export const versionDetailsSchema = z.object({
  info: appVersionInfoSchema,
  /** The version's menus as it runs them, for the read-only designer. */
  definition: appVersionSchema,
  /** What the diff compares it with: a version's number, 'draft', or null for the first version (all added). */
  against: z.union([z.number(), z.literal('draft')]).nullable(),
  diff: versionDiffSchema,
});
export type VersionDetails = z.infer<typeof versionDetailsSchema>;

/** GET /api/deployChanges/{appId}: '00' with the new version, or '02' with the checks' errors and warnings. */
export const deployReplySchema = z.object({
  status: z.literal('00'),
  message: z.string(),
  data: appVersionInfoSchema,
});

export const rollbackBodySchema = z.object({
  appId: z.string().min(1).max(64),
  version: z.number().int().min(1),
});
