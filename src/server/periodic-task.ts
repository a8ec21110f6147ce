import type { FastifyBaseLogger } from 'fastify';

/** Work done on a timer: started when the server is ready, stopped (its run in flight awaited) before it closes. */
export interface PeriodicTask<T> {
  start(): void;
  stop(): Promise<void>;
  /** One run now; runs never overlap within a process (a run asked for during another waits for it). */
  runOnce(): Promise<T>;
}

/**
 * Runs `run` every `intervalMs` after the previous run ended (0 leaves the timer off: tests call runOnce), or
 * after `nextDelayMs(result)` when that answers a delay (work left over). A failed run is logged under `name` and
 * the next one is scheduled as usual.
 */
export function createPeriodicTask<T>(
  name: string,
  run: () => Promise<T>,
  options: { intervalMs: number; log: FastifyBaseLogger; nextDelayMs?: (result: T) => number | undefined },
): PeriodicTask<T> {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let chain: Promise<unknown> = Promise.resolve();

  function runOnce(): Promise<T> {
    const next = chain.then(run, run);
    chain = next.catch(() => undefined);
    return next;
  }

  function schedule(delayMs = options.intervalMs): void {
    if (!running) return;
    timer = setTimeout(() => {
      runOnce().then(
        (result) => schedule(options.nextDelayMs?.(result)),
        (err: unknown) => {
          options.log.error({ err }, `${name} run failed`);
          schedule();
        },
      );
    }, delayMs);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (running || options.intervalMs <= 0) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
