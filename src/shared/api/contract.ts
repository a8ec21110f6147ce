import { z } from 'zod';

/**
 * One declaration per API call, read by both sides so they cannot drift: the server registers the route from it
 * (src/server/core/register-call.ts: method, URL, params, query string, body and the 200 reply's schema, which
 * also fills the OpenAPI document), and the console calls it (src/web/lib/call.ts: fills the path, encodes the
 * query, sends the body, parses the reply) and caches it under the key it declares.
 *
 * A feature's declarations sit next to its schemas, in `src/shared/api/<feature>.calls.ts`, one `defineCall` per
 * call, named after what the console does with it (`findSmsMessages`).
 *
 * @example
 * export const findWebhookDeliveries = defineCall({
 *   method: 'GET',
 *   path: '/api/apps/:appId/webhook/deliveries',
 *   params: appIdParamsSchema,
 *   query: webhookDeliveriesQuerySchema,
 *   reply: envelopeSchema(z.array(webhookDeliverySchema)),
 *   key: ['webhooks', ':appId', 'deliveries'],
 * });
 */
export interface CallDeclaration<
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Reply extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route's URL as Fastify reads it: `:name` segments are filled from `params`. */
  path: string;
  params?: Params;
  query?: Query;
  body?: Body;
  /**
   * The whole HTTP 200 reply: `envelopeSchema(data)`, `messageSchema`, or an envelope with the extras the call
   * names (`token`, `uniqueId`...). The server serializes its 200 replies with it; the console parses them with it.
   */
  reply: Reply;
  /**
   * The call's query key, for a call a screen reads through a cache: fixed segments and `:name` segments, each
   * filled from the input's field of that name (params first, then query, then body). Input fields the key does
   * not name are added as one last object, so two different inputs never share a cache entry. The fixed
   * segments are the hierarchy invalidation relies on: `['apps', ':appId', 'versions']` sits below
   * `['apps', ':appId']`, which sits below `['apps']`.
   */
  key?: readonly string[];
  /**
   * The extras a refusal (a reply other than HTTP 200) may carry beyond status and message, each optional: `field`,
   * `errors`... The server's error handler shapes refusals, so this is the console's reading of them: parsed, and
   * dropped (status and message kept) when they do not match.
   */
  refusal?: z.ZodType;
  /**
   * The 200 reply is a file (an export) streamed as it is built, not the JSON envelope: `reply` then names its
   * body for the OpenAPI document (`z.string()`), the console saves it (`downloadCall`), and a refusal is still
   * the envelope.
   */
  file?: true;
  /**
   * The 200 reply is not the envelope but a body of the call's own (a channel's: the USSD emulator answers
   * `{ text, session_mode }`): `reply` names that body, and the console hands it back as an envelope's `data`
   * (status '00'), so a screen reads it like any other call's; a refusal is still the envelope.
   */
  bare?: true;
  /** false: never send the stored token (sign-in calls, public pages); a stale one would only earn a 401. */
  auth?: boolean;
}

/** Declares a call; the identity, there only so the declaration's exact types (its schemas, its key) are kept. */
export function defineCall<const D extends AnyCall>(declaration: D): D {
  return declaration;
}

/** The declaration's schema for `part`, or undefined when it has none. */
export type CallPart<C, Part extends 'params' | 'query' | 'body'> = Part extends keyof C
  ? OrUndefined<Exclude<C[Part], undefined>>
  : undefined;
type OrUndefined<S> = [S] extends [never] ? undefined : S;

// biome-ignore lint/suspicious/noExplicitAny: matches any declaration, whatever its schemas
export type AnyCall = CallDeclaration<any, any, any, any>;

/** No fields: an input part the declaration does not have. */
export type NoFields = Record<never, never>;

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type Field<Name extends string, S> = [S] extends [z.ZodType]
  ? NoFields extends InputOf<S>
    ? { [K in Name]?: InputOf<S> }
    : { [K in Name]: InputOf<S> }
  : NoFields;

/** What the console passes to a call: `{ params, query, body }`, each only where the declaration has a schema. */
export type CallInput<C extends AnyCall> = Field<'params', CallPart<C, 'params'>> &
  Field<'query', CallPart<C, 'query'>> &
  Field<'body', CallPart<C, 'body'>>;

/** The 200 reply as parsed (the reply schema's output). */
export type CallReplyOf<C extends AnyCall> = z.output<C['reply']>;

/** The `:appId` of an app's calls, as every app route reads it. */
export const appIdParamsSchema = z.object({ appId: z.string().min(1).max(64) });
