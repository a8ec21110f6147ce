import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { UNAUTHORIZED_EVENT } from './api';
import { openEventStream, type StreamState } from './event-stream';
import { getToken } from './session';

/**
 * Keeps a live screen's stream open while it is shown (lib/event-stream.ts): `onEvent` for each event the schema
 * knows, `onOpen` each time it opens (to read again what was missed while it was not). Answers where it stands.
 */
export function useLiveStream<S extends z.ZodType>(
  path: string,
  schema: S,
  handlers: { onEvent: (event: z.infer<S>) => void; onOpen: () => void },
): StreamState {
  const [state, setState] = useState<StreamState>({ state: 'connecting' });
  // The latest handlers, without reopening the stream when they change.
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(
    () =>
      openEventStream(path, schema, getToken, {
        onEvent: (event) => latest.current.onEvent(event),
        onOpen: () => latest.current.onOpen(),
        onState: setState,
        onUnauthorized: () => window.dispatchEvent(new Event(UNAUTHORIZED_EVENT)),
      }),
    [path, schema],
  );
  return state;
}
