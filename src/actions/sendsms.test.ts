import { describe, expect, it, vi } from 'vitest';
import { createSendsmsRunner, type SmsToQueue } from './sendsms';
import type { ActionInput, ActionScope } from './types';

const scope: ActionScope = {
  session: { sessionId: 'sess-9', mobile: '+233244000111', network: 'MTN', serviceCode: '*920#', inputs: { amount: '15' }, vars: {} },
  inRequest: { input: '1' },
  actions: {},
  app: { name: 'Shop', shortCode: '*920*55#' },
};

/** A stand-in for LiquidJS: `{{ path.to.value }}` looked up in the scope. */
const render = (source: string) =>
  source.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, path: string) => String(path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], scope) ?? ''));

function input(code: { smsSender: string; mobile: string; smsMessage: string }, deadline = Date.now() + 3000): ActionInput<'sendsms'> {
  return {
    action: { actionName: 'notify', actionType: 'post', inheritsPlugin: 'sendsms', code },
    appId: 'app-1',
    ownerId: 'owner-1',
    menu: { uniqueId: 'm1', identifier: 'pay' },
    scope,
    deadline,
    renderTemplate: render,
  };
}

describe('sendsms runner', () => {
  it('renders every field, queues the message and answers { id, status: QUEUED }', async () => {
    const queueSms = vi.fn(async (_sms: SmsToQueue) => ({ id: 'sms-1' }));
    const outcome = await createSendsmsRunner({ queueSms }).run(input({ smsSender: 'Shop', mobile: '{{ session.mobile }}', smsMessage: 'You paid GHS {{ session.inputs.amount }}' }));
    expect(outcome).toMatchObject({ ok: true, result: { id: 'sms-1', status: 'QUEUED' } });
    expect(queueSms).toHaveBeenCalledWith({ appId: 'app-1', ownerId: 'owner-1', sessionId: 'sess-9', sender: 'Shop', recipient: '+233244000111', message: 'You paid GHS 15' });
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
    await expect(createSendsmsRunner({ queueSms }).run(input({ smsSender: '', mobile: '', smsMessage: '' }))).resolves.toEqual({ ok: false, error: 'The SMS message is empty' });
  });

  it('gives up at the deadline', async () => {
    const queueSms = () => new Promise<{ id: string }>(() => {});
    await expect(createSendsmsRunner({ queueSms }).run(input({ smsSender: '', mobile: '', smsMessage: 'x' }, Date.now() + 20))).resolves.toMatchObject({ ok: false, timedOut: true });
  });
});
