import { Button, type ButtonProps, Code, FileInput, List, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { APP_IMPORT_MAX_BYTES, APP_TRANSFER_MESSAGES, type ImportProblem } from '../../../shared/api/app-transfer.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { importApp } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';
import { AppNameInput, bindText } from './app-detail-fields';

interface AppImportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Where to go once the app is made (the app list from the getting-started page); else stay. */
  thenGoTo?: string;
}

/** The 'Import app' button and its dialog, on the app list and the getting-started page. */
export function AppImportButton({ thenGoTo, size }: { thenGoTo?: string; size?: ButtonProps['size'] }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" size={size} leftSection={<IconUpload size={18} />} onClick={() => setOpened(true)}>
        Import app
      </Button>
      <AppImportDialog opened={opened} onClose={() => setOpened(false)} thenGoTo={thenGoTo} />
    </>
  );
}

/** The file's own name and shortcode, shown as the fields' starting values; absent when the file is not an export. */
function readSettings(document: unknown): { appName: string; shortCode: string } | null {
  if (typeof document !== 'object' || document === null) return null;
  const app = (document as { app?: { appName?: unknown; shortCode?: unknown } }).app;
  return {
    appName: typeof app?.appName === 'string' ? app.appName : '',
    shortCode: typeof app?.shortCode === 'string' ? app.shortCode : '',
  };
}

const isProblemList = (value: unknown): value is ImportProblem[] =>
  Array.isArray(value) && value.every((p) => typeof p?.field === 'string' && typeof p?.message === 'string');

/**
 * 'Import app' on the app list: a `.dialflow.json` file (an export), the new app's name and shortcode (the
 * file's to start with). The server checks the whole file; a refusal lists every problem with where it is.
 */
export function AppImportDialog({ opened, onClose, thenGoTo }: AppImportDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Import app" size="lg" centered>
      {opened && <ImportForm onClose={onClose} thenGoTo={thenGoTo} />}
    </Modal>
  );
}

function ImportForm({ onClose, thenGoTo }: Omit<AppImportDialogProps, 'opened'>) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [document, setDocument] = useState<unknown>(undefined);
  const [appName, setAppName] = useState('');
  const [shortCode, setShortCode] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [problems, setProblems] = useState<ImportProblem[]>([]);
  const [isSubmitting, setSubmitting] = useState(false);

  /** The alert says `text`; the list shows the problems, unless its one problem is what the alert already says. */
  function showRefusal(text: string, list: ImportProblem[] = []) {
    setMessage(text);
    setProblems(list.length === 1 && list[0]!.message === text ? [] : list);
  }

  async function handleFile(chosen: File | null) {
    setFile(chosen);
    setDocument(undefined);
    showRefusal('');
    if (!chosen) return;
    if (chosen.size > APP_IMPORT_MAX_BYTES) return showRefusal(APP_TRANSFER_MESSAGES.tooLarge);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await chosen.text());
    } catch {
      return showRefusal(`${chosen.name} is not a JSON file: choose a file exported from Dialflow (.dialflow.json).`);
    }
    setDocument(parsed);
    const settings = readSettings(parsed);
    if (settings) {
      setAppName(settings.appName);
      setShortCode(settings.shortCode);
    }
  }

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (document === undefined) return showRefusal('Choose a file to import.');
    setSubmitting(true);
    const reply = await call(importApp, { body: { document, appName: appName.trim(), shortCode: shortCode.trim() } });
    setSubmitting(false);
    if (!isOk(reply) || !reply.data) {
      return showRefusal(failureText(reply, 'The app could not be imported.'), isProblemList(reply.errors) ? reply.errors : []);
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
    const warnings = isProblemList(reply.warnings) ? reply.warnings.length : 0;
    showToast({
      color: 'teal',
      title: 'App imported',
      message: `${reply.data.appName} was added to your apps${
        warnings ? ` with ${warnings} warning${warnings === 1 ? '' : 's'} to look at in the designer before deploying` : ''
      }.`,
    });
    onClose();
    if (thenGoTo) navigate(thenGoTo);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Import app">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Choose a file exported from Dialflow. It becomes a new app in your account with all its menus; passwords and other secrets are
          never in the file, so enter them again in the designer.
        </Text>
        <FileInput
          label="App file"
          placeholder="app-name.dialflow.json"
          accept="application/json,.json"
          withAsterisk
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the file' }}
          leftSection={<IconFileImport size={18} />}
          value={file}
          onChange={(chosen) => void handleFile(chosen)}
          name="file"
          data-autofocus
        />
        <AppNameInput
          description="The file's name for the app, unless you change it."
          withAsterisk={false}
          {...bindText(appName, setAppName)}
        />
        <TextInput
          label="Shortcode"
          description="Must differ from your other apps' shortcodes, e.g. *920*35#."
          maxLength={100}
          {...bindText(shortCode, setShortCode)}
          name="shortCode"
        />
        <FormAlert message={message} onClose={() => showRefusal('')} title={problems.length ? 'Not imported' : undefined} />
        {problems.length > 0 && (
          <ScrollArea.Autosize mah={220} type="auto" offsetScrollbars>
            <List size="sm" spacing={6} aria-label="Problems in the file" data-testid="import-problems">
              {problems.map((problem) => (
                <List.Item key={`${problem.field} ${problem.message}`}>
                  {problem.field && (
                    <>
                      <Code fz="xs">{problem.field}</Code>
                      {': '}
                    </>
                  )}
                  {problem.message}
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
        )}
        <DialogActions submitLabel="Import" onCancel={onClose} isSubmitting={isSubmitting} isDisabled={document === undefined} mt="xs" />
      </Stack>
    </form>
  );
}
