import { describe, expect, it } from 'vitest';
import { africastalking, deriveNewInput, detectGateway, readGatewayRequest, ChannelError, type GatewayRequest } from './index';
import { isSessionEndNotification, parseSessionEndNotification, sessionEndHop } from './africastalking';
import { catchChannelError, formRequest } from './test-requests';

/** A hop as the runtime reads it: parsed, then read again against the text the session's previous hop left. */
const readHop = (req: GatewayRequest, previousText: string | undefined) =>
  africastalking.resumeHop!(africastalking.parseRequest(req), previousText);

// Samples from https://www.mintlify.com/DaggieBlanqx/Google-Africastalking-AI-Course/api/ussd-endpoints
// ("Example Request (Initial)"):
//   curl -X POST http://localhost:5000/ussd/session \
//     -d "sessionId=ATUid_abc123" -d "serviceCode=*123#" -d "phoneNumber=+254711XXXYYY" -d "text="
// and the parameter list in AT's docs as copied in github.com/DanNduati/at-ussd AT-USSD.md:
//   sessionId, phoneNumber, networkCode, serviceCode, text ("an empty string in the first notification").
const initial = { sessionId: 'ATUid_abc123', serviceCode: '*123#', phoneNumber: '+254711XXXYYY', text: '' };

describe('africastalking: documented samples', () => {
  it('reads the initial request as a new session', () => {
    const hop = africastalking.parseRequest(formRequest(initial));
    expect(hop).toEqual({
      gateway: 'africastalking',
      sessionId: 'ATUid_abc123',
      msisdn: '+254711XXXYYY',
      network: '',
      serviceCode: '*123#',
      input: '',
      kind: 'start',
      dialString: '*123#',
      channelState: '',
      hopId: '',
      raw: {},
    });
  });

  it('reads the same request sent as an unparsed form string, with networkCode', () => {
    const body = 'sessionId=ATUid_abc123&serviceCode=%2A123%23&phoneNumber=%2B254711XXXYYY&networkCode=63902&text=';
    const hop = africastalking.parseRequest(formRequest(body));
    expect(hop.kind).toBe('start');
    expect(hop.serviceCode).toBe('*123#');
    expect(hop.msisdn).toBe('+254711XXXYYY');
    expect(hop.network).toBe('63902');
  });

  it('reads "text=1" then "text=1*1" as the inputs 1 and 1 (Example Request User Selected 1*1)', () => {
    const first = readHop(formRequest({ ...initial, text: '1' }), '');
    expect(first).toMatchObject({ kind: 'continue', input: '1', channelState: '1' });
    const second = readHop(formRequest({ ...initial, text: '1*1' }), first.channelState);
    expect(second).toMatchObject({ kind: 'continue', input: '1', channelState: '1*1' });
  });

  it('formats CON and END replies as plain text (Example Response (Initial))', () => {
    const hop = africastalking.parseRequest(formRequest(initial));
    expect(
      africastalking.formatReply({ text: 'What would you want to check \n1. My Account \n2. My phone number', end: false }, hop),
    ).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: 'CON What would you want to check \n1. My Account \n2. My phone number',
    });
    expect(africastalking.formatReply({ text: 'Your phone number is +254711XXXYYY', end: true }, hop).body).toBe(
      'END Your phone number is +254711XXXYYY',
    );
  });
});

describe('africastalking: cumulative text', () => {
  it('keeps a * typed inside an input', () => {
    expect(deriveNewInput('1', '1*2*3')).toBe('2*3');
    expect(deriveNewInput('', '*')).toBe('*');
    expect(deriveNewInput('1*2', '1*2*')).toBe('');
    const hop = readHop(formRequest({ ...initial, text: '1*0244*555' }), '1');
    expect(hop.input).toBe('0244*555');
  });

  it('handles a thousand * as one input and passes an over-long one on for the engine to cut', () => {
    const stars = '*'.repeat(1000);
    expect(readHop(formRequest({ ...initial, text: stars }), '').input).toBe(stars);
    expect(readHop(formRequest({ ...initial, text: 'x'.repeat(200_000) }), '').input).toHaveLength(200_000);
  });

  it('names every hop by its text, so a resent hop can be told from the next one', () => {
    expect(africastalking.parseRequest(formRequest(initial)).hopId).toBe('');
    expect(readHop(formRequest({ ...initial, text: '1' }), '').hopId).toBe('1');
    expect(readHop(formRequest({ ...initial, text: '1*0244*555' }), '1').hopId).toBe('1*0244*555');
  });

  // AT's docs (AT-USSD.md): text "is an empty string in the first notification of a session".
  it('starts a session only on an empty text (a dialled extension comes in serviceCode); other text with no stored session is a lost one', () => {
    const dialled = africastalking.parseRequest(formRequest({ ...initial, serviceCode: '*384*1234*2*50#' }));
    expect(dialled).toMatchObject({ kind: 'start', input: '', dialString: '*384*1234*2*50#', serviceCode: '*384*1234*2*50#' });
    expect(africastalking.resumeHop!(dialled, '')).toMatchObject({ kind: 'start', dialString: '*384*1234*2*50#' });
    // An empty text on a session past its first hop is a late copy of that hop, refused like other stale text.
    expect(catchChannelError(() => africastalking.resumeHop!(dialled, '1*2')).code).toBe('path_mismatch');

    const lost = africastalking.parseRequest(formRequest({ ...initial, text: '1*2*0244000000' }));
    expect(lost).toMatchObject({ kind: 'continue', input: '', channelState: '1*2*0244000000', hopId: '1*2*0244000000' });
    expect(lost.dialString).toBeUndefined();
    expect(africastalking.resumeHop!(lost, undefined)).toEqual(lost);
  });

  it('refuses text that does not continue the previous text', () => {
    const err = catchChannelError(() => readHop(formRequest({ ...initial, text: '2*1' }), '1'));
    expect(err.code).toBe('path_mismatch');
    expect(err.message).toContain('"2*1" does not continue the previous hop\'s text "1"');
    expect(() => deriveNewInput('1', '1')).toThrow(ChannelError);
  });

  it('accepts GET requests carrying the fields in the query string', () => {
    const hop = readHop({ method: 'GET', query: { ...initial, text: '3' }, body: undefined, contentType: '' }, '');
    expect(hop).toMatchObject({ kind: 'continue', input: '3' });
  });
});

describe('africastalking: end-of-session notification', () => {
  // Fields per the notification parameters listed at
  // https://www.mintlify.com/DaggieBlanqx/Google-Africastalking-AI-Course/api/ussd-endpoints ("POST /ussd/status"):
  // date, sessionId, serviceCode, networkCode, phoneNumber, status, cost, durationInMillis, hopsCount, input,
  // lastAppResponse, errorMessage.
  const notification = {
    date: '2025-09-29 12:00:00',
    sessionId: 'ATUid_abc123',
    serviceCode: '*123#',
    networkCode: '63902',
    phoneNumber: '+254711XXXYYY',
    status: 'Success',
    cost: 'KES 0.10',
    durationInMillis: '4500',
    hopsCount: '3',
    input: '1*1',
    lastAppResponse: 'END Your account number is ACC1001',
    errorMessage: '',
  };

  it('is told apart from a hop and read', () => {
    expect(isSessionEndNotification(formRequest(notification))).toBe(true);
    expect(isSessionEndNotification(formRequest(initial))).toBe(false);
    expect(parseSessionEndNotification(formRequest(notification))).toEqual({
      gateway: 'africastalking',
      sessionId: 'ATUid_abc123',
      msisdn: '+254711XXXYYY',
      network: '63902',
      serviceCode: '*123#',
      status: 'Success',
      cost: 'KES 0.10',
      durationMs: 4500,
      hopsCount: 3,
      input: '1*1',
      lastAppResponse: 'END Your account number is ACC1001',
      errorMessage: '',
      date: '2025-09-29 12:00:00',
    });
  });

  it('reads a Failed notification with an error message and bad numbers as null', () => {
    const parsed = parseSessionEndNotification(
      formRequest({ ...notification, status: 'Failed', errorMessage: 'Callback timed out', durationInMillis: 'soon', hopsCount: '' }),
    );
    expect(parsed).toMatchObject({ status: 'Failed', errorMessage: 'Callback timed out', durationMs: null, hopsCount: null });
    expect(sessionEndHop(parsed)).toMatchObject({ kind: 'end', sessionId: 'ATUid_abc123', input: '' });
  });

  it('says why the session ended: Success completed, Incomplete timed out, Failed a network error with its words', () => {
    const endingOf = (fields: Record<string, string>) => readGatewayRequest(formRequest({ ...notification, ...fields })).hop.ending;
    expect(endingOf({ status: 'Incomplete', cost: '', durationInMillis: '61000' })).toEqual({ cause: 'timed_out', durationMs: 61000 });
    expect(endingOf({ status: 'failed', errorMessage: '  Callback timed out ', durationInMillis: '' })).toEqual({
      cause: 'network_error',
      cost: 'KES 0.10',
      words: 'Callback timed out',
    });
    // A status the documentation does not list says only that the gateway ended it.
    expect(endingOf({ status: 'Aborted' })?.cause).toBe('gateway_ended');
    // The network's words are kept to 500 characters.
    expect(endingOf({ status: 'Failed', errorMessage: 'x'.repeat(900) })?.words).toHaveLength(500);
  });

  it('is read by the adapter as an end hop, answered with an empty body; one without sessionId is refused', () => {
    const { adapter, hop } = readGatewayRequest(formRequest(notification));
    expect(adapter.name).toBe('africastalking');
    expect(hop).toEqual({
      gateway: 'africastalking',
      sessionId: 'ATUid_abc123',
      msisdn: '+254711XXXYYY',
      network: '63902',
      serviceCode: '*123#',
      input: '',
      kind: 'end',
      raw: { status: 'Success' },
      ending: { cause: 'completed', durationMs: 4500, cost: 'KES 0.10' },
    });
    // Forced with ?gateway=, it is still the notice; read against its session, still an end.
    expect(readGatewayRequest(formRequest(notification), 'africastalking').hop.kind).toBe('end');
    expect(africastalking.resumeHop!(hop, '1*1')).toBe(hop);
    // Nothing reads a reply to it: even a refusal's end screen is an empty body.
    expect(africastalking.formatReply({ text: 'Not here', end: true }, hop)).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: '',
    });
    const { sessionId: _omit, ...rest } = notification;
    expect(catchChannelError(() => parseSessionEndNotification(formRequest(rest))).message).toMatch(/missing field "sessionId"/);
  });
});

describe('africastalking: detection and malformed requests', () => {
  it('is detected by shape and can be forced', () => {
    expect(detectGateway(formRequest(initial)).name).toBe('africastalking');
    expect(detectGateway(formRequest('sessionId=a&phoneNumber=1&serviceCode=*1%23&text=')).name).toBe('africastalking');
    expect(detectGateway(formRequest({ foo: 'bar' }), 'AfricasTalking').name).toBe('africastalking');
  });

  it('names the missing or mistyped field', () => {
    expect(catchChannelError(() => africastalking.parseRequest(formRequest({ ...initial, sessionId: undefined }))).message).toBe(
      'Africa\'s Talking request: missing field "sessionId"',
    );
    expect(
      catchChannelError(() => africastalking.parseRequest(formRequest('sessionId=a&sessionId=b&phoneNumber=1&text='))).message,
    ).toMatch(/field "sessionId" must be text, got a list/);
    expect(catchChannelError(() => africastalking.parseRequest(formRequest({ ...initial, text: { a: 1 } }))).message).toMatch(
      /field "text" must be text, got an object/,
    );
    expect(catchChannelError(() => africastalking.parseRequest(formRequest({ ...initial, phoneNumber: '' }))).message).toMatch(
      /field "phoneNumber" is empty/,
    );
    expect(catchChannelError(() => africastalking.parseRequest(formRequest([initial]))).message).toMatch(/JSON array/);
  });

  it('survives invalid UTF-8 and emoji', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('sessionId=s1&phoneNumber=254&serviceCode=*1%23&text=1'), 0xff, 0xfe]);
    const hop = readHop(formRequest(bytes), '');
    expect(hop.input).toBe('1\uFFFD\uFFFD');
    const emoji = readHop(formRequest({ ...initial, text: '1*😀' }), '1');
    expect(emoji.input).toBe('😀');
    expect(africastalking.formatReply({ text: 'Hi 😀 \uD800', end: false }, hop).body).toBe('CON Hi 😀 \uFFFD');
  });
});
