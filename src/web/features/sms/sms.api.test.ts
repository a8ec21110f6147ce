import { describe, expect, it } from 'vitest';
import { describeDelivery, describeReplies, describeReplyOutcome } from './sms.api';

describe('the SMS outbox in words', () => {
  it("a message's delivery as the network reported it, and nothing without a report", () => {
    expect(describeDelivery({ deliveryStatus: 'delivered', deliveryError: null })?.text).toBe('Delivered');
    expect(describeDelivery({ deliveryStatus: 'submitted', deliveryError: null })?.text).toBe('On its way');
    expect(describeDelivery({ deliveryStatus: 'failed', deliveryError: 'AbsentSubscriber' })?.text).toBe('Not delivered: AbsentSubscriber');
    expect(describeDelivery({ deliveryStatus: 'failed', deliveryError: null })?.text).toBe('Not delivered: the network gave no reason');
    expect(describeDelivery({ deliveryStatus: null, deliveryError: null })).toBeNull();
  });

  it('replies counted, and what a reply changed', () => {
    expect([0, 1, 2].map(describeReplies)).toEqual(['0 replies', '1 reply', '2 replies']);
    expect(describeReplyOutcome('+233241000001', 'out')).toBe('+233241000001 opted out of SMS.');
    expect(describeReplyOutcome('+233241000001', 'in')).toBe('+233241000001 opted back in to SMS.');
    expect(describeReplyOutcome('+233241000001', null)).toBe("+233241000001's reply is listed under Replies.");
  });
});
