import { describe, expect, it } from 'vitest';
import { moveItem, parseStub, STUB_SHAPE_MESSAGE, toBody, toFormErrors, toFormValues } from './test-case-form-state';

const recorded = {
  name: 'Balance',
  dialString: '*920*1#',
  msisdn: '233241234567',
  steps: [
    { input: '', expect: 'Welcome' },
    { input: '1', expect: 'Balance GHS {*}' },
  ],
  stubs: { getBalance: { ok: true as const, result: { amount: 20 } } },
};

describe('the test case form', () => {
  it('gives back the case it was made from', () => {
    const body = toBody(toFormValues(recorded));
    expect(body).toEqual({ body: recorded });
  });

  it('moves a step up or down, and leaves the list alone past its ends', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });

  it('names what is wrong with a recorded reply', () => {
    expect(parseStub('{"ok": true, "result": 1}')).toEqual({ stub: { ok: true, result: 1 } });
    expect(parseStub('{ok: true}')).toMatchObject({ error: expect.stringMatching(/^Not valid JSON: /) as unknown });
    expect(parseStub('{"ok": "yes"}')).toEqual({ error: STUB_SHAPE_MESSAGE });
    expect(parseStub(JSON.stringify({ ok: true, result: 'x'.repeat(17_000) }))).toEqual({
      error: 'A recorded reply is at most 16 KB of JSON.',
    });
  });

  it('refuses a reply without an action name or for an action named twice', () => {
    const values = toFormValues(recorded);
    values.stubs.push({ key: 'a', actionName: 'getBalance', json: '{"ok": false, "error": "down"}' });
    values.stubs.push({ key: 'b', actionName: ' ', json: 'nope' });
    expect(toBody(values)).toEqual({
      errors: {
        'stubs.1.actionName': 'getBalance already has a recorded reply.',
        'stubs.2.actionName': 'Name the action this reply is for.',
        'stubs.2.json': expect.stringMatching(/^Not valid JSON/) as unknown,
      },
    });
  });

  it("puts the server's field errors on the form's fields, the rest on the form", () => {
    const values = toFormValues(recorded);
    const reply = {
      message: 'Give the test case a name',
      errors: [
        { field: 'name', message: 'Give the test case a name (at most 100 characters).' },
        { field: 'steps.1.expect', message: 'Too long' },
        { field: 'stubs.getBalance', message: 'A recorded reply is at most 16 KB of JSON.' },
      ],
    };
    expect(toFormErrors(reply, values)).toEqual({
      name: 'Give the test case a name (at most 100 characters).',
      'steps.1.expect': 'Too long',
      'stubs.0.json': 'A recorded reply is at most 16 KB of JSON.',
    });
    expect(toFormErrors({ message: 'An app keeps at most 500 test cases; delete some first.' }, values)).toEqual({
      form: 'An app keeps at most 500 test cases; delete some first.',
    });
  });
});
