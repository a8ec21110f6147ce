import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  buyShortcodeBodySchema,
  checkoutReplySchema,
  connectAppBodySchema,
  countryParamsSchema,
  createShortcodeBodySchema,
  extensionSchema,
  providerSchema,
  provisionShortcodeBodySchema,
  purchaseSchema,
  registerProviderBodySchema,
  renewShortcodeBodySchema,
  updateProviderAccessBodySchema,
  uuidParamsSchema,
} from './shortcodes.schema';

// The shortcodes' console calls (src/shared/api/contract.ts): the server registers them, the console calls them.
// Their keys sit below ['shortcodes']: the providers, the catalogue, what each country offers, the purchases.
// The paths are the product's (docs/shortcodes.md), deletes included as GETs.

// ---- providers (admins) ----

export const findProviders = defineCall({
  method: 'GET',
  path: '/api/getAllProviders',
  reply: envelopeSchema(z.array(providerSchema)),
  key: ['shortcodes', 'providers'],
});

export const registerProvider = defineCall({
  method: 'POST',
  path: '/api/registerProvider',
  body: registerProviderBodySchema,
  reply: envelopeSchema(providerSchema),
});

/** POST /api/rotateProviderKey/{uuid}: a new provider key; the old one stops working. */
export const rotateProviderKey = defineCall({
  method: 'POST',
  path: '/api/rotateProviderKey/:uuid',
  params: uuidParamsSchema,
  reply: envelopeSchema(providerSchema),
});

export const updateProviderAccess = defineCall({
  method: 'POST',
  path: '/api/updateProviderAccess/:uuid',
  params: uuidParamsSchema,
  body: updateProviderAccessBodySchema,
  reply: envelopeSchema(providerSchema),
});

export const deleteProvider = defineCall({
  method: 'GET',
  path: '/api/deleteProvider/:uuid',
  params: uuidParamsSchema,
  reply: messageSchema,
});

// ---- the extension catalogue (admins) ----

export const createExtension = defineCall({
  method: 'POST',
  path: '/api/subscription/createShortCode',
  body: createShortcodeBodySchema,
  reply: envelopeSchema(extensionSchema),
});

export const findCatalogue = defineCall({
  method: 'GET',
  path: '/api/getAllAvailableShortCodes',
  reply: envelopeSchema(z.array(extensionSchema)),
  key: ['shortcodes', 'catalogue'],
});

export const deleteExtension = defineCall({
  method: 'GET',
  path: '/api/deleteShortCode/:uuid',
  params: uuidParamsSchema,
  reply: messageSchema,
});

/** POST /api/subscription/provisionShortCode: an extension given to an account without payment. */
export const provisionExtension = defineCall({
  method: 'POST',
  path: '/api/subscription/provisionShortCode',
  body: provisionShortcodeBodySchema,
  reply: envelopeSchema(purchaseSchema),
});

// ---- buying, renewing, connecting (everyone signed in) ----

/** GET /api/getAvailableShortCodes/{country}: the extensions on sale there. */
export const findAvailableExtensions = defineCall({
  method: 'GET',
  path: '/api/getAvailableShortCodes/:country',
  params: countryParamsSchema,
  reply: envelopeSchema(z.array(extensionSchema)),
  key: ['shortcodes', 'on-sale', ':country'],
});

/** POST /api/subscription/buyshortcode: '01' with the payment page's `redirectUrl`. */
export const buyShortcode = defineCall({
  method: 'POST',
  path: '/api/subscription/buyshortcode',
  body: buyShortcodeBodySchema,
  reply: checkoutReplySchema,
});

export const renewShortcode = defineCall({
  method: 'POST',
  path: '/api/subscription/renewShortcode',
  body: renewShortcodeBodySchema,
  reply: checkoutReplySchema,
});

export const findPurchases = defineCall({
  method: 'GET',
  path: '/api/myPurchasedShortCodes',
  reply: envelopeSchema(z.array(purchaseSchema)),
  key: ['shortcodes', 'purchases'],
});

export const getPurchase = defineCall({
  method: 'GET',
  path: '/api/getShortCodeByUuid/:uuid',
  params: uuidParamsSchema,
  reply: envelopeSchema(purchaseSchema),
  key: ['shortcodes', 'purchases', ':uuid'],
});

/** POST /api/connectAppToShortCode/: the trailing slash is the product's path. */
export const connectApp = defineCall({
  method: 'POST',
  path: '/api/connectAppToShortCode/',
  body: connectAppBodySchema,
  reply: envelopeSchema(purchaseSchema),
});
