import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/test-cases.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { createLimit } from '../../core/rate-limits';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as testCases from './test-cases.service';

/** An app's saved test cases (docs/testing-apps.md): the Test tab's calls, and a run a team's CI makes with an API key. */
export function registerTestCaseRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, deps: testCases.TestCaseDeps): void {
  const tags = ['test cases'];
  const reader = { tags, onRequest: guard(), config: { apiKeyScope: 'read' as const } };
  const writer = { tags, onRequest: guard(), config: { apiKeyScope: 'write' as const } };
  // A run takes the account's scripts' share for seconds: a few a minute per account is what a team needs.
  const runLimit = createLimit(app, 'test-case-runs-account', 12, (req) => getSignedInUser(req).id);

  registerCall(app, calls.findTestCases, {
    ...reader,
    summary: "The app's saved test cases",
    handler: async (req) => ok('OK', await testCases.findTestCases(ctx, getSignedInUser(req), req.params.appId)),
  });
  registerCall(app, calls.createTestCase, {
    ...writer,
    summary: 'Saves a test case written by hand',
    handler: async (req) => ok('Test case saved', await testCases.createTestCase(ctx, getSignedInUser(req), req.params.appId, req.body)),
  });
  registerCall(app, calls.recordTestCase, {
    ...writer,
    summary: "Saves one of the builder's emulator runs of the app as a test case",
    handler: async (req) =>
      ok('Test case recorded', await testCases.recordTestCase(ctx, getSignedInUser(req), req.params.appId, req.body, deps)),
  });
  registerCall(app, calls.runTestCases, {
    ...reader,
    preHandler: runLimit,
    summary: "Runs every test case of the app against its draft and answers each case's result",
    handler: async (req) => {
      const run = await testCases.runTestCases(ctx, getSignedInUser(req), req.params.appId, deps.runAppScript);
      return ok(run.failed === 0 ? `${run.passed} of ${run.total} passed` : `${run.failed} of ${run.total} failed`, run);
    },
  });
  registerCall(app, calls.updateTestCase, {
    ...writer,
    summary: 'Changes a test case',
    handler: async (req) =>
      ok('Test case saved', await testCases.updateTestCase(ctx, getSignedInUser(req), req.params.appId, req.params.caseId, req.body)),
  });
  registerCall(app, calls.deleteTestCase, {
    ...writer,
    summary: 'Deletes a test case',
    handler: async (req) => {
      await testCases.deleteTestCase(ctx, getSignedInUser(req), req.params.appId, req.params.caseId);
      return done('Test case deleted');
    },
  });
}
