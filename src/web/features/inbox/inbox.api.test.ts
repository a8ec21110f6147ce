import { describe, expect, it } from 'vitest';
import type { InboxConversationDetail } from '../../../shared/api/inbox.schema';
import { findReplyBlock } from './inbox-composer';
import { searchSavedReplies } from './inbox-saved-replies';
import { describeClosedWindow, prefillVariables } from './inbox-template-reply';
import { describeLastMessage } from './inbox-list';
import { countUnread, describeAssignee, formatListTime, formatUnread } from './inbox.api';

const conversation: InboxConversationDetail['conversation'] = {
  conversationId: 'c1',
  appId: 'a1',
  appName: 'Shop',
  linkId: 'l1',
  msisdn: '+233200000001',
  channel: 'whatsapp',
  status: 'open',
  assigneeId: null,
  reason: 'asked for a person',
  inputs: {},
  unreadCount: 2,
  lastMessageAt: '2026-11-29T10:00:00.000Z',
  lastInboundAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-29T09:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  closedAt: null,
};
const detail = (change: Partial<InboxConversationDetail>): InboxConversationDetail => ({
  conversation,
  contact: null,
  messages: [],
  window: { state: 'open', openUntil: '2026-11-30T10:00:00.000Z' },
  templates: [],
  ...change,
});

describe('the inbox screen', () => {
  it('counts the unread messages, 99+ past 99, and + when the list was cut', () => {
    expect(countUnread([conversation, { ...conversation, unreadCount: 3 }])).toBe(5);
    expect(formatUnread({ count: 5, more: false })).toBe('5');
    expect(formatUnread({ count: 5, more: true })).toBe('5+');
    expect(formatUnread({ count: 120, more: false })).toBe('99+');
  });

  it('names who has a conversation: you, an agent of the account by name, or nobody', () => {
    const agents = [
      { userId: 'u1', fullName: 'Ama Owusu', email: 'ama@example.com', isOwner: true },
      { userId: 'u2', fullName: 'Kofi Boateng', email: 'kofi@example.com', isOwner: false },
    ];
    expect(describeAssignee({ assigneeId: null }, 'u1', agents)).toBe('Unassigned');
    expect(describeAssignee({ assigneeId: 'u1' }, 'u1', agents)).toBe('Assigned to you');
    expect(describeAssignee({ assigneeId: 'u2' }, 'u1', agents)).toBe('Assigned to Kofi Boateng');
    // The agents not loaded yet (or one removed since): no name to give.
    expect(describeAssignee({ assigneeId: 'u2' }, 'u1', [])).toBe('Assigned to another agent');
  });

  it("shows today's times as the hour and older ones as the day", () => {
    const now = new Date(2026, 10, 29, 15, 0);
    expect(formatListTime(new Date(2026, 10, 29, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatListTime(new Date(2026, 10, 27, 9, 5).toISOString(), now)).toBe('27 Nov');
  });

  it('lets a reply go only in an open conversation on a linked number, and says why not; a closed window asks for a template', () => {
    expect(findReplyBlock(detail({}))).toBeNull();
    expect(findReplyBlock(detail({ conversation: { ...conversation, status: 'closed' } }))).toMatch(/^This conversation is closed/);
    expect(findReplyBlock(detail({ conversation: { ...conversation, linkId: null } }))).toMatch(/no longer linked/);
    // A closed window blocks no reply: the reply is a template then (InboxTemplateReply).
    expect(findReplyBlock(detail({ window: { state: 'closed', closedAt: '2026-11-28T10:00:00.000Z' } }))).toBeNull();
    expect(describeClosedWindow('2026-11-28T10:00:00.000Z')).toMatch(
      /^The 24-hour window closed on .+: WhatsApp lets a business write first only with an approved template\.$/,
    );
  });
});

describe('the template reply', () => {
  const template = {
    variables: [
      { place: 'body' as const, name: '1' },
      { place: 'body' as const, name: 'city' },
      { place: 'body' as const, name: 'order' },
    ],
  };
  it('prefills the variables that name a contact field, and the first numbered one with the name', () => {
    const contact = { contactId: 'c', name: 'Ama', language: 'en', attributes: { city: 'Accra' } };
    expect(prefillVariables(template, contact)).toEqual({ 'body:1': 'Ama', 'body:city': 'Accra' });
    expect(prefillVariables(template, null)).toEqual({});
  });
});

describe('saved replies search', () => {
  it('keeps the replies whose title or text holds every word typed, any case', () => {
    const at = '2026-11-29T10:00:00.000Z';
    const rows = [
      { savedReplyId: '1', title: 'Opening hours', text: 'We open at 8', createdAt: at, updatedAt: at },
      { savedReplyId: '2', title: 'Delivery', text: 'Two days in Accra', createdAt: at, updatedAt: at },
    ];
    expect(searchSavedReplies(rows, '').map((r) => r.savedReplyId)).toEqual(['1', '2']);
    expect(searchSavedReplies(rows, 'accra  DAYS').map((r) => r.savedReplyId)).toEqual(['2']);
    expect(searchSavedReplies(rows, 'open delivery')).toEqual([]);
  });
});

describe('describeLastMessage', () => {
  it('gives the latest message with who wrote it, a file without words as a file, and says when there is none', () => {
    expect(describeLastMessage({ ...conversation, lastMessage: { author: 'customer', text: 'Where is my order?', hasMedia: false } })).toBe(
      'Where is my order?',
    );
    expect(describeLastMessage({ ...conversation, lastMessage: { author: 'agent', text: 'On its way', hasMedia: false } })).toBe(
      'Agent: On its way',
    );
    expect(describeLastMessage({ ...conversation, lastMessage: { author: 'note', text: 'VIP', hasMedia: false } })).toBe('Note: VIP');
    expect(describeLastMessage({ ...conversation, lastMessage: { author: 'customer', text: '', hasMedia: true } })).toBe('A file');
    expect(describeLastMessage({ ...conversation, lastMessage: null })).toBe('No messages yet');
    expect(describeLastMessage(conversation)).toBe('No messages yet');
  });
});
