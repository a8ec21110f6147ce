import { Alert, Checkbox, Group, Paper, Select, type SelectProps, Stack, Text, TextInput } from '@mantine/core';
import {
  ALWAYS_OPERATOR,
  describeLanguage,
  getShortText,
  NAVIGATION_OPERATORS,
  OPERATOR_LABELS,
  SWITCH_ACTIONS,
  type MenuLite,
  type RuleConsent,
  type SwitchAction,
  type SwitchOperator,
} from '../../../shared/app';
import type { ConsentChannel } from '../../../shared/contact-consent';
import { DEFAULT_CALLBACK_TEXT, DEFAULT_HANDOFF_TEXT, DEFAULT_WHATSAPP_CONTINUE_TEXT } from '../../../shared/inbox';
import { useBots } from '../bots/use-bots';
import { SubflowRuleFields } from '../subflows/subflow-rule-fields';
import { createRuleDraft, type FormErrors, type MenuFormValues, type RuleDraft } from './menu-form-state';
import { RuleSubjectField } from './contact-field-inputs';
import { MenuRowControls, moveItem, removeItem, updateItem } from './menu-row-buttons';
import { RowList } from '../../components/row-list';
import { TemplateTextInput } from './template-text-input';

interface MenuNavigationTabProps {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  errors: FormErrors;
  menus: MenuLite[];
  /** The app's languages, default first; empty for an app in one language (no Language field then). */
  languages?: string[];
  /**
   * The app's channel: a Terminate rule may hand to a person (docs/inbox.md), a bot's conversation to the inbox, a
   * USSD caller as a callback request.
   */
  channel?: 'ussd' | 'whatsapp';
  /** The menu is a sub-flow's (docs/sub-flows.md): its rules may Return, and may not enter another sub-flow. */
  isSubflow?: boolean;
}

const CONSENT_CHANNEL_NAMES: Record<ConsentChannel, string> = { whatsapp: 'WhatsApp', sms: 'SMS', ussd: 'USSD' };
/** A rule's consent as one choice: `whatsapp:in`, or '' for none. */
const CONSENT_OPTIONS = [
  // Recorded on the caller's contact as the rule is taken (docs/contacts.md, "Consent").
  { value: '', label: 'No consent change' },
  ...(['whatsapp', 'sms', 'ussd'] as const).flatMap((channel) => [
    { value: `${channel}:in`, label: `Opt in to ${CONSENT_CHANNEL_NAMES[channel]}` },
    { value: `${channel}:out`, label: `Opt out of ${CONSENT_CHANNEL_NAMES[channel]}` },
  ]),
];
const toConsentChoice = (consent: RuleConsent | undefined) => (consent ? `${consent.channel}:${consent.status}` : '');
function fromConsentChoice(choice: string | null): RuleConsent | undefined {
  if (!choice) return undefined;
  const [channel, status] = choice.split(':') as [ConsentChannel, RuleConsent['status']];
  return { channel, status };
}

const OPERATOR_OPTIONS = NAVIGATION_OPERATORS.map((op) => ({ value: op, label: OPERATOR_LABELS[op] }));
const ACTION_LABELS: Record<SwitchAction, string> = { goto: 'goto', Terminate: 'Terminate', Return: 'Return' };
/** Return is a sub-flow's: an app's menus are not offered it. */
const toActionOptions = (isSubflow: boolean) =>
  SWITCH_ACTIONS.filter((a) => isSubflow || a !== 'Return').map((a) => ({ value: a, label: ACTION_LABELS[a] }));

/** Target menus from the lite list: the identifier, with the start of the text to tell them apart. */
export function toMenuOptions(menus: MenuLite[], selfId?: string) {
  return menus.map((m) => ({
    value: m.uniqueId,
    label: `${m.userDefinedName || '(no identifier)'}${m.uniqueId === selfId ? ' (this menu)' : ''} · ${getShortText(m.displayText).replace(/\s+/g, ' ').slice(0, 40)}`,
  }));
}

type Options = { value: string; label: string }[];

/** isSet and isEmpty compare with nothing. */
const isPresence = (operator: SwitchOperator) => operator === 'isSet' || operator === 'isEmpty';

/** The options, plus the saved target when it is no longer a menu (deleted), so the field shows it rather than looking empty. */
export function withMissingTarget(options: Options, target: string) {
  if (target === '' || options.some((o) => o.value === target)) return options;
  return [...options, { value: target, label: 'Deleted menu (no longer in this app)', disabled: true }];
}

/** The options, plus a rule's language the app no longer has, so the field shows it. */
function withMissingLanguage(options: Options, code: string | undefined) {
  if (!code || options.some((o) => o.value === code)) return options;
  return [...options, { value: code, label: `${describeLanguage(code)} (not an app language)` }];
}

/** The menu Always goto or a rule goes to, searchable; a deleted one still shows (withMissingTarget). */
function TargetMenuSelect({ options, value, ...props }: Omit<SelectProps, 'data' | 'value'> & { options: Options; value: string }) {
  return (
    <Select
      placeholder="Pick a menu"
      data={withMissingTarget(options, value)}
      value={value || null}
      searchable
      nothingFoundMessage="No menu matches"
      {...props}
    />
  );
}

/** The language Always goto or a rule switches to: shown when the app has languages, or the field already names one. */
function SwitchLanguageSelect({ options, value, ...props }: Omit<SelectProps, 'data' | 'value'> & { options: Options; value: string }) {
  // The first option is Keep the language: an app without languages offers nothing else.
  if (options.length < 2 && !value) return null;
  return (
    <Select
      label="Language"
      data={withMissingLanguage(options, value)}
      value={value}
      allowDeselect={false}
      w={{ base: '100%', xs: 220 }}
      {...props}
    />
  );
}

/** What handing to a person is on each channel (docs/inbox.md). */
const HANDOFF_WORDING = {
  whatsapp: {
    label: 'Hand to a person',
    description: 'The inbox gets the conversation; the bot stops answering this contact until an agent closes it',
    text: DEFAULT_HANDOFF_TEXT,
  },
  ussd: {
    label: 'Hand to a person',
    description: "The inbox gets the caller's number and answers: an agent calls back, or answers on WhatsApp",
    text: DEFAULT_CALLBACK_TEXT,
  },
} as const;

/**
 * Where a USSD caller handed to a person is answered (docs/inbox.md): called back, or on WhatsApp through one of the
 * account's bots, whose number the caller's end screen gives (`{whatsappNumber}` in the closing text).
 */
function HandoffWhereSelect({
  rule,
  value,
  onChange,
  error,
  disabled,
}: {
  rule: number;
  value: string;
  onChange: (botId: string) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const bots = useBots();
  const options = [
    { value: '', label: 'Call the caller back' },
    ...(bots.data ?? []).map((bot) => ({ value: bot.appId, label: `Continue on WhatsApp with ${bot.appName}` })),
  ];
  // A bot the list no longer has (deleted, or not loaded) still shows as chosen, so saving keeps or refuses it visibly.
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: 'Continue on WhatsApp with a bot not found' });
  return (
    <Select
      label="A person answers"
      aria-label={`Rule ${rule + 1} where a person answers`}
      description={value ? "The caller is asked to message the bot's number; agents answer in the inbox" : undefined}
      data={options}
      value={value}
      allowDeselect={false}
      onChange={(v) => onChange(v ?? '')}
      error={error}
      disabled={disabled}
      style={{ flex: '2 1 260px' }}
    />
  );
}

/** Navigation tab: Always goto with its target, or the ordered rules (first match wins). */
export function MenuNavigationTab({
  values,
  set,
  errors,
  menus,
  languages = [],
  channel = 'ussd',
  isSubflow = false,
}: MenuNavigationTabProps) {
  const actionOptions = toActionOptions(isSubflow);
  const languageOptions = [
    { value: '', label: 'Keep the language' },
    ...languages.map((code) => ({ value: code, label: `Switch to ${describeLanguage(code)}` })),
  ];
  const options = toMenuOptions(menus, values.uniqueId);
  const setRule = (index: number, patch: Partial<RuleDraft>) => set({ rules: updateItem(values.rules, index, patch) });
  const move = (index: number, by: number) => set({ rules: moveItem(values.rules, index, by) });
  const err = (field: string) => errors[field]?.message;
  const handoff = HANDOFF_WORDING[channel];

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md" bg={values.alwaysGoto ? 'teal.0' : undefined}>
        <Group align="flex-start" gap="md" wrap="wrap">
          <Checkbox
            label="Always goto"
            description="Whatever the input, go to this menu"
            checked={values.alwaysGoto}
            onChange={(e) => set({ alwaysGoto: e.currentTarget.checked })}
            mt={4}
            style={{ flex: '0 0 auto' }}
          />
          <TargetMenuSelect
            label="Always go to"
            options={options}
            value={values.alwaysTarget}
            onChange={(v) => set({ alwaysTarget: v ?? '' })}
            disabled={!values.alwaysGoto}
            error={err('alwaysTarget')}
            style={{ flex: '1 1 240px' }}
          />
          <SwitchLanguageSelect
            aria-label="Always goto language"
            options={languageOptions}
            value={values.alwaysLanguage}
            onChange={(v) => set({ alwaysLanguage: v ?? '' })}
            disabled={!values.alwaysGoto}
          />
        </Group>
      </Paper>

      {values.alwaysGoto && values.rules.length > 0 && (
        <Alert color="yellow" variant="light">
          Always goto is on: only it is saved, the rules below are dropped.
        </Alert>
      )}

      <RowList
        title="Rules"
        description="Checked in order against the caller's input, or a field of their contact; the first match wins."
        addLabel="Add rule"
        onAdd={() => set({ rules: [...values.rules, createRuleDraft()] })}
        isAddDisabled={values.alwaysGoto}
        emptyText="No rules yet. Add one to send an input such as 1 to another menu."
        isEmpty={values.rules.length === 0}
        style={{ opacity: values.alwaysGoto ? 0.5 : 1 }}
      >
        {values.rules.map((rule, i) => {
          const at = `rules.${i}`;
          const operatorOptions =
            rule.operator === ALWAYS_OPERATOR
              ? [...OPERATOR_OPTIONS, { value: ALWAYS_OPERATOR, label: OPERATOR_LABELS.always }]
              : OPERATOR_OPTIONS;
          return (
            <Paper key={rule.key} withBorder radius="md" p="sm" data-testid="navigation-rule">
              <Group gap="xs" align="flex-start" wrap="wrap">
                <RuleSubjectField
                  label={`${i + 1}. If`}
                  aria-label={`Rule ${i + 1} tests`}
                  value={rule.subject ?? ''}
                  onChange={(subject) => setRule(i, { subject: subject || undefined })}
                  error={err(`${at}.subject`)}
                  disabled={values.alwaysGoto}
                  w={{ base: '100%', xs: 170 }}
                />
                <Select
                  label="is"
                  aria-label={`Rule ${i + 1} operator`}
                  data={operatorOptions}
                  value={rule.operator}
                  onChange={(v) => v && setRule(i, { operator: v as SwitchOperator })}
                  allowDeselect={false}
                  disabled={values.alwaysGoto}
                  w={{ base: '100%', xs: 190 }}
                />
                <TextInput
                  label="Compare value"
                  aria-label={`Rule ${i + 1} compare value`}
                  placeholder={isPresence(rule.operator) ? 'Not needed' : '1 or 1,2,3'}
                  value={rule.compareVal}
                  onChange={(e) => setRule(i, { compareVal: e.currentTarget.value })}
                  error={err(`${at}.compareVal`)}
                  disabled={values.alwaysGoto || isPresence(rule.operator)}
                  style={{ flex: '1 1 120px' }}
                />
                <Select
                  label="Then"
                  aria-label={`Rule ${i + 1} action`}
                  placeholder="Action"
                  data={actionOptions}
                  value={rule.action || null}
                  // A handoff belongs to a Terminate rule only, a sub-flow to a goto: each goes with the action.
                  onChange={(v) =>
                    setRule(i, { action: (v ?? '') as SwitchAction | '', actionParam: '', handoff: undefined, subflow: undefined })
                  }
                  error={err(`${at}.action`)}
                  disabled={values.alwaysGoto}
                  w={130}
                />
                {rule.action === 'Terminate' ? (
                  <TemplateTextInput
                    label="Closing text"
                    aria-label={`Rule ${i + 1} closing text`}
                    placeholder={rule.handoff ? (rule.handoff.whatsappBotId ? DEFAULT_WHATSAPP_CONTINUE_TEXT : handoff.text) : 'Thank you.'}
                    value={rule.actionParam}
                    onChange={(actionParam) => setRule(i, { actionParam })}
                    error={err(`${at}.actionParam`)}
                    disabled={values.alwaysGoto}
                    style={{ flex: '2 1 200px' }}
                  />
                ) : rule.action === 'Return' ? (
                  <Text size="sm" c="dimmed" style={{ flex: '2 1 200px', alignSelf: 'center' }} mt={22}>
                    Leaves the sub-flow with its outputs, back to the app's menu
                  </Text>
                ) : (
                  <TargetMenuSelect
                    label="Target menu"
                    aria-label={`Rule ${i + 1} target menu`}
                    options={options}
                    value={rule.actionParam}
                    onChange={(v) => setRule(i, { actionParam: v ?? '', action: rule.action || 'goto' })}
                    error={err(`${at}.actionParam`)}
                    disabled={values.alwaysGoto}
                    style={{ flex: '2 1 200px' }}
                  />
                )}
                <Select
                  label="Consent"
                  aria-label={`Rule ${i + 1} consent`}
                  data={CONSENT_OPTIONS}
                  value={toConsentChoice(rule.consent)}
                  onChange={(v) => setRule(i, { consent: fromConsentChoice(v) })}
                  allowDeselect={false}
                  disabled={values.alwaysGoto}
                  w={{ base: '100%', xs: 200 }}
                />
                <SwitchLanguageSelect
                  aria-label={`Rule ${i + 1} language`}
                  options={languageOptions}
                  value={rule.setLanguage ?? ''}
                  onChange={(v) => setRule(i, { setLanguage: v || undefined })}
                  error={err(`${at}.setLanguage`)}
                  disabled={values.alwaysGoto}
                />
                <MenuRowControls
                  noun="rule"
                  index={i}
                  count={values.rules.length}
                  isMoveDisabled={values.alwaysGoto}
                  onMove={(by) => move(i, by)}
                  onRemove={() => set({ rules: removeItem(values.rules, i) })}
                />
                {rule.action === 'goto' && !isSubflow && (
                  <SubflowRuleFields
                    rule={i + 1}
                    value={rule.subflow}
                    onChange={(subflow) => setRule(i, { subflow })}
                    disabled={values.alwaysGoto}
                    error={err(`${at}.subflow.id`) ?? err(`${at}.subflow`)}
                  />
                )}
                {rule.action === 'Terminate' && (
                  <Group gap="sm" align="flex-end" wrap="wrap" w="100%" data-testid="rule-handoff">
                    <Checkbox
                      label={handoff.label}
                      description={handoff.description}
                      aria-label={`Rule ${i + 1} hands to a person`}
                      checked={rule.handoff !== undefined}
                      onChange={(e) => setRule(i, { handoff: e.currentTarget.checked ? { reason: '' } : undefined })}
                      disabled={values.alwaysGoto}
                      style={{ flex: '1 1 260px' }}
                    />
                    {rule.handoff && (
                      <TextInput
                        label="Reason agents see"
                        aria-label={`Rule ${i + 1} handoff reason`}
                        placeholder="e.g. asked for a person"
                        maxLength={200}
                        value={rule.handoff.reason}
                        onChange={(e) => setRule(i, { handoff: { ...rule.handoff, reason: e.currentTarget.value } })}
                        error={err(`${at}.handoff.reason`)}
                        disabled={values.alwaysGoto}
                        style={{ flex: '2 1 220px' }}
                      />
                    )}
                    {rule.handoff && channel === 'ussd' && (
                      <HandoffWhereSelect
                        rule={i}
                        value={rule.handoff.whatsappBotId ?? ''}
                        onChange={(botId) =>
                          setRule(i, {
                            handoff: { reason: rule.handoff?.reason ?? '', ...(botId ? { whatsappBotId: botId } : {}) },
                          })
                        }
                        error={err(`${at}.handoff.whatsappBotId`)}
                        disabled={values.alwaysGoto}
                      />
                    )}
                  </Group>
                )}
              </Group>
            </Paper>
          );
        })}
      </RowList>
    </Stack>
  );
}
