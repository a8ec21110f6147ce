import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconDeviceFloppy, IconTestPipe } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { recordTestCase } from '../../../shared/api/test-cases.calls';
import type { TestCase } from '../../../shared/api/test-cases.schema';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { testsPath } from '../../lib/paths';

/**
 * Save as test case: the emulator's last session (its dial, replies, screens and the actions' replies, secrets
 * blanked) becomes one of the app's test cases (docs/testing-apps.md). The server reads only the signed-in builder's
 * own runs, so it is offered on their own app, never on a template tried.
 */
export function SaveTestCaseButton({ appId, sessionId }: { appId: string; sessionId: string }) {
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [saved, setSaved] = useState<TestCase | null>(null);

  function open() {
    setName('');
    setError(null);
    setSaved(null);
    setOpen(true);
  }

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Give the test case a name.');
    setSaving(true);
    const reply = await call(recordTestCase, { params: { appId }, body: { sessionId, name: name.trim() } });
    setSaving(false);
    if (isOk(reply) && reply.data) setSaved(reply.data);
    else setError(failureText(reply, 'The session could not be saved as a test case.'));
  }

  return (
    <>
      <Button variant="light" size="xs" leftSection={<IconDeviceFloppy size={14} />} onClick={open} data-testid="save-test-case">
        Save as test case
      </Button>
      <Modal opened={isOpen} onClose={() => setOpen(false)} title="Save as test case" centered>
        {saved ? (
          <Stack gap="md">
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} />} title="Test case saved">
              “{saved.name}”: {saved.steps.length} step{saved.steps.length === 1 ? '' : 's'}. Run it from the Tests screen after each
              change.
            </Alert>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setOpen(false)}>
                Keep testing
              </Button>
              <Button component={Link} to={testsPath(appId)} leftSection={<IconTestPipe size={16} />}>
                Open Tests
              </Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={(event) => void save(event)} noValidate>
            <Stack gap="md">
              <Text size="sm" c="gray.7">
                The dial, each reply and the screen that followed become the case's steps; the actions' replies are kept with it (passwords,
                tokens and keys blanked).
              </Text>
              <TextInput
                label="Test case name"
                placeholder="Buy airtime for another number"
                value={name}
                onChange={(event) => {
                  setName(event.currentTarget.value);
                  setError(null);
                }}
                error={error}
                maxLength={100}
                required
                data-autofocus
              />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" loading={isSaving}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
