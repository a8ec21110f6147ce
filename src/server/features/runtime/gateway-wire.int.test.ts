// Over 400 lines: a table of every gateway's raw requests and one of their golden replies.
import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedShop } from '../../../../tests/support/seed-app';
import { ACTION_HOP_HEADER } from '../../../actions/net/outbound-headers';

/**
 * Golden cases at the wire: each gateway's raw request, as it arrives, and the raw reply it gets (status, content
 * type, body), byte for byte. A session of the shop per gateway (start, choose, amount, or its own end), then the
 * paths that answer without running the app: a version not deployed, a hop one of our actions sent, an unreadable
 * request. docs/gateway-formats.md describes each format.
 */

interface WireRequest {
  method?: 'GET' | 'POST' | 'PUT';
  /** Where it goes, `{app}` for the shop's id. */
  url: string;
  /** A form or JSON body, sent as it is written here. */
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent with the shop owner's sign-in (the console's emulator). */
  signedIn?: true;
}

interface WireReply {
  status: number;
  contentType: string;
  body: string;
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const form = (fields: Record<string, string>): Pick<WireRequest, 'body' | 'contentType'> => ({
  body: new URLSearchParams(fields).toString(),
  contentType: 'application/x-www-form-urlencoded',
});
const json = (fields: Record<string, unknown>): Pick<WireRequest, 'body' | 'contentType'> => ({
  body: JSON.stringify(fields),
  contentType: 'application/json',
});
const post = (url: string, body: Pick<WireRequest, 'body' | 'contentType'>, headers?: Record<string, string>): WireRequest => ({
  url,
  ...body,
  headers,
});

const TEST = '/ussd/{app}/test';
const LIVE = '/ussd/{app}/live';
const EMULATOR = '/ussd-emulator/{app}';

const at = (sessionId: string, text: string) =>
  form({ sessionId, serviceCode: '*920*55#', phoneNumber: '+233241112222', networkCode: '62001', text });
const hubtel = (SessionId: string, Type: string, Message: string) =>
  json({
    SessionId,
    Type,
    Message,
    ServiceCode: '920',
    Operator: 'mtn',
    ClientState: 'cs-1',
    Mobile: '233200000001',
    Sequence: 1,
    Platform: 'USSD',
  });
const emergent = (SessionId: string, Type: string, Message: string) =>
  json({ SessionId, Mobile: '233244000000', USERID: '*920*55#', Operator: 'MTN', Type, Message });
const nalo = (SESSIONID: string, MSGTYPE: boolean, USERDATA: string) =>
  json({ USERID: 'NALOTest', MSISDN: '233200000000', USERDATA, MSGTYPE, NETWORK: 'MTN', SESSIONID });
const arkesel = (sessionID: string, newSession: boolean, userData: string) =>
  json({ sessionID, userID: 'u1', newSession, msisdn: '233271231234', userData, network: 'MTN' });
const beem = (session_id: string, command: string, request_id: number, response: string | number) =>
  json({ command, msisdn: '255692189307', session_id, operator: 'tigotz', payload: { request_id, response } });
const southpawslab = (sessionId: string, inputOption: string) =>
  json({ sessionId, msisdn: '233200000000', menuId: 'm-1', ussdString: '*920*55#', inputOption, network: 'MTN', ussdParameters: 'p=1' });
const mobiverse = (sessionID: string, ussdServiceOp: number | string, ussdString: string) =>
  json({ ussdString, msisdn: '+233111111111', ussdServiceOp, sessionID, network: '06', code: '*920*55#', country: 'GH' });
const emulator = (session_id: string, session_mode: string, userdata: string) =>
  json({ session_id, userdata, msisdn: '233241234567', session_mode, network_id: 'MTN', appId: 'x' });

/** Each case's requests, sent in order to one shop. */
const REQUESTS: Array<[string, WireRequest[]]> = [
  [
    "Africa's Talking: a session to its END",
    [post(TEST, at('AT-1', '')), post(TEST, at('AT-1', '1')), post(TEST, at('AT-1', '1*abc')), post(TEST, at('AT-1', '1*abc*5'))],
  ],
  [
    "Africa's Talking: a resent hop, then the end-of-session notice",
    [
      post(TEST, at('AT-2', '')),
      post(TEST, at('AT-2', '2')),
      post(TEST, at('AT-2', '2')),
      post(
        TEST,
        form({
          date: '2026-11-27 10:00:00',
          sessionId: 'AT-2',
          serviceCode: '*920*55#',
          networkCode: '62001',
          phoneNumber: '+233241112222',
          status: 'Incomplete',
          cost: 'GHS 0.0100',
          durationInMillis: '4500',
          hopsCount: '2',
          input: '2',
          lastAppResponse: 'CON Enter amount',
          errorMessage: '',
        }),
      ),
      post(TEST, at('AT-2', '2*5')),
    ],
  ],
  [
    "Africa's Talking: a GET with the fields in the query string",
    [{ method: 'GET', url: `${TEST}?sessionId=AT-3&serviceCode=*920*55%23&phoneNumber=233241112222&networkCode=62001&text=` }],
  ],
  ["Africa's Talking: a lost session's hop", [post(TEST, at('AT-4', '1*2'))]],
  [
    'Hubtel: a session, then Release',
    [
      post(TEST, hubtel('HB-1', 'Initiation', '*920*55#')),
      post(TEST, hubtel('HB-1', 'Response', '1')),
      post(TEST, hubtel('HB-1', 'Response', 'x')),
      post(TEST, hubtel('HB-1', 'Release', '')),
    ],
  ],
  [
    'Hubtel: a session to its end',
    [
      post(TEST, hubtel('HB-2', 'initiation', '*920*55#')),
      post(TEST, hubtel('HB-2', 'response', '2')),
      post(TEST, hubtel('HB-2', 'response', '7')),
    ],
  ],
  [
    'Emergent: a session, then Timeout',
    [
      post(TEST, emergent('EM-1', 'Initiation', '*920*55#')),
      post(TEST, emergent('EM-1', 'Response', '1')),
      post(TEST, emergent('EM-1', 'Response', '9')),
      post(TEST, emergent('EM-2', 'Initiation', '*920*55#')),
      post(TEST, emergent('EM-2', 'Timeout', '')),
    ],
  ],
  [
    'Nalo: a session to its end',
    [post(TEST, nalo('NA-1', true, '*920*55#')), post(TEST, nalo('NA-1', false, '1')), post(TEST, nalo('NA-1', false, '12'))],
  ],
  [
    'Arkesel: a session to its end',
    [post(TEST, arkesel('AR-1', true, '*920*55#')), post(TEST, arkesel('AR-1', false, '2')), post(TEST, arkesel('AR-1', false, '3'))],
  ],
  [
    'Beem: a session, then terminate',
    [
      post(TEST, beem('BE-1', 'initiate', 1, 0)),
      post(TEST, beem('BE-1', 'continue', 2, '1')),
      post(TEST, beem('BE-1', 'continue', 3, '4')),
      post(TEST, beem('BE-2', 'initiate', 7, 0)),
      post(TEST, beem('BE-2', 'terminate', 8, '')),
    ],
  ],
  [
    'Southpawslab: a session to its end',
    [post(TEST, southpawslab('SP-1', '*920*55#')), post(TEST, southpawslab('SP-1', '1')), post(TEST, southpawslab('SP-1', '6'))],
  ],
  [
    'Southpawslab: a GET',
    [
      {
        method: 'GET',
        url: `${TEST}?sessionId=SP-2&msisdn=233200000000&menuId=m&ussdString=*920*55%23&inputOption=*920*55%23&network=MTN`,
      },
    ],
  ],
  [
    'Mobiverse: a session, then an abort',
    [
      post(TEST, mobiverse('MV-1', '1', '*920*55#')),
      post(TEST, mobiverse('MV-1', 18, '1')),
      post(TEST, mobiverse('MV-1', 18, '8')),
      post(TEST, mobiverse('MV-2', 1, '*920*55#')),
      post(TEST, mobiverse('MV-2', 30, '')),
    ],
  ],
  [
    'the emulator channel on a gateway URL: a session, another code, then end',
    [
      post(TEST, emulator('EU-1', 'start', '*920*55#')),
      post(TEST, emulator('EU-1', 'continue', '1')),
      post(TEST, emulator('EU-1', 'continue', '3')),
      post(TEST, emulator('EU-2', 'start', '*920*56#')),
      post(TEST, emulator('EU-3', 'start', '*920*55#')),
      post(TEST, emulator('EU-3', 'end', '')),
    ],
  ],
  [
    "the console's emulator: a session, another code, then end",
    [
      { ...post(EMULATOR, emulator('EC-1', 'start', '*920*55#')), signedIn: true },
      { ...post(EMULATOR, emulator('EC-1', 'continue', '1')), signedIn: true },
      { ...post(EMULATOR, emulator('EC-1', 'continue', '2')), signedIn: true },
      { ...post(EMULATOR, emulator('EC-2', 'start', '*920*99#')), signedIn: true },
      { ...post(EMULATOR, emulator('EC-3', 'start', '*920*55#')), signedIn: true },
      { ...post(EMULATOR, emulator('EC-3', 'end', '')), signedIn: true },
    ],
  ],
  [
    '?gateway= forces an adapter',
    [
      post(`${TEST}?gateway=nalo`, nalo('NA-2', true, '*920*55#')),
      post(`${TEST}?gateway=AfricasTalking`, at('AT-5', '')),
      post(
        `${TEST}?gateway=africastalking`,
        form({ sessionId: 'AT-6', status: 'Success', phoneNumber: '+233241112222', serviceCode: '*920*55#' }),
      ),
    ],
  ],
  [
    'every gateway on a version not deployed yet',
    [
      post(LIVE, at('L-1', '')),
      post(LIVE, hubtel('L-2', 'Initiation', '*920*55#')),
      post(LIVE, emergent('L-3', 'Initiation', '*920*55#')),
      post(LIVE, nalo('L-4', true, '*920*55#')),
      post(LIVE, arkesel('L-5', true, '*920*55#')),
      post(LIVE, beem('L-6', 'initiate', 1, 0)),
      post(LIVE, southpawslab('L-7', '*920*55#')),
      post(LIVE, mobiverse('L-8', 1, '*920*55#')),
      post(LIVE, emulator('L-9', 'start', '*920*55#')),
      post(LIVE, form({ sessionId: 'L-1', status: 'Success', phoneNumber: '+233241112222', serviceCode: '*920*55#' })),
    ],
  ],
  [
    'a hop one of our own actions sent',
    [
      post(TEST, at('AC-1', ''), { [ACTION_HOP_HEADER]: '1' }),
      post(TEST, hubtel('AC-2', 'Initiation', '*920*55#'), { [ACTION_HOP_HEADER]: '1' }),
      post(TEST, hubtel('AC-3', 'Release', ''), { [ACTION_HOP_HEADER]: '1' }),
      post(TEST, form({ sessionId: 'AC-4', status: 'Success', phoneNumber: '+233241112222' }), { [ACTION_HOP_HEADER]: '1' }),
    ],
  ],
  [
    'requests no gateway sends',
    [
      post(TEST, json({ hello: 'world' })),
      post(`${TEST}?gateway=nosuch`, json({ hello: 'world' })),
      post(`${TEST}?gateway=whatsapp`, json({ conversation: 'c', from: '1', text: 'hi' })),
      post(TEST, hubtel('BAD-1', 'AddToCart', '')),
      post(TEST, at('', '')),
      post(TEST, json({ USERID: 'NALOTest', MSISDN: '233200000000', MSGTYPE: true })),
      post('/ussd/00000000000000000000000000000000/test', json({ hello: 'world' })),
    ],
  ],
];

/** What each case's requests get, in order, byte for byte. */
const REPLIES: Record<string, WireReply[]> = {
  "Africa's Talking: a session to its END": [
    { status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' },
    { status: 200, contentType: TEXT, body: 'CON Enter amount' },
    { status: 200, contentType: TEXT, body: 'CON Enter a number\nEnter amount' },
    { status: 200, contentType: TEXT, body: 'END You chose Airtime for GHS 5' },
  ],
  "Africa's Talking: a resent hop, then the end-of-session notice": [
    { status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' },
    { status: 200, contentType: TEXT, body: 'CON Enter amount' },
    { status: 200, contentType: TEXT, body: 'CON Enter amount' },
    { status: 200, contentType: TEXT, body: '' },
    { status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' },
  ],
  "Africa's Talking: a GET with the fields in the query string": [
    { status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' },
  ],
  "Africa's Talking: a lost session's hop": [{ status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' }],
  'Hubtel: a session, then Release': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-1","Type":"Response","Message":"Welcome to the shop\\n1. Airtime\\n2. Data","Label":"Welcome to the shop","ClientState":"cs-1","DataType":"input","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-1","Type":"Response","Message":"Enter amount","Label":"Enter amount","ClientState":"cs-1","DataType":"input","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-1","Type":"Response","Message":"Enter a number\\nEnter amount","Label":"Enter a number","ClientState":"cs-1","DataType":"input","FieldType":"text"}',
    },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'Hubtel: a session to its end': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-2","Type":"Response","Message":"Welcome to the shop\\n1. Airtime\\n2. Data","Label":"Welcome to the shop","ClientState":"cs-1","DataType":"input","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-2","Type":"Response","Message":"Enter amount","Label":"Enter amount","ClientState":"cs-1","DataType":"input","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"HB-2","Type":"Release","Message":"You chose Data for GHS 7","Label":"You chose Data for GHS 7","ClientState":"cs-1","DataType":"display","FieldType":"text"}',
    },
  ],
  'Emergent: a session, then Timeout': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"Message":"Welcome to the shop\\n1. Airtime\\n2. Data","Type":"Response","MaskNextRoute":true}',
    },
    { status: 200, contentType: JSON_TYPE, body: '{"Message":"Enter amount","Type":"Response","MaskNextRoute":true}' },
    { status: 200, contentType: JSON_TYPE, body: '{"Message":"You chose Airtime for GHS 9","Type":"Release","MaskNextRoute":true}' },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"Message":"Welcome to the shop\\n1. Airtime\\n2. Data","Type":"Response","MaskNextRoute":true}',
    },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'Nalo: a session to its end': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"USERID":"NALOTest","MSISDN":"233200000000","MSG":"Welcome to the shop\\n1. Airtime\\n2. Data","MSGTYPE":true}',
    },
    { status: 200, contentType: JSON_TYPE, body: '{"USERID":"NALOTest","MSISDN":"233200000000","MSG":"Enter amount","MSGTYPE":true}' },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"USERID":"NALOTest","MSISDN":"233200000000","MSG":"You chose Airtime for GHS 12","MSGTYPE":false}',
    },
  ],
  'Arkesel: a session to its end': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"sessionID":"AR-1","userID":"u1","msisdn":"233271231234","message":"Welcome to the shop\\n1. Airtime\\n2. Data","continueSession":true}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"sessionID":"AR-1","userID":"u1","msisdn":"233271231234","message":"Enter amount","continueSession":true}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"sessionID":"AR-1","userID":"u1","msisdn":"233271231234","message":"You chose Data for GHS 3","continueSession":false}',
    },
  ],
  'Beem: a session, then terminate': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"msisdn":"255692189307","operator":"tigotz","session_id":"BE-1","command":"continue","payload":{"request_id":1,"request":"Welcome to the shop\\n1. Airtime\\n2. Data"}}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"msisdn":"255692189307","operator":"tigotz","session_id":"BE-1","command":"continue","payload":{"request_id":2,"request":"Enter amount"}}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"msisdn":"255692189307","operator":"tigotz","session_id":"BE-1","command":"terminate","payload":{"request_id":3,"request":"You chose Airtime for GHS 4"}}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"msisdn":"255692189307","operator":"tigotz","session_id":"BE-2","command":"continue","payload":{"request_id":7,"request":"Welcome to the shop\\n1. Airtime\\n2. Data"}}',
    },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'Southpawslab: a session to its end': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"Welcome to the shop\\n1. Airtime\\n2. Data","state":"CONTINUE","menuId":"m-1","ussdString":"*920*55#","option":"*920*55#","ussdParameter":"p=1"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"Enter amount","state":"CONTINUE","menuId":"m-1","ussdString":"*920*55#","option":"1","ussdParameter":"p=1"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"You chose Airtime for GHS 6","state":"END","menuId":"m-1","ussdString":"*920*55#","option":"6","ussdParameter":"p=1"}',
    },
  ],
  'Southpawslab: a GET': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"Welcome to the shop\\n1. Airtime\\n2. Data","state":"CONTINUE","menuId":"m","ussdString":"*920*55#","option":"*920*55#","ussdParameter":null}',
    },
  ],
  'Mobiverse: a session, then an abort': [
    { status: 200, contentType: JSON_TYPE, body: '{"message":"Welcome to the shop\\n1. Airtime\\n2. Data","ussdServiceOp":2}' },
    { status: 200, contentType: JSON_TYPE, body: '{"message":"Enter amount","ussdServiceOp":2}' },
    { status: 200, contentType: JSON_TYPE, body: '{"message":"You chose Airtime for GHS 8","ussdServiceOp":17}' },
    { status: 200, contentType: JSON_TYPE, body: '{"message":"Welcome to the shop\\n1. Airtime\\n2. Data","ussdServiceOp":2}' },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'the emulator channel on a gateway URL: a session, another code, then end': [
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Welcome to the shop\\n1. Airtime\\n2. Data","session_mode":"continue"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Enter amount","session_mode":"continue"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"You chose Airtime for GHS 3","session_mode":"end"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"UNKNOWN APPLICATION","session_mode":"end"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Welcome to the shop\\n1. Airtime\\n2. Data","session_mode":"continue"}' },
    { status: 200, contentType: TEXT, body: '' },
  ],
  "the console's emulator: a session, another code, then end": [
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Welcome to the shop\\n1. Airtime\\n2. Data","session_mode":"continue"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Enter amount","session_mode":"continue"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"You chose Airtime for GHS 2","session_mode":"end"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"UNKNOWN APPLICATION","session_mode":"end"}' },
    { status: 200, contentType: JSON_TYPE, body: '{"text":"Welcome to the shop\\n1. Airtime\\n2. Data","session_mode":"continue"}' },
    { status: 200, contentType: TEXT, body: '' },
  ],
  '?gateway= forces an adapter': [
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"USERID":"NALOTest","MSISDN":"233200000000","MSG":"Welcome to the shop\\n1. Airtime\\n2. Data","MSGTYPE":true}',
    },
    { status: 200, contentType: TEXT, body: 'CON Welcome to the shop\n1. Airtime\n2. Data' },
    // The end-of-session notice is the adapter's: forced with ?gateway=, it still closes its session.
    { status: 200, contentType: TEXT, body: '' },
  ],
  'every gateway on a version not deployed yet': [
    { status: 200, contentType: TEXT, body: 'END This service is not available yet. Please try again later.' },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"L-2","Type":"Release","Message":"This service is not available yet. Please try again later.","Label":"This service is not available yet. Please try again later.","ClientState":"cs-1","DataType":"display","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"Message":"This service is not available yet. Please try again later.","Type":"Release","MaskNextRoute":true}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"USERID":"NALOTest","MSISDN":"233200000000","MSG":"This service is not available yet. Please try again later.","MSGTYPE":false}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"sessionID":"L-5","userID":"u1","msisdn":"233271231234","message":"This service is not available yet. Please try again later.","continueSession":false}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"msisdn":"255692189307","operator":"tigotz","session_id":"L-6","command":"terminate","payload":{"request_id":1,"request":"This service is not available yet. Please try again later."}}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"This service is not available yet. Please try again later.","state":"END","menuId":"m-1","ussdString":"*920*55#","option":"*920*55#","ussdParameter":"p=1"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"message":"This service is not available yet. Please try again later.","ussdServiceOp":17}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"text":"This service is not available yet. Please try again later.","session_mode":"end"}',
    },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'a hop one of our own actions sent': [
    { status: 200, contentType: TEXT, body: 'END This service cannot be reached from a REST action or a webhook.' },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"AC-2","Type":"Release","Message":"This service cannot be reached from a REST action or a webhook.","Label":"This service cannot be reached from a REST action or a webhook.","ClientState":"cs-1","DataType":"display","FieldType":"text"}',
    },
    {
      status: 200,
      contentType: JSON_TYPE,
      body: '{"SessionId":"AC-3","Type":"Release","Message":"This service cannot be reached from a REST action or a webhook.","Label":"This service cannot be reached from a REST action or a webhook.","ClientState":"cs-1","DataType":"display","FieldType":"text"}',
    },
    { status: 200, contentType: TEXT, body: '' },
  ],
  'requests no gateway sends': [
    {
      status: 400,
      contentType: JSON_TYPE,
      body: '{"status":"02","message":"Unrecognised USSD request (fields hello). Expected the fields of one of: africastalking (sessionId, serviceCode, phoneNumber, text); emulator (session_id, userdata, msisdn, session_mode); nalo (USERID, MSISDN, USERDATA, MSGTYPE, SESSIONID); emergent (SessionId, Type, Mobile, USERID, Message); hubtel (SessionId, Type, Mobile, Message); mobiverse (sessionID, msisdn, ussdString, ussdServiceOp); beem (command, msisdn, session_id, payload { request_id, response }); arkesel (sessionID, userID, newSession, msisdn, userData); southpawslab (sessionId, msisdn, menuId, ussdString, inputOption). Add ?gateway=<name> to choose one."}',
    },
    {
      status: 400,
      contentType: JSON_TYPE,
      body: '{"status":"02","message":"Unknown gateway \\"nosuch\\"; expected one of: africastalking, hubtel, emergent, nalo, arkesel, beem, southpawslab, mobiverse, emulator, whatsapp"}',
    },
    {
      status: 400,
      contentType: JSON_TYPE,
      body: '{"status":"02","message":"\\"whatsapp\\" is not a USSD gateway; WhatsApp messages reach bots through their linked numbers"}',
    },
    {
      status: 400,
      contentType: JSON_TYPE,
      body: '{"status":"02","message":"Hubtel request: field \\"Type\\" is \\"AddToCart\\"; expected Initiation, Response, Release or Timeout"}',
    },
    { status: 400, contentType: JSON_TYPE, body: '{"status":"02","message":"Africa\'s Talking request: field \\"sessionId\\" is empty"}' },
    { status: 400, contentType: JSON_TYPE, body: '{"status":"02","message":"Nalo request: missing field \\"SESSIONID\\""}' },
    { status: 404, contentType: JSON_TYPE, body: '{"status":"04","message":"App not found"}' },
  ],
};

describeDb('gateway wire: raw request to raw reply', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth);
  });

  async function send(request: WireRequest): Promise<WireReply> {
    const res = await t.app.inject({
      method: request.method ?? 'POST',
      url: request.url.replace('{app}', appId),
      payload: request.body,
      headers: {
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
        ...request.headers,
        ...(request.signedIn ? owner.auth : {}),
      },
    });
    return { status: res.statusCode, contentType: String(res.headers['content-type']), body: res.body };
  }

  it.each(REQUESTS)('%s', async (name, requests) => {
    const replies = [];
    for (const request of requests) replies.push(await send(request));
    expect(replies).toEqual(REPLIES[name]);
  });
});
