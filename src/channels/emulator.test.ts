import { describe, expect, it } from 'vitest';
import { detectGateway, emulator, type GatewayRequest } from './index';

const json = (body: unknown): GatewayRequest => ({ method: 'POST', query: {}, body, contentType: 'application/json' });

// /work/shared/spec/000_aa2a948d07465874.txt: "Emulator request: session_id, userdata, msisdn, session_mode,
// network_id, appId. Emulator response: text, session_mode". "Dialing starts with session_mode 'start' and a
// session id equal to the current time formatted yyyyMMddHHmmss. Each reply is sent with mode 'continue'. A
// response type 'end' ends the session." Default network 'MTN', a Ghana-format msisdn.
const dial = { session_id: '20240131100000', userdata: '*920*1#', msisdn: '0244000000', session_mode: 'start', network_id: 'MTN', appId: 'app-1' };

describe('emulator', () => {
  it('reads the dial as a new session: userdata is the number on the dial pad', () => {
    expect(emulator.parseRequest(json(dial))).toEqual({
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
    expect(emulator.parseRequest(json({ ...dial, session_mode: 'continue', userdata: '2' }))).toMatchObject({ kind: 'continue', input: '2', serviceCode: '' });
    expect(emulator.parseRequest(json({ ...dial, session_mode: 'END', userdata: '' })).kind).toBe('end');
  });

  it('formats the reply as text and session_mode', () => {
    const hop = emulator.parseRequest(json(dial));
    expect(emulator.formatReply({ text: 'Welcome\n1. Balance', end: false }, hop)).toEqual({
      contentType: 'application/json; charset=utf-8',
      body: '{"text":"Welcome\\n1. Balance","session_mode":"continue"}',
    });
    expect(JSON.parse(emulator.formatReply({ text: 'Goodbye', end: true }, hop).body)).toEqual({ text: 'Goodbye', session_mode: 'end' });
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(json(dial)).name).toBe('emulator');
    expect(detectGateway(json({}), 'emulator').name).toBe('emulator');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => emulator.parseRequest(json({ ...dial, session_mode: 'restart' }))).toThrow(
      'Emulator request: field "session_mode" is "restart"; expected start, continue or end',
    );
    expect(() => emulator.parseRequest(json({ ...dial, session_id: 42 }))).not.toThrow();
    expect(() => emulator.parseRequest(json({ ...dial, session_id: false }))).toThrow(/"session_id" must be text, got a boolean/);
    expect(() => emulator.parseRequest(json({}))).toThrow(/carries no fields/);
  });
});
