import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { actionSchema, inputValidationSchema, SWITCH_OPERATORS, VALIDATION_METHODS } from '../../../shared/app';

/**
 * A navigation rule as a template writes it: [operator, compareVal, target], the target a menu's `key` to go to
 * or the closing text of a Terminate rule; operator 'always' for an Always goto.
 * @example ["eq", "1", { "goto": "amount" }]
 */
const templateRouteSchema = z.tuple([
  z.enum(SWITCH_OPERATORS),
  z.string(),
  z.union([z.object({ goto: z.string() }).strict(), z.object({ terminate: z.string() }).strict()]),
]);

/** A menu of a template: menus refer to each other by a local `key`, which becomes a uniqueId when the app is made. */
const templateMenuSchema = z
  .object({
    key: z.string().min(1),
    userDefinedName: z.string(),
    displayText: z.string(),
    headerText: z.string().optional(),
    footerText: z.string().optional(),
    terminate: z.boolean().optional(),
    allowGoBack: z.boolean().optional(),
    goBackInputIndicator: z.string().optional(),
    routes: z.array(templateRouteSchema).optional(),
    // The method is written out: the menu form's default (isNumeric) would hide a file that left it out.
    validations: z.array(inputValidationSchema.extend({ validationMethod: z.enum(VALIDATION_METHODS) })).optional(),
    actions: z.array(actionSchema).optional(),
  })
  .strict();
export type TemplateMenu = z.infer<typeof templateMenuSchema>;

/**
 * An app written as data (the featured templates, the demo bot): real apps that run in the emulator and can be
 * cloned. `{{ ... }}` in texts is LiquidJS over the session scope.
 */
export const templateDefinitionSchema = z
  .object({
    appName: z.string().min(1),
    description: z.string(),
    country: z.string(),
    flagIcon: z.string(),
    shortCode: z.string(),
    useTemplateTag: z.boolean(),
    menus: z.array(templateMenuSchema).min(1),
  })
  .strict()
  .superRefine((def, ctx) => {
    const keys = new Set<string>();
    for (const [i, menu] of def.menus.entries()) {
      if (keys.has(menu.key)) ctx.addIssue({ code: 'custom', path: ['menus', i, 'key'], message: `the key "${menu.key}" is used twice` });
      keys.add(menu.key);
    }
    for (const [i, menu] of def.menus.entries())
      for (const [r, [, , target]] of (menu.routes ?? []).entries())
        if ('goto' in target && !keys.has(target.goto))
          ctx.addIssue({ code: 'custom', path: ['menus', i, 'routes', r], message: `no menu has the key "${target.goto}"` });
  });
export type TemplateDefinition = z.infer<typeof templateDefinitionSchema>;

/** Stands for this server's address in a template file (the Balance Enquiry template calls our sandbox bank). */
const ORIGIN_PLACEHOLDER = '$SANDBOX_ORIGIN';

/**
 * Reads one app written as data: the JSON file, `$SANDBOX_ORIGIN` in its texts replaced, checked against
 * templateDefinitionSchema. A file that does not parse or does not pass throws, naming the file and the field.
 */
export function readTemplateFile(file: URL, sandboxOrigin = ''): TemplateDefinition {
  const name = fileURLToPath(file);
  const text = readFileSync(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text, (_key, value) => (typeof value === 'string' ? value.replaceAll(ORIGIN_PLACEHOLDER, sandboxOrigin) : value));
  } catch (error) {
    throw new Error(`The template file ${name} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = templateDefinitionSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(the file)'}: ${i.message}`).join('; ');
    throw new Error(`The template file ${name} does not pass its checks: ${problems}`);
  }
  return parsed.data;
}

/** The featured templates, in the order they are seeded: one file each under featured/. */
const FEATURED_TEMPLATE_FILES = [
  'airtime-top-up',
  'pay-a-merchant',
  'community-poll',
  'customer-survey',
  'balance-enquiry',
  'event-registration',
] as const;

/** The featured templates; `sandboxOrigin` is where the Balance Enquiry template finds its demo REST API. */
export function getFeaturedTemplates(sandboxOrigin: string): TemplateDefinition[] {
  return FEATURED_TEMPLATE_FILES.map((name) => readTemplateFile(new URL(`./featured/${name}.json`, import.meta.url), sandboxOrigin));
}
