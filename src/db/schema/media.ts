import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { MediaKind } from '../../shared/media';
import { users } from './accounts';
import { apps } from './apps';

/** PostgreSQL's bytea. The media store writes and reads it as base64 text (features/media/media-store.ts), never as this type's values. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** Where a file came from: a user's message, the console, an action's result, or a URL a menu names. */
export const MEDIA_SOURCES = ['inbound', 'upload', 'action', 'url'] as const;
export type MediaSource = (typeof MEDIA_SOURCES)[number];

/** Where a file's bytes are: `media_bytes` (the default) or an S3-compatible bucket (docs/media.md). */
export const MEDIA_BACKENDS = ['database', 's3'] as const;
export type MediaBackend = (typeof MEDIA_BACKENDS)[number];

/**
 * One stored file (docs/media.md): what a MediaRef names. The bytes are in the back end the row names, under
 * `storage_key`; `deleted_at` is when they were removed (retention or erasure) while the record stays, so a
 * session log still says a file was there.
 */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id').references(() => apps.id, { onDelete: 'set null' }),
    kind: text('kind').$type<MediaKind>().notNull(),
    /** Read from the bytes (file-type), never the sender's claim. */
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    /** Hex SHA-256 of the bytes. */
    sha256: text('sha256').notNull(),
    fileName: text('file_name'),
    caption: text('caption'),
    source: text('source').$type<MediaSource>().notNull(),
    backend: text('backend').$type<MediaBackend>().notNull(),
    storageKey: text('storage_key').notNull(),
    /** The number an inbound file came from (E.164), so erasing that number's data finds it. */
    msisdn: text('msisdn'),
    /**
     * The https address a `url` file was fetched from: a bot sending the same address again soon after reuses the
     * file rather than fetching it again (features/bots/whatsapp-media.ts).
     */
    sourceUrl: text('source_url'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // The account's quota sums the sizes of its live files.
    index('media_files_owner_live_idx').on(t.ownerId).where(sql`${t.deletedAt} is null`),
    // The retention sweep walks live files oldest first.
    index('media_files_retention_idx').on(t.createdAt).where(sql`${t.deletedAt} is null`),
    index('media_files_owner_msisdn_idx').on(t.ownerId, t.msisdn),
    // A bot's file by address: the account's latest file fetched from it.
    index('media_files_owner_source_url_idx').on(t.ownerId, t.sourceUrl, t.createdAt).where(sql`${t.sourceUrl} is not null`),
  ],
);

/**
 * The database back end's bytes, by storage key, in chunks numbered from 0 (features/media/media-store.ts). A file
 * stored before chunks is one row, `seq` 0, of any size.
 */
export const mediaBytes = pgTable(
  'media_bytes',
  {
    key: text('key').notNull(),
    seq: integer('seq').notNull().default(0),
    bytes: bytea('bytes').notNull(),
    mimeType: text('mime_type').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);
