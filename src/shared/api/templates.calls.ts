import { z } from 'zod';
import { appSchema } from './apps.schema';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';

// The featured templates (src/shared/api/contract.ts).

/** GET /featuredTemplates (public, no token): the apps anyone may run in the emulator and clone. */
export const findFeaturedTemplates = defineCall({
  method: 'GET',
  path: '/featuredTemplates',
  reply: envelopeSchema(z.array(appSchema)),
  key: ['templates', 'featured'],
  auth: false,
});
