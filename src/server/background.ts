import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for, e.g. the password-reset mail: the reply must not take longer
 * when the account exists. A failure is logged (nobody is waiting to be told); `settle` waits for what is
 * running, so shutdown finishes it before the database closes and tests can wait for its effects.
 */
export interface BackgroundTasks {
  run(name: string, task: () => Promise<void>): void;
  settle(): Promise<void>;
}

export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, task) {
      // Started on the next turn of the event loop, after the reply that scheduled it has been written.
      const job = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((err: unknown) => log.error({ err, task: name }, 'background task failed'))
        .finally(() => running.delete(job));
      running.add(job);
    },
    async settle() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
