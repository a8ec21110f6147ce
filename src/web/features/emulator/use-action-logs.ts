import { useCallback, useEffect, useRef, useState } from 'react';
import { pollStreamLogs, type EmulatorLogEntry } from './emulator.api';
import { POLL_INTERVAL_MS } from './emulator-session';

export interface LogLine extends EmulatorLogEntry {
  /** Running number shown in the gutter; stays with the line when a filter hides others. */
  number: number;
}

/**
 * `waiting` until the first answer, `live` once the stream answers '00', `unavailable` when it answers
 * otherwise (no such endpoint, not this user's app), `signed-out` when nobody is signed in to read logs.
 */
export type LogStreamStatus = 'waiting' | 'live' | 'unavailable' | 'signed-out';

/**
 * When to poll: `always` (the user's own app), `session` (a featured template, whose lines the server only
 * gives out for one session) or `off` (signed out: the stream needs a token).
 */
export type LogPolling = 'always' | 'session' | 'off';

/**
 * Polls POST /streamLogs every 2.5 s. The timestamp starts at the mount time and moves
 * to the timestamp of the last entry received. A call that never gets an answer adds the error line
 * 'Error getting logs>>{detail}', once per outage rather than once per poll.
 */
export function useActionLogs(appId: string, sessionId: string | null, polling: LogPolling) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [status, setStatus] = useState<LogStreamStatus>(polling === 'off' ? 'signed-out' : 'waiting');
  // The `timeStamp` cursor starts at the mount time; once a line arrives, its id is the exact cursor.
  const cursor = useRef<{ timeStamp: string | number; afterId?: number }>({ timeStamp: Date.now() });
  const counter = useRef(0);
  const isFailing = useRef(false);
  // Read by the running interval, so a new session does not restart the polling clock.
  const currentSession = useRef(sessionId);
  currentSession.current = sessionId;

  useEffect(() => {
    if (polling === 'off') return;
    let isActive = true;
    let isBusy = false;
    async function poll() {
      const sessionId = currentSession.current;
      if (isBusy || (polling === 'session' && !sessionId)) return;
      isBusy = true;
      try {
        const result = await pollStreamLogs(appId, cursor.current, sessionId);
        if (!isActive) return;
        if (result.kind === 'failed') {
          if (!isFailing.current) {
            const number = ++counter.current;
            setLines((current) => [
              ...current,
              { number, logLevel: 'error', message: `Error getting logs>>${result.detail}`, timestamp: Date.now() },
            ]);
          }
          isFailing.current = true;
          return;
        }
        isFailing.current = false;
        if (result.kind === 'unavailable') {
          setStatus('unavailable');
          return;
        }
        setStatus('live');
        const last = result.data.at(-1);
        if (!last) return;
        cursor.current = {
          timeStamp: last.timestamp !== '' ? last.timestamp : cursor.current.timeStamp,
          afterId: last.id ?? cursor.current.afterId,
        };
        const added = result.data.map((entry) => ({ ...entry, number: ++counter.current }));
        setLines((current) => [...current, ...added]);
      } finally {
        isBusy = false;
      }
    }
    const timer = setInterval(poll, POLL_INTERVAL_MS);
    return () => {
      isActive = false;
      clearInterval(timer);
    };
  }, [appId, polling]);

  const clear = useCallback(() => {
    counter.current = 0;
    setLines([]);
  }, []);

  return { lines, status, clear };
}
