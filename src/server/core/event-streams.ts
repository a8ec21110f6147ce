/**
 * Live screens' streams (the inbox's, a campaign's): server-sent events, one per open screen, each hearing its
 * account's events (account-events.ts). A stream holds a connection for as long as the screen is open, so they are
 * bounded per account and in all (a hostile tenant opening thousands starves nobody else), an idle one gets a
 * heartbeat comment, one whose reader stopped reading is dropped rather than buffered without end, and every one is
 * ended when the server closes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import type { AccountEvents } from './account-events';

export interface EventStreamLimits<E> {
  perAccount: number;
  total: number;
  heartbeatMs: number;
  /** The words of the 429 past a limit. */
  tooManyMessage: string;
  /** What a stream does with an event: send it (the default), pass it by, or end (a removed agent's stream). */
  route?: (event: E, userId: string) => 'send' | 'skip' | 'end';
}

/** A reader this far behind (bytes waiting in the socket's buffer) is dropped: the screen reloads the list when it reconnects. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export function createEventStreams<E>(events: AccountEvents<E>, limits: EventStreamLimits<E>) {
  const perAccount = new Map<string, number>();
  const open = new Set<() => void>();
  /** Each stream's end, by the user who opened it: a removed agent's screens end at once. */
  const byUser = new Map<() => void, string>();

  /**
   * Takes the request over and streams the account's events until the client goes or the server closes. An agent's
   * stream counts under the account (`ownerId`, their owner's), and is `userId`'s to end.
   */
  function stream(ownerId: string, userId: string, req: FastifyRequest, reply: FastifyReply): void {
    const held = perAccount.get(ownerId) ?? 0;
    if (held >= limits.perAccount || open.size >= limits.total) throw new AppError('tooManyRequests', limits.tooManyMessage);
    perAccount.set(ownerId, held + 1);
    const res = reply.raw;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      byUser.delete(end);
      const left = (perAccount.get(ownerId) ?? 1) - 1;
      if (left > 0) perAccount.set(ownerId, left);
      else perAccount.delete(ownerId);
      if (!res.writableEnded) res.end();
    };
    const write = (chunk: string) => {
      if (ended) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) return end();
      res.write(chunk);
    };
    reply.hijack();
    // The headers the server's hooks set so far (security headers), then the stream's own.
    const set = Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined);
    res.writeHead(200, {
      ...Object.fromEntries(set),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // How long a browser's EventSource waits before it reconnects; and a first line, so the client knows it is open.
    res.write('retry: 3000\n: connected\n\n');
    const unsubscribe = events.subscribe(ownerId, (event: E) => {
      const route = limits.route?.(event, userId) ?? 'send';
      if (route === 'end') return end();
      if (route === 'send') write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => write(': ping\n\n'), limits.heartbeatMs);
    heartbeat.unref();
    open.add(end);
    byUser.set(end, userId);
    req.raw.on('close', end);
    res.on('error', end);
  }

  return {
    stream,
    /** Streams open now: in all, and for one account. */
    count: (ownerId?: string) => (ownerId === undefined ? open.size : (perAccount.get(ownerId) ?? 0)),
    /** Ends the user's streams (a removed agent's). */
    closeUser(userId: string) {
      for (const [end, user] of [...byUser]) if (user === userId) end();
    },
    /** Ends every stream (the server is closing: a held connection would keep it from closing). */
    closeAll() {
      for (const end of [...open]) end();
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
