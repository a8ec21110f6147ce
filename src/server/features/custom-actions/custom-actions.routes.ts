import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  createCustomActionBodySchema,
  customActionListItemSchema,
  customActionSchema,
  customActionTemplateSchema,
  testCustomActionBodySchema,
  testReplySchema,
  updateCodeBodySchema,
  updateNameBodySchema,
} from '../../../shared/api/custom-actions.schema';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, ok } from '../../http';
import { CUSTOM_ACTION_TEMPLATES } from './custom-action-templates';
import * as service from './custom-actions.service';

export interface ScriptTester {
  /**
   * Runs code as the customAction runner would, with the given session values and action results, in the
   * javascript pool's share of the account asking (`accountId`).
   */
  test(
    accountId: string,
    code: string,
    sessionValues: Record<string, unknown>,
    actionResults: Record<string, unknown>,
  ): Promise<{ output: unknown; consoleMessages: Array<{ message: string; type: string }>; error: string | null }>;
  defaultCode: string;
}

const uuidParams = z.object({ uuid: z.string().min(1).max(64) });

/**
 * Test runs per account per minute: a builder pressing "Run" never meets it; a script flooding the pool
 * with test runs does (each may burn the 250 ms CPU limit). Counted after the guard, per account.
 */
export const SCRIPT_TEST_RATE_LIMIT = 30;

/** The custom function calls (docs/product.md, Custom functions). */
export function registerCustomActionsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, tester: ScriptTester): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['custom actions'];

  r.get('/api/docs/javascript', {
    schema: { tags, summary: 'The default javascript action code: the SDK by example', response: { 200: envelopeSchema(z.string()) } },
    onRequest: guard(),
    handler: async () => ok('OK', tester.defaultCode),
  });

  r.get('/api/custom-actions', {
    schema: { tags, response: { 200: envelopeSchema(z.array(customActionListItemSchema)) } },
    onRequest: guard(),
    handler: async (req) => ok('OK', await service.findCustomActions(ctx, getSignedInUser(req))),
  });

  r.get('/api/template/custom-actions', {
    schema: { tags, response: { 200: envelopeSchema(z.array(customActionTemplateSchema)) } },
    onRequest: guard(),
    handler: async () =>
      ok(
        'OK',
        CUSTOM_ACTION_TEMPLATES.map((t) => ({ ...t })),
      ),
  });

  r.get('/api/custom-action/:uuid', {
    schema: { tags, params: uuidParams, response: { 200: envelopeSchema(customActionSchema) } },
    onRequest: guard(),
    handler: async (req) => ok('OK', await service.getCustomAction(ctx, getSignedInUser(req), req.params.uuid)),
  });

  r.post('/api/custom-action/create', {
    schema: { tags, body: createCustomActionBodySchema, response: { 200: messageSchema.extend({ uuid: z.string() }) } },
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Custom action created',
      uuid: await service.createCustomAction(ctx, getSignedInUser(req), req.body),
    }),
  });

  r.post('/api/custom-action/update-code', {
    schema: { tags, body: updateCodeBodySchema, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await service.updateCustomActionCode(ctx, getSignedInUser(req), req.body.uuid, req.body.code);
      return done('Function code saved');
    },
  });

  r.post('/api/custom-action/update-name', {
    schema: { tags, body: updateNameBodySchema, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await service.updateCustomActionName(ctx, getSignedInUser(req), req.body);
      return done('Function details saved');
    },
  });

  r.get('/api/custom-action/delete/:uuid', {
    schema: { tags, params: uuidParams, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await service.deleteCustomAction(ctx, getSignedInUser(req), req.params.uuid);
      return done('Custom action deleted');
    },
  });

  r.post('/api/custom-action/test', {
    schema: { tags, body: testCustomActionBodySchema, response: { 200: envelopeSchema(testReplySchema) } },
    onRequest: guard(),
    config: {
      rateLimit: {
        max: SCRIPT_TEST_RATE_LIMIT,
        timeWindow: '1 minute',
        hook: 'preHandler',
        keyGenerator: (req: FastifyRequest) => getSignedInUser(req).id,
      },
    },
    handler: async (req) => {
      const result = await tester.test(getSignedInUser(req).id, req.body.code, req.body.sessionValues, req.body.actionResults);
      // The call worked either way (the console shows the lines); the message says whether the function did.
      return ok(result.error === null ? 'Function ran' : 'Function failed', result);
    },
  });
}
