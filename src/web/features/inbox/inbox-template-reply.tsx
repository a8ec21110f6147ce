import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { WhatsAppTemplate } from '../../../shared/api/whatsapp-templates.schema';
import type { InboxContact, InboxConversationDetail } from '../../../shared/api/inbox.schema';
import { replyInboxConversation } from '../../../shared/api/inbox.calls';
import { fillTemplateParts, templateKey, toTemplateText, toTemplateValues, variableKey } from '../../../shared/whatsapp-templates';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { formatMoment } from '../../lib/format';
import { botSettingsPath } from '../../lib/paths';
import { INBOX_KEY } from './inbox.api';

/** A listed template's parts as the shared filling reads them. */
const toParts = (t: WhatsAppTemplate) => ({
  ...(t.header ? { header: t.header } : {}),
  body: t.body,
  ...(t.footer ? { footer: t.footer } : {}),
  buttons: t.buttons,
});

/** The contact's field a variable names (`{{name}}`, `{{language}}`, `{{city}}`), '' when none. */
function readContactField(contact: InboxContact | null, name: string): string {
  if (!contact) return '';
  if (name === 'name') return contact.name ?? '';
  if (name === 'language') return contact.language ?? '';
  return contact.attributes[name] ?? '';
}

/**
 * The variables prefilled from the customer's contact: a variable that names a contact field takes its value; the
 * first numbered body variable takes the contact's name, as writing first does (a greeting's usual place).
 */
export function prefillVariables(template: Pick<WhatsAppTemplate, 'variables'>, contact: InboxContact | null): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const v of template.variables) {
    const value = readContactField(contact, v.name);
    if (value) typed[variableKey(v)] = value;
  }
  const first = template.variables.find((v) => v.place === 'body');
  if (first && /^\d+$/.test(first.name) && contact?.name && !typed[variableKey(first)]) typed[variableKey(first)] = contact.name;
  return typed;
}

/** The explanation shown instead of the text box once WhatsApp's window has closed. */
export function describeClosedWindow(closedAt: string | null): string {
  return `The 24-hour window closed${closedAt ? ` on ${formatMoment(closedAt)}` : ''}: WhatsApp lets a business write first only with an approved template.`;
}

/**
 * The reply once WhatsApp's 24-hour window has closed (docs/inbox.md, "Replies"): an approved template of the
 * conversation's number, its variables prefilled from the contact, its filled text previewed as the customer will
 * read it. With no approved template it says so and, for the owner, links to the number's templates.
 */
export function InboxTemplateReply({ detail, canManage }: { detail: InboxConversationDetail; canManage: boolean }) {
  const queryClient = useQueryClient();
  const { conversation, contact, templates, window } = detail;
  const [choice, setChoice] = useState<string | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const template = templates.find((t) => templateKey(t) === choice) ?? null;
  const closedAt = window.state === 'closed' ? window.closedAt : null;
  const missing = template ? template.variables.filter((v) => !typed[variableKey(v)]?.trim()) : [];

  function choose(value: string | null) {
    setChoice(value);
    setError(null);
    const chosen = templates.find((t) => templateKey(t) === value);
    setTyped(chosen ? prefillVariables(chosen, contact) : {});
  }

  async function send() {
    if (!template || missing.length > 0 || sending) return;
    setSending(true);
    setError(null);
    const reply = await call(replyInboxConversation, {
      params: { conversationId: conversation.conversationId },
      body: {
        template: { name: template.name, language: template.language, variables: toTemplateValues(template.variables, typed) },
        clientMessageId: crypto.randomUUID(),
      },
    });
    setSending(false);
    if (isOk(reply)) choose(null);
    else setError(failureText(reply, 'The template was not sent.'));
    await queryClient.invalidateQueries({ queryKey: INBOX_KEY });
  }

  return (
    <Stack
      gap="xs"
      component="form"
      aria-label="Send a template"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <Alert color="orange" variant="light" data-testid="inbox-window-closed">
        {describeClosedWindow(closedAt)}
      </Alert>
      {templates.length === 0 ? (
        <Text size="sm" data-testid="inbox-no-templates">
          This number has no approved template yet.{' '}
          {canManage ? (
            <Anchor component={Link} to={`${botSettingsPath(conversation.appId)}?tab=templates`}>
              Make one on the bot's Templates tab
            </Anchor>
          ) : (
            "Ask the account's owner to make one on the bot's Templates tab"
          )}
          . A private note still works, and the window opens again when the customer writes.
        </Text>
      ) : (
        <>
          <Select
            label="Template"
            placeholder="Choose an approved template"
            data={templates.map((t) => ({ value: templateKey(t), label: `${t.name} (${t.language})` }))}
            value={choice}
            onChange={choose}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          {template?.variables.map((v) => (
            <TextInput
              key={variableKey(v)}
              label={`{{${v.name}}} in the ${v.place}`}
              value={typed[variableKey(v)] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setTyped((current) => ({ ...current, [variableKey(v)]: value }));
              }}
              maxLength={1024}
            />
          ))}
          {template && (
            <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
              <Text size="xs" c="dimmed" mb={4}>
                What the customer will read
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="inbox-template-preview">
                {toTemplateText(fillTemplateParts(toParts(template), toTemplateValues(template.variables, typed)))}
              </Text>
            </Paper>
          )}
        </>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" data-testid="inbox-send-error">
          {error}
        </Alert>
      )}
      {templates.length > 0 && (
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {template && missing.length > 0 ? `Fill ${missing.map((v) => `{{${v.name}}}`).join(', ')} to send.` : ''}
          </Text>
          <Button type="submit" loading={sending} disabled={!template || missing.length > 0} leftSection={<IconTemplate size={16} />}>
            Send template
          </Button>
        </Group>
      )}
    </Stack>
  );
}
