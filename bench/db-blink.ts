/**
 * The database blinking under load (issue 26): two server processes as they ship with PostgreSQL and Redis
 * (`DATABASE_URL`, `REDIS_URL`, every other setting its default; Node's cluster module behind one port, as
 * `--only=scaleout` runs them), the bench shop's sessions driven over HTTP in Africa's Talking's format, and every
 * connection to the server's database ended three times during the run (`pg_terminate_backend`, as a managed
 * failover, a restart or a network blip does). It reports whether a process crashed, what the gateways were
 * answered, and how many completed sessions (an END screen of the shop) have no record once the servers stopped.
 *
 *   npx tsx bench/db-blink.ts [--sessions=1500] [--concurrency=100] [--postgres=URL] [--redis=URL]
 *
 * Bounded: the sessions given (1,500 by default), and a watchdog that stops everything after 5 minutes. Loopback
 * only; the database it creates is dropped, and the shared Redis keeps only the shop's short-lived session keys.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { createScratchDatabase, DEFAULT_POSTGRES_URL } from './scratch-database';
import { countPersisted, ShippedServer } from './shipped';
import { atForm, expectedReply, HOPS_PER_SESSION } from './shop';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [key, value = ''] = a.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const sessions = Number(args.get('sessions') ?? 1500);
const concurrency = Number(args.get('concurrency') ?? 100);
const postgresUrl = args.get('postgres') ?? DEFAULT_POSTGRES_URL;
const redisUrl = args.get('redis') ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TERMINATIONS = 3;
const UNAVAILABLE = 'END Service temporarily unavailable. Please try again.';

const children: ChildProcess[] = [];
const watchdog = setTimeout(() => {
  console.error('db-blink: still running after 5 minutes; stopping');
  for (const child of children) child.kill('SIGKILL');
  process.exit(2);
}, 300_000);
watchdog.unref();

async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const admin = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    return (await admin.query<T>(text, values)).rows;
  } finally {
    await admin.end();
  }
}

const scratch = await createScratchDatabase(postgresUrl, 'blink');
const { name: databaseName, url: databaseUrl } = scratch;
const loadBefore = loadavg()[0]!;

let server: ShippedServer | undefined;
try {
  server = await ShippedServer.start(
    { env: { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }, workers: 2, nodeFlags: ['--max-semi-space-size=32'] },
    (child) => children.push(child),
  );
  const shipped = server;
  const isClusterUp = () => shipped.proc.exitCode === null && shipped.proc.signalCode === null;
  console.log(
    `db-blink: 2 processes (pids ${server.pids.slice(1).join(', ')}) on ${databaseName} + Redis; ${sessions} sessions, ${concurrency} at a time`,
  );

  const replies = { ends: 0, unavailable: 0, otherScreens: 0, httpErrors: 0, networkErrors: 0 };
  const terminated: number[] = [];
  let started = 0;
  async function hop(sessionId: string, step: number, n: number): Promise<string | undefined> {
    try {
      const res = await fetch(`${shipped.baseUrl}/ussd/${shipped.appId}/live`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: atForm(sessionId, step, n),
        signal: AbortSignal.timeout(20_000),
      });
      const body = await res.text();
      if (res.status !== 200) {
        replies.httpErrors++;
        return undefined;
      }
      return body;
    } catch {
      replies.networkErrors++;
      return undefined;
    }
  }
  async function caller(): Promise<void> {
    while (started < sessions) {
      const n = started++;
      // Every connection to the database ended at a quarter, half and three quarters of the sessions.
      if (n > 0 && n % Math.floor(sessions / (TERMINATIONS + 1)) === 0 && terminated.length < TERMINATIONS) {
        const [row] = await adminQuery<{ n: number }>(
          'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [databaseName],
        );
        terminated.push(row!.n);
      }
      const sessionId = `blink-${n}`;
      for (let step = 0; step < HOPS_PER_SESSION; step++) {
        const body = await hop(sessionId, step, n);
        if (body === undefined) break;
        if (body === expectedReply(step, n)) {
          if (step === HOPS_PER_SESSION - 1) replies.ends++;
          continue;
        }
        if (body === UNAVAILABLE) replies.unavailable++;
        else replies.otherScreens++;
        break;
      }
    }
  }
  const driveStarted = performance.now();
  await Promise.all(Array.from({ length: concurrency }, caller));
  const driveSeconds = (performance.now() - driveStarted) / 1000;
  const loadDuring = loadavg()[0]!;
  const crashedWorkers = (server.logTail().match(/cluster: worker \d+ exited/g) ?? []).length;
  const isUpAfter = isClusterUp();
  if (isUpAfter) await server.settle(30_000);
  await server.stop();
  const log = server.logTail();
  // What the event sinks said: a batch kept and tried again (this code), or written row by row (before it).
  const fullLog = readFileSync(server.logFile, 'utf8');
  const countLines = (text: string) => fullLog.split(text).length - 1;
  const sinkLog = {
    keptAndRetried: countLines('they are kept and tried again'),
    rowByRow: countLines('writing its rows one by one'),
    rowsNotWritten: countLines('event rows could not be written'),
  };

  const counts = await countPersisted({ url: databaseUrl, databaseName }, server.appId);
  const [dupes] = await (async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      return (
        await db.query<{ extra: number }>(
          "select (count(*) - count(distinct session_id))::int as extra from session_records where app_id = $1 and status = 'completed'",
          [shipped.appId],
        )
      ).rows;
    } finally {
      await db.end();
    }
  })();
  // The self-check's session is one of the records.
  const endsSeen = replies.ends + 1;
  const lost = Math.max(0, endsSeen - counts.completedSessions);
  const result = {
    sessions,
    concurrency,
    terminated,
    crashed: !isUpAfter || crashedWorkers > 0,
    crashedWorkers,
    replies,
    completedSeen: endsSeen,
    completedRecords: counts.completedSessions,
    lostRecords: lost,
    duplicateRecords: dupes?.extra ?? 0,
    sinkLog,
    driveSeconds: Number(driveSeconds.toFixed(1)),
    loadAverage: { before: Number(loadBefore.toFixed(2)), during: Number(loadDuring.toFixed(2)) },
  };
  console.log(
    `db-blink: ${result.crashed ? `CRASHED (${crashedWorkers} worker(s) exited; the cluster ${isUpAfter ? 'stayed up' : 'stopped'})` : 'no crash'}; ` +
      `connections ended ${terminated.join(', ')}; END screens ${replies.ends}, unavailable screens ${replies.unavailable}, ` +
      `HTTP errors ${replies.httpErrors}, network errors ${replies.networkErrors}, other screens ${replies.otherScreens}; ` +
      `completed sessions ${endsSeen}, records ${counts.completedSessions}: ${lost} lost, ${result.duplicateRecords} twice; ` +
      `sink log: ${sinkLog.keptAndRetried} outages kept and retried, ${sinkLog.rowByRow} batches written row by row, ${sinkLog.rowsNotWritten} "rows could not be written"; ` +
      `${result.driveSeconds} s, load average ${result.loadAverage.before} before, ${result.loadAverage.during} after`,
  );
  console.log(JSON.stringify(result));
  if (result.crashed) console.log(`--- server log (last 2 KB) ---\n${log}`);
} finally {
  server?.remove();
  await scratch.drop().catch((err: Error) => console.error(`db-blink: could not drop ${databaseName}: ${err.message}`));
}
