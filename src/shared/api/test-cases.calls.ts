import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  recordTestCaseSchema,
  testAppParamsSchema,
  testCaseBodySchema,
  testCaseParamsSchema,
  testCaseSchema,
  testRunSchema,
} from './test-cases.schema';

// An app's saved test cases (docs/testing-apps.md). Keys below ['testCases', appId].

/** GET /api/apps/{appId}/test-cases: the app's cases, oldest first. */
export const findTestCases = defineCall({
  method: 'GET',
  path: '/api/apps/:appId/test-cases',
  params: testAppParamsSchema,
  reply: envelopeSchema(z.array(testCaseSchema)),
  key: ['testCases'],
});

/** POST /api/apps/{appId}/test-cases: saves a case written by hand (a dial, inputs and the screens they must show). */
export const createTestCase = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/test-cases',
  params: testAppParamsSchema,
  body: testCaseBodySchema,
  reply: envelopeSchema(testCaseSchema),
});

/** POST /api/apps/{appId}/test-cases/record: saves one of the signed-in builder's emulator runs of the app as a case. */
export const recordTestCase = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/test-cases/record',
  params: testAppParamsSchema,
  body: recordTestCaseSchema,
  reply: envelopeSchema(testCaseSchema),
});

/** POST /api/apps/{appId}/test-cases/run: runs every case against the draft; a team's CI calls it with an API key. */
export const runTestCases = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/test-cases/run',
  params: testAppParamsSchema,
  reply: envelopeSchema(testRunSchema),
});

/** PUT /api/apps/{appId}/test-cases/{caseId}: changes a case. */
export const updateTestCase = defineCall({
  method: 'PUT',
  path: '/api/apps/:appId/test-cases/:caseId',
  params: testCaseParamsSchema,
  body: testCaseBodySchema,
  reply: envelopeSchema(testCaseSchema),
});

/** DELETE /api/apps/{appId}/test-cases/{caseId}: deletes a case. */
export const deleteTestCase = defineCall({
  method: 'DELETE',
  path: '/api/apps/:appId/test-cases/:caseId',
  params: testCaseParamsSchema,
  reply: messageSchema,
});
