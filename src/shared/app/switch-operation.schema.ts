import { z } from 'zod';
import { SWITCH_OPERATORS } from './operators';

export const SWITCH_ACTIONS = ['goto', 'Terminate'] as const;
export type SwitchAction = (typeof SWITCH_ACTIONS)[number];

/**
 * One navigation rule: `input <operator> compareVal` then `action`.
 * For `goto`, `actionParam` is the target menu's uniqueId; for `Terminate` it is the optional closing
 * text (a template). The Always goto rule is `{ operator: 'always', action: 'goto', actionParam }`.
 */
export const switchOperationSchema = z.object({
  operator: z.enum(SWITCH_OPERATORS),
  compareVal: z.string().max(1000).default(''),
  action: z.enum(SWITCH_ACTIONS),
  actionParam: z.string().max(2000).default(''),
});
export type SwitchOperation = z.infer<typeof switchOperationSchema>;
