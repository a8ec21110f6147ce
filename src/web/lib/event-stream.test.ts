import { describe, expect, it } from 'vitest';
import { inboxEventSchema } from '../../shared/api/inbox.schema';
import { nextDelayMs, readBlocks, toStreamEvent } from './event-stream';

const toInboxEvent = (data: string) => toStreamEvent(inboxEventSchema, data);

describe('the live stream parser', () => {
  it('reads complete blocks, keeps the incomplete rest, drops comments and reads retry', () => {
    const { blocks, rest } = readBlocks('retry: 3000\n: connected\n\ndata: {"a":1}\n\n: ping\n\ndata: {"b"');
    expect(blocks).toEqual([
      { data: null, retryMs: 3000 },
      { data: '{"a":1}', retryMs: null },
      { data: null, retryMs: null },
    ]);
    expect(rest).toBe('data: {"b"');
  });

  it('joins a block split across reads and several data lines, and takes CRLF line ends', () => {
    const first = readBlocks('data: one\r\n');
    expect(first.blocks).toEqual([]);
    const second = readBlocks(`${first.rest}data: two\r\n\r\n`);
    expect(second.blocks).toEqual([{ data: 'one\ntwo', retryMs: null }]);
    expect(second.rest).toBe('');
  });

  it('takes the events the schema knows and drops others and broken JSON', () => {
    expect(toInboxEvent('{"type":"conversation_closed","conversationId":"c1"}')).toEqual({
      type: 'conversation_closed',
      conversationId: 'c1',
    });
    expect(toInboxEvent('{"type":"something_new"}')).toBeNull();
    expect(toInboxEvent('{not json')).toBeNull();
  });

  it('waits longer after each failure in a row, at most a minute', () => {
    expect([0, 1, 2, 3].map((n) => nextDelayMs(3000, n))).toEqual([3000, 6000, 12_000, 24_000]);
    expect(nextDelayMs(3000, 40)).toBe(60_000);
  });
});
