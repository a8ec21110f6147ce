import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createPeriodicTask, type PeriodicTask } from './periodic-task';

const log = pino({ level: 'silent' });
let task: PeriodicTask<unknown> | undefined;
afterEach(async () => task?.stop());

it('runs again soon while a run says work is left, then waits the delay it asks for', async () => {
  let runs = 0;
  task = createPeriodicTask('catching up', async () => ({ isBehind: ++runs < 4 }), {
    intervalMs: 20,
    log,
    nextDelayMs: (result) => (result.isBehind ? 5 : 60_000),
  });
  task.start();
  await expect.poll(() => runs, { timeout: 5000 }).toBe(4);
  // Caught up: the next run waits the long delay, so no fifth run comes soon.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(runs).toBe(4);
});

it('goes on at its interval after a run that asks for no delay, and after a failed run', async () => {
  let runs = 0;
  task = createPeriodicTask(
    'failing',
    async () => {
      if (++runs % 2 === 0) throw new Error('database gone');
      return 'done';
    },
    { intervalMs: 10, log, nextDelayMs: () => undefined },
  );
  task.start();
  await expect.poll(() => runs, { timeout: 5000 }).toBeGreaterThanOrEqual(4);
});
