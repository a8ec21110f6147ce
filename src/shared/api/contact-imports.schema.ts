import { z } from 'zod';
import { CONSENT_CHANNELS } from '../contact-consent';
import { APP_COUNTRIES } from './apps.schema';

/**
 * CSV import of contacts (docs/contacts.md, "Importing a CSV"): a preview of how the file reads, then the import
 * itself, run as a job the console polls.
 */
export const CONTACT_IMPORT_LIMITS = {
  /** The file's size, in characters. */
  maxChars: 20_000_000,
  /** Data rows (the header not counted). */
  maxRows: 100_000,
  /** Rows the preview shows as read. */
  previewRows: 20,
  /** Per-row errors the preview lists; all of them are counted. */
  previewErrors: 100,
  /** Per-row errors a job keeps for the download; all of them are counted. */
  keptErrors: 10_000,
} as const;

export const CONTACT_IMPORT_MESSAGES = {
  noFile: 'Choose a CSV file',
  /** Why an import stopped when its database went away (a failover, a restart): what it counted is written. */
  databaseAway:
    'the database could not be reached. The contacts counted here were written, none of the batch it was writing; import the file again to finish (rows already in are updated, not duplicated)',
  tooLarge: 'A contacts file is at most 20 MB: split it into smaller files',
  tooManyRows: `A contacts file has at most ${CONTACT_IMPORT_LIMITS.maxRows.toLocaleString('en')} rows: split it into smaller files`,
  noRows: 'The file has a header but no rows',
  noPhoneColumn: 'The file has no phone number column: name one column phone, phone_number, msisdn, mobile or number',
  consentSourceRequired: 'The file carries consent columns: say where that consent was given (Consent source)',
  running: 'An import is already running for this account: wait for it to finish',
  notFound: 'Import not found',
} as const;

const defaultCountrySchema = z.enum(APP_COUNTRIES, { message: 'Choose the country of numbers written without their country code' });

/** POST /api/contacts/imports/preview: the file (its text) and the country of national numbers in it. */
export const contactImportPreviewBodySchema = z.object({
  csv: z.string().min(1, CONTACT_IMPORT_MESSAGES.noFile).max(CONTACT_IMPORT_LIMITS.maxChars, CONTACT_IMPORT_MESSAGES.tooLarge),
  defaultCountry: defaultCountrySchema,
});
export type ContactImportPreviewBody = z.infer<typeof contactImportPreviewBodySchema>;

/** POST /api/contacts/imports: the same, with where the consent in the file was given (required with consent columns). */
export const contactImportBodySchema = contactImportPreviewBodySchema.extend({
  consentSource: z.string().trim().max(200, 'A consent source is at most 200 characters').optional(),
  /**
   * An attribute every imported contact gets, `key=value` (`list=spring-offers`): the file's contacts as one
   * audience for a campaign (docs/campaigns.md).
   */
  tag: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,39}=[^\n]{1,500}$/, 'A tag is key=value, the key as an attribute key (list=spring)')
    .optional(),
});
export type ContactImportBody = z.infer<typeof contactImportBodySchema>;

/** What a column of the file is read as. */
export const importColumnSchema = z.object({
  header: z.string(),
  /** `ignored`: a column without a header. */
  kind: z.enum(['phone', 'name', 'language', 'attribute', 'consent', 'ignored']),
  /** The attribute's key, or the consent's channel. */
  key: z.string().nullable(),
  /** Why the column cannot be imported (a header that is no attribute key); the file is then refused. */
  error: z.string().nullable(),
});
export type ImportColumn = z.infer<typeof importColumnSchema>;

/** A row's problem; the row is skipped, the others imported. `row` counts the header as row 1, as a spreadsheet does. */
export const importRowErrorSchema = z.object({ row: z.number(), value: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const contactImportPreviewSchema = z.object({
  columns: z.array(importColumnSchema),
  /** Data rows in the file. */
  rowCount: z.number(),
  /** Rows with an error (skipped on import). */
  errorCount: z.number(),
  /** Whether the file carries consent columns (then a consent source is required). */
  hasConsent: z.boolean(),
  /** The first rows as read: the cells, the E.164 number the phone cell becomes, the row's errors. */
  rows: z.array(z.object({ row: z.number(), cells: z.array(z.string()), msisdn: z.string().nullable(), errors: z.array(z.string()) })),
  /** The first per-row errors of the whole file. */
  errors: z.array(importRowErrorSchema),
});
export type ContactImportPreview = z.infer<typeof contactImportPreviewSchema>;

export const contactImportSchema = z.object({
  importId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  rowCount: z.number(),
  /** Rows read so far. */
  processed: z.number(),
  created: z.number(),
  updated: z.number(),
  /** Rows with an error, not imported. */
  skipped: z.number(),
  /** Why a failed import stopped (rows written before stay). */
  failure: z.string().nullable(),
  consentSource: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ContactImport = z.infer<typeof contactImportSchema>;

export const contactImportParamsSchema = z.object({ importId: z.string().min(1).max(64) });

/** The consent columns: `<channel>_consent` (`whatsapp_consent`), yes or no. */
export const CONSENT_COLUMNS = CONSENT_CHANNELS.map((channel) => `${channel}_consent`);
