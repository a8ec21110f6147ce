/**
 * A live screen's stream on the console's side (the inbox's `GET /api/inbox/events`, campaigns'
 * `GET /api/campaigns/events`): server-sent events. A browser's EventSource cannot send the console's bearer token,
 * so the stream is read with fetch and parsed here, and reconnected the way EventSource would: after the server's
 * `retry:` delay, longer after each failure in a row, and not at all once the server no longer takes the token.
 */
import type { z } from 'zod';

/** What one block of the stream (the lines up to a blank line) says: its events' data and a new retry delay. */
export interface StreamBlock {
  data: string | null;
  retryMs: number | null;
}

/**
 * Splits the text read so far into complete blocks and what is left of an incomplete one. Comments (`: ping`) and
 * unknown fields are dropped; several `data:` lines of one block are joined with newlines, as the standard says.
 * @example readBlocks('data: {"a":1}\n\n: ping\n\ndata: {') // { blocks: [{ data: '{"a":1}', retryMs: null }, ...], rest: 'data: {' }
 */
export function readBlocks(text: string): { blocks: StreamBlock[]; rest: string } {
  const normalized = text.replace(/\r\n?/g, '\n');
  const parts = normalized.split('\n\n');
  const rest = parts.pop() ?? '';
  const blocks = parts.map((part) => {
    const data: string[] = [];
    let retryMs: number | null = null;
    for (const line of part.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
    }
    return { data: data.length > 0 ? data.join('\n') : null, retryMs };
  });
  return { blocks, rest };
}

/** One event's data read with its schema, or null when it is not one this console knows (a newer server's). */
export function toStreamEvent<S extends z.ZodType>(schema: S, data: string): z.infer<S> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The wait before the next try: the server's delay, doubled for each failure in a row, at most a minute. */
export const nextDelayMs = (retryMs: number, failures: number) => Math.min(60_000, retryMs * 2 ** Math.min(failures, 5));

/** Where the stream stands, for the screen to say: connecting, live, or waiting to try again (and why). */
export type StreamState = { state: 'connecting' } | { state: 'live' } | { state: 'waiting'; reason: string };

export interface StreamHandlers<E> {
  onEvent: (event: E) => void;
  /** Each time the stream is open: the screen reloads what it missed while it was not. */
  onOpen: () => void;
  onState: (state: StreamState) => void;
  /** The server no longer takes the token (HTTP 401): the stream stops. */
  onUnauthorized: () => void;
}

/**
 * Opens the stream at `path` and keeps it open until the returned function is called; each event is read with
 * `schema` (one it does not know is passed by).
 */
export function openEventStream<S extends z.ZodType>(
  path: string,
  schema: S,
  token: () => string | null,
  handlers: StreamHandlers<z.infer<S>>,
): () => void {
  let stopped = false;
  let abort: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = 3000;
  let failures = 0;

  function wait(reason: string) {
    if (stopped) return;
    handlers.onState({ state: 'waiting', reason });
    timer = setTimeout(() => void connect(), nextDelayMs(retryMs, failures));
    failures += 1;
  }

  async function connect() {
    if (stopped) return;
    handlers.onState({ state: 'connecting' });
    abort = new AbortController();
    const bearer = token();
    let res: Response;
    try {
      res = await fetch(path, {
        headers: { accept: 'text/event-stream', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        signal: abort.signal,
        cache: 'no-store',
      });
    } catch {
      return wait('The server cannot be reached.');
    }
    if (res.status === 401) {
      stopped = true;
      handlers.onUnauthorized();
      return;
    }
    if (!res.ok || !res.body) {
      const reply = (await res.json().catch(() => null)) as { message?: string } | null;
      return wait(reply?.message || `The server answered HTTP ${res.status}.`);
    }
    failures = 0;
    handlers.onState({ state: 'live' });
    handlers.onOpen();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const { blocks, rest } = readBlocks(buffered + value);
        buffered = rest;
        for (const block of blocks) {
          if (block.retryMs !== null) retryMs = block.retryMs;
          const event = block.data === null ? null : toStreamEvent(schema, block.data);
          if (event) handlers.onEvent(event);
        }
      }
    } catch {
      // Aborted (the screen went) or cut (the server restarted): the same as an end.
    }
    wait('The live connection ended.');
  }

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    abort?.abort();
  };
}
