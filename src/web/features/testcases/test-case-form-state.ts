/**
 * The test case form's values and the pure steps between them and the API's body (docs/testing-apps.md): steps
 * as a list the builder reorders, recorded replies as JSON text per action (checked here, so a typo is named by its
 * action before anything is sent), and the server's field errors put back on the fields they name.
 */
import { actionStubSchema, type TestCase, type TestCaseBody } from '../../../shared/api/test-cases.schema';

export interface StepValues {
  /** A stable key for React while steps move. */
  key: string;
  input: string;
  expect: string;
}

export interface StubValues {
  key: string;
  actionName: string;
  /** The recorded reply as the builder edits it: JSON text. */
  json: string;
}

export interface TestCaseFormValues {
  name: string;
  dialString: string;
  msisdn: string;
  steps: StepValues[];
  stubs: StubValues[];
}

/** Errors by form path: `name`, `steps.0.expect`, `stubs.1.json`... */
export type FormErrors = Record<string, string>;

let keys = 0;
export const newKey = () => `k${++keys}`;

export const STUB_SHAPE_MESSAGE = 'A recorded reply is {"ok": true, "result": …} or {"ok": false, "error": "why"}.';

export function toFormValues(testCase?: Pick<TestCase, 'name' | 'dialString' | 'msisdn' | 'steps' | 'stubs'>): TestCaseFormValues {
  if (!testCase) return { name: '', dialString: '', msisdn: '233200000000', steps: [{ key: newKey(), input: '', expect: '' }], stubs: [] };
  return {
    name: testCase.name,
    dialString: testCase.dialString,
    msisdn: testCase.msisdn,
    steps: testCase.steps.map((step) => ({ key: newKey(), ...step })),
    stubs: Object.entries(testCase.stubs).map(([actionName, stub]) => ({ key: newKey(), actionName, json: JSON.stringify(stub, null, 2) })),
  };
}

/** Moves one item of a list to another place (a step up or down); out of range, the list as it was. */
export function moveItem<T>(items: T[], from: number, to: number): T[] {
  if (from < 0 || to < 0 || from >= items.length || to >= items.length || from === to) return items;
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** One recorded reply's JSON checked: the reply, or what is wrong with it in words. */
export function parseStub(json: string): { stub: TestCaseBody['stubs'][string] } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  const parsed = actionStubSchema.safeParse(value);
  if (parsed.success) return { stub: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: issue?.code === 'custom' ? issue.message : STUB_SHAPE_MESSAGE };
}

/** The API's body from the form, or the errors of the recorded replies (the rest the server checks). */
export function toBody(values: TestCaseFormValues): { body: TestCaseBody } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const stubs: TestCaseBody['stubs'] = {};
  values.stubs.forEach((entry, index) => {
    const name = entry.actionName.trim();
    if (!name) errors[`stubs.${index}.actionName`] = 'Name the action this reply is for.';
    else if (name in stubs) errors[`stubs.${index}.actionName`] = `${name} already has a recorded reply.`;
    const parsed = parseStub(entry.json);
    if ('error' in parsed) errors[`stubs.${index}.json`] = parsed.error;
    else if (name) stubs[name] = parsed.stub;
  });
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      name: values.name,
      dialString: values.dialString.trim(),
      msisdn: values.msisdn.trim() || '233200000000',
      steps: values.steps.map(({ input, expect }) => ({ input, expect })),
      stubs,
    },
  };
}

/**
 * The server's validation errors (`errors: [{ field, message }]`, fields as `steps.0.expect` or `stubs.pay`) on the
 * form's paths; one without a field (or a field the form has not) goes under `form`.
 */
export function toFormErrors(reply: { message?: string; errors?: unknown; field?: unknown }, values: TestCaseFormValues): FormErrors {
  const list = Array.isArray(reply.errors) ? (reply.errors as { field?: unknown; message?: unknown }[]) : [];
  const errors: FormErrors = {};
  for (const item of list) {
    const field = typeof item.field === 'string' ? item.field : '';
    const message = typeof item.message === 'string' ? item.message : 'Not accepted';
    const path = toFormPath(field, values);
    if (!errors[path]) errors[path] = message;
  }
  if (Object.keys(errors).length === 0) errors.form = reply.message || 'The test case could not be saved.';
  return errors;
}

function toFormPath(field: string, values: TestCaseFormValues): string {
  const [head, second, third] = field.split('.');
  if (head === 'name' || head === 'dialString' || head === 'msisdn') return head;
  if (head === 'steps' && second !== undefined && /^\d+$/.test(second)) return `steps.${second}.${third === 'input' ? 'input' : 'expect'}`;
  if (head === 'steps') return 'steps';
  if (head === 'stubs' && second) {
    const index = values.stubs.findIndex((entry) => entry.actionName.trim() === second);
    if (index !== -1) return `stubs.${index}.json`;
  }
  return 'form';
}
