/**
 * The hops of one session take turns in this process. A hop waits until the one before it has finished:
 * two hops of a session running at once would both start from the same stored state, and the later save
 * would undo the other. A hop sent again while it is still running (a gateway retry, the same `hopId`)
 * does not run at all: it shares the running hop's reply, so the engine runs once and both requests get
 * the same screen.
 *
 * Only this process: with Redis sessions a resend that reaches another process while the first attempt is
 * still running there is not held back (docs/runtime.md, "Resent hops and lost sessions").
 *
 * A session holds at most `maxPending` hops running or waiting (copies that share a reply do not count);
 * past that a hop is refused with 429 at once, so a flood on one session cannot pile up held requests.
 *
 * @example
 *   const turns = createHopTurns<Reply>();
 *   const [a, b] = await Promise.all([turns.take('s1', '1*2', run), turns.take('s1', '1*2', run)]); // run called once, a === b
 */
import { AppError } from '../../../shared/errors';

export interface HopTurns<T> {
  /** Runs `run` when the session's previous hop is done, or shares the running hop's result if it has the same hopId. */
  take(key: string, hopId: string | undefined, run: () => Promise<T>): Promise<T>;
  /** Sessions with a hop running or waiting; 0 once all are done (nothing is left behind). */
  readonly size: number;
}

/** Hops a session may have running or waiting at once; an Africa's Talking session has one, two with a resend. */
export const MAX_PENDING_HOPS = 8;

interface Turn<T> {
  hopId: string | undefined;
  done: Promise<T>;
  /** Hops of the session running or waiting, shared along its chain of turns. */
  pending: { count: number };
}

export function createHopTurns<T>(maxPending = MAX_PENDING_HOPS): HopTurns<T> {
  const last = new Map<string, Turn<T>>();
  return {
    take(key, hopId, run) {
      const before = last.get(key);
      if (before && hopId !== undefined && before.hopId === hopId) return before.done;
      const pending = before ? before.pending : { count: 0 };
      if (pending.count >= maxPending) {
        return Promise.reject(
          new AppError('tooManyRequests', `Too many requests for this session at once (${maxPending}); answer the screen first`),
        );
      }
      pending.count += 1;
      const runNow = () => run();
      const done = before ? before.done.then(runNow, runNow) : runNow();
      const turn: Turn<T> = { hopId, done, pending };
      last.set(key, turn);
      const release = () => {
        pending.count -= 1;
        if (last.get(key) === turn) last.delete(key);
      };
      done.then(release, release);
      return done;
    },
    get size() {
      return last.size;
    },
  };
}
