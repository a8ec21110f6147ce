/**
 * sendsms: queues one SMS through the configured SMS provider (docs/runtime.md, Action kinds). The hop only
 * records the message; delivery happens outside it, with retries. Every field is a template.
 *
 * @example
 *   code: { smsSender: 'Dialflow', mobile: '{{ session.mobile }}', smsMessage: 'You paid GHS {{ session.inputs.amount }}' }
 *   actions.<name> = { id: '3f0c...', status: 'QUEUED' }
 */
import type { ActionInput, ActionOutcome, ActionRunner } from '../shared/actions/runner';
import { toErrorMessage } from '../shared/errors';
import { beforeDeadline, TIMED_OUT } from './deadline';

export interface SmsToQueue {
  appId: string;
  ownerId: string;
  sessionId: string;
  sender: string;
  recipient: string;
  message: string;
}

export interface SendsmsDeps {
  /** Validates and stores the message (the server's queueSms); rejects with a readable message when invalid. */
  queueSms(sms: SmsToQueue): Promise<{ id: string }>;
}

export interface SendsmsResult {
  id: string;
  status: 'QUEUED';
}

export function createSendsmsRunner(deps: SendsmsDeps): ActionRunner<'sendsms'> {
  return {
    async run(input: ActionInput<'sendsms'>): Promise<ActionOutcome> {
      try {
        const code = input.action.code;
        const recipient = input.renderTemplate(code.mobile).trim() || input.scope.session.mobile;
        const sms: SmsToQueue = {
          appId: input.appId,
          ownerId: input.ownerId,
          sessionId: input.scope.session.sessionId,
          sender: input.renderTemplate(code.smsSender).trim(),
          recipient,
          message: input.renderTemplate(code.smsMessage),
        };
        const queued = await beforeDeadline(deps.queueSms(sms), input.deadline);
        if (queued === TIMED_OUT) return { ok: false, error: 'The SMS could not be queued in time', timedOut: true };
        const result: SendsmsResult = { id: queued.id, status: 'QUEUED' };
        return { ok: true, result, logs: [{ level: 'info', message: `SMS to ${sms.recipient} queued (${queued.id})` }] };
      } catch (err) {
        return { ok: false, error: toErrorMessage(err) };
      }
    },
  };
}
