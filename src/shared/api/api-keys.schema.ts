import { z } from 'zod';

/**
 * API keys (docs/api-keys.md): a CI job or script calls the documented calls with
 * `Authorization: Bearer dfk_...` instead of a signed-in session. `read` keys reach the calls that only read;
 * `write` keys reach every call that accepts keys.
 */
export const API_KEY_PREFIX = 'dfk_';
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** How much of a key its list shows: `dfk_` and 4 more characters, enough to tell keys apart. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 4;

export const API_KEY_MESSAGES = {
  nameRequired: 'Please give the key a name.',
  notAccepted: 'API keys cannot call this route: sign in to the console for it (docs/api-keys.md lists the calls keys may make).',
  readOnly: 'This API key is read-only: create a key with the write scope for this call.',
  invalid: 'This API key is not valid: it was revoked, or never existed.',
  notFound: 'API key not found',
} as const;

export const apiKeySchema = z.object({
  uuid: z.string(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** The key's first characters, e.g. `dfk_ab12`. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createApiKeyBodySchema = z
  .object({
    name: z.string().trim().max(80).default(''),
    scope: z.enum(API_KEY_SCOPES, { message: 'The scope must be read or write.' }),
  })
  .strict();
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The reply of a create: the key itself, this once (`key`), beside its list entry. */
export const createApiKeyReplySchema = z.object({
  status: z.literal('00'),
  message: z.string(),
  data: apiKeySchema,
  key: z.string(),
});

export const revokeApiKeyBodySchema = z.object({ uuid: z.string().max(64) }).strict();
