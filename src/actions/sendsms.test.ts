import { describe, expect, it, vi } from 'vitest';
import { createSendsmsRunner, type SmsToQueue } from './sendsms';
import { testInput, testScope } from './test-input';

const scope = testScope({ sessionId: 'sess-9', mobile: '+233244000111', serviceCode: '*920#', inputs: { amount: '15' } }, '1', {
  name: 'Shop',
  shortCode: '*920*55#',
});

const input = (code: { smsSender: string; mobile: string; smsMessage: string }, deadline = Date.now() + 3000) =>
  testInput('sendsms', code, { scope, actionName: 'notify', menu: 'pay', deadline });

describe('sendsms runner', () => {
  it('renders every field, queues the message and answers { id, status: QUEUED }', async () => {
    const queueSms = vi.fn(async (_sms: SmsToQueue) => ({ id: 'sms-1' }));
    const outcome = await createSendsmsRunner({ queueSms }).run(
      input({ smsSender: 'Shop', mobile: '{{ session.mobile }}', smsMessage: 'You paid GHS {{ session.inputs.amount }}' }),
    );
    expect(outcome).toMatchObject({ ok: true, result: { id: 'sms-1', status: 'QUEUED' } });
    expect(queueSms).toHaveBeenCalledWith({
      appId: 'app-1',
      ownerId: 'owner-1',
      sessionId: 'sess-9',
      sender: 'Shop',
      recipient: '+233244000111',
      message: 'You paid GHS 15',
    });
  });

  it("an empty mobile means the session's number", async () => {
    const queueSms = vi.fn(async () => ({ id: 'sms-2' }));
    await createSendsmsRunner({ queueSms }).run(input({ smsSender: '', mobile: '  ', smsMessage: 'Hi' }));
    expect(queueSms).toHaveBeenCalledWith(expect.objectContaining({ recipient: '+233244000111', sender: '' }));
  });

  it("the service's refusal becomes the action's error", async () => {
    const queueSms = vi.fn(async () => {
      throw new Error('The SMS message is empty');
    });
    await expect(createSendsmsRunner({ queueSms }).run(input({ smsSender: '', mobile: '', smsMessage: '' }))).resolves.toEqual({
      ok: false,
      error: 'The SMS message is empty',
    });
  });

  it('gives up at the deadline', async () => {
    const queueSms = () => new Promise<{ id: string }>(() => {});
    await expect(
      createSendsmsRunner({ queueSms }).run(input({ smsSender: '', mobile: '', smsMessage: 'x' }, Date.now() + 20)),
    ).resolves.toMatchObject({ ok: false, timedOut: true });
  });
});
