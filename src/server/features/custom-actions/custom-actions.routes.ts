import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as calls from '../../../shared/api/custom-actions.calls';
import type { TestReply } from '../../../shared/api/custom-actions.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, ok } from '../../http';
import { CUSTOM_ACTION_TEMPLATES } from './custom-action-templates';
import * as service from './custom-actions.service';

export interface ScriptTester {
  /**
   * Runs code as the customAction runner would, with the given session values (their `contact`: the contact
   * `contact.get` reads) and action results, in the
   * javascript pool's share of the account asking (`accountId`).
   */
  test(accountId: string, code: string, sessionValues: Record<string, unknown>, actionResults: Record<string, unknown>): Promise<TestReply>;
  defaultCode: string;
}

/**
 * Test runs per account per minute: a builder pressing "Run" never meets it; a script flooding the pool
 * with test runs does (each may burn the 250 ms CPU limit). Counted after the guard, per account.
 */
export const SCRIPT_TEST_RATE_LIMIT = 30;

/** The custom function calls (docs/product.md, Custom functions). */
export function registerCustomActionsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, tester: ScriptTester): void {
  const tags = ['custom actions'];

  registerCall(app, calls.getDefaultJavascriptCode, {
    tags,
    summary: 'The default javascript action code: the SDK by example',
    onRequest: guard(),
    handler: async () => ok('OK', tester.defaultCode),
  });

  registerCall(app, calls.findCustomActions, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await service.findCustomActions(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.findCustomActionTemplates, {
    tags,
    onRequest: guard(),
    handler: async () =>
      ok(
        'OK',
        CUSTOM_ACTION_TEMPLATES.map((t) => ({ ...t })),
      ),
  });

  registerCall(app, calls.getCustomAction, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await service.getCustomAction(ctx, getSignedInUser(req), req.params.uuid)),
  });

  registerCall(app, calls.createCustomAction, {
    tags,
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Custom action created',
      uuid: await service.createCustomAction(ctx, getSignedInUser(req), req.body),
    }),
  });

  registerCall(app, calls.updateCustomActionCode, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await service.updateCustomActionCode(ctx, getSignedInUser(req), req.body.uuid, req.body.code);
      return done('Function code saved');
    },
  });

  registerCall(app, calls.updateCustomActionName, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await service.updateCustomActionName(ctx, getSignedInUser(req), req.body);
      return done('Function details saved');
    },
  });

  registerCall(app, calls.deleteCustomAction, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await service.deleteCustomAction(ctx, getSignedInUser(req), req.params.uuid);
      return done('Custom action deleted');
    },
  });

  registerCall(app, calls.testCustomAction, {
    tags,
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
