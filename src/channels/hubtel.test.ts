import { describe, expect, it } from 'vitest';
import { detectGateway, hubtel } from './index';
import { catchChannelError, jsonRequest } from './test-requests';

// https://hubtel.readme.io/reference/sample-general-services-interaction, STEP 1 (Hubtel app, so no dial string):
const docInitiation = {
  Sequence: '1',
  Type: 'initiation',
  Message: '',
  ServiceCode: 'b230733cd56b4a0fad820e39f66bc27c',
  Operator: 'Hubtel-Android',
  ClientState: '',
  Mobile: '233246912184',
  SessionId: '8d440a43a98b4614b9df22b79c8190b8',
};

// A USSD initiation with the fields of https://developers.hubtel.com/docs/api-reference-prog-services
// ("Message ... will represent the USSD string entered by the subscriber during initiation") and the example
// dial string of docs/gateway-formats.md; Type capitalised as the .NET SDK (github.com/hubtel/programmable-services-sdk-dotnet) writes it.
const ussdInitiation = {
  Type: 'Initiation',
  Mobile: '233200585542',
  SessionId: '3c796dac28174f739de4262d08409c51',
  ServiceCode: '714',
  Message: '*714*5*3*100*1#',
  Operator: 'vodafone',
  Sequence: 1,
  ClientState: '',
  Platform: 'USSD',
};

describe('hubtel: documented samples', () => {
  it('reads the documented initiation (Hubtel app: blank Message)', () => {
    const hop = hubtel.parseRequest(jsonRequest(docInitiation));
    expect(hop).toEqual({
      gateway: 'hubtel',
      sessionId: '8d440a43a98b4614b9df22b79c8190b8',
      msisdn: '233246912184',
      network: 'Hubtel-Android',
      serviceCode: 'b230733cd56b4a0fad820e39f66bc27c',
      input: '',
      kind: 'start',
      raw: { Type: 'initiation', ClientState: '', Sequence: '1' },
    });
  });

  it('reads a USSD initiation: Message is the whole dialled string', () => {
    const hop = hubtel.parseRequest(jsonRequest(ussdInitiation));
    expect(hop).toMatchObject({ kind: 'start', input: '', serviceCode: '714', dialString: '*714*5*3*100*1#', network: 'vodafone' });
    expect(hop.raw).toMatchObject({ Platform: 'USSD', Sequence: '1' });
  });

  it('reads a Response as the new input only', () => {
    const hop = hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'Response', Message: '2', Sequence: 2, ClientState: 'menu-1' }));
    expect(hop).toMatchObject({ kind: 'continue', input: '2', serviceCode: '714', raw: { ClientState: 'menu-1' } });
    expect(hop.dialString).toBeUndefined();
  });

  it('reads Release and Timeout as the end, even without the subscriber', () => {
    expect(hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'Release', Message: '' })).kind).toBe('end');
    const timeout = hubtel.parseRequest(jsonRequest({ SessionId: 's1', Type: 'timeout' }));
    expect(timeout).toMatchObject({ kind: 'end', msisdn: '', input: '' });
  });

  it('marks Release, not Timeout, as ended by the user', () => {
    expect(hubtel.parseRequest(jsonRequest({ SessionId: 's1', Type: 'Release' })).isEndedByUser).toBe(true);
    expect(hubtel.parseRequest(jsonRequest({ SessionId: 's1', Type: 'Timeout' })).isEndedByUser).toBeUndefined();
    expect(hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'Response', Message: '1' })).isEndedByUser).toBeUndefined();
  });

  it('says why the session ended: Release the user cancelled, Timeout timed out; other hops say nothing', () => {
    expect(hubtel.parseRequest(jsonRequest({ SessionId: 's1', Type: 'release' })).ending).toEqual({ cause: 'user_cancelled' });
    expect(hubtel.parseRequest(jsonRequest({ SessionId: 's1', Type: 'TIMEOUT' })).ending).toEqual({ cause: 'timed_out' });
    expect(hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'Response', Message: '1' })).ending).toBeUndefined();
    expect(hubtel.parseRequest(jsonRequest(ussdInitiation)).ending).toBeUndefined();
  });

  it('formats Response and Release replies with the documented fields', () => {
    const hop = hubtel.parseRequest(jsonRequest({ ...ussdInitiation, ClientState: 'abc' }));
    expect(JSON.parse(hubtel.formatReply({ text: 'Welcome\n1. Buy data\n2. "Quit"', end: false }, hop).body)).toEqual({
      SessionId: '3c796dac28174f739de4262d08409c51',
      Type: 'Response',
      Message: 'Welcome\n1. Buy data\n2. "Quit"',
      Label: 'Welcome',
      ClientState: 'abc',
      DataType: 'input',
      FieldType: 'text',
    });
    const end = hubtel.formatReply({ text: 'Thank you', end: true }, hop);
    expect(end.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(end.body)).toMatchObject({ Type: 'Release', Message: 'Thank you', DataType: 'display' });
  });
});

describe('hubtel: detection and malformed requests', () => {
  it('is detected by shape, not confused with Emergent, and can be forced', () => {
    expect(detectGateway(jsonRequest(ussdInitiation)).name).toBe('hubtel');
    expect(detectGateway(jsonRequest({ ...ussdInitiation, USERID: '*714#' })).name).toBe('emergent');
    expect(detectGateway(jsonRequest({ ...ussdInitiation, USERID: '*714#' }), 'hubtel').name).toBe('hubtel');
  });

  it('accepts the documented lower-case serviceCode spelling', () => {
    const { ServiceCode: _omit, ...rest } = ussdInitiation;
    expect(hubtel.parseRequest(jsonRequest({ ...rest, serviceCode: '711*2' })).serviceCode).toBe('711*2');
  });

  it('refuses unknown types, missing ids and wrong types with a clear message', () => {
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'AddToCart' }))).message).toBe(
      'Hubtel request: field "Type" is "AddToCart"; expected Initiation, Response, Release or Timeout',
    );
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest({ ...ussdInitiation, SessionId: undefined }))).message).toMatch(
      /missing field "SessionId"/,
    );
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Mobile: ['233'] }))).message).toMatch(
      /"Mobile" must be text, got a list/,
    );
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: true }))).message).toMatch(
      /"Type" must be text, got a boolean/,
    );
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest({ ...ussdInitiation, SessionId: 'x'.repeat(5000) }))).message).toMatch(
      /"SessionId" is too long/,
    );
    expect(catchChannelError(() => hubtel.parseRequest(jsonRequest('{"SessionId": "s1", "Type": '))).message).toMatch(/not valid JSON/);
  });

  it('keeps emoji and replaces lone surrogates in replies', () => {
    const hop = hubtel.parseRequest(jsonRequest({ ...ussdInitiation, Type: 'Response', Message: '👍' }));
    expect(hop.input).toBe('👍');
    expect(JSON.parse(hubtel.formatReply({ text: 'ok \uDC00 👍', end: false }, hop).body).Message).toBe('ok \uFFFD 👍');
  });
});
