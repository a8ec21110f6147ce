import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { API_KEY_MESSAGES, type ApiKeyScope } from '../../../shared/api/api-keys.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { createApiKey, findApiKeys } from '../../../shared/api/api-keys.calls';
import { call, queryKey } from '../../lib/call';
import { CopyField } from '../../components/copy-field';

/** 'Create key': a name and a scope; then the key, this once, with a copy button. */
export function ApiKeyCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Create API key" size="lg" centered>
      {opened && <CreateForm onClose={onClose} />}
    </Modal>
  );
}

function CreateForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const [key, setKey] = useState<string | null>(null);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setMessage(API_KEY_MESSAGES.nameRequired);
    setSubmitting(true);
    const reply = await call(createApiKey, { body: { name: name.trim(), scope } });
    setSubmitting(false);
    if (!isOk(reply) || typeof reply.key !== 'string') return setMessage(failureText(reply, 'The key could not be created.'));
    await queryClient.invalidateQueries({ queryKey: queryKey(findApiKeys) });
    setKey(reply.key);
  }

  if (key)
    return (
      <Stack gap="md">
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />} title="Copy the key now">
          This is the only time the key is shown: you will not see it again. Store it where your CI keeps secrets; if it is lost, revoke it
          and create another.
        </Alert>
        <CopyField label="API key" value={key} description={`${name.trim()}, ${scope} scope`} />
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create API key">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <TextInput
          label="Name"
          description="Where the key is used, e.g. GitHub Actions deploy."
          withAsterisk
          maxLength={80}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          name="name"
          data-autofocus
        />
        <Radio.Group label="Scope" value={scope} onChange={(value) => setScope(value as ApiKeyScope)} name="scope">
          <Stack gap="xs" mt={6}>
            <Radio value="read" label="Read" description="Lists and reads apps, menus, versions and sessions, and exports apps." />
            <Radio
              value="write"
              label="Write"
              description="Everything Read does, and creates, changes, imports and deploys apps and menus."
            />
          </Stack>
        </Radio.Group>
        <Text size="sm" c="dimmed">
          A key acts as your account on your own apps, on the calls docs/api-keys.md lists.
        </Text>
        <DialogActions submitLabel="Create key" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
