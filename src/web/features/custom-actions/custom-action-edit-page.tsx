import { Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Tabs, Text, Textarea, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconCode, IconDeviceFloppy, IconFileDescription, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CUSTOM_ACTION_MESSAGES } from '../../../shared/api/custom-actions.schema';
import { isOk, replyMessage } from '../../lib/api';
import { JavascriptCodeEditor } from '../../components/javascript-code-editor';
import { CustomActionDetailsForm } from './custom-action-details-form';
import { CustomActionTerminalPanel } from './custom-action-terminal-panel';
import {
  createTerminalLine,
  DEFAULT_ACTION_RESULTS,
  DEFAULT_SESSION_VALUES,
  parseTestInputs,
  toTerminalLines,
  type TerminalLine,
} from './custom-action-test-run';
import { CUSTOM_ACTION_FALLBACKS, CUSTOM_ACTIONS_PATH, type CustomAction } from './custom-actions.api';
import { CUSTOM_ACTIONS_KEY, useCustomActionTemplates } from './use-custom-actions';
import { getCustomAction, testCustomAction, updateCustomActionCode } from '../../../shared/api/custom-actions.calls';
import { call, queryKey } from '../../lib/call';
import { useDefaultCode } from './use-default-code';
import { BackLink } from '../../components/back-link';
import { useLeaveGuard } from '../../lib/confirm-discard';

/** The function editor is taller than the menu form's script editors (docs/product.md: 400px). */
const FUNCTION_EDITOR_HEIGHT = '400px';

export const REPLACE_CODE_QUESTION = 'This will replace your current code. Are you sure you want to proceed?';
export const DISCARD_CODE_QUESTION = 'Your changes to this function are not saved. Discard them?';

/** The custom function editor (/custom-functions/{id}): code with a test bench, and the details. */
export function CustomActionEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: action, error } = useQuery({
    queryKey: queryKey(getCustomAction, { params: { uuid: id } }),
    queryFn: async (): Promise<CustomAction> => {
      const reply = await call(getCustomAction, { params: { uuid: id } });
      if (isOk(reply) && reply.data) return reply.data;
      throw new Error(replyMessage(reply, CUSTOM_ACTION_FALLBACKS.load));
    },
    retry: false,
    // The editor keeps its own copy of the code; a refetch on focus would only redraw the heading.
    refetchOnWindowFocus: false,
  });

  // A failure loading a custom action sends the user back to the list.
  useEffect(() => {
    if (!error) return;
    showToast({ id: 'custom-action-load-failed', color: 'red', title: CUSTOM_ACTION_FALLBACKS.load, message: error.message });
    void navigate(CUSTOM_ACTIONS_PATH, { replace: true });
  }, [error, navigate]);

  function updateCached(patch: Partial<CustomAction>) {
    queryClient.setQueryData<CustomAction>(queryKey(getCustomAction, { params: { uuid: id } }), (old) =>
      old ? { ...old, ...patch } : old,
    );
    void queryClient.invalidateQueries({ queryKey: CUSTOM_ACTIONS_KEY, exact: true });
  }

  return (
    <Stack gap="lg">
      <div>
        <BackLink to={CUSTOM_ACTIONS_PATH} label="Back to List" />
        <Title order={1} fz={{ base: 24, sm: 30 }} mt={6} style={{ overflowWrap: 'anywhere' }}>
          {action ? `Edit Custom Function - ${action.actionName}` : 'Create Custom Function'}
        </Title>
        {action?.description && (
          <Text c="dimmed" mt={4} lineClamp={2}>
            {action.description}
          </Text>
        )}
      </div>
      {action ? <EditorTabs key={action.uuid} action={action} onChange={updateCached} /> : <EditorSkeleton />}
    </Stack>
  );
}

function EditorSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the function" data-testid="custom-action-loading">
      <Skeleton height={36} width={220} />
      <Skeleton height={36} maw={360} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton height={150} radius="md" />
        <Skeleton height={150} radius="md" />
      </SimpleGrid>
      <Skeleton height={400} radius="md" />
    </Stack>
  );
}

interface EditorTabsProps {
  action: CustomAction;
  onChange: (patch: Partial<CustomAction>) => void;
}

function EditorTabs({ action, onChange }: EditorTabsProps) {
  const [code, setCode] = useState(action.code);
  const [savedCode, setSavedCode] = useState(action.code);
  const [sessionText, setSessionText] = useState(DEFAULT_SESSION_VALUES);
  const [resultsText, setResultsText] = useState(DEFAULT_ACTION_RESULTS);
  const [jsonErrors, setJsonErrors] = useState({ session: false, results: false });
  const [lines, setLines] = useState<TerminalLine[]>([]);
  const [isTerminalOpen, setTerminalOpen] = useState(true);
  const [isSaving, setSaving] = useState(false);
  const [isRunning, setRunning] = useState(false);
  const templates = useCustomActionTemplates();

  // An empty function gets the default code (the SDK by example) after a second.
  const isDefaultPending = useDefaultCode(code, setCode);

  function chooseTemplate(uuid: string | null) {
    const template = templates.data?.find((t) => t.uuid === uuid);
    if (!template) return;
    const apply = () => setCode(template.code);
    if (code.trim() === '' || code === template.code) {
      apply();
      return;
    }
    modals.openConfirmModal({
      title: `Use the ${template.actionName} template?`,
      centered: true,
      children: REPLACE_CODE_QUESTION,
      labels: { confirm: 'Replace code', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: apply,
    });
  }

  // Saving sends the code only; the test inputs are not part of the function.
  async function saveCode() {
    setSaving(true);
    const reply = await call(updateCustomActionCode, { body: { uuid: action.uuid, code } });
    setSaving(false);
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Code not saved', message: replyMessage(reply, CUSTOM_ACTION_FALLBACKS.updateCode) });
      return;
    }
    setSavedCode(code);
    onChange({ code });
    showToast({ color: 'teal', title: 'Saved', message: replyMessage(reply, 'Function code saved') });
  }

  async function runTest() {
    const parsed = parseTestInputs(sessionText, resultsText);
    if (!parsed.ok) {
      setJsonErrors({ session: parsed.isSessionBad, results: parsed.isResultsBad });
      showToast({ color: 'red', title: 'Test not run', message: CUSTOM_ACTION_MESSAGES.invalidJson });
      return;
    }
    setJsonErrors({ session: false, results: false });
    setTerminalOpen(true);
    setRunning(true);
    const reply = await call(testCustomAction, { body: { code, ...parsed.inputs } });
    setRunning(false);
    if (isOk(reply) && reply.data) {
      const runLines = toTerminalLines(reply.data);
      setLines((current) => [...current, ...runLines]);
      // The call worked, the function may not have (a SyntaxError, a throw, the time limit): say which.
      if (reply.data.error === null)
        showToast({ color: 'teal', title: 'Test', message: replyMessage(reply, 'Function ran'), autoClose: 2500 });
      else showToast({ color: 'red', title: 'Test failed', message: reply.data.error });
      return;
    }
    const message = replyMessage(reply, CUSTOM_ACTION_FALLBACKS.test);
    setLines((current) => [...current, createTerminalLine('error', message)]);
    showToast({ color: 'red', title: 'Test failed', message });
  }

  const isDirty = code !== savedCode;
  useLeaveGuard(isDirty, DISCARD_CODE_QUESTION);
  // The dropdown names a template only while the code is that template's: once edited, it is the user's own.
  const templateId = templates.data?.find((t) => t.code === code)?.uuid ?? null;
  const jsonErrorText = 'Not a valid JSON object';

  return (
    <Tabs defaultValue="editor" keepMounted={false}>
      <Tabs.List mb="lg">
        <Tabs.Tab value="editor" leftSection={<IconCode size={16} />}>
          Editor
        </Tabs.Tab>
        <Tabs.Tab value="details" leftSection={<IconFileDescription size={16} />}>
          Details
        </Tabs.Tab>
      </Tabs.List>

      <Tabs.Panel value="editor">
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" gap="sm">
            <Select
              label="Example template"
              placeholder={templates.isError ? 'Templates unavailable' : 'Select a template'}
              data={(templates.data ?? []).map((t) => ({ value: t.uuid, label: t.actionName }))}
              value={templateId}
              onChange={chooseTemplate}
              disabled={!templates.data}
              allowDeselect={false}
              w={{ base: '100%', xs: 320 }}
              comboboxProps={{ withinPortal: true }}
            />
            {isDirty && (
              <Badge variant="light" color="orange" data-testid="unsaved-badge">
                Unsaved changes
              </Badge>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Textarea
              label="Session values"
              description="JSON: mobile and the inputs typed at each menu (session.inputs)"
              rows={9}
              resize="vertical"
              value={sessionText}
              error={jsonErrors.session ? jsonErrorText : undefined}
              onChange={(e) => {
                setSessionText(e.currentTarget.value);
                setJsonErrors((old) => ({ ...old, session: false }));
              }}
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            />
            <Textarea
              label="Action results"
              description="JSON: earlier actions' results by name (actions.lookup)"
              rows={9}
              resize="vertical"
              value={resultsText}
              error={jsonErrors.results ? jsonErrorText : undefined}
              onChange={(e) => {
                setResultsText(e.currentTarget.value);
                setJsonErrors((old) => ({ ...old, results: false }));
              }}
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            />
          </SimpleGrid>
          <JavascriptCodeEditor
            label="Code"
            ariaLabel="Function code"
            description="The body of async function (session, input, actions, log). Press Ctrl+Space for suggestions."
            value={code}
            onChange={setCode}
            height={FUNCTION_EDITOR_HEIGHT}
            placeholder={isDefaultPending ? 'Loading the default code…' : '// Write your function here'}
            wrapLines
            testId="custom-action-code"
          />
          <Group gap="sm" justify="flex-end">
            <Button variant="default" leftSection={<IconPlayerPlay size={16} />} onClick={() => void runTest()} loading={isRunning}>
              Test Function
            </Button>
            <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => void saveCode()} loading={isSaving}>
              Save Function
            </Button>
          </Group>
          <CustomActionTerminalPanel
            lines={lines}
            isRunning={isRunning}
            isExpanded={isTerminalOpen}
            onToggle={() => setTerminalOpen((open) => !open)}
            onClear={() => setLines([])}
          />
        </Stack>
      </Tabs.Panel>

      <Tabs.Panel value="details">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <CustomActionDetailsForm action={action} onSaved={(details) => onChange(details)} />
        </Paper>
      </Tabs.Panel>
    </Tabs>
  );
}
