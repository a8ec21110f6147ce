import type { FastifyInstance } from 'fastify';
import { CONTACT_IMPORT_LIMITS } from '../../../shared/api/contact-imports.schema';
import {
  deleteContact,
  exportContactImportErrors,
  exportContacts,
  findContactAttributeKeys,
  findContacts,
  getContact,
  getContactImport,
  previewContactImport,
  startContactImport,
  updateContact,
} from '../../../shared/api/contacts.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, ok, sendCsv } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as importsService from './contact-imports.service';
import * as contactsService from './contacts.service';

/** A request carrying a contacts file: the file's cap, as JSON (quotes escaped), with room to spare. */
const FILE_BODY_LIMIT = CONTACT_IMPORT_LIMITS.maxChars * 2;

/** The signed-in account's contacts (docs/contacts.md), for the console and API keys. */
export function registerContactsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['contacts'];
  // An API key may read contacts, and change them with a write key.
  const reader = { tags, onRequest: guard(), config: { apiKeyScope: 'read' as const } };
  const writer = { tags, onRequest: guard(), config: { apiKeyScope: 'write' as const } };

  registerCall(app, findContacts, {
    ...reader,
    summary:
      "The account's contacts in number order; search by a number's start or a part of a name, filter by attribute, consent or channel",
    handler: async (req) => ok('OK', await contactsService.listContacts(ctx, getSignedInUser(req), req.query)),
  });
  registerCall(app, findContactAttributeKeys, {
    ...reader,
    summary: "The attribute keys the account's contacts use, the most used first (at most 100, from a sample of 20,000 contacts)",
    handler: async (req) => ok('OK', await contactsService.findContactAttributeKeys(ctx, getSignedInUser(req))),
  });
  registerCall(app, exportContacts, {
    ...reader,
    summary: 'Every contact the filters match, as a CSV file (an import reads it back)',
    handler: async (req, reply) => sendCsv(reply, contactsService.exportContacts(ctx, getSignedInUser(req), req.body), 'contacts.csv'),
  });
  registerCall(app, previewContactImport, {
    ...writer,
    bodyLimit: FILE_BODY_LIMIT,
    summary:
      'How a contacts CSV file reads: its columns, first rows (with the E.164 number each becomes) and per-row errors; writes nothing',
    handler: async (req) => {
      getSignedInUser(req);
      return ok('OK', importsService.previewContactImport(req.body));
    },
  });
  registerCall(app, startContactImport, {
    ...writer,
    bodyLimit: FILE_BODY_LIMIT,
    summary: 'Starts importing a contacts CSV file (one import at a time per account); poll the import for its progress',
    handler: async (req) => ok('Import started', await importsService.startContactImport(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, getContactImport, {
    ...reader,
    summary: "An import's progress: rows read, contacts created and updated, rows skipped",
    handler: async (req) => ok('OK', await importsService.getContactImport(ctx, getSignedInUser(req), req.params.importId)),
  });
  registerCall(app, exportContactImportErrors, {
    ...reader,
    summary: "An import's per-row errors, as a CSV file",
    handler: async (req, reply) =>
      sendCsv(reply, importsService.exportContactImportErrors(ctx, getSignedInUser(req), req.params.importId), 'import-errors.csv'),
  });
  registerCall(app, getContact, {
    ...reader,
    summary: 'One contact, with its recent sessions on every channel',
    handler: async (req) => ok('OK', await contactsService.getContact(ctx, getSignedInUser(req), req.params.contactId)),
  });
  registerCall(app, updateContact, {
    ...writer,
    summary: "Changes a contact's name, language, attributes (replaced whole) or consent per channel",
    handler: async (req) =>
      ok('Contact saved', await contactsService.updateContact(ctx, getSignedInUser(req), req.params.contactId, req.body)),
  });
  registerCall(app, deleteContact, {
    ...writer,
    summary: "Deletes a contact and erases the person's data from its sessions (kept only as anonymous counts)",
    handler: async (req) => {
      await contactsService.deleteContact(ctx, getSignedInUser(req), req.params.contactId);
      return done('Contact deleted');
    },
  });
}
