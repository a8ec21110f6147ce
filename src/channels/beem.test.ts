import { describe, expect, it } from 'vitest';
import { beem, detectGateway } from './index';
import { jsonRequest } from './test-requests';

// Beem's own USSD hub page was not found; the shape is docs/gateway-formats.md's (command initiate/continue/terminate, msisdn,
// session_id, operator, payload {request_id, response}; reply {msisdn, operator, session_id, command,
// payload {request_id, request}}), and these payloads are the ones public integrations quote from the hub:
//   { "command": "initiate", "msisdn": "255692189307", "session_id": "689970", "operator": "tigotz",
//     "payload": { "request_id": 1, "response": 0 } }
//   { "command": "continue", "msisdn": "255762089337", "session_id": "4574", "operator": "vodacom",
//     "payload": { "request_id": 0, "response": "1" } }
const initiate = {
  command: 'initiate',
  msisdn: '255692189307',
  session_id: '689970',
  operator: 'tigotz',
  payload: { request_id: 1, response: 0 },
};
const cont = {
  command: 'continue',
  msisdn: '255762089337',
  session_id: '4574',
  operator: 'vodacom',
  payload: { request_id: 0, response: '1' },
};

describe('beem', () => {
  it('reads initiate as a new session (payload.response ignored)', () => {
    expect(beem.parseRequest(jsonRequest(initiate))).toEqual({
      gateway: 'beem',
      sessionId: '689970',
      msisdn: '255692189307',
      network: 'tigotz',
      serviceCode: '',
      input: '',
      kind: 'start',
      raw: { request_id: 1 },
    });
  });

  it('reads continue with payload.response as the input, number or text', () => {
    expect(beem.parseRequest(jsonRequest(cont))).toMatchObject({ kind: 'continue', input: '1', raw: { request_id: 0 } });
    expect(beem.parseRequest(jsonRequest({ ...cont, payload: { request_id: 'r7', response: 2 } }))).toMatchObject({
      input: '2',
      raw: { request_id: 'r7' },
    });
  });

  it('reads terminate as the end, even without a payload', () => {
    expect(beem.parseRequest(jsonRequest({ command: 'terminate', session_id: '4574' }))).toMatchObject({ kind: 'end', msisdn: '' });
    // terminate does not say who ended it: recorded as the gateway's end, and not the user's (resume may offer it back).
    const end = beem.parseRequest(jsonRequest({ command: 'terminate', session_id: '4574' }));
    expect(end.ending).toEqual({ cause: 'gateway_ended' });
    expect(end.isEndedByUser).toBeUndefined();
  });

  it('formats the reply echoing request_id', () => {
    const hop = beem.parseRequest(jsonRequest(cont));
    expect(JSON.parse(beem.formatReply({ text: 'Enter name', end: false }, hop).body)).toEqual({
      msisdn: '255762089337',
      operator: 'vodacom',
      session_id: '4574',
      command: 'continue',
      payload: { request_id: 0, request: 'Enter name' },
    });
    expect(JSON.parse(beem.formatReply({ text: 'Done', end: true }, hop).body).command).toBe('terminate');
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(cont)).name).toBe('beem');
    expect(detectGateway(jsonRequest(cont), ' BEEM ').name).toBe('beem');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => beem.parseRequest(jsonRequest({ ...cont, command: 'pause' }))).toThrow(
      'Beem request: field "command" is "pause"; expected initiate, continue or terminate',
    );
    expect(() => beem.parseRequest(jsonRequest({ ...cont, payload: [1] }))).toThrow(/"payload" must be an object, got a list/);
    expect(() => beem.parseRequest(jsonRequest({ ...cont, payload: undefined }))).toThrow(/missing field "payload"/);
    expect(() => beem.parseRequest(jsonRequest({ ...cont, payload: { request_id: 1, response: { x: 1 } } }))).toThrow(
      /"response" must be text, got an object/,
    );
  });
});
