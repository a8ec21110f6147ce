import { describe, expect, it } from 'vitest';
import { detectGateway, mobiverse } from './index';
import { jsonRequest } from './test-requests';

// github.com/mobiverse-solutions/uzo-documentation, index.markdown, "The Uzo POST request body":
//   { "ussdString" : "*1234#", "msisdn" : "+233111111111", "ussdServiceOp" : "1", "sessionID" : "12341235123",
//     "network" : "06", "code":"*1234#", "country":"GH" }
// ussdServiceOp: 1 initiating, 18 continuing, 29 or greater terminating.
// "The Client App response body": { "message" : "Welcome\n1 Say hello\n2 Exit", "ussdServiceOp" : ... } with
// 2 continuing response, 17 final response.
const docRequest = {
  ussdString: '*1234#',
  msisdn: '+233111111111',
  ussdServiceOp: '1',
  sessionID: '12341235123',
  network: '06',
  code: '*1234#',
  country: 'GH',
};

describe('mobiverse', () => {
  it('reads the documented initiating request', () => {
    expect(mobiverse.parseRequest(jsonRequest(docRequest))).toEqual({
      gateway: 'mobiverse',
      sessionId: '12341235123',
      msisdn: '+233111111111',
      network: '06',
      serviceCode: '*1234#',
      input: '',
      kind: 'start',
      dialString: '*1234#',
      raw: { ussdServiceOp: 1, country: 'GH' },
    });
  });

  it('reads 18 as a continuing request and 29 or more as the end', () => {
    expect(mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: 18, ussdString: '1' }))).toMatchObject({
      kind: 'continue',
      input: '1',
    });
    expect(mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: '30', ussdString: '' }))).toMatchObject({
      kind: 'end',
      input: '',
    });
    expect(mobiverse.parseRequest(jsonRequest({ sessionID: 'x', ussdServiceOp: 29 })).kind).toBe('end');
    // An abort does not say who ended it; a continuing hop says nothing of an end.
    expect(mobiverse.parseRequest(jsonRequest({ sessionID: 'x', ussdServiceOp: 29 })).ending).toEqual({ cause: 'gateway_ended' });
    expect(mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: 18, ussdString: '1' })).ending).toBeUndefined();
  });

  it('formats the documented reply: 2 continues, 17 ends', () => {
    const hop = mobiverse.parseRequest(jsonRequest(docRequest));
    expect(JSON.parse(mobiverse.formatReply({ text: 'Welcome\n1 Say hello\n2 Exit', end: false }, hop).body)).toEqual({
      message: 'Welcome\n1 Say hello\n2 Exit',
      ussdServiceOp: 2,
    });
    expect(JSON.parse(mobiverse.formatReply({ text: 'Hello', end: true }, hop).body).ussdServiceOp).toBe(17);
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(docRequest)).name).toBe('mobiverse');
    expect(detectGateway(jsonRequest(docRequest), 'mobiverse').name).toBe('mobiverse');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: 2 }))).toThrow(
      'Mobiverse request: field "ussdServiceOp" is 2; expected 1 (begin), 18 (continue) or 29 and above (end)',
    );
    expect(() => mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: 'one' }))).toThrow(
      /"ussdServiceOp" must be a whole number, got "one"/,
    );
    expect(() => mobiverse.parseRequest(jsonRequest({ ...docRequest, ussdServiceOp: 1.5 }))).toThrow(
      /must be a whole number, got a number/,
    );
    expect(() => mobiverse.parseRequest(jsonRequest({ ...docRequest, sessionID: undefined }))).toThrow(/missing field "sessionID"/);
  });
});
