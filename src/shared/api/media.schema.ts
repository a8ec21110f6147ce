import { z } from 'zod';
import { MEDIA_KINDS } from '../media';

/** A stored file as the API hands it out (shared/media.ts MediaRef), with a fresh signed link. */
export const mediaRefSchema = z.object({
  mediaId: z.uuid(),
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  size: z.number().int(),
  fileName: z.string().optional(),
  caption: z.string().optional(),
  url: z.string().optional(),
});

export const mediaParamsSchema = z.object({ mediaId: z.uuid('File not found') });

/** A file sent from the console: the bytes are the request's body, its Content-Type the type claimed. */
export const uploadMediaQuerySchema = z.object({
  /** The kind of file expected: refused if the bytes are another kind. */
  kind: z.enum(MEDIA_KINDS).optional(),
  /** The app the file is for: it counts against the app owner's storage. */
  appId: z.string().min(1).max(64).optional(),
  fileName: z.string().trim().min(1).max(255).optional(),
  caption: z.string().max(1024).optional(),
});

/** A signed link's query string (docs/media.md, Links). */
export const mediaLinkQuerySchema = z.object({
  expires: z.coerce.number().int().nonnegative(),
  signature: z.string().min(1).max(128),
});

/**
 * Why a file was refused (MediaRefusal's `code`, in the envelope's `code`): the sentence says it to a person,
 * the code to a program (the engine picks the menu's own message by it).
 */
export const MEDIA_REFUSAL_CODES = [
  'empty',
  'tooLarge',
  'typeNotAllowed',
  'unknownType',
  'forgedType',
  'unreadableImage',
  'imageTooLarge',
  'quotaReached',
  'unavailable',
  'lengthRequired',
  'stalled',
  'tooManyUploads',
  'serverBusy',
] as const;
export type MediaRefusalCode = (typeof MEDIA_REFUSAL_CODES)[number];

/**
 * The tiles under the location form's map, as the operator set them (MAP_TILE_URL, MAP_TILE_ATTRIBUTION): a Leaflet
 * address template and the provider's credit (HTML). `tileUrl` empty: no map, the typed form alone.
 */
export const mapTilesSchema = z.object({ tileUrl: z.string(), attribution: z.string() });
export type MapTiles = z.infer<typeof mapTilesSchema>;
