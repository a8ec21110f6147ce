import { z } from 'zod';
import { MAP_DIRECTIONS, mapPositionSchema } from '../app/menu.schema';

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

export const appVersionInfoSchema = z.object({
  version: z.number(),
  createdAt: z.string(),
  createdBy: z.string(),
  rolledBackFrom: z.number().nullable(),
  menuCount: z.number(),
  warnings: z.array(lintIssueSchema),
  isLive: z.boolean(),
});
export type AppVersionInfo = z.infer<typeof appVersionInfoSchema>;

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
