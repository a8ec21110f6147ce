import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCall } from '../../shared/api/contract';
import { envelopeSchema, messageSchema } from '../../shared/api/envelope';
import { failureText, isNetworkFailure, isOk, readData, UNAUTHORIZED_EVENT } from './api';
import { call, callQuery, encodeQuery, fillPath, queryKey, UNEXPECTED_REPLY_MESSAGE } from './call';

const itemSchema = z.object({ id: z.string(), count: z.number() });
const findItems = defineCall({
  method: 'GET',
  path: '/api/apps/:appId/items/:itemId',
  params: z.object({ appId: z.string(), itemId: z.string() }),
  query: z.object({ limit: z.number().optional(), tag: z.array(z.string()).optional() }),
  reply: envelopeSchema(z.array(itemSchema)),
  key: ['items', ':appId'],
});
const saveItem = defineCall({
  method: 'POST',
  path: '/api/items',
  body: z.object({ id: z.string() }),
  reply: messageSchema.extend({ uniqueId: z.string() }),
  auth: false,
});

let fetchMock: ReturnType<typeof vi.fn>;
const events: string[] = [];

function answer(status: number, body: unknown) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

beforeEach(() => {
  fetchMock = vi.fn();
  events.length = 0;
  const window = new EventTarget();
  window.addEventListener(UNAUTHORIZED_EVENT, (event) => events.push(event.type));
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', window);
  vi.stubGlobal('localStorage', { getItem: (name: string) => (name === 'token' ? 'T1' : null) });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('fillPath', () => {
  it('fills each :name segment with its encoded param', () => {
    expect(fillPath('/api/apps/:appId/items/:itemId', { appId: 'a b/c', itemId: 7 })).toBe('/api/apps/a%20b%2Fc/items/7');
  });
  it('refuses a missing param rather than call a wrong URL', () => {
    expect(() => fillPath('/api/apps/:appId', {})).toThrow('/api/apps/:appId: no value for :appId');
  });
});

describe('encodeQuery', () => {
  it('encodes values, leaves out undefined and null, repeats an array', () => {
    expect(encodeQuery({ limit: 50, q: 'a&b=c', skip: undefined, none: null, tag: ['x', 'y'] })).toBe('?limit=50&q=a%26b%3Dc&tag=x&tag=y');
  });
  it('is empty when no field has a value', () => {
    expect(encodeQuery({ skip: undefined })).toBe('');
  });
});

describe('call', () => {
  it('sends the method, filled path, query and token, and answers the parsed reply', async () => {
    answer(200, { status: '00', message: 'OK', data: [{ id: 'i1', count: 2, secret: 'dropped' }] });
    const reply = await call(findItems, { params: { appId: 'app1', itemId: 'i1' }, query: { limit: 5 } });
    expect(fetchMock).toHaveBeenCalledWith('/api/apps/app1/items/i1?limit=5', {
      method: 'GET',
      headers: { authorization: 'Bearer T1' },
      body: undefined,
    });
    expect(isOk(reply)).toBe(true);
    // Parsed, not cast: a field the schema does not name is not passed on.
    expect(readData(reply, 'fallback')).toEqual([{ id: 'i1', count: 2 }]);
  });

  it('sends a JSON body without the token when the call says auth: false, and reads the extras', async () => {
    answer(200, { status: '00', message: 'Saved', uniqueId: 'u1' });
    const reply = await call(saveItem, { body: { id: 'i1' } });
    expect(fetchMock).toHaveBeenCalledWith('/api/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id":"i1"}',
    });
    expect(reply.uniqueId).toBe('u1');
  });

  it('answers status 99 with a clear message when a 200 reply does not match the declaration, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    answer(200, { status: '00', message: 'OK', data: [{ id: 'i1', count: 'two' }] });
    const reply = await call(findItems, { params: { appId: 'app1', itemId: 'i1' } });
    expect(reply).toEqual({ status: '99', message: UNEXPECTED_REPLY_MESSAGE });
    expect(() => readData(reply, 'The items could not be loaded.')).toThrow(UNEXPECTED_REPLY_MESSAGE);
    expect(log).toHaveBeenCalledWith('GET /api/apps/:appId/items/:itemId: the reply does not match its declaration', expect.any(Array));
  });

  it("passes a refusal's envelope on as the server sent it", async () => {
    answer(400, { status: '02', message: 'Name is taken', field: 'id' });
    const reply = await call(saveItem, { body: { id: 'i1' } });
    expect(reply).toEqual({ status: '02', message: 'Name is taken', field: 'id' });
    expect(failureText(reply, 'fallback')).toBe('Name is taken');
  });

  it("reads a declared refusal's extras, and drops extras that do not match rather than pass a wrong shape", async () => {
    const saveChecked = defineCall({ ...saveItem, refusal: z.object({ field: z.string().optional() }) });
    answer(400, { status: '02', message: 'Name is taken', field: 'id', stack: 'x' });
    expect(await call(saveChecked, { body: { id: 'i1' } })).toEqual({ status: '02', message: 'Name is taken', field: 'id' });
    answer(400, { status: '02', message: 'Name is taken', field: 7 });
    expect(await call(saveChecked, { body: { id: 'i1' } })).toEqual({ status: '02', message: 'Name is taken' });
  });

  it("hands a bare call's own body back as the envelope's data, parsed, and its refusal as the envelope", async () => {
    const dial = defineCall({ method: 'POST', path: '/dial', body: z.object({ code: z.string() }), reply: itemSchema, bare: true });
    answer(200, { id: 'd1', count: 3, extra: 'dropped' });
    const reply = await call(dial, { body: { code: '*920#' } });
    expect(reply).toEqual({ status: '00', message: 'OK', data: { id: 'd1', count: 3 } });
    expect(readData(reply, 'fallback').count).toBe(3);
    answer(200, { status: '00', message: 'OK' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await call(dial, { body: { code: '*920#' } })).toEqual({ status: '99', message: UNEXPECTED_REPLY_MESSAGE });
    answer(404, { status: '04', message: 'App not found' });
    expect(await call(dial, { body: { code: '*920#' } })).toEqual({ status: '04', message: 'App not found' });
  });

  it('answers an empty envelope when the server was never reached', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const reply = await call(findItems, { params: { appId: 'app1', itemId: 'i1' } });
    expect(isNetworkFailure(reply)).toBe(true);
    expect(failureText(reply, 'Could not load.')).toBe('Could not load. Check your connection and try again.');
  });

  it('fires the unauthorized event on a 401 to a call that sent the token', async () => {
    answer(401, { status: '01', message: 'Sign in again' });
    await call(findItems, { params: { appId: 'app1', itemId: 'i1' } });
    expect(events).toEqual([UNAUTHORIZED_EVENT]);
  });
});

describe('queryKey', () => {
  it('fills :name segments and adds the fields the key does not name as one last object', () => {
    expect(queryKey(findItems, { params: { appId: 'app1', itemId: 'i1' }, query: { limit: 5 } })).toEqual([
      'items',
      'app1',
      { itemId: 'i1', limit: 5 },
    ]);
  });
  it("keeps the declared segments as the prefix invalidation matches, for a call's every input", () => {
    const findAppItems = defineCall({ ...findItems, params: z.object({ appId: z.string() }), query: undefined });
    const prefix = queryKey(findAppItems, { params: { appId: 'app1' } });
    expect(prefix).toEqual(['items', 'app1']);
    const options = callQuery(findItems, { params: { appId: 'app1', itemId: 'i2' } }, 'fallback');
    expect(options.queryKey.slice(0, prefix.length)).toEqual(prefix);
  });
});
