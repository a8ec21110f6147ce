import { z } from 'zod';
import {
  contactImportBodySchema,
  contactImportParamsSchema,
  contactImportPreviewBodySchema,
  contactImportPreviewSchema,
  contactImportSchema,
} from './contact-imports.schema';
import {
  contactAttributeKeysSchema,
  contactDetailSchema,
  contactExportBodySchema,
  contactListQuerySchema,
  contactListSchema,
  contactSchema,
  updateContactBodySchema,
} from './contacts.schema';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';

// The contacts' calls (src/shared/api/contract.ts; docs/contacts.md): the server registers them, the console calls them.

const contactParamsSchema = z.object({ contactId: z.string().min(1).max(64) });

/** GET /api/contacts: the account's contacts in number order, searched and filtered, a page at a time. */
export const findContacts = defineCall({
  method: 'GET',
  path: '/api/contacts',
  query: contactListQuerySchema,
  reply: envelopeSchema(contactListSchema),
  key: ['contacts', 'list'],
});

/** GET /api/contacts/attribute-keys: the attribute keys the account's contacts use, the most used first (at most 100). */
export const findContactAttributeKeys = defineCall({
  method: 'GET',
  path: '/api/contacts/attribute-keys',
  reply: envelopeSchema(contactAttributeKeysSchema),
  key: ['contacts', 'attribute-keys'],
});

/** GET /api/contacts/:contactId: one contact with its recent sessions on every channel. */
export const getContact = defineCall({
  method: 'GET',
  path: '/api/contacts/:contactId',
  params: contactParamsSchema,
  reply: envelopeSchema(contactDetailSchema),
  key: ['contacts', ':contactId'],
});

/** POST /api/contacts/:contactId: changes name, language, attributes (replaced whole) or consent per channel. */
export const updateContact = defineCall({
  method: 'POST',
  path: '/api/contacts/:contactId',
  params: contactParamsSchema,
  body: updateContactBodySchema,
  reply: envelopeSchema(contactSchema),
});

/** DELETE /api/contacts/:contactId: deletes the contact and erases the person's data from its sessions. */
export const deleteContact = defineCall({
  method: 'DELETE',
  path: '/api/contacts/:contactId',
  params: contactParamsSchema,
  reply: messageSchema,
});

/** POST /api/contacts/export: every contact the filters match, as a CSV file (an import reads it back). */
export const exportContacts = defineCall({
  method: 'POST',
  path: '/api/contacts/export',
  body: contactExportBodySchema,
  reply: z.string().meta({ description: 'The CSV file' }),
  file: true,
});

/** POST /api/contacts/imports/preview: how a CSV file reads (columns, first rows, per-row errors); nothing is written. */
export const previewContactImport = defineCall({
  method: 'POST',
  path: '/api/contacts/imports/preview',
  body: contactImportPreviewBodySchema,
  reply: envelopeSchema(contactImportPreviewSchema),
});

/** POST /api/contacts/imports: starts importing a CSV file (one import at a time per account); poll its job. */
export const startContactImport = defineCall({
  method: 'POST',
  path: '/api/contacts/imports',
  body: contactImportBodySchema,
  reply: envelopeSchema(contactImportSchema),
});

/** GET /api/contacts/imports/:importId: an import's progress and counts. */
export const getContactImport = defineCall({
  method: 'GET',
  path: '/api/contacts/imports/:importId',
  params: contactImportParamsSchema,
  reply: envelopeSchema(contactImportSchema),
  key: ['contacts', 'imports', ':importId'],
});

/** POST /api/contacts/imports/:importId/errors: the import's per-row errors, as a CSV file. */
export const exportContactImportErrors = defineCall({
  method: 'POST',
  path: '/api/contacts/imports/:importId/errors',
  params: contactImportParamsSchema,
  reply: z.string().meta({ description: 'The CSV file: row, value, error' }),
  file: true,
});
