import type {
  ContextConfigDefault,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptionsWithHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AnyCall, CallPart } from '../../shared/api/contract';

/** The route's schema as the declaration gives it: what the type provider reads for the handler's types. */
type CallSchema<C extends AnyCall> = {
  params: CallPart<C, 'params'>;
  querystring: CallPart<C, 'query'>;
  body: CallPart<C, 'body'>;
  // A file call's handler sends a stream; its reply schema only documents the file.
  response: C extends { file: true } ? unknown : { 200: C['reply'] };
};

/**
 * What a route adds to its declaration: its OpenAPI tags and summary, its guard (`onRequest`), rate limit
 * (`config`) and other route options, and its handler, typed from the declaration's schemas.
 */
export type CallRouteOptions<C extends AnyCall> = Omit<
  RouteShorthandOptionsWithHandler<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    CallSchema<C>,
    ZodTypeProvider
  >,
  'schema'
> & {
  tags: string[];
  summary?: string;
  description?: string;
  /** Left out of the OpenAPI document (a console-internal call). */
  hide?: boolean;
};

/**
 * Registers the route of a declared call (src/shared/api/contract.ts): the method, URL, params, query string and
 * body schemas and the 200 reply's schema all come from the declaration, so the console that calls it and the
 * server that answers it cannot drift; the route adds its guard, tags, summary and handler.
 * @example registerCall(app, findSmsMessages, { tags: ['sms'], summary: '…', onRequest: guard(), handler: async (req) => ok('OK', …) })
 */
export function registerCall<C extends AnyCall>(app: FastifyInstance, declaration: C, options: CallRouteOptions<C>): void {
  const { tags, summary, description, hide, ...route } = options;
  const schema = {
    tags,
    summary,
    description,
    hide,
    params: declaration.params,
    querystring: declaration.query,
    body: declaration.body,
    response: { 200: declaration.reply },
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    ...(route as object),
    method: declaration.method,
    url: declaration.path,
    // Only the parts the call has: an absent body schema must not reach Fastify or the OpenAPI document as a key.
    schema: Object.fromEntries(Object.entries(schema).filter(([, part]) => part !== undefined)),
    handler: options.handler as RouteHandlerMethod,
  });
}
