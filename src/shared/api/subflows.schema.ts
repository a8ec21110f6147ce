/**
 * Sub-flows (docs/sub-flows.md): a group of menus an account shares between its apps and bots, with declared inputs
 * and outputs. Its menus are edited in the designer as an app's are; these calls name it, declare what it takes and
 * gives back, and say which apps use which of its versions.
 */
import { z } from 'zod';
import { subflowInputSchema, subflowInterfaceSchema, subflowOutputSchema } from '../app/subflow.schema';

/** Most sub-flows one account keeps. */
export const MAX_SUBFLOWS_PER_ACCOUNT = 100;

export const SUBFLOW_API_MESSAGES = {
  name: 'Give the sub-flow a name (at most 100 characters).',
  tooMany: `An account keeps at most ${MAX_SUBFLOWS_PER_ACCOUNT} sub-flows; delete some first.`,
  inUse: (apps: string[]) =>
    `This sub-flow is used by ${apps.join(', ')}: take it out of their menus (and deploy them) before deleting it.`,
} as const;

export const subflowParamsSchema = z.object({ subflowId: z.string().min(1).max(64) });

export const subflowBodySchema = z
  .object({
    name: z.string().trim().min(1, SUBFLOW_API_MESSAGES.name).max(100, SUBFLOW_API_MESSAGES.name),
    description: z.string().trim().max(500).default(''),
    inputs: z.array(subflowInputSchema).max(20).default([]),
    outputs: z.array(subflowOutputSchema).max(20).default([]),
  })
  .superRefine((body, ctx) => {
    const checked = subflowInterfaceSchema.safeParse({ inputs: body.inputs, outputs: body.outputs });
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
  });
export type SubflowBody = z.input<typeof subflowBodySchema>;

/** An app or bot whose draft enters the sub-flow, and the version of it its live version froze (null: none, or not deployed). */
export const subflowUseSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  channel: z.enum(['ussd', 'whatsapp']),
  inDraft: z.boolean(),
  liveVersion: z.number().int().nullable(),
  /** The sub-flow's version that live version runs, null when the live version does not enter it. */
  subflowVersion: z.number().int().nullable(),
});
export type SubflowUse = z.infer<typeof subflowUseSchema>;

export const subflowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  inputs: z.array(subflowInputSchema),
  outputs: z.array(subflowOutputSchema),
  menus: z.number().int(),
  /** Its latest version (frozen by an app's deploy), null before any. */
  latestVersion: z.number().int().nullable(),
  updatedAt: z.string(),
  usedBy: z.array(subflowUseSchema),
});
export type Subflow = z.infer<typeof subflowSchema>;
