import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/subflows.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as subflows from './subflows.service';

/** The account's sub-flows (docs/sub-flows.md); their menus are the designer's calls, as an app's. */
export function registerSubflowRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['sub-flows'];
  const reader = { tags, onRequest: guard(), config: { apiKeyScope: 'read' as const } };
  const writer = { tags, onRequest: guard(), config: { apiKeyScope: 'write' as const } };
  registerCall(app, calls.findSubflows, {
    ...reader,
    summary: "The account's sub-flows, with the apps that use each",
    handler: async (req) => ok('OK', await subflows.findSubflows(ctx, getSignedInUser(req))),
  });
  registerCall(app, calls.getSubflow, {
    ...reader,
    summary: 'One sub-flow, with the apps that use it and the version each runs',
    handler: async (req) => ok('OK', await subflows.getSubflow(ctx, getSignedInUser(req), req.params.subflowId)),
  });
  registerCall(app, calls.createSubflow, {
    ...writer,
    summary: 'Creates a sub-flow: its name, inputs and outputs (its menus are added in the designer)',
    handler: async (req) => ok('Sub-flow created', await subflows.createSubflow(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.updateSubflow, {
    ...writer,
    summary: 'Renames a sub-flow or changes its inputs and outputs',
    handler: async (req) => ok('Sub-flow saved', await subflows.updateSubflow(ctx, getSignedInUser(req), req.params.subflowId, req.body)),
  });
  registerCall(app, calls.deleteSubflow, {
    ...writer,
    summary: 'Deletes a sub-flow no app uses',
    handler: async (req) => {
      await subflows.deleteSubflow(ctx, getSignedInUser(req), req.params.subflowId);
      return done('Sub-flow deleted');
    },
  });
}
