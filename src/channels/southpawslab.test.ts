import { describe, expect, it } from 'vitest';
import { detectGateway, southpawslab } from './index';
import { jsonRequest } from './test-requests';

// Southpawslab publishes no documentation we could find; the shape is docs/gateway-formats.md's: request sessionId, msisdn,
// menuId, ussdString, inputOption, network, ussdParameters; new session when inputOption == ussdString; reply
// {message, state: "CONTINUE" | "END", menuId, ussdString, option, ussdParameter}.
const start = {
  sessionId: 's9',
  msisdn: '233200000000',
  menuId: 'main',
  ussdString: '*365*1#',
  inputOption: '*365*1#',
  network: 'MTN',
  ussdParameters: { lang: 'en' },
};

describe('southpawslab', () => {
  it('reads a new session: inputOption equals ussdString', () => {
    expect(southpawslab.parseRequest(jsonRequest(start))).toEqual({
      gateway: 'southpawslab',
      sessionId: 's9',
      msisdn: '233200000000',
      network: 'MTN',
      serviceCode: '*365*1#',
      input: '',
      kind: 'start',
      dialString: '*365*1#',
      raw: { menuId: 'main', ussdString: '*365*1#', inputOption: '*365*1#', ussdParameters: { lang: 'en' } },
    });
  });

  it('reads a continuing hop: inputOption is the new input', () => {
    expect(southpawslab.parseRequest(jsonRequest({ ...start, inputOption: '2' }))).toMatchObject({
      kind: 'continue',
      input: '2',
      serviceCode: '',
    });
  });

  it('formats the reply echoing menuId, ussdString, option and ussdParameter', () => {
    const hop = southpawslab.parseRequest(jsonRequest({ ...start, inputOption: '2' }));
    expect(JSON.parse(southpawslab.formatReply({ text: 'Pick one', end: false }, hop).body)).toEqual({
      message: 'Pick one',
      state: 'CONTINUE',
      menuId: 'main',
      ussdString: '*365*1#',
      option: '2',
      ussdParameter: { lang: 'en' },
    });
    expect(JSON.parse(southpawslab.formatReply({ text: 'Bye', end: true }, hop).body).state).toBe('END');
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(start)).name).toBe('southpawslab');
    expect(detectGateway({ method: 'GET', query: { ...start, ussdParameters: 'x' }, body: '', contentType: '' }).name).toBe('southpawslab');
    expect(detectGateway(jsonRequest(start), 'southpawslab').name).toBe('southpawslab');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => southpawslab.parseRequest(jsonRequest({ ...start, inputOption: undefined }))).toThrow(
      'Southpawslab request: missing field "inputOption"',
    );
    expect(() => southpawslab.parseRequest(jsonRequest({ ...start, ussdParameters: { big: 'x'.repeat(20_000) } }))).toThrow(
      /"ussdParameters" is too large/,
    );
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => southpawslab.parseRequest(jsonRequest({ ...start, ussdParameters: deep }))).toThrow(
      /"ussdParameters" is nested too deeply/,
    );
  });
});
