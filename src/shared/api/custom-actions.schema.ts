import { z } from 'zod';

/** 100 KB: the javascript code limit (issue: Actions). */
export const CODE_MAX = 100_000;

export const CUSTOM_ACTION_MESSAGES = {
  nameRequired: 'Action name is required.',
  invalidJson: 'Invalid JSON in inputs. Please check your JSON format.',
} as const;

export const customActionSchema = z.object({
  uuid: z.string(),
  actionName: z.string(),
  description: z.string(),
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const customActionListItemSchema = customActionSchema.pick({ uuid: true, actionName: true, description: true, updatedAt: true });

export const createCustomActionBodySchema = z.object({
  actionName: z.string().trim().min(1, CUSTOM_ACTION_MESSAGES.nameRequired).max(120),
  description: z.string().trim().max(1000).default(''),
  code: z.string().max(CODE_MAX).default(''),
});
export const updateCodeBodySchema = z.object({ uuid: z.string().min(1).max(64), code: z.string().max(CODE_MAX) });
export const updateNameBodySchema = z.object({
  uuid: z.string().min(1).max(64),
  actionName: z.string().trim().min(1, CUSTOM_ACTION_MESSAGES.nameRequired).max(120),
  description: z.string().trim().max(1000).default(''),
});

/** POST /api/custom-action/test: session values {mobile, inputs} and action results as JSON objects. */
/**
 * A test run: the code, the session values (`contact` among them is the caller's contact `contact.get` reads:
 * `{ "name": "Ama", "city": "Accra" }`) and the action results.
 */
export const testCustomActionBodySchema = z.object({
  code: z.string().max(CODE_MAX),
  sessionValues: z.record(z.string(), z.unknown()).default({}),
  actionResults: z.record(z.string(), z.unknown()).default({}),
});
export const consoleMessageSchema = z.object({ message: z.string(), type: z.string() });
/**
 * A test run's result. `error` is why the run failed (a SyntaxError, a thrown error, the time limit), also the
 * last console message; null when the function returned.
 */
export const testReplySchema = z.object({
  output: z.unknown(),
  consoleMessages: z.array(consoleMessageSchema),
  error: z.string().nullable(),
  /** What the run's `contact.set` calls would keep on the contact; null when none (or the run failed). */
  contactChanges: z.object({ name: z.string().optional(), attributes: z.record(z.string(), z.string()).optional() }).nullable(),
});

export const customActionTemplateSchema = z.object({ uuid: z.string(), actionName: z.string(), code: z.string() });
export type TestReply = z.infer<typeof testReplySchema>;
