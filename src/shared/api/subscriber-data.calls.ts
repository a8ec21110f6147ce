import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';
import {
  subscriberDataBodySchema,
  subscriberDataSummarySchema,
  subscriberErasureBodySchema,
  subscriberErasureParamsSchema,
  subscriberErasureSchema,
} from './subscriber-data.schema';

// Subscriber data (docs/security.md, "Subscriber data"): the account's own, and an admin's over every account. The
// number travels in the body, never the address, so access logs and proxies never hold it.

/** POST /api/subscriber-data/summary: what the account keeps about a number, counted per kind. */
export const getSubscriberDataSummary = defineCall({
  method: 'POST',
  path: '/api/subscriber-data/summary',
  body: subscriberDataBodySchema,
  reply: envelopeSchema(subscriberDataSummarySchema),
});

/** POST /api/subscriber-data/export: everything the account keeps about a number, as one JSON file. */
export const exportSubscriberData = defineCall({
  method: 'POST',
  path: '/api/subscriber-data/export',
  body: subscriberDataBodySchema,
  reply: z.string().meta({ description: 'The JSON file' }),
  file: true,
});

/** POST /api/subscriber-data/erasures: starts erasing what the account keeps about a number; poll the erasure. */
export const startSubscriberErasure = defineCall({
  method: 'POST',
  path: '/api/subscriber-data/erasures',
  body: subscriberErasureBodySchema,
  reply: envelopeSchema(subscriberErasureSchema),
});

/** GET /api/subscriber-data/erasures/:erasureId: an erasure's progress and counts. */
export const getSubscriberErasure = defineCall({
  method: 'GET',
  path: '/api/subscriber-data/erasures/:erasureId',
  params: subscriberErasureParamsSchema,
  reply: envelopeSchema(subscriberErasureSchema),
  key: ['subscriber-data', 'erasures', ':erasureId'],
});

/** POST /api/admin/subscriber-data/summary: the same over every account (`subscriberData.manage`). */
export const getPlatformSubscriberDataSummary = defineCall({
  method: 'POST',
  path: '/api/admin/subscriber-data/summary',
  body: subscriberDataBodySchema,
  reply: envelopeSchema(subscriberDataSummarySchema),
});

/** POST /api/admin/subscriber-data/export: everything every account keeps about a number, as one JSON file. */
export const exportPlatformSubscriberData = defineCall({
  method: 'POST',
  path: '/api/admin/subscriber-data/export',
  body: subscriberDataBodySchema,
  reply: z.string().meta({ description: 'The JSON file' }),
  file: true,
});

/** POST /api/admin/subscriber-data/erasures: erases a number's data in every account. */
export const startPlatformSubscriberErasure = defineCall({
  method: 'POST',
  path: '/api/admin/subscriber-data/erasures',
  body: subscriberErasureBodySchema,
  reply: envelopeSchema(subscriberErasureSchema),
});

/** GET /api/admin/subscriber-data/erasures/:erasureId: a platform erasure's progress. */
export const getPlatformSubscriberErasure = defineCall({
  method: 'GET',
  path: '/api/admin/subscriber-data/erasures/:erasureId',
  params: subscriberErasureParamsSchema,
  reply: envelopeSchema(subscriberErasureSchema),
  key: ['admin', 'subscriber-data', 'erasures', ':erasureId'],
});
