/**
 * The part every server child shares: answers the harness's commands over IPC (usage marks, a CPU profile
 * of exactly the measured window, a clean stop so profiles and buffers are written).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Server } from 'node:net';
import type { ChildCounts, ChildReady, ChildReply, ParentCommand } from './protocol';

export interface ChildHooks {
  /** The listening server, to count the connections it accepts. */
  server: Server;
  counts?: () => Promise<ChildCounts>;
  stop: () => Promise<void>;
}

function send(message: ChildReply | ChildReady | { type: 'failed'; error: string }): void {
  process.send?.(message);
}

export function reportReady(ready: Omit<ChildReady, 'type'>): void {
  send({ type: 'ready', ...ready });
}

export function reportFailed(err: unknown): never {
  const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  send({ type: 'failed', error });
  console.error(error);
  process.exit(1);
}

export function serveCommands(hooks: ChildHooks): void {
  if (!process.send) throw new Error('a bench server child must be started by bench/run.ts (it needs an IPC channel)');
  let markCpu = process.cpuUsage();
  let markElu: EventLoopUtilization = performance.eventLoopUtilization();
  let markAt = performance.now();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const connections = { open: 0, accepted: 0 };
  hooks.server.on('connection', (socket) => {
    connections.open++;
    connections.accepted++;
    socket.once('close', () => connections.open--);
  });
  const gc = { totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let session: Session | undefined;

  // The harness going away (crash, Ctrl-C) must not leave a server listening.
  process.on('disconnect', () => void hooks.stop().finally(() => process.exit(0)));

  process.on('message', async (raw: ParentCommand) => {
    const reply = (extra: Partial<Extract<ChildReply, { ok: true }>> = {}) => send({ type: 'reply', id: raw.id, ok: true, ...extra });
    try {
      switch (raw.type) {
        case 'mark':
          markCpu = process.cpuUsage();
          markElu = performance.eventLoopUtilization();
          markAt = performance.now();
          loopDelay.reset();
          gc.totalMs = 0;
          gc.maxMs = 0;
          return reply();
        case 'usage': {
          const cpu = process.cpuUsage(markCpu);
          const elu = performance.eventLoopUtilization(markElu);
          return reply({
            usage: {
              cpuUserMs: cpu.user / 1000,
              cpuSystemMs: cpu.system / 1000,
              wallMs: performance.now() - markAt,
              elu: elu.utilization,
              loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
              loopDelayMaxMs: loopDelay.max / 1e6,
              gcTotalMs: gc.totalMs,
              gcMaxMs: gc.maxMs,
              rssMb: process.memoryUsage().rss / 2 ** 20,
              openConnections: connections.open,
              acceptedConnections: connections.accepted,
            },
          });
        }
        case 'profile-start':
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: raw.samplingIntervalUs });
          await session.post('Profiler.start');
          return reply();
        case 'profile-stop': {
          if (!session) throw new Error('no profile running');
          const { profile } = await session.post('Profiler.stop');
          session.disconnect();
          session = undefined;
          await writeFile(raw.file, JSON.stringify(profile));
          return reply({ file: raw.file });
        }
        case 'counts':
          if (!hooks.counts) throw new Error('this server has no counts');
          return reply({ counts: await hooks.counts() });
        case 'stop':
          await hooks.stop();
          reply();
          // Let the reply leave before exiting.
          setTimeout(() => process.exit(0), 20);
          return;
      }
    } catch (err) {
      send({ type: 'reply', id: raw.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  });
}
