import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';
import {
  MEDIA_REFUSAL_CODES,
  mapTilesSchema,
  mediaLinkQuerySchema,
  mediaParamsSchema,
  mediaRefSchema,
  uploadMediaQuerySchema,
} from './media.schema';

// Stored media files (docs/media.md). Key: ['media', mediaId].

/** A refused file names why in `code` (media.schema.ts MEDIA_REFUSAL_CODES). */
const mediaRefusalSchema = z.object({ code: z.enum(MEDIA_REFUSAL_CODES) });

/** GET /api/media/:mediaId: one of the account's files, with a fresh signed link to its bytes. */
export const getMedia = defineCall({
  method: 'GET',
  path: '/api/media/:mediaId',
  params: mediaParamsSchema,
  reply: envelopeSchema(mediaRefSchema),
  key: ['media', ':mediaId'],
});

/**
 * POST /api/media: stores the request's body as a file (its Content-Type is the type claimed, checked against
 * the bytes); the query names the kind expected, the app, the file name and the caption.
 */
export const uploadMedia = defineCall({
  method: 'POST',
  path: '/api/media',
  query: uploadMediaQuerySchema,
  reply: envelopeSchema(mediaRefSchema),
  refusal: mediaRefusalSchema,
});

/** GET /media/:mediaId?expires=&signature=: a file's bytes, for whoever holds a signed link that has not expired. */
export const downloadMedia = defineCall({
  method: 'GET',
  path: '/media/:mediaId',
  params: mediaParamsSchema,
  query: mediaLinkQuerySchema,
  reply: z.string().meta({ description: "The file's bytes, with the type read from them" }),
  file: true,
  auth: false,
});

/** GET /api/map-tiles: where the location form's map takes its tiles from; public, as the simulated phone is. */
export const getMapTiles = defineCall({
  method: 'GET',
  path: '/api/map-tiles',
  reply: envelopeSchema(mapTilesSchema),
  key: ['map-tiles'],
  auth: false,
});
