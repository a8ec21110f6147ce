import { Alert, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClockCheck, IconClockExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConversationWindow } from '../../../shared/api/bot-conversations.schema';
import { templateKey, toTemplateValues, variableKey } from '../../../shared/whatsapp-templates';
import { getConversationWindow, startConversation } from '../../../shared/api/bots.calls';
import { findMenusLite } from '../../../shared/api/menus.calls';
import { DialogActions } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { showToast } from '../../lib/toast';

/** A phone number long enough to ask about its window (8 digits, as the server's number rule). */
const isWorthChecking = (msisdn: string) => msisdn.replace(/\D/g, '').length >= 8;

/**
 * Start a conversation: the business writes first to a contact from the bot's connected number (docs/bots.md,
 * "Writing first"). As the number is typed the dialog asks its 24-hour window and says whether a template is needed;
 * when the window is closed it offers the number's approved templates with their variables (a contact field as
 * `{{contact.name}}`).
 */
export function StartConversationDialog({ appId, opened, onClose }: { appId: string; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Start a conversation" centered size="lg">
      {opened && <StartConversationForm appId={appId} onClose={onClose} />}
    </Modal>
  );
}

function StartConversationForm({ appId, onClose }: { appId: string; onClose: () => void }) {
  const [msisdn, setMsisdn] = useState('');
  const [entryMenu, setEntryMenu] = useState<string | null>(null);
  const [templateChoice, setTemplateChoice] = useState<string | null>(null);
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [isSending, setSending] = useState(false);
  const [checked] = useDebouncedValue(msisdn.trim(), 400);
  const menus = useQuery(callQuery(findMenusLite, { params: { appId } }, 'The menus could not be loaded.'));
  const window = useQuery({
    ...callQuery(getConversationWindow, { params: { botId: appId }, query: { msisdn: checked } }, 'The window could not be checked.'),
    enabled: isWorthChecking(checked),
    retry: false,
  });
  const approved = window.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  const template = approved.find((t) => templateKey(t) === templateChoice) ?? null;

  function chooseTemplate(choice: string | null) {
    setTemplateChoice(choice);
    const chosen = approved.find((t) => templateKey(t) === choice);
    // The first body variable starts as the contact's name (a greeting's usual place); the builder may type text instead.
    const first = chosen?.variables.find((v) => v.place === 'body');
    setVariables(first ? { [variableKey(first)]: '{{contact.name}}' } : {});
  }

  async function send() {
    setSending(true);
    const reply = await call(startConversation, {
      params: { botId: appId },
      body: {
        msisdn: msisdn.trim(),
        ...(entryMenu ? { entryMenu } : {}),
        ...(window.data?.needsTemplate && template
          ? { template: { name: template.name, language: template.language, variables: toTemplateValues(template.variables, variables) } }
          : {}),
      },
    });
    setSending(false);
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Conversation not started', message: failureText(reply, 'The conversation could not be started.') });
      return;
    }
    showToast({ color: 'teal', title: 'Conversation started', message: reply.message });
    onClose();
  }

  const needsTemplate = window.data?.needsTemplate ?? false;
  const canSend = !!window.data && (!needsTemplate || template !== null);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      noValidate
      aria-label="Start a conversation"
    >
      <Stack gap="md">
        <Text size="sm">
          Write first to one of your contacts who opted in to WhatsApp. Within 24 hours of their last message the entry menu is sent as it
          is; after that WhatsApp only delivers an approved template, and their reply starts the flow at the entry menu.
        </Text>
        <TextInput
          label="Phone number"
          description="With its country code, as +233241234567"
          placeholder="+233241234567"
          value={msisdn}
          onChange={(event) => setMsisdn(event.currentTarget.value)}
          inputMode="tel"
          autoComplete="off"
          data-autofocus
          rightSection={window.isFetching ? <Loader size="xs" /> : null}
        />
        <WindowNotice window={window.data} error={window.error} />
        <Select
          label="Entry menu"
          description="Where the flow starts; the bot's first menu when left empty"
          placeholder="The bot's first menu"
          data={(menus.data ?? []).map((m) => ({ value: m.uniqueId, label: m.userDefinedName || m.uniqueId }))}
          value={entryMenu}
          onChange={setEntryMenu}
          clearable
          searchable
          error={menus.error ? 'The menus could not be loaded.' : undefined}
        />
        {needsTemplate && (
          <>
            <Select
              label="Template"
              placeholder={approved.length === 0 ? 'This number has no approved template' : 'Choose an approved template'}
              data={approved.map((t) => ({ value: templateKey(t), label: `${t.name} (${t.language})` }))}
              value={templateChoice}
              onChange={chooseTemplate}
              disabled={approved.length === 0}
              required
            />
            {template && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }} data-testid="template-text">
                {[template.header, template.body, template.footer, template.buttons.map((b) => `[${b}]`).join(' ')]
                  .filter(Boolean)
                  .join('\n')}
              </Text>
            )}
            {template?.variables.map((v) => (
              <TextInput
                key={variableKey(v)}
                label={`{{${v.name}}} in the ${v.place}`}
                description="Text, or a contact field such as {{contact.name}}"
                value={variables[variableKey(v)] ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setVariables((current) => ({ ...current, [variableKey(v)]: value }));
                }}
              />
            ))}
          </>
        )}
        <DialogActions
          submitLabel={needsTemplate ? 'Send template' : 'Send entry menu'}
          onCancel={onClose}
          isSubmitting={isSending}
          isDisabled={!canSend}
        />
      </Stack>
    </form>
  );
}

/** Whether a template is needed, in the server's words; the reason when the number cannot be written to. */
function WindowNotice({ window, error }: { window: ConversationWindow | undefined; error: Error | null }) {
  if (error)
    return (
      <Alert color="red" role="alert" title="Cannot write to this number">
        {error.message}
      </Alert>
    );
  if (!window) return null;
  const isOpen = window.window.state === 'open';
  return (
    <Alert
      color={isOpen ? 'teal' : 'yellow'}
      icon={isOpen ? <IconClockCheck size={18} /> : <IconClockExclamation size={18} />}
      title={isOpen ? 'Inside the 24-hour window' : 'A template is needed'}
    >
      {window.message}
    </Alert>
  );
}
