import { Modal, Stack, Switch, Text, Textarea } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Provider } from '../../../shared/api/shortcodes.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { updateProviderAccess } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { PROVIDERS_KEY } from './use-shortcodes';

interface ShortcodeProviderAccessDialogProps {
  provider: Provider | null;
  onClose: () => void;
}

/** 'Provider access': the legacy flag (the URL without the key) and the allowed source addresses, one a line. */
export function ShortcodeProviderAccessDialog({ provider, onClose }: ShortcodeProviderAccessDialogProps) {
  return (
    <Modal opened={provider !== null} onClose={onClose} title={provider ? `Access: ${provider.providerName}` : ''} centered size="lg">
      {provider && <AccessForm key={provider.uuid} provider={provider} onClose={onClose} />}
    </Modal>
  );
}

function AccessForm({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [acceptsUnauthenticated, setAcceptsUnauthenticated] = useState(provider.acceptsUnauthenticated);
  const [sources, setSources] = useState(provider.allowedSources.join('\n'));
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    const allowedSources = sources
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const reply = await call(updateProviderAccess, { params: { uuid: provider.uuid }, body: { acceptsUnauthenticated, allowedSources } });
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'The access settings could not be saved.'));
      return;
    }
    showToast({ color: 'teal', title: 'Access saved', message: `${provider.providerName}'s access settings were saved.` });
    await queryClient.invalidateQueries({ queryKey: PROVIDERS_KEY });
    onClose();
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Provider access">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <Text size="sm">
          The aggregator proves its traffic with the key at the end of the Provider Url (or in an X-Dialflow-Key header), or by sending from
          an allowed address. Anything else is refused before a session starts.
        </Text>
        <Textarea
          label="Allowed source addresses"
          description="Optional. One address or range a line (197.255.0.0/16, 2c0f:fe38::/32). When set, traffic from any other address is refused, with or without the key; traffic from these needs no key."
          placeholder="197.255.0.0/16"
          autosize
          minRows={3}
          maxRows={8}
          value={sources}
          onChange={(e) => setSources(e.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          name="allowedSources"
        />
        <Switch
          color="orange"
          label="Accept unauthenticated traffic (legacy)"
          description="Serves the Provider Url without its key, as before keys existed. Anyone who knows the Provider Id can then start sessions on its shortcodes' apps. Turn it off once the aggregator has the Url with the key."
          checked={acceptsUnauthenticated}
          onChange={(e) => setAcceptsUnauthenticated(e.currentTarget.checked)}
          name="acceptsUnauthenticated"
        />
        <DialogActions submitLabel="Save access" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
