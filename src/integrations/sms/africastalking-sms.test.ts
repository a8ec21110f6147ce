import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAfricasTalkingSmsProvider } from './africastalking-sms';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

describe("Africa's Talking SMS provider", () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];
  let answer: { status: number; body: string } = { status: 201, body: '' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, form: new URLSearchParams(body) });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/version1/messaging`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  const recipients = (r: object) => JSON.stringify({ SMSMessageData: { Message: 'Sent to 1/1 Total Cost: KES 0.8000', Recipients: [r] } });

  it('posts the form fields with the apiKey header and reads the message id', async () => {
    answer = {
      status: 201,
      body: recipients({ statusCode: 101, number: '+254711000111', status: 'Success', cost: 'KES 0.8000', messageId: 'ATXid_1' }),
    };
    const provider = createAfricasTalkingSmsProvider({ username: 'sandbox', apiKey: 'key-123', baseUrl: url });
    await expect(provider.send({ from: 'Dialflow', to: '+254711000111', message: 'Hello & welcome' })).resolves.toEqual({
      status: 'SENT',
      providerMessageId: 'ATXid_1',
    });
    const [req] = seen;
    expect(req).toMatchObject({ method: 'POST', url: '/version1/messaging' });
    expect(req!.headers).toMatchObject({
      apikey: 'key-123',
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(Object.fromEntries(req!.form)).toEqual({
      username: 'sandbox',
      to: '+254711000111',
      message: 'Hello & welcome',
      from: 'Dialflow',
    });
  });

  it("leaves out `from` so the account's default sender is used", async () => {
    answer = { status: 201, body: recipients({ statusCode: 102, status: 'Queued', messageId: 'ATXid_2' }) };
    const provider = createAfricasTalkingSmsProvider({ username: 'u', apiKey: 'k', baseUrl: url });
    await expect(provider.send({ from: '', to: '+254711000111', message: 'Hi' })).resolves.toMatchObject({ status: 'SENT' });
    expect(seen[0]!.form.has('from')).toBe(false);
  });

  it.each([
    [403, 'InvalidPhoneNumber', false],
    [406, 'UserInBlacklist', false],
    [405, 'InsufficientBalance', true],
    [500, 'InternalServerError', true],
  ])('a recipient status %i (%s) fails, retryable: %s', async (statusCode, status, retryable) => {
    answer = { status: 201, body: recipients({ statusCode, number: '+254711000111', status, cost: '0', messageId: 'None' }) };
    const provider = createAfricasTalkingSmsProvider({ username: 'u', apiKey: 'k', baseUrl: url });
    await expect(provider.send({ from: '', to: '+254711000111', message: 'Hi' })).resolves.toEqual({
      status: 'FAILED',
      providerMessageId: null,
      error: `${status} (${statusCode})`,
      retryable,
    });
  });

  it('an empty recipient list (e.g. a refused sender id) fails for good', async () => {
    answer = { status: 201, body: JSON.stringify({ SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } }) };
    const provider = createAfricasTalkingSmsProvider({ username: 'u', apiKey: 'k', baseUrl: url });
    await expect(provider.send({ from: 'X', to: '+254711000111', message: 'Hi' })).resolves.toMatchObject({
      status: 'FAILED',
      error: 'InvalidSenderId',
      retryable: false,
    });
  });

  it('HTTP errors: a bad key or a 5xx may be retried, a 400 not', async () => {
    const provider = createAfricasTalkingSmsProvider({ username: 'u', apiKey: 'k', baseUrl: url });
    answer = { status: 401, body: 'The supplied authentication is invalid' };
    await expect(provider.send({ from: '', to: '+1555000111', message: 'x' })).resolves.toMatchObject({
      status: 'FAILED',
      retryable: true,
      error: expect.stringContaining('HTTP 401'),
    });
    answer = { status: 503, body: '' };
    await expect(provider.send({ from: '', to: '+1555000111', message: 'x' })).resolves.toMatchObject({
      status: 'FAILED',
      retryable: true,
    });
    answer = { status: 400, body: 'bad' };
    await expect(provider.send({ from: '', to: '+1555000111', message: 'x' })).resolves.toMatchObject({
      status: 'FAILED',
      retryable: false,
    });
  });

  it('an unreachable server is a retryable failure, not a crash', async () => {
    const provider = createAfricasTalkingSmsProvider({
      username: 'u',
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:1/version1/messaging',
      timeoutMs: 2000,
    });
    await expect(provider.send({ from: '', to: '+1555000111', message: 'x' })).resolves.toMatchObject({
      status: 'FAILED',
      retryable: true,
    });
  });
});
