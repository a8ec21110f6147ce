import { Anchor, Autocomplete, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { findBots, findLinkedNumbers } from '../../../shared/api/bots.calls';
import { findContactAttributeKeys } from '../../../shared/api/contacts.calls';
import { findMenusLite } from '../../../shared/api/menus.calls';
import { findTemplates } from '../../../shared/api/whatsapp-templates.calls';
import type { WhatsAppTemplate } from '../../../shared/api/whatsapp-templates.schema';
import { fillTemplateParts, templateKey, type TemplateValues, variableKey } from '../../../shared/whatsapp-templates';
import { callQuery } from '../../lib/call';
import { botSettingsPath } from '../../lib/paths';
import { TemplatePreview } from '../bots/template-preview';

/** The WhatsApp half of a campaign as the form holds it: the values typed per variable, keyed by variableKey. */
export interface WhatsAppDraft {
  botId: string | null;
  linkId: string | null;
  /** templateKey of the chosen template ('news:en'). */
  templateChoice: string | null;
  typed: Record<string, string>;
  entryMenuId: string | null;
}

/** The typed values by place then name, as the calls take them (`{ body: { '1': '{{contact.name}}' } }`). */
export function toValues(typed: Record<string, string>): TemplateValues {
  const values: TemplateValues = {};
  for (const [key, value] of Object.entries(typed)) {
    const [place, name] = key.split(':') as ['header' | 'body', string];
    values[place] = { ...values[place], [name]: value };
  }
  return values;
}

/** The first body variable starts as the contact's name (a greeting's usual place), as writing first does. */
export function prefillTyped(template: Pick<WhatsAppTemplate, 'variables'>): Record<string, string> {
  const first = template.variables.find((v) => v.place === 'body');
  return first ? { [variableKey(first)]: '{{contact.name}}' } : {};
}

interface CampaignWhatsAppFieldsProps {
  draft: WhatsAppDraft;
  onChange: (draft: WhatsAppDraft) => void;
  errors: Record<string, string>;
}

/**
 * The bot the campaign writes from, its connected number, one of that number's APPROVED templates with a value per
 * variable (text or a contact field such as {{contact.name}}), and the menu a reply starts at.
 */
export function CampaignWhatsAppFields({ draft, onChange, errors }: CampaignWhatsAppFieldsProps) {
  const bots = useQuery(callQuery(findBots, {}, 'The bots could not be loaded.'));
  const numbers = useQuery({
    ...callQuery(findLinkedNumbers, { params: { id: draft.botId ?? '' } }, 'The numbers could not be loaded.'),
    enabled: !!draft.botId,
  });
  const connected = (numbers.data ?? []).filter((n) => n.status === 'CONNECTED');
  // Left empty, the campaign writes from the bot's first connected number: its templates are the ones offered.
  const linkId = draft.linkId ?? connected[0]?.linkId ?? '';
  const templates = useQuery({
    ...callQuery(findTemplates, { params: { id: linkId } }, 'The templates could not be loaded.'),
    enabled: linkId !== '',
  });
  const menus = useQuery({
    ...callQuery(findMenusLite, { params: { appId: draft.botId ?? '' } }, 'The menus could not be loaded.'),
    enabled: !!draft.botId,
  });
  const keys = useQuery(callQuery(findContactAttributeKeys, {}, 'The contact fields could not be loaded.'));
  const approved = (templates.data?.templates ?? []).filter((t) => t.status === 'APPROVED');
  const template = approved.find((t) => templateKey(t) === draft.templateChoice) ?? null;
  const fieldSuggestions = ['{{contact.name}}', '{{contact.language}}', ...(keys.data?.keys ?? []).map((k) => `{{contact.${k.key}}}`)];

  const noNumber = !!draft.botId && numbers.isSuccess && connected.length === 0;
  const noTemplate = linkId !== '' && templates.isSuccess && approved.length === 0;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Bot"
          placeholder={bots.data?.length === 0 ? 'You have no WhatsApp bot' : 'Choose the bot'}
          withAsterisk
          data={(bots.data ?? []).map((b) => ({ value: b.appId, label: b.appName }))}
          value={draft.botId}
          onChange={(botId) => onChange({ ...draft, botId, linkId: null, templateChoice: null, typed: {}, entryMenuId: null })}
          searchable
          error={errors.botId ?? bots.error?.message}
        />
        <Select
          label="From the number"
          placeholder={noNumber ? 'No connected number' : "The bot's first connected number"}
          data={connected.map((n) => ({ value: n.linkId, label: n.mobileNumber || n.linkId }))}
          value={draft.linkId ?? (connected[0]?.linkId || null)}
          onChange={(value) => onChange({ ...draft, linkId: value, templateChoice: null, typed: {} })}
          disabled={!draft.botId || connected.length === 0}
          allowDeselect={false}
          error={
            noNumber ? (
              <>
                This bot has no connected number.{' '}
                <Anchor component={Link} to={botSettingsPath(draft.botId!)} size="xs">
                  Link one on its settings
                </Anchor>
              </>
            ) : (
              numbers.error?.message
            )
          }
        />
      </SimpleGrid>
      <Select
        label="Template"
        description="WhatsApp delivers a first message only as an approved template of the number."
        placeholder={noTemplate ? 'This number has no approved template' : 'Choose an approved template'}
        withAsterisk
        data={approved.map((t) => ({ value: templateKey(t), label: `${t.name} (${t.language})` }))}
        value={draft.templateChoice}
        onChange={(choice) => {
          const chosen = approved.find((t) => templateKey(t) === choice);
          onChange({ ...draft, templateChoice: choice, typed: chosen ? prefillTyped(chosen) : {} });
        }}
        disabled={linkId === '' || approved.length === 0}
        searchable
        error={
          errors.template ??
          templates.error?.message ??
          (noTemplate ? (
            <>
              No approved template yet.{' '}
              <Anchor component={Link} to={`${botSettingsPath(draft.botId!)}?tab=templates`} size="xs">
                Make one on the bot's Templates tab
              </Anchor>
            </>
          ) : undefined)
        }
      />
      {template?.variables.map((v) => (
        <Autocomplete
          key={variableKey(v)}
          label={`{{${v.name}}} in the ${v.place}`}
          description="Text, or a contact field such as {{contact.name}}"
          data={fieldSuggestions}
          value={draft.typed[variableKey(v)] ?? ''}
          onChange={(value) => onChange({ ...draft, typed: { ...draft.typed, [variableKey(v)]: value } })}
          maxLength={1024}
        />
      ))}
      {template && (
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            The template, with each contact's own fields put in when it is sent
          </Text>
          <TemplatePreview
            label="Template preview"
            parts={fillTemplateParts(
              {
                ...(template.header ? { header: template.header } : {}),
                body: template.body,
                ...(template.footer ? { footer: template.footer } : {}),
                buttons: template.buttons,
              },
              toValues(draft.typed),
            )}
          />
        </Stack>
      )}
      <Select
        label="Entry menu"
        description="Where the bot's flow starts when the person replies; the bot's first menu when left empty"
        placeholder="The bot's first menu"
        data={(menus.data ?? []).map((m) => ({ value: m.uniqueId, label: m.userDefinedName || m.uniqueId }))}
        value={draft.entryMenuId}
        onChange={(entryMenuId) => onChange({ ...draft, entryMenuId })}
        disabled={!draft.botId}
        clearable
        searchable
        error={menus.error?.message}
      />
    </Stack>
  );
}
