import { describe, expect, it } from 'vitest';
import type { WhatsAppMessage } from '../../../shared/whatsapp';
import {
  appendEntries,
  type ChatEntry,
  findChoices,
  findLiveEntryId,
  formatChatTime,
  isCustomerNumber,
  toCustomerMessage,
  toCustomerNumber,
} from './chat-entries';

const AT = '2026-11-26T09:05:00.000Z';
const list: WhatsAppMessage = {
  type: 'list',
  body: 'Welcome',
  button: 'Options',
  rows: [
    { id: '1', title: 'Balance' },
    { id: '2', title: 'Help', description: 'Talk to us' },
  ],
};
const buttons: WhatsAppMessage = { type: 'buttons', body: 'Sure?', buttons: [{ id: '1', title: 'Yes' }] };
const text: WhatsAppMessage = { type: 'text', text: 'Your balance is GHS 20' };

describe('a chat', () => {
  it('numbers the messages it adds after the last one, with who sent them and when', () => {
    const first = appendEntries([], 'in', [toCustomerMessage('hi')], AT);
    const both = appendEntries(first, 'out', [list, text], AT);
    expect(both.map((e) => [e.id, e.direction, e.message.type])).toEqual([
      [1, 'in', 'text'],
      [2, 'out', 'list'],
      [3, 'out', 'text'],
    ]);
  });

  it("keeps only the bot's last message, unanswered, pickable", () => {
    const asked = appendEntries(appendEntries([], 'in', [toCustomerMessage('hi')], AT), 'out', [list], AT);
    expect(findLiveEntryId(asked, false)).toBe(2);
    expect(findLiveEntryId(asked, true)).toBeNull();
    const answered = appendEntries(asked, 'in', [toCustomerMessage('Balance')], AT);
    expect(findLiveEntryId(answered, false)).toBeNull();
    const plain: ChatEntry[] = appendEntries(answered, 'out', [text], AT);
    expect(findLiveEntryId(plain, false)).toBeNull();
    expect(findLiveEntryId([], false)).toBeNull();
  });

  it('finds the choices of lists and buttons', () => {
    expect(findChoices(list).map((c) => c.title)).toEqual(['Balance', 'Help']);
    expect(findChoices(text)).toEqual([]);
    expect(findChoices(buttons).map((c) => c.id)).toEqual(['1']);
  });

  it('keeps digits only in the customer number, at most 15', () => {
    expect(toCustomerNumber('+233 24 000 0001')).toBe('233240000001');
    expect(toCustomerNumber('1234567890123456789')).toBe('123456789012345');
    expect(isCustomerNumber('233240000001')).toBe(true);
    expect(isCustomerNumber('1234567')).toBe(false);
  });

  it('shows hours and minutes under a bubble, nothing for a time it cannot read', () => {
    expect(formatChatTime(AT)).toMatch(/^\d{2}:\d{2}$/);
    expect(formatChatTime('')).toBe('');
  });
});
