import { describe, expect, it } from 'vitest';
import { detectGateway, nalo } from './index';
import { jsonRequest } from './test-requests';

// Nalo's "USSD API DOCUMENTATION" (https://documenter.gw.postman.com/api/collections/7705958/UyrEhaLQ), as quoted
// in the nunyakata SDK's docs/ussd_api_compliance.md:
//   Incoming: { "USERID": "NALOTest", "MSISDN": "233XXXXXXXXX", "USERDATA": "3", "MSGTYPE": false,
//               "NETWORK": "MTN", "SESSIONID": "16590115252429751" }
//   Outgoing: { "USERID": "NALOTest", "MSISDN": "233XXXXXXXXX", "MSG": "Welcome to your service...", "MSGTYPE": true }
const docRequest = {
  USERID: 'NALOTest',
  MSISDN: '233XXXXXXXXX',
  USERDATA: '3',
  MSGTYPE: false,
  NETWORK: 'MTN',
  SESSIONID: '16590115252429751',
};

describe('nalo', () => {
  it('reads the documented continuing request', () => {
    expect(nalo.parseRequest(jsonRequest(docRequest))).toEqual({
      gateway: 'nalo',
      sessionId: '16590115252429751',
      msisdn: '233XXXXXXXXX',
      network: 'MTN',
      serviceCode: '',
      input: '3',
      kind: 'continue',
      raw: { USERID: 'NALOTest' },
    });
  });

  it('reads MSGTYPE true as a new session whose USERDATA is the dialled string', () => {
    const hop = nalo.parseRequest(jsonRequest({ ...docRequest, USERDATA: '*920*7868#', MSGTYPE: true }));
    expect(hop).toMatchObject({ kind: 'start', input: '', serviceCode: '*920*7868#', dialString: '*920*7868#' });
  });

  it('formats the documented reply: MSGTYPE true continues, false ends', () => {
    const hop = nalo.parseRequest(jsonRequest(docRequest));
    expect(JSON.parse(nalo.formatReply({ text: 'Welcome to your service\nSelect an option:\n1. Option 1', end: false }, hop).body)).toEqual(
      {
        USERID: 'NALOTest',
        MSISDN: '233XXXXXXXXX',
        MSG: 'Welcome to your service\nSelect an option:\n1. Option 1',
        MSGTYPE: true,
      },
    );
    expect(JSON.parse(nalo.formatReply({ text: 'Bye', end: true }, hop).body).MSGTYPE).toBe(false);
  });

  it('accepts MSGTYPE as text, and numeric MSISDN', () => {
    expect(nalo.parseRequest(jsonRequest({ ...docRequest, MSGTYPE: 'true', USERDATA: '*920#' })).kind).toBe('start');
    expect(nalo.parseRequest(jsonRequest({ ...docRequest, MSISDN: 233244000000 })).msisdn).toBe('233244000000');
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(docRequest)).name).toBe('nalo');
    expect(detectGateway(jsonRequest({ anything: 1 }), 'nalo').name).toBe('nalo');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => nalo.parseRequest(jsonRequest({ ...docRequest, MSGTYPE: 'yes' }))).toThrow(
      'Nalo request: field "MSGTYPE" must be true or false, got "yes"',
    );
    expect(() => nalo.parseRequest(jsonRequest({ ...docRequest, MSGTYPE: undefined }))).toThrow(/missing field "MSGTYPE"/);
    expect(() => nalo.parseRequest(jsonRequest({ ...docRequest, SESSIONID: '' }))).toThrow(/field "SESSIONID" is empty/);
    expect(() => nalo.parseRequest(jsonRequest({ ...docRequest, USERID: undefined }))).toThrow(/missing field "USERID"/);
    expect(() => nalo.parseRequest(jsonRequest({ ...docRequest, USERDATA: [1, 2] }))).toThrow(/"USERDATA" must be text, got a list/);
  });
});
