import { expect, it } from 'vitest';
import { getSettlementHandler, UnknownTransactionTypeError, type SettlementHandler, type SettlementHandlers } from './settlements';

const handler = (name: string): SettlementHandler => Object.assign(async () => undefined, { handlerName: name });
const handlers: SettlementHandlers = { plan: handler('plan'), credit: handler('credit'), shortcode: handler('shortcode') };

it('finds the handler of each stored transaction type, and none for an app payment prompt', () => {
  expect(getSettlementHandler(handlers, 'plan')).toBe(handlers.plan);
  expect(getSettlementHandler(handlers, 'credit')).toBe(handlers.credit);
  expect(getSettlementHandler(handlers, 'shortcode')).toBe(handlers.shortcode);
  expect(getSettlementHandler(handlers, 'paymentprompt')).toBeUndefined();
});

it('refuses a transaction type that is not ours with its own error', () => {
  expect(() => getSettlementHandler(handlers, 'Plan')).toThrow(UnknownTransactionTypeError);
  expect(() => getSettlementHandler(handlers, 'toString')).toThrow(expect.objectContaining({ transactionType: 'toString' }));
});
