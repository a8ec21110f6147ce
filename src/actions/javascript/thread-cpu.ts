/**
 * Per-thread CPU time on Linux, from /proc. process.cpuUsage() counts every thread of the process, so two
 * busy workers would each see double; Node 20 has no per-thread call (process.threadCpuUsage is Node 23.9+).
 * Elsewhere, callers fall back to wall time, which is never less than a thread's CPU time: stricter, not looser.
 */
import { readFileSync } from 'node:fs';

const hasSchedstat = (() => {
  try {
    return Number.isFinite(Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]));
  } catch {
    return false;
  }
})();

/** CPU time (ms) of the thread whose /proc directory is `dir` ("/proc/thread-self", "/proc/self/task/123"), or null. */
export function readThreadCpuMs(dir = '/proc/thread-self'): number | null {
  try {
    // One source for the life of the process, so two readings always compare: schedstat (nanoseconds) where
    // the kernel keeps it, else stat's utime + stime (100 Hz ticks).
    if (hasSchedstat) return Number(readFileSync(`${dir}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
    const stat = readFileSync(`${dir}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

/** The calling thread's kernel thread id (Linux), so the main thread can read a worker's CPU time. */
export function readThreadId(): number | null {
  try {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'latin1').split(' ')[0]);
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
