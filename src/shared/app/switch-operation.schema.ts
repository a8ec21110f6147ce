import { z } from 'zod';
import { CONSENT_CHANNELS } from '../contact-consent';
import { languageCodeSchema } from './languages';
import { SWITCH_OPERATORS } from './operators';

/** `Return` leaves a sub-flow (docs/sub-flows.md): only a sub-flow's menus have it. */
export const SWITCH_ACTIONS = ['goto', 'Terminate', 'Return'] as const;
export type SwitchAction = (typeof SWITCH_ACTIONS)[number];

/**
 * What a rule tests besides the input (docs/contacts.md, "Rules on contact fields"): a field of the caller's
 * contact, `contact.name`, `contact.language` or `contact.<attribute key>`; or, in a bot, a field of a file or
 * location a menu received (docs/bots.md, "Media"): `session.media.<menu identifier>.<field>` with a field of
 * MEDIA_SUBJECT_FIELDS (`session.media.photo.mimeType`). Absent: the input.
 */
export const MEDIA_SUBJECT_FIELDS = [
  'kind',
  'mimeType',
  'size',
  'caption',
  'fileName',
  'mediaId',
  'latitude',
  'longitude',
  'name',
  'address',
] as const;
export const RULE_SUBJECT_PATTERN = new RegExp(
  `^(contact\\.[A-Za-z_][A-Za-z0-9_]{0,39}|session\\.media\\.[A-Za-z_$][A-Za-z0-9_$]{0,63}\\.(${MEDIA_SUBJECT_FIELDS.join('|')}))$`,
);
export const RULE_SUBJECT_MESSAGE =
  'A rule tests the input, a contact field (contact.name, contact.language or contact.<attribute key>: a letter or _, then letters, digits or _, at most 40) or a received file or location (session.media.<menu identifier>.<field>)';
export const ruleSubjectSchema = z.string().regex(RULE_SUBJECT_PATTERN, { message: RULE_SUBJECT_MESSAGE });

/** The contact field a rule's subject names (`contact.city` -> `city`), or null when it names a received file's field. */
export function toSubjectField(subject: string): string | null {
  return subject.startsWith('contact.') ? subject.slice('contact.'.length) : null;
}

/** The menu identifier and field a media subject names (`session.media.photo.size` -> `['photo', 'size']`), else null. */
export function toMediaSubject(subject: string): [identifier: string, field: string] | null {
  if (!subject.startsWith('session.media.')) return null;
  const [identifier, field] = subject.slice('session.media.'.length).split('.');
  return identifier && field ? [identifier, field] : null;
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

/**
 * `handoff`, on a Terminate rule of a bot (docs/inbox.md): the rule hands the conversation to a person. The session
 * ends on the rule's closing text (DEFAULT_HANDOFF_TEXT when it has none) and the runtime opens an inbox
 * conversation with `reason` and the session's inputs; the contact's messages go to the agents until one closes it.
 */
export const ruleHandoffSchema = z.object({
  reason: z.string().trim().max(200).default(''),
  /**
   * A USSD app's "continue on WhatsApp" (docs/inbox.md, "Continue on WhatsApp"): the account's bot whose linked number
   * the caller is asked to message; the conversation opens on that bot, and the caller's first WhatsApp message
   * reaches the agents. Without it, a USSD handoff is a callback request.
   */
  whatsappBotId: z.string().trim().min(1).max(64).optional(),
});
export type RuleHandoff = z.infer<typeof ruleHandoffSchema>;

/**
 * `subflow`, on a goto rule (docs/sub-flows.md): the rule enters that sub-flow of the account, its inputs rendered
 * (templates, by input name) into session variables first; when the sub-flow returns, the session goes on at the
 * rule's target menu (`actionParam`) with the sub-flow's outputs in session variables.
 */
export const ruleSubflowSchema = z.object({
  id: z.string().trim().min(1).max(64),
  inputs: z.record(z.string().max(40), z.string().max(1000)).default({}),
});
export type RuleSubflow = z.infer<typeof ruleSubflowSchema>;

export const switchOperationSchema = z.object({
  subject: ruleSubjectSchema.optional(),
  operator: z.enum(SWITCH_OPERATORS),
  compareVal: z.string().max(1000).default(''),
  action: z.enum(SWITCH_ACTIONS),
  actionParam: z.string().max(2000).default(''),
  setLanguage: languageCodeSchema.optional(),
  consent: ruleConsentSchema.optional(),
  handoff: ruleHandoffSchema.optional(),
  subflow: ruleSubflowSchema.optional(),
});
export type SwitchOperation = z.infer<typeof switchOperationSchema>;
