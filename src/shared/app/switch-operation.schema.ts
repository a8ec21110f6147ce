import { z } from 'zod';
import { CONSENT_CHANNELS } from '../contact-consent';
import { languageCodeSchema } from './languages';
import { SWITCH_OPERATORS } from './operators';

export const SWITCH_ACTIONS = ['goto', 'Terminate'] as const;
export type SwitchAction = (typeof SWITCH_ACTIONS)[number];

/**
 * One navigation rule: `input <operator> compareVal` then `action`.
 * For `goto`, `actionParam` is the target menu's uniqueId; for `Terminate` it is the optional closing
 * text (a template). The Always goto rule is `{ operator: 'always', action: 'goto', actionParam }`.
 * `setLanguage`, when given, switches the session to that language as the rule is taken, before the target
 * menu (or the closing text) is shown: a language menu is a menu whose rules each set one (docs/languages.md).
 * `consent`, when given, records the caller's opt in or out of a channel on their contact as the rule is taken
 * (docs/contacts.md, "Consent"): a "1. Yes, send me offers / 2. No thanks" menu.
 */
export const ruleConsentSchema = z.object({ channel: z.enum(CONSENT_CHANNELS), status: z.enum(['in', 'out']) });
export type RuleConsent = z.infer<typeof ruleConsentSchema>;

export const switchOperationSchema = z.object({
  operator: z.enum(SWITCH_OPERATORS),
  compareVal: z.string().max(1000).default(''),
  action: z.enum(SWITCH_ACTIONS),
  actionParam: z.string().max(2000).default(''),
  setLanguage: languageCodeSchema.optional(),
  consent: ruleConsentSchema.optional(),
});
export type SwitchOperation = z.infer<typeof switchOperationSchema>;
