import { z } from 'zod';
import { CONSENT_CHANNELS } from '../contact-consent';
import { languageCodeSchema } from './languages';
import { SWITCH_OPERATORS } from './operators';

export const SWITCH_ACTIONS = ['goto', 'Terminate'] as const;
export type SwitchAction = (typeof SWITCH_ACTIONS)[number];

/**
 * What a rule tests besides the input (docs/contacts.md, "Rules on contact fields"): a field of the caller's
 * contact, `contact.name`, `contact.language` or `contact.<attribute key>`. Absent: the input.
 */
export const RULE_SUBJECT_PATTERN = /^contact\.[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const RULE_SUBJECT_MESSAGE =
  'A rule tests the input or a contact field: contact.name, contact.language or contact.<attribute key> (a letter or _, then letters, digits or _, at most 40)';
export const ruleSubjectSchema = z.string().regex(RULE_SUBJECT_PATTERN, { message: RULE_SUBJECT_MESSAGE });

/** The contact field a rule's subject names (`contact.city` -> `city`). */
export function toSubjectField(subject: string): string {
  return subject.slice('contact.'.length);
}

/**
 * One navigation rule: `input <operator> compareVal` then `action` (`subject`, when given, is tested instead of the input).
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
  subject: ruleSubjectSchema.optional(),
  operator: z.enum(SWITCH_OPERATORS),
  compareVal: z.string().max(1000).default(''),
  action: z.enum(SWITCH_ACTIONS),
  actionParam: z.string().max(2000).default(''),
  setLanguage: languageCodeSchema.optional(),
  consent: ruleConsentSchema.optional(),
});
export type SwitchOperation = z.infer<typeof switchOperationSchema>;
