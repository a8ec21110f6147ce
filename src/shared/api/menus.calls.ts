import { z } from 'zod';
import { type FieldError, menuBodySchema, menuLiteSchema, menuSchema } from '../app';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import { testFailureSchema } from './test-cases.schema';
import {
  appVersionInfoSchema,
  deployQuerySchema,
  deployReplySchema,
  lintIssueSchema,
  rollbackBodySchema,
  saveMenuOrderBodySchema,
  saveMenuPositionsBodySchema,
  versionDetailsQuerySchema,
  versionDetailsSchema,
} from './menus.schema';

// An app's menus and versions (src/shared/api/contract.ts). Keys: ['menus', appId] holds the menus and, below it,
// their lite list; an app's versions sit below the app (['apps', appId, 'versions']).

const fieldErrorSchema = z.custom<FieldError>(
  (value) => typeof value === 'object' && value !== null && typeof (value as FieldError).field === 'string',
);

/** Create and update answer `{ status, message, uniqueId }`; a refusal may name its field and list every error. */
const menuSavedReplySchema = messageSchema.extend({ uniqueId: z.string() });
const menuRefusalSchema = z.object({ field: z.string().optional(), errors: z.array(fieldErrorSchema).optional() });

/** GET /api/getAllMenus/:appId: the app's draft menus. */
export const findMenus = defineCall({
  method: 'GET',
  path: '/api/getAllMenus/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(z.array(menuSchema)),
  key: ['menus', ':appId'],
});

/** GET /api/getAllMenusLite/:appId: each menu's id, name and text, for pickers. */
export const findMenusLite = defineCall({
  method: 'GET',
  path: '/api/getAllMenusLite/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(z.array(menuLiteSchema)),
  key: ['menus', ':appId', 'lite'],
});

/** POST /api/createMenu. */
export const createMenu = defineCall({
  method: 'POST',
  path: '/api/createMenu',
  body: menuBodySchema,
  reply: menuSavedReplySchema,
  refusal: menuRefusalSchema,
});

/** POST /api/updateMenu. */
export const updateMenu = defineCall({
  method: 'POST',
  path: '/api/updateMenu',
  body: menuBodySchema,
  reply: menuSavedReplySchema,
  refusal: menuRefusalSchema,
});

/** GET /api/deleteMenu/:uniqueId (the product's path). */
export const deleteMenu = defineCall({
  method: 'GET',
  path: '/api/deleteMenu/:uniqueId',
  params: z.object({ uniqueId: z.string().min(1).max(64) }),
  reply: messageSchema,
});

/** POST /api/saveMenuOrder: the menus' order in the designer's list. */
export const saveMenuOrder = defineCall({
  method: 'POST',
  path: '/api/saveMenuOrder',
  body: saveMenuOrderBodySchema,
  reply: messageSchema,
});

/** POST /api/saveMenuPositions: the flow map's placed boxes; menus left out are laid out by the map again. */
export const saveMenuPositions = defineCall({
  method: 'POST',
  path: '/api/saveMenuPositions',
  body: saveMenuPositionsBodySchema,
  reply: messageSchema,
});

/**
 * GET /api/deployChanges/:appId?name=&note=: '00' with the new version; 400 '02' with the pre-deploy checks' errors
 * and warnings, or a name or note too long; 409 '02' with `unchangedSince` when the draft is the live version already.
 */
export const deployChanges = defineCall({
  method: 'GET',
  path: '/api/deployChanges/:appId',
  params: appIdParamsSchema,
  query: deployQuerySchema,
  reply: deployReplySchema,
  refusal: z.object({
    errors: z.array(lintIssueSchema).optional(),
    warnings: z.array(lintIssueSchema).optional(),
    unchangedSince: z.number().optional(),
    /** Saved test cases that failed (docs/testing-apps.md): each with its first different step. */
    failures: z.array(testFailureSchema).optional(),
  }),
});

/** GET /api/getAppVersions/:appId: the app's deployed versions, newest first. */
export const findAppVersions = defineCall({
  method: 'GET',
  path: '/api/getAppVersions/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(z.array(appVersionInfoSchema)),
  key: ['apps', ':appId', 'versions'],
});

/** GET /api/getAppVersion/:appId/:version: one version, its menus, and what changed since the one before (or `?against=`). */
export const findAppVersion = defineCall({
  method: 'GET',
  path: '/api/getAppVersion/:appId/:version',
  params: appIdParamsSchema.extend({ version: z.coerce.number().int().min(1) }),
  query: versionDetailsQuerySchema,
  reply: envelopeSchema(versionDetailsSchema),
  key: ['apps', ':appId', 'versions', ':version'],
});

/** POST /api/rollbackVersion: a new version serving an older one's menus; the message names the version restored. */
export const rollbackVersion = defineCall({
  method: 'POST',
  path: '/api/rollbackVersion',
  body: rollbackBodySchema,
  reply: envelopeSchema(appVersionInfoSchema),
});
