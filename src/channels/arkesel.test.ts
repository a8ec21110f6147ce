import { describe, expect, it } from 'vitest';
import { arkesel, detectGateway } from './index';
import { jsonRequest } from './test-requests';

// Arkesel's own documentation page was not found; the shape is docs/gateway-formats.md's (request sessionID, userID,
// newSession, msisdn, userData, network; reply {sessionID, userID, msisdn, message, continueSession}), and
// this sample is the one public integrations against Arkesel's sandbox send:
//   { "sessionID": "test-session-001", "userID": "user-123", "msisdn": "+233241234567", "newSession": true, "userData": "*920*24#" }
const start = { sessionID: 'test-session-001', userID: 'user-123', msisdn: '+233241234567', newSession: true, userData: '*920*24#' };

describe('arkesel', () => {
  it('reads a new session: userData is the dialled string', () => {
    expect(arkesel.parseRequest(jsonRequest(start))).toEqual({
      gateway: 'arkesel',
      sessionId: 'test-session-001',
      msisdn: '+233241234567',
      network: '',
      serviceCode: '*920*24#',
      input: '',
      kind: 'start',
      dialString: '*920*24#',
      raw: { userID: 'user-123' },
    });
  });

  it('reads a continuing hop as the new input only', () => {
    const hop = arkesel.parseRequest(jsonRequest({ ...start, newSession: false, userData: '1', network: 'MTN' }));
    expect(hop).toMatchObject({ kind: 'continue', input: '1', network: 'MTN', serviceCode: '' });
  });

  it('formats the reply with continueSession', () => {
    const hop = arkesel.parseRequest(jsonRequest(start));
    expect(JSON.parse(arkesel.formatReply({ text: 'Welcome!\n1. Vote', end: false }, hop).body)).toEqual({
      sessionID: 'test-session-001',
      userID: 'user-123',
      msisdn: '+233241234567',
      message: 'Welcome!\n1. Vote',
      continueSession: true,
    });
    expect(JSON.parse(arkesel.formatReply({ text: 'Bye', end: true }, hop).body).continueSession).toBe(false);
  });

  it('accepts newSession sent as "1"/"0" or "true"', () => {
    expect(arkesel.parseRequest(jsonRequest({ ...start, newSession: '1' })).kind).toBe('start');
    expect(arkesel.parseRequest(jsonRequest({ ...start, newSession: '0', userData: '2' })).kind).toBe('continue');
    expect(arkesel.parseRequest(jsonRequest({ ...start, newSession: 'TRUE' })).kind).toBe('start');
  });

  it('is detected by shape and can be forced', () => {
    expect(detectGateway(jsonRequest(start)).name).toBe('arkesel');
    expect(detectGateway(jsonRequest(start), 'arkesel').name).toBe('arkesel');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => arkesel.parseRequest(jsonRequest({ ...start, newSession: null }))).toThrow('Arkesel request: missing field "newSession"');
    expect(() => arkesel.parseRequest(jsonRequest({ ...start, newSession: [true] }))).toThrow(
      /"newSession" must be true or false, got a list/,
    );
    expect(() => arkesel.parseRequest(jsonRequest({ ...start, msisdn: undefined }))).toThrow(/missing field "msisdn"/);
    expect(() => arkesel.parseRequest(jsonRequest({ ...start, sessionID: 'x'.repeat(300) }))).toThrow(
      /"sessionID" is too long \(300 characters; at most 256\)/,
    );
  });
});
