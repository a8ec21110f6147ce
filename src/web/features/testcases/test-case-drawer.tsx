import { ActionIcon, Alert, Button, Code, Drawer, Group, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { MAX_TEST_STEPS, TEST_WILDCARD, type TestCase } from '../../../shared/api/test-cases.schema';
import { failureText, isOk } from '../../lib/api';
import { confirmDiscard } from '../../lib/confirm-discard';
import { showToast } from '../../lib/toast';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import {
  moveItem,
  newKey,
  toBody,
  toFormErrors,
  toFormValues,
  type FormErrors,
  type StepValues,
  type StubValues,
  type TestCaseFormValues,
} from './test-case-form-state';
import { removeTestCase, testCasesKey, useSaveTestCase } from './use-test-cases';

const MONO = { input: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } };

interface TestCaseDrawerProps {
  appId: string;
  /** The case to change; none: a new one. */
  testCase: TestCase | undefined;
  isOpen: boolean;
  onClose: () => void;
  /** A case was saved or deleted (its last result is stale). */
  onChanged: (caseId: string) => void;
}

/** Writes a new test case or changes one (its steps, its recorded replies), in a drawer over the Tests screen. */
export function TestCaseDrawer({ appId, testCase, isOpen, onClose, onChanged }: TestCaseDrawerProps) {
  // Whether the form holds changes not saved: closing it (Cancel, Escape, the cross, outside) asks first.
  const isDirty = useRef(false);
  const close = () => confirmDiscard(isDirty.current, onClose, 'Your changes to this test case are not saved. Discard them?');
  return (
    <Drawer
      opened={isOpen}
      onClose={close}
      position="right"
      size="xl"
      title={
        <Title order={2} fz="lg">
          {testCase ? 'Edit test case' : 'New test case'}
        </Title>
      }
    >
      {isOpen && (
        <TestCaseForm
          key={testCase?.id ?? 'new'}
          appId={appId}
          testCase={testCase}
          isDirty={isDirty}
          onCancel={close}
          onClose={onClose}
          onChanged={onChanged}
        />
      )}
    </Drawer>
  );
}

interface TestCaseFormProps extends Omit<TestCaseDrawerProps, 'isOpen'> {
  isDirty: RefObject<boolean>;
  /** Cancel: closes, asking first when there are changes. */
  onCancel: () => void;
}

function TestCaseForm({ appId, testCase, isDirty, onCancel, onClose, onChanged }: TestCaseFormProps) {
  const [values, setValues] = useState<TestCaseFormValues>(() => toFormValues(testCase));
  const [initial] = useState(values);
  useEffect(() => {
    isDirty.current = values !== initial;
    return () => {
      isDirty.current = false;
    };
  }, [values, initial, isDirty]);
  const [errors, setErrors] = useState<FormErrors>({});
  const save = useSaveTestCase(appId);
  const confirm = useConfirmedCall(testCasesKey(appId));

  /** A field changed: its value, and its error gone (it may be right now; Save checks again). */
  const set = (patch: Partial<TestCaseFormValues>, path: string = Object.keys(patch)[0]!) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors(({ [path]: _changed, form: _form, ...rest }) => rest);
  };
  const setStep = (index: number, patch: Partial<StepValues>) =>
    set({ steps: values.steps.map((step, i) => (i === index ? { ...step, ...patch } : step)) }, `steps.${index}.${Object.keys(patch)[0]}`);
  const setStub = (index: number, patch: Partial<StubValues>) =>
    set({ stubs: values.stubs.map((stub, i) => (i === index ? { ...stub, ...patch } : stub)) }, `stubs.${index}.${Object.keys(patch)[0]}`);
  // Moving or removing a step moves its errors' places: they are dropped rather than shown on the wrong one.
  const setSteps = (steps: StepValues[]) => {
    set({ steps });
    setErrors({});
  };

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = toBody(values);
    if ('errors' in checked) return setErrors(checked.errors);
    setErrors({});
    const reply = await save.mutateAsync({ caseId: testCase?.id, body: checked.body });
    if (isOk(reply) && reply.data) {
      showToast({ color: 'teal', title: 'Test case saved', message: reply.data.name });
      onChanged(reply.data.id);
      onClose();
    } else setErrors(reply.status ? toFormErrors(reply, values) : { form: failureText(reply, 'The test case could not be saved.') });
  }

  function askDelete() {
    if (!testCase) return;
    confirm({
      title: `Delete ${testCase.name}`,
      question: `Delete the test case “${testCase.name}”? Its steps and recorded replies are gone for good.`,
      done: { title: 'Deleted', message: 'Test case deleted' },
      refused: { title: 'Not deleted', message: 'The test case could not be deleted.' },
      call: () => removeTestCase(appId, testCase.id),
      onDone: () => {
        onChanged(testCase.id);
        onClose();
      },
    });
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {errors.form && (
          <Alert color="red" variant="light" title="Not saved" role="alert">
            {errors.form}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={values.name}
          onChange={(event) => set({ name: event.currentTarget.value })}
          error={errors.name}
          maxLength={100}
          placeholder="Check balance"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Dial string"
            description="Empty: the app's own code. Or more, as a customer dials it: *920*12*50#"
            value={values.dialString}
            onChange={(event) => set({ dialString: event.currentTarget.value })}
            error={errors.dialString}
            styles={MONO}
          />
          <TextInput
            label="Caller's number"
            description="The msisdn the session sees"
            value={values.msisdn}
            onChange={(event) => set({ msisdn: event.currentTarget.value })}
            error={errors.msisdn}
            inputMode="tel"
            styles={MONO}
          />
        </SimpleGrid>

        <div>
          <Title order={3} fz="md">
            Steps
          </Title>
          <Text size="sm" c="gray.7" mt={4}>
            A step passes when the screen contains its expected text. Write <Code>{TEST_WILDCARD}</Code> where text varies (a date, an
            amount, a reference): it matches any text on its line.
          </Text>
          {errors.steps && (
            <Text size="sm" c="red.8" mt={4} role="alert">
              {errors.steps}
            </Text>
          )}
        </div>
        <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
          {values.steps.map((step, index) => (
            <Paper component="li" key={step.key} withBorder radius="md" p="sm" data-testid="step-form">
              <Group justify="space-between" mb="xs" wrap="nowrap">
                <Text fw={600} size="sm">
                  Step {index + 1}
                  {index === 0 ? ' · the dial' : ''}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="default"
                    aria-label={`Move step ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => setSteps(moveItem(values.steps, index, index - 1))}
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    aria-label={`Move step ${index + 1} down`}
                    disabled={index === values.steps.length - 1}
                    onClick={() => setSteps(moveItem(values.steps, index, index + 1))}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="default"
                    color="red"
                    aria-label={`Remove step ${index + 1}`}
                    disabled={values.steps.length === 1}
                    onClick={() => setSteps(values.steps.filter((_, i) => i !== index))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Group>
              <Stack gap="xs">
                {index > 0 && (
                  <TextInput
                    label="Reply typed"
                    aria-label={`Step ${index + 1}: reply typed`}
                    value={step.input}
                    onChange={(event) => setStep(index, { input: event.currentTarget.value })}
                    error={errors[`steps.${index}.input`]}
                    styles={MONO}
                  />
                )}
                <Textarea
                  label="Expected screen"
                  aria-label={`Step ${index + 1}: expected screen`}
                  description={index === 0 ? 'What the dial shows (or a part of it)' : undefined}
                  value={step.expect}
                  onChange={(event) => setStep(index, { expect: event.currentTarget.value })}
                  error={errors[`steps.${index}.expect`]}
                  autosize
                  minRows={3}
                  maxRows={12}
                  styles={MONO}
                />
              </Stack>
            </Paper>
          ))}
        </Stack>
        <div>
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            disabled={values.steps.length >= MAX_TEST_STEPS}
            onClick={() => setSteps([...values.steps, { key: newKey(), input: '', expect: '' }])}
          >
            Add a step
          </Button>
        </div>

        <div>
          <Title order={3} fz="md">
            Recorded replies
          </Title>
          <Text size="sm" c="gray.7" mt={4}>
            What each action answers in this case, as JSON: <Code>{'{"ok": true, "result": …}'}</Code> or{' '}
            <Code>{'{"ok": false, "error": "…"}'}</Code>. Scripts (JavaScript, custom actions) run for real unless they have one here; any
            other action (REST, database, SMS, payments) needs one, or the case fails.
          </Text>
        </div>
        {values.stubs.map((stub, index) => (
          <Paper key={stub.key} withBorder radius="md" p="sm" data-testid="stub-form">
            <Group align="flex-end" wrap="nowrap" gap="xs" mb="xs">
              <TextInput
                label="Action name"
                value={stub.actionName}
                onChange={(event) => setStub(index, { actionName: event.currentTarget.value })}
                error={errors[`stubs.${index}.actionName`]}
                styles={MONO}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={`Remove the reply of ${stub.actionName || 'this action'}`}
                onClick={() => {
                  set({ stubs: values.stubs.filter((_, i) => i !== index) });
                  setErrors({});
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <Textarea
              label={`Reply of ${stub.actionName || 'the action'} (JSON)`}
              value={stub.json}
              onChange={(event) => setStub(index, { json: event.currentTarget.value })}
              error={errors[`stubs.${index}.json`]}
              autosize
              minRows={3}
              maxRows={14}
              styles={MONO}
            />
          </Paper>
        ))}
        <div>
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={() =>
              set({ stubs: [...values.stubs, { key: newKey(), actionName: '', json: '{\n  "ok": true,\n  "result": {}\n}' }] })
            }
          >
            Add a recorded reply
          </Button>
        </div>

        <Group justify="space-between" mt="md">
          {testCase ? (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={askDelete}>
              Delete
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save test case
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
