import { z } from 'zod';
import { menuSchema } from './menu.schema';

/**
 * Sub-flows (docs/sub-flows.md): a group of menus an account shares between its apps and bots. A rule enters one
 * (`SwitchOperation.subflow`), passing its declared inputs as session variables; the sub-flow's Return rule leaves
 * it, setting its declared outputs as session variables, and the session goes on at the calling rule's target menu.
 */

/** A variable name an input or output is kept under (`session.vars.<name>`). */
export const SUBFLOW_VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const SUBFLOW_MESSAGES = {
  variableName: 'A name starts with a letter or _, then letters, digits or _, at most 40 characters',
  duplicateName: 'Two inputs or outputs of a sub-flow cannot have the same name',
  outputValue: 'An output needs a value: a template such as {{ session.inputs.pin }}',
} as const;

const variableNameSchema = z.string().trim().regex(SUBFLOW_VARIABLE_PATTERN, { message: SUBFLOW_MESSAGES.variableName });

export const subflowInputSchema = z.object({
  name: variableNameSchema,
  description: z.string().trim().max(200).default(''),
});

/** An output: its name, and the template its value is rendered from as the sub-flow returns. */
export const subflowOutputSchema = z.object({
  name: variableNameSchema,
  value: z.string().trim().min(1, { message: SUBFLOW_MESSAGES.outputValue }).max(1000),
  description: z.string().trim().max(200).default(''),
});

/** What a sub-flow takes and gives back: at most 20 of each, names unique across both. */
export const subflowInterfaceSchema = z
  .object({
    inputs: z.array(subflowInputSchema).max(20).default([]),
    outputs: z.array(subflowOutputSchema).max(20).default([]),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    for (const [i, item] of [...value.inputs, ...value.outputs].entries()) {
      if (seen.has(item.name)) {
        const inInputs = i < value.inputs.length;
        ctx.addIssue({
          code: 'custom',
          path: [inInputs ? 'inputs' : 'outputs', inInputs ? i : i - value.inputs.length, 'name'],
          message: SUBFLOW_MESSAGES.duplicateName,
        });
      }
      seen.add(item.name);
    }
  });
export type SubflowInterface = z.infer<typeof subflowInterfaceSchema>;
export type SubflowInterfaceInput = z.input<typeof subflowInterfaceSchema>;

/**
 * A sub-flow as a version of an app carries it: frozen when the app is deployed (`version`, the sub-flow's own
 * version number), or its draft (`version` 0) in the app's draft.
 */
export const subflowVersionSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().max(200).default(''),
  version: z.number().int().min(0),
  inputs: z.array(subflowInputSchema).max(20).default([]),
  outputs: z.array(subflowOutputSchema).max(20).default([]),
  menus: z.array(menuSchema).max(500),
});
export type SubflowVersion = z.infer<typeof subflowVersionSchema>;

/** An app version carries at most this many sub-flows. */
export const MAX_SUBFLOWS_PER_APP = 20;

/**
 * A sub-flow's menu as the compiled app and every event name it: `<sub-flow id>/<menu uniqueId>`, so that its
 * menus never meet the app's, and the logs, the debugger and Show path can tell where a session was.
 */
export function toSubflowMenuId(subflowId: string, uniqueId: string): string {
  return `${subflowId}/${uniqueId}`;
}

/** The sub-flow and its own menu id a compiled menu id names, or null for one of the app's own menus. */
export function parseSubflowMenuId(menuId: string): { subflowId: string; uniqueId: string } | null {
  const slash = menuId.indexOf('/');
  return slash > 0 ? { subflowId: menuId.slice(0, slash), uniqueId: menuId.slice(slash + 1) } : null;
}
