import { describe, expect, it } from 'vitest';
import { detectGateway, emulator } from './index';
import { jsonRequest } from './test-requests';

// The emulator's request is session_id, userdata, msisdn, session_mode, network_id, appId; its response text and
// session_mode. Dialling starts with session_mode 'start' and a time-based session id; each reply is sent with
// 'continue'; a response mode 'end' ends the session. Default network 'MTN', a Ghana-format msisdn.
const dial = {
  session_id: '20240131100000',
  userdata: '*920*1#',
  msisdn: '0244000000',
  session_mode: 'start',
  network_id: 'MTN',
  appId: 'app-1',
};

describe('emulator', () => {
  it('reads the dial as a new session: userdata is the number on the dial pad', () => {
    expect(emulator.parseRequest(jsonRequest(dial))).toEqual({
      gateway: 'emulator',
      sessionId: '20240131100000',
      msisdn: '0244000000',
      network: 'MTN',
      serviceCode: '*920*1#',
      input: '',
      kind: 'start',
      dialString: '*920*1#',
      raw: { appId: 'app-1' },
    });
  });

  it("reads 'continue' as the typed reply and 'end' as the end", () => {
    expect(emulator.parseRequest(jsonRequest({ ...dial, session_mode: 'continue', userdata: '2' }))).toMatchObject({
      kind: 'continue',
      input: '2',
      serviceCode: '',
    });
    expect(emulator.parseRequest(jsonRequest({ ...dial, session_mode: 'END', userdata: '' })).kind).toBe('end');
  });

  it("reads its end (the console's Cancel) as the user's, without barring resume on redial", () => {
    const end = emulator.parseRequest(jsonRequest({ ...dial, session_mode: 'end', userdata: '' }));
    expect(end.ending).toEqual({ cause: 'user_cancelled' });
    expect(end.isEndedByUser).toBeUndefined();
    expect(emulator.parseRequest(jsonRequest(dial)).ending).toBeUndefined();
  });

  it('formats the reply as text and session_mode', () => {
    const hop = emulator.parseRequest(jsonRequest(dial));
    expect(emulator.formatReply({ text: 'Welcome\n1. Balance', end: false }, hop)).toEqual({
      contentType: 'application/json; charset=utf-8',
      body: '{"text":"Welcome\\n1. Balance","session_mode":"continue"}',
    });
    expect(JSON.parse(emulator.formatReply({ text: 'Goodbye', end: true }, hop).body)).toEqual({ text: 'Goodbye', session_mode: 'end' });
  });

  it("adds the menu's input holder to a screen that waits for input, never to an end", () => {
    const hop = emulator.parseRequest(jsonRequest(dial));
    expect(JSON.parse(emulator.formatReply({ text: 'Your name?', end: false, inputHolder: 'e.g. Ama' }, hop).body)).toEqual({
      text: 'Your name?',
      session_mode: 'continue',
      inputHolder: 'e.g. Ama',
    });
    expect(JSON.parse(emulator.formatReply({ text: 'Bye', end: true, inputHolder: 'e.g. Ama' }, hop).body)).toEqual({
      text: 'Bye',
      session_mode: 'end',
    });
    expect(JSON.parse(emulator.formatReply({ text: 'Menu', end: false, inputHolder: '' }, hop).body)).toEqual({
      text: 'Menu',
      session_mode: 'continue',
    });
  });

  it('stands in for the network: a code with no application behind it gets UNKNOWN APPLICATION', () => {
    expect(emulator.network).toEqual({ unknownCodeText: 'UNKNOWN APPLICATION' });
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(dial)).name).toBe('emulator');
    expect(detectGateway(jsonRequest({}), 'emulator').name).toBe('emulator');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => emulator.parseRequest(jsonRequest({ ...dial, session_mode: 'restart' }))).toThrow(
      'Emulator request: field "session_mode" is "restart"; expected start, continue or end',
    );
    expect(() => emulator.parseRequest(jsonRequest({ ...dial, session_id: 42 }))).not.toThrow();
    expect(() => emulator.parseRequest(jsonRequest({ ...dial, session_id: false }))).toThrow(/"session_id" must be text, got a boolean/);
    expect(() => emulator.parseRequest(jsonRequest({}))).toThrow(/carries no fields/);
  });
});
