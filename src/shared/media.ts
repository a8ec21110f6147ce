/**
 * Media in and out of a bot (docs/media.md): the kinds of file a menu can ask for or send, what WhatsApp accepts
 * of each, and the reference a session, a template, a rule and an action see in place of the bytes. Shared by the
 * engine (validates a menu's input), the connectors (carry files), the server (stores them) and the console.
 */

/** The kinds of file a message carries. A location is not a file (see {@link LocationRef}). */
export const MEDIA_KINDS = ['image', 'document', 'audio', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What a menu can ask the user for: typed text (the default), a file of one kind, or a location. */
export const INPUT_KINDS = ['text', ...MEDIA_KINDS, 'location'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

const MB = 1024 * 1024;

/**
 * What WhatsApp's Cloud API accepts of each kind, as its documentation lists them (supported media types): the MIME
 * types and the largest file. The same bounds hold on every connector, so a bot behaves the same on all of them.
 * `audio/ogg` is accepted with the Opus codec only (voice notes), which is what phones record.
 */
export const MEDIA_TYPES: Record<MediaKind, { mimeTypes: readonly string[]; maxBytes: number }> = {
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  document: {
    mimeTypes: [
      'application/pdf',
      'text/plain',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * MB,
  },
  audio: { mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], maxBytes: 16 * MB },
  video: { mimeTypes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * MB },
};

/** The kind a MIME type belongs to, or null when WhatsApp takes it as none of them. */
export function mediaKindOf(mimeType: string): MediaKind | null {
  const bare = mimeType.split(';')[0]!.trim().toLowerCase();
  return MEDIA_KINDS.find((kind) => MEDIA_TYPES[kind].mimeTypes.includes(bare)) ?? null;
}

/**
 * A stored file as a session, a template, a rule and an action see it: never the bytes. `url` is a signed,
 * time-limited link to the file (the console and the REST action use it); it is made fresh when the
 * reference is handed out, so a stored reference may carry an expired one.
 */
export interface MediaRef {
  /** The stored file's id (`media_files.id`). */
  mediaId: string;
  kind: MediaKind;
  /** The type read from the file's bytes, not the one its sender claimed. */
  mimeType: string;
  /** Bytes. */
  size: number;
  /** The sender's file name, when it had one (documents). */
  fileName?: string;
  /** The text sent with the file. */
  caption?: string;
  url?: string;
}

/** A place on the map: a location a user shared, or one a menu sends. */
export interface LocationRef {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** True when a location's coordinates are on the globe (latitude -90..90, longitude -180..180). */
export function isValidLocation(location: Pick<LocationRef, 'latitude' | 'longitude'>): boolean {
  const { latitude, longitude } = location;
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** A contact card a menu sends: a name and the numbers to reach them on. */
export interface ContactCard {
  name: string;
  /** E.164 numbers (`+233241234567`). */
  phones: string[];
}
