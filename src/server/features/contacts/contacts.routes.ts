import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  contactDetailSchema,
  contactListQuerySchema,
  contactListSchema,
  contactSchema,
  updateContactBodySchema,
} from '../../../shared/api/contacts.schema';
import type { AppContext } from '../../context';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as contactsService from './contacts.service';

const contactParams = z.object({ contactId: z.string().min(1).max(64) });

/** The signed-in account's contacts (docs/contacts.md), for the console and API keys. */
export function registerContactsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contacts'];
  // An API key may read contacts, and change them with a write key.
  const reader = { onRequest: guard(), config: { apiKeyScope: 'read' as const } };
  const writer = { onRequest: guard(), config: { apiKeyScope: 'write' as const } };
  r.get('/api/contacts', {
    schema: {
      tags,
      summary: "The account's contacts in number order; search by a number's start or a part of a name",
      querystring: contactListQuerySchema,
      response: { 200: envelopeSchema(contactListSchema) },
    },
    ...reader,
    handler: async (req) => ok('OK', await contactsService.listContacts(ctx, getSignedInUser(req), req.query)),
  });
  r.get('/api/contacts/:contactId', {
    schema: {
      tags,
      summary: 'One contact, with its recent sessions on every channel',
      params: contactParams,
      response: { 200: envelopeSchema(contactDetailSchema) },
    },
    ...reader,
    handler: async (req) => ok('OK', await contactsService.getContact(ctx, getSignedInUser(req), req.params.contactId)),
  });
  r.post('/api/contacts/:contactId', {
    schema: {
      tags,
      summary: "Changes a contact's name, language or attributes (attributes are replaced whole)",
      params: contactParams,
      body: updateContactBodySchema,
      response: { 200: envelopeSchema(contactSchema) },
    },
    ...writer,
    handler: async (req) =>
      ok('Contact saved', await contactsService.updateContact(ctx, getSignedInUser(req), req.params.contactId, req.body)),
  });
  r.delete('/api/contacts/:contactId', {
    schema: {
      tags,
      summary: "Deletes a contact and erases the person's data from its sessions (kept only as anonymous counts)",
      params: contactParams,
      response: { 200: messageSchema },
    },
    ...writer,
    handler: async (req) => {
      await contactsService.deleteContact(ctx, getSignedInUser(req), req.params.contactId);
      return done('Contact deleted');
    },
  });
}
