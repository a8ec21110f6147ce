/**
 * Hop admission (docs/runtime.md, "Hop admission"): while the process is busy, each account gets its share of the hop
 * thread, so one account's flood waits for its turns instead of crowding out everyone else's hops.
 *
 * Busy is counted in turns of the event loop: a turn runs the requests its poll read, all of them, before the loop
 * reads again. Past `slots` hops started in one turn, an account that has started its share of the turn's hops
 * (`slots` over the accounts that started one, at least 1) waits in its account's queue; an account under its share
 * starts at once, whoever else is flooding. At the end of each turn (setImmediate, after the poll) the queues start
 * up to `slots` hops, round-robin across accounts, one an account a pass: an account with one hop waiting goes ahead
 * of one with 40 queued, and a flood runs `slots` hops a turn however many it has in flight, so the next turn's poll
 * (everyone else's requests) comes after those, not after all of them. An account alone on the thread (no other
 * account started a hop in the last one to two seconds) is never held: there is no one to share with.
 *
 * A queue holds at most `maxQueued` hops: past it a hop is refused at once, so a flood cannot grow memory. A waiting
 * hop whose gateway got its end screen meanwhile (hop-deadline.ts set `late`), or that waited `maxWaitMs`, leaves the
 * queue without running. Nothing is held while a hop runs, so a hop that throws leaves nothing behind. A hop that
 * starts at once costs two map lookups and, once a turn, a setImmediate.
 *
 * @example
 *   const turn = admission.admit(ownerId, request.late);
 *   if (!(turn === true || (turn !== false && (await turn)))) return unavailable;
 */
import { performance } from 'node:perf_hooks';
import type { AdmissionOutcome } from '../../core/metrics';

export interface HopAdmission {
  /**
   * Whether the hop may run: true at once, false refused (its account's queue is full), or a promise that resolves
   * true when its turn comes, false when it expired waiting.
   */
  admit(ownerId: string, late?: { isLate: boolean }): boolean | Promise<boolean>;
  /** Hops waiting now, and the accounts they belong to. */
  stats(): AdmissionStats;
  /** Starts whatever waits (the runtime is closing: its hops finish as they would have). */
  close(): void;
}

export interface AdmissionStats {
  queued: number;
  accounts: number;
}

export interface AdmissionOptions {
  /** Hops a turn of the event loop starts before an account over its share waits; 0 turns admission off. */
  slots: number;
  /** Hops an account may have waiting; past it its hops are refused at once (1,000). */
  maxQueued?: number;
  /** The longest a hop waits for its turn without a gateway deadline of its own (a chat message; 10 s). */
  maxWaitMs?: number;
  /** Told of every hop that did not start at once (metrics). */
  onOutcome?: (outcome: AdmissionOutcome) => void;
}

interface Waiting {
  resolve: (isAdmitted: boolean) => void;
  late: { isLate: boolean } | undefined;
  queuedAt: number;
}

/** An account's waiting hops, oldest first from `head`. */
interface Queue {
  ownerId: string;
  items: Waiting[];
  head: number;
}

/** How long an account counts as sharing the thread after its last hop started (one generation of `seen`). */
const SEEN_FOR_MS = 1000;

const lengthOf = (queue: Queue) => queue.items.length - queue.head;

export function createHopAdmission(options: AdmissionOptions): HopAdmission {
  const { slots, onOutcome } = options;
  const maxQueued = options.maxQueued ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  /** Hops started this turn, in all and per account. */
  let started = 0;
  const startedBy = new Map<string, number>();
  /** Accounts with hops waiting, by account and in turn order (from `cursor`). */
  const queues = new Map<string, Queue>();
  const order: Queue[] = [];
  let cursor = 0;
  let queued = 0;
  let isTurnEnding = false;
  let isClosed = false;
  // The accounts that started hops lately: this generation and the one before (a second each). An account alone
  // on the thread has no one to share it with: its hops all start at once, as without admission.
  let seen = new Set<string>();
  let seenBefore = new Set<string>();
  let seenSince = performance.now();
  const hasOnly = (set: Set<string>, ownerId: string) => set.size === 0 || (set.size === 1 && set.has(ownerId));
  const isAlone = (ownerId: string) => hasOnly(seen, ownerId) && hasOnly(seenBefore, ownerId);
  function rotateSeen(now: number): void {
    if (now - seenSince < SEEN_FOR_MS) return;
    const older = seenBefore;
    older.clear();
    if (now - seenSince < 2 * SEEN_FOR_MS) {
      seenBefore = seen;
      seen = older;
    } else {
      seen.clear();
    }
    seenSince = now;
  }

  const shareOf = (ownerId: string) => Math.max(1, Math.floor(slots / (startedBy.size + (startedBy.has(ownerId) ? 0 : 1))));
  const mayStart = (ownerId: string) => started < slots || (startedBy.get(ownerId) ?? 0) < shareOf(ownerId) || isAlone(ownerId);

  function start(ownerId: string): void {
    seen.add(ownerId);
    started++;
    startedBy.set(ownerId, (startedBy.get(ownerId) ?? 0) + 1);
    if (!isTurnEnding) {
      isTurnEnding = true;
      setImmediate(endTurn);
    }
  }

  function shift(queue: Queue): Waiting {
    const waiting = queue.items[queue.head]!;
    queue.items[queue.head] = undefined as unknown as Waiting;
    queue.head++;
    queued--;
    if (queue.head === queue.items.length) {
      queue.items.length = 0;
      queue.head = 0;
    } else if (queue.head >= 32 && queue.head * 2 >= queue.items.length) {
      // A queue that never empties keeps its taken half no longer than the half still waiting.
      queue.items.splice(0, queue.head);
      queue.head = 0;
    }
    return waiting;
  }

  /** Drops the expired hops at the front of a queue; true when some remain. */
  function dropExpired(queue: Queue, now: number): boolean {
    while (lengthOf(queue) > 0) {
      const waiting = queue.items[queue.head]!;
      if (!(waiting.late?.isLate || now - waiting.queuedAt >= maxWaitMs)) return true;
      shift(queue);
      onOutcome?.('expired');
      waiting.resolve(false);
    }
    return false;
  }

  function leaveOrder(index: number): void {
    queues.delete(order[index]!.ownerId);
    order.splice(index, 1);
    if (cursor > index) cursor--;
    if (cursor >= order.length) cursor = 0;
  }

  /** A new turn: the counts start again, and the queues start up to `slots` hops, one an account a pass. */
  function endTurn(): void {
    isTurnEnding = false;
    started = 0;
    startedBy.clear();
    const now = performance.now();
    rotateSeen(now);
    while (order.length > 0 && (started < slots || isClosed)) {
      const queue = order[cursor]!;
      if (!dropExpired(queue, now)) {
        leaveOrder(cursor);
        continue;
      }
      const waiting = shift(queue);
      start(queue.ownerId);
      waiting.resolve(true);
      if (lengthOf(queue) === 0) leaveOrder(cursor);
      else cursor = (cursor + 1) % order.length;
    }
    // What still waits goes on in the next turn.
    if (order.length > 0 && !isTurnEnding) {
      isTurnEnding = true;
      setImmediate(endTurn);
    }
  }

  return {
    admit(ownerId, late) {
      if (slots <= 0 || isClosed) return true;
      let queue = queues.get(ownerId);
      if (!queue && mayStart(ownerId)) {
        start(ownerId);
        return true;
      }
      if (queue && lengthOf(queue) >= maxQueued) {
        onOutcome?.('refused');
        return false;
      }
      onOutcome?.('queued');
      if (!queue) {
        queue = { ownerId, items: [], head: 0 };
        queues.set(ownerId, queue);
        order.push(queue);
      }
      queued++;
      if (!isTurnEnding) {
        isTurnEnding = true;
        setImmediate(endTurn);
      }
      const items = queue.items;
      return new Promise<boolean>((resolve) => items.push({ resolve, late, queuedAt: performance.now() }));
    },
    stats: () => ({ queued, accounts: queues.size }),
    close() {
      isClosed = true;
      endTurn();
    },
  };
}
