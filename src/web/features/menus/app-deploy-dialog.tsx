import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { VERSION_NAME_MAX, VERSION_NOTE_MAX } from '../../../shared/api/menus.schema';

/** What a deploy is given: both optional, blank is none (docs/versions.md). */
export interface DeployNaming {
  name: string;
  note: string;
}

interface AppDeployDialogProps {
  opened: boolean;
  /** The number the deploy will get, when the versions are known. */
  nextVersion: number | null;
  onClose: () => void;
  onDeploy: (naming: DeployNaming) => void;
}

/**
 * Deploy's dialog: a name ("Easter promo") and a note on what changed, both optional, so the versions list reads
 * as a history. Deploy closes it at once; the header's button shows the deploy running and its toast the outcome.
 */
export function AppDeployDialog({ opened, nextVersion, onClose, onDeploy }: AppDeployDialogProps) {
  const [naming, setNaming] = useState<DeployNaming>({ name: '', note: '' });
  const submit = () => {
    onDeploy({ name: naming.name.trim(), note: naming.note.trim() });
    setNaming({ name: '', note: '' });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={nextVersion ? `Deploy version ${nextVersion}` : 'Deploy'} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The draft goes live as a new version. Name it and say what changed, so the versions list reads as a history.
          </Text>
          <TextInput
            label="Name"
            description="Optional, e.g. Easter promo"
            maxLength={VERSION_NAME_MAX}
            value={naming.name}
            onChange={(e) => setNaming({ ...naming, name: e.currentTarget.value })}
            data-autofocus
          />
          <Textarea
            label="Note"
            description={`Optional: what changed and why (at most ${VERSION_NOTE_MAX} characters)`}
            maxLength={VERSION_NOTE_MAX}
            autosize
            minRows={2}
            maxRows={6}
            value={naming.note}
            onChange={(e) => setNaming({ ...naming, note: e.currentTarget.value })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" data-testid="deploy-confirm">
              Deploy
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
