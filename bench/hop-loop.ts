/**
 * Diagnostic: the runtime's cost per hop without HTTP, its rows written. Seeds the bench shop like
 * servers/dialflow.ts, then drives `runtime.handleRequest` in-process with the same Africa's Talking requests,
 * N sessions at a time, and prints µs per hop, wall and CPU (the CPU of every thread: the database writer's
 * included; it varies by ±30% from run to run on this 2-core machine):
 *
 *   npx tsx bench/hop-loop.ts
 *
 * With HOPS_CONTACT=1 the shop's amount menu reads and saves the caller's contact (seed-shop.ts): each session
 * reads its contact once and writes it once, when it ends, with its records (docs/contacts.md); HOPS_SESSIONS sets
 * the sessions.
 *
 * For a CPU profile with line numbers, bundle it next to the migrations folder (gitignored) and profile that:
 *
 *   npx esbuild bench/hop-loop.ts --bundle --platform=node --format=esm --packages=external --outfile=src/db/.hop-loop.mjs
 *   node --cpu-prof --cpu-prof-dir=/tmp/hop-prof src/db/.hop-loop.mjs
 */
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseForm } from 'node:querystring';
import { atForm, expectedReply } from './shop';
import { seedShop } from './seed-shop';

const SESSIONS = Number(process.env.HOPS_SESSIONS ?? 20_000);
const CONCURRENCY = 500;

// As `npm start` opens it: PGlite's files in a folder (an in-memory PGlite's writes slow down as it grows), on its
// own low-priority thread. The hops wait for the writer when it falls 20,000 rows behind (event-sink.ts), so the
// figures are the hop with its rows written; `--only=nosink` in run.ts measures the hop without them.
const database = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'dialflow-hop-loop-')), thread: true, lowPriority: true });
await database.migrate();
const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', BILLING: 'off' }), { database, logger: false });
await app.ready();
const readsContact = process.env.HOPS_CONTACT === '1';
const { appId } = await seedShop(app, { readsContact });

async function session(n: number) {
  for (let step = 0; step < 3; step++) {
    // The gateway's form, parsed into a null-prototype object as @fastify/formbody does.
    const body = parseForm(atForm(`s${n}`, step, n));
    const reply = await app.runtime.handleRequest(appId, 'live', {
      method: 'POST',
      query: {},
      body,
      contentType: 'application/x-www-form-urlencoded',
    });
    if (reply?.body !== expectedReply(step, n)) throw new Error(`hop ${step} of ${n}: ${reply?.body}`);
  }
}

async function run(total: number) {
  let next = 0;
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      // A turn of the event loop now and then, as a server's I/O gives: the event sink's timer and
      // writes get their chance.
      while (next < total) {
        await session(next++);
        if (next % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const wallUs = Number(process.hrtime.bigint() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { wallPerHop: wallUs / (total * 3), cpuPerHop: (used.user + used.system) / (total * 3) };
}

await run(2000); // warm-up
const result = await run(SESSIONS);
const before = app.runtime.getEventStats();
const flushStarted = process.cpuUsage();
await app.runtime.flushEvents();
const flushCpu = process.cpuUsage(flushStarted);
const stats = app.runtime.getEventStats();
console.log(
  `${SESSIONS * 3} hops${readsContact ? ' (contact read and saved)' : ''}: ${result.wallPerHop.toFixed(1)} µs/hop wall, ${result.cpuPerHop.toFixed(1)} µs/hop CPU`,
);
console.log(
  `events: ${before.written} written during the run, ${before.buffered} left (final flush ${((flushCpu.user + flushCpu.system) / (SESSIONS * 3)).toFixed(1)} µs/hop CPU), ${stats.shed} shed, ${stats.written} written in all`,
);
await app.close();
await database.close();
