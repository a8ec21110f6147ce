import { describe, expect, it } from 'vitest';
import { ChannelError, detectGateway, emergent } from './index';
import { jsonRequest } from './test-requests';

// No public Emergent/InterPay documentation was found; the shape is the one docs/gateway-formats.md records (JSON like
// Hubtel's: SessionId, Mobile, USERID (service code), Operator, Type, Message; reply {Message, Type, MaskNextRoute: true}).
const initiation = {
  SessionId: '5d7c1b9e',
  Mobile: '233244123456',
  USERID: '*718*22#',
  Operator: 'MTN',
  Type: 'Initiation',
  Message: '*718*22*5#',
};

describe('emergent', () => {
  it('reads an initiation: Message is the dialled string, USERID the service code', () => {
    expect(emergent.parseRequest(jsonRequest(initiation))).toEqual({
      gateway: 'emergent',
      sessionId: '5d7c1b9e',
      msisdn: '233244123456',
      network: 'MTN',
      serviceCode: '*718*22#',
      input: '',
      kind: 'start',
      dialString: '*718*22*5#',
      raw: { Type: 'Initiation', USERID: '*718*22#' },
    });
  });

  it('reads a Response as the new input and Release/Timeout as the end', () => {
    expect(emergent.parseRequest(jsonRequest({ ...initiation, Type: 'Response', Message: '2' }))).toMatchObject({
      kind: 'continue',
      input: '2',
    });
    expect(emergent.parseRequest(jsonRequest({ ...initiation, Type: 'Release', Message: '' })).kind).toBe('end');
    expect(emergent.parseRequest(jsonRequest({ SessionId: 'x', Type: 'Timeout', USERID: '' })).kind).toBe('end');
    // Why it ended, for the session's record: Release is the user's, Timeout the gateway's clock.
    expect(emergent.parseRequest(jsonRequest({ ...initiation, Type: 'Release', Message: '' }))).toMatchObject({
      isEndedByUser: true,
      ending: { cause: 'user_cancelled' },
    });
    expect(emergent.parseRequest(jsonRequest({ SessionId: 'x', Type: 'Timeout', USERID: '' })).ending).toEqual({ cause: 'timed_out' });
    expect(emergent.parseRequest(jsonRequest({ ...initiation, Type: 'Response', Message: '2' })).ending).toBeUndefined();
  });

  it('formats replies with MaskNextRoute', () => {
    const hop = emergent.parseRequest(jsonRequest(initiation));
    expect(JSON.parse(emergent.formatReply({ text: 'Menu\n1. Pay', end: false }, hop).body)).toEqual({
      Message: 'Menu\n1. Pay',
      Type: 'Response',
      MaskNextRoute: true,
    });
    expect(JSON.parse(emergent.formatReply({ text: 'Bye', end: true }, hop).body).Type).toBe('Release');
  });

  it('is detected by shape (Hubtel plus USERID) and can be forced', () => {
    expect(detectGateway(jsonRequest(initiation)).name).toBe('emergent');
    expect(detectGateway(jsonRequest({ SessionId: 'a', Type: 'Initiation', Mobile: '1' }), 'emergent').name).toBe('emergent');
  });

  it('refuses malformed requests with a clear message', () => {
    expect(() => emergent.parseRequest(jsonRequest({ ...initiation, Type: 'Begin' }))).toThrow(
      new ChannelError(
        'malformed_request',
        'Emergent request: field "Type" is "Begin"; expected Initiation, Response, Release or Timeout',
        'emergent',
      ),
    );
    expect(() => emergent.parseRequest(jsonRequest({ ...initiation, Mobile: undefined }))).toThrow(/missing field "Mobile"/);
    expect(() => emergent.parseRequest(jsonRequest({ ...initiation, SessionId: { id: 1 } }))).toThrow(
      /"SessionId" must be text, got an object/,
    );
  });
});
