import { describe, expect, it } from 'vitest';
import { ChannelError, GATEWAY_NAMES, channelAdapters, detectGateway, readGatewayRequest, type GatewayRequest } from './index';
import { jsonRequest } from './test-requests';
import { FIELD_LIMITS, peekFields } from './fields';

/** One well-formed request per gateway: each must be detected as its own gateway and no other. */
const SAMPLES: Record<string, unknown> = {
  africastalking: { sessionId: 'ATUid_1', serviceCode: '*123#', phoneNumber: '+254711000111', networkCode: '63902', text: '' },
  hubtel: {
    SessionId: 'h1',
    Type: 'Initiation',
    Message: '*714#',
    ServiceCode: '714',
    Operator: 'mtn',
    ClientState: '',
    Mobile: '233200000000',
    Sequence: 1,
    Platform: 'USSD',
  },
  emergent: { SessionId: 'e1', Mobile: '233244000000', USERID: '*718#', Operator: 'MTN', Type: 'Initiation', Message: '*718#' },
  nalo: { USERID: 'NALOTest', MSISDN: '233200000000', USERDATA: '*920#', MSGTYPE: true, NETWORK: 'MTN', SESSIONID: 'n1' },
  arkesel: { sessionID: 'a1', userID: 'u1', newSession: true, msisdn: '233271231234', userData: '*920*24#', network: 'MTN' },
  beem: { command: 'initiate', msisdn: '255692189307', session_id: 'b1', operator: 'tigotz', payload: { request_id: 1, response: 0 } },
  southpawslab: {
    sessionId: 's1',
    msisdn: '233200000000',
    menuId: 'm',
    ussdString: '*365#',
    inputOption: '*365#',
    network: 'MTN',
    ussdParameters: '',
  },
  mobiverse: {
    ussdString: '*1234#',
    msisdn: '+233111111111',
    ussdServiceOp: '1',
    sessionID: 'm1',
    network: '06',
    code: '*1234#',
    country: 'GH',
  },
  emulator: { session_id: '20240131100000', userdata: '*920#', msisdn: '0244000000', session_mode: 'start', network_id: 'MTN', appId: 'x' },
};

describe('registry and detection', () => {
  it('has one adapter per gateway, named after its key', () => {
    expect(Object.keys(channelAdapters).sort()).toEqual([...GATEWAY_NAMES].sort());
    for (const [name, adapter] of Object.entries(channelAdapters)) expect(adapter.name).toBe(name);
  });

  it.each(Object.entries(SAMPLES))('detects %s by shape, and only that adapter matches', (name, body) => {
    const req = jsonRequest(body);
    expect(detectGateway(req).name).toBe(name);
    const matching = Object.values(channelAdapters)
      .filter((adapter) => adapter.matches(req))
      .map((adapter) => adapter.name);
    expect(matching).toEqual([name]);
    const { adapter, hop } = readGatewayRequest(req);
    expect(adapter.name).toBe(name);
    expect(hop).toEqual(adapter.parseRequest(req));
    expect(hop.kind).toBe('start');
    expect(hop.gateway).toBe(name);
  });

  it("tries Africa's Talking first: no other gateway's request carries its phoneNumber", () => {
    for (const [name, body] of Object.entries(SAMPLES)) {
      if (name !== 'africastalking')
        expect(channelAdapters.africastalking.matches(jsonRequest({ ...(body as object), text: '' }))).toBe(false);
    }
  });

  it('forces an adapter with ?gateway=, case-insensitively', () => {
    expect(detectGateway(jsonRequest(SAMPLES.hubtel), 'nalo').name).toBe('nalo');
    expect(detectGateway(jsonRequest(SAMPLES.hubtel), 'MOBIVERSE').name).toBe('mobiverse');
    expect(detectGateway(jsonRequest(SAMPLES.hubtel), '').name).toBe('hubtel');
  });

  it('names the gateways expected for an unknown override', () => {
    expect(() => detectGateway(jsonRequest(SAMPLES.hubtel), 'twilio')).toThrow(
      'Unknown gateway "twilio"; expected one of: africastalking, hubtel, emergent, nalo, arkesel, beem, southpawslab, mobiverse, emulator',
    );
    expect(() => detectGateway(jsonRequest(SAMPLES.hubtel), ['nalo', 'hubtel'])).toThrow(/Give \?gateway= once/);
  });

  it('names the fields it saw and the shapes it expected when nothing matches', () => {
    let error: unknown;
    try {
      detectGateway(jsonRequest({ phone: '233', msg: 'hi' }));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ChannelError);
    const channelError = error as ChannelError;
    expect(channelError.code).toBe('unrecognised_request');
    expect(channelError.httpStatus).toBe(400);
    expect(channelError.status).toBe('02');
    expect(channelError.message).toMatch(
      /^Unrecognised USSD request \(fields phone, msg\)\. Expected the fields of one of: africastalking \(sessionId/,
    );
    expect(channelError.message).toContain('emulator (session_id, userdata, msisdn, session_mode)');
    expect(channelError.message).toContain('Add ?gateway=<name> to choose one.');
  });
});

const big = 'x'.repeat(1024 * 1024);
const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]); // {"a":"\xc3(\xff"}

/** Bodies that must never cause anything but a clean parse or a ChannelError. */
const HOSTILE: Array<[string, GatewayRequest]> = [
  ['a 1 MB string body', { method: 'POST', query: {}, body: big, contentType: 'text/plain' }],
  ['a 1 MB JSON string body', { method: 'POST', query: {}, body: `{"sessionId":"${big}"}`, contentType: 'application/json' }],
  [
    'a 1 MB form string body',
    {
      method: 'POST',
      query: {},
      body: `sessionId=1&phoneNumber=2&text=${'*'.repeat(1024 * 1024)}`,
      contentType: 'application/x-www-form-urlencoded',
    },
  ],
  ['invalid UTF-8 bytes', { method: 'POST', query: {}, body: invalidUtf8, contentType: 'application/json' }],
  ['a JSON array', jsonRequest([1, 2, 3])],
  ['null', jsonRequest(null)],
  ['a number', jsonRequest(42)],
  ['a boolean', jsonRequest(true)],
  ['an empty object', jsonRequest({})],
  ['no request at all', undefined as unknown as GatewayRequest],
  ['a request with no fields', { method: 'GET', query: undefined, body: undefined, contentType: '' } as GatewayRequest],
  ['prototype keys', jsonRequest(JSON.parse('{"__proto__": {"sessionId": "p"}, "constructor": 1, "toString": "x"}'))],
];

/** Each sample with each field replaced by a hostile value. */
const HOSTILE_VALUES: unknown[] = [
  big,
  '*'.repeat(1000),
  '😀'.repeat(50),
  '\uD800\uDFFF\uDC00',
  '\u0000',
  [],
  [1],
  {},
  { a: 1 },
  null,
  true,
  Number.POSITIVE_INFINITY,
  -1,
  3.5,
  '',
  // Names every plain object inherits: a lookup table written as an object literal answers them.
  '__proto__',
  'constructor',
  'toString',
  'CONSTRUCTOR',
  ' hasOwnProperty ',
];

function expectCleanOrChannelError(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ChannelError)) throw err;
    expect(err.message.length).toBeGreaterThan(10);
    expect(err.message.length).toBeLessThan(1500);
  }
}

describe('hostile input', () => {
  it.each(HOSTILE)('%s: every adapter matches without throwing and parses or refuses cleanly', (_label, req) => {
    for (const adapter of Object.values(channelAdapters)) {
      expect(typeof adapter.matches(req)).toBe('boolean');
      expectCleanOrChannelError(() => adapter.parseRequest(req));
      expectCleanOrChannelError(() => adapter.resumeHop?.(adapter.parseRequest(req), ''));
    }
    expectCleanOrChannelError(() => detectGateway(req));
  });

  it.each(Object.entries(SAMPLES))('%s: every field replaced by a hostile value parses or refuses cleanly', (name, sample) => {
    const adapter = channelAdapters[name as keyof typeof channelAdapters];
    for (const key of Object.keys(sample as object)) {
      for (const value of HOSTILE_VALUES) {
        const req = jsonRequest({ ...(sample as object), [key]: value });
        expectCleanOrChannelError(() => {
          const parsed = adapter.parseRequest(req);
          const hop = adapter.resumeHop ? adapter.resumeHop(parsed, '') : parsed;
          expect(['start', 'continue', 'end']).toContain(hop.kind);
          // What does come through is clean, bounded text.
          // Inputs are bounded by the request body limit and cut by the engine; identifiers here.
          for (const text of [hop.sessionId, hop.msisdn, hop.network, hop.serviceCode, hop.input]) {
            expect(typeof text).toBe('string');
            expect(text.length).toBeLessThanOrEqual(text === hop.input ? FIELD_LIMITS.input : 16_384);
            expect(text).not.toMatch(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
          }
          const reply = adapter.formatReply({ text: `${'😀'.repeat(10)}\n"quoted" \\ \uD800 ${'*'.repeat(1000)}`, end: false }, hop);
          expect(reply.body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
          if (reply.contentType.startsWith('application/json')) expect(() => JSON.parse(reply.body)).not.toThrow();
        });
      }
    }
  });

  it('keeps fields named after prototype members as plain data, in form bodies and echoed JSON', () => {
    const form: GatewayRequest = {
      method: 'POST',
      query: {},
      body: '__proto__=a&__proto__=b&constructor=c',
      contentType: 'application/x-www-form-urlencoded',
    };
    const fields = peekFields(form)!;
    expect(Object.hasOwn(fields, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toEqual(['a', 'b']);
    expect(fields.constructor).toBe('c');
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);

    // Southpawslab echoes ussdParameters back as it came.
    const parameters = JSON.parse('{"__proto__": {"step": 2}, "page": 1}');
    const request = jsonRequest({ ...(SAMPLES.southpawslab as object), ussdParameters: parameters });
    const reply = channelAdapters.southpawslab.formatReply({ text: 'Hi', end: false }, channelAdapters.southpawslab.parseRequest(request));
    expect(reply.body).toContain('"ussdParameter":{"__proto__":{"step":2},"page":1}');
  });

  it('reads JSON sent with a text content type, and a query string when the body is empty', () => {
    const textJson: GatewayRequest = { method: 'POST', query: {}, body: JSON.stringify(SAMPLES.nalo), contentType: 'text/plain' };
    expect(detectGateway(textJson).parseRequest(textJson).gateway).toBe('nalo');
    const get: GatewayRequest = { method: 'GET', query: SAMPLES.africastalking, body: '', contentType: '' };
    expect(detectGateway(get).name).toBe('africastalking');
  });
});
