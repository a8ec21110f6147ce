/**
 * The server under test: the whole Dialflow server (buildApp, every plugin and route) on an in-memory
 * PGlite, logging off, sessions in memory or in Redis (BENCH_REDIS_URL). It seeds a user and the
 * three-menu shop through the HTTP API, deploys it, checks one session end to end, then listens on
 * 127.0.0.1 and tells the harness its port and app id. With BENCH_SHORTCODES=1 (the provider target) it also
 * seeds SHORTCODE_COUNT purchased extensions connected to the shop, and the hops go to the provider's URL.
 * With BENCH_BILLING=on (js-tenants.ts --trial) billing is on, as a hosted install runs it, and the seeded user
 * (bench@bench.dialflow) pays (Enterprise); accounts registered over HTTP are then TRIAL accounts.
 */
import { and, count, eq } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../../src/server/app';
import { createConfig } from '../../src/server/config';
import { openDatabase } from '../../src/db/client';
import { appLogs, sessionInputs, sessionRecords, shortcodeProviders, subscriptions, users } from '../../src/db/schema';
import { reportFailed, reportReady, serveCommands } from './child';
import { atForm, expectedReply, SHORTCODE_COUNT, SHORTCODE_PROVIDER, shortcodeDialOf } from '../shop';
import { seedShop, seedShortcodes } from '../seed-shop';

try {
  const redisUrl = process.env.BENCH_REDIS_URL || undefined;
  const viaProvider = process.env.BENCH_SHORTCODES === '1';
  const billing = process.env.BENCH_BILLING === 'on' ? 'on' : 'off';
  const ablateSink = process.env.BENCH_ABLATE === 'sink';
  // Diagnostic `--only=postgres`: a real PostgreSQL (a database the harness made for this run) instead of PGlite.
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  // Diagnostic `--only=filedb`: PGlite's files in a folder, as DATA_DIR has them, instead of in memory.
  const pgliteDir = process.env.BENCH_PGLITE_DIR || undefined;
  // Diagnostic `--only=logged`: the logger on at info, JSON lines to this file, as `npm start` logs when piped.
  const logFile = process.env.BENCH_LOG_FILE || undefined;
  // As the server opens it (src/server/app.ts), in memory: PGlite on its own low-priority thread.
  const opened = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: pgliteDir, thread: true, lowPriority: true });
  await opened.migrate();
  // Diagnostic only (`--only=nosink`): once seeded, the event sink's writes (its COPYs through
  // Database.copyRows) are dropped, to measure what its database writes cost. The server code is untouched;
  // its database handle is wrapped.
  let isSinkStubbed = false;
  // hostile-tenant.ts's `paused` phase: SIGUSR2 stops the event writer's COPYs (a database that stops answering
  // them) until the next SIGUSR2. Nothing else of the server changes; only its database handle is wrapped.
  let paused: { promise: Promise<void>; resume: () => void } | undefined;
  process.on('SIGUSR2', () => {
    if (paused) {
      paused.resume();
      paused = undefined;
    } else {
      let resume!: () => void;
      paused = { promise: new Promise<void>((r) => (resume = r)), resume };
    }
  });
  const database = {
    ...opened,
    copyRows: async (table: string, columns: string[], text: string) => {
      if (paused) await paused.promise;
      return ablateSink && isSinkStubbed ? undefined : opened.copyRows(table, columns, text);
    },
  };
  const db = opened.db;
  const app = await buildApp(
    createConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: logFile ? 'info' : 'silent',
      REDIS_URL: redisUrl,
      BILLING: billing,
      // Without billing (the runtime benches, hostile-tenant.ts, js-tenants.ts's default phases) the tenants' hops
      // go to test URLs, and the attacks measure what the hop thread and the pool do about them: the per-account
      // limit on test hops would end them first. With billing (js-tenants.ts --trial) it is on, as it ships.
      ...(billing === 'off' ? { TEST_HOP_RATE_LIMIT: 1_000_000 } : {}),
      // Hop admission's settings as the environment gives them (HOP_ADMISSION_SLOTS=0: off, to compare).
      ...(process.env.HOP_ADMISSION_SLOTS ? { HOP_ADMISSION_SLOTS: Number(process.env.HOP_ADMISSION_SLOTS) } : {}),
    }),
    { database, logger: logFile ? { stream: pino.destination({ dest: logFile, sync: false }) } : false },
  );
  await app.ready();

  const { appId, deployMessage } = await seedShop(app);
  if (viaProvider) await seedShortcodes(app, appId);
  if (billing === 'on') {
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'bench@bench.dialflow'));
    const now = new Date();
    await db
      .insert(subscriptions)
      .values({ userId: owner!.id, plan: 'ENTERPRISE', periodStart: now, periodEnd: new Date(now.getTime() + 365 * 86_400_000) });
  }
  // The provider's URL with its key, as admins hand it to the aggregator (docs/shortcodes.md, "Provider keys").
  const [provider] = await db.select().from(shortcodeProviders).where(eq(shortcodeProviders.providerKey, SHORTCODE_PROVIDER));
  const path = viaProvider ? `/ussd/provider/${SHORTCODE_PROVIDER}/${provider?.gatewayKey}` : `/ussd/${appId}/live`;

  // One session through inject before any load: a wrong screen here means the figures would be meaningless.
  for (let step = 0; step < 3; step++) {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: atForm('bench-selfcheck', step, 7, viaProvider ? shortcodeDialOf(7) : undefined),
    });
    const want = expectedReply(step, 7);
    if (res.body !== want)
      throw new Error(`self-check hop ${step + 1}: expected ${JSON.stringify(want)}, got ${res.statusCode} ${JSON.stringify(res.body)}`);
  }

  isSinkStubbed = ablateSink;

  serveCommands({
    server: app.server,
    async counts() {
      const started = performance.now();
      await app.runtime.flushEvents();
      const flushMs = performance.now() - started;
      const [sessions] = await db
        .select({ n: count() })
        .from(sessionRecords)
        .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.status, 'completed')));
      const [logs] = await db.select({ n: count() }).from(appLogs).where(eq(appLogs.appId, appId));
      const [inputs] = await db.select({ n: count() }).from(sessionInputs).where(eq(sessionInputs.appId, appId));
      return { completedSessions: sessions!.n, logRows: logs!.n, inputRows: inputs!.n, flushMs };
    },
    async stop() {
      await app.close();
      await opened.close();
    },
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  reportReady({
    port,
    appId,
    path,
    info: `Dialflow (${deployMessage}), ${databaseUrl ? 'PostgreSQL' : pgliteDir ? `PGlite in ${pgliteDir}` : 'PGlite in memory'}, billing ${billing}, sessions ${redisUrl ? `in Redis ${redisUrl}` : 'in memory'}, ${logFile ? `logger at info to ${logFile}` : 'logger off'}${ablateSink ? ', EVENT WRITES DROPPED (diagnostic)' : ''}${viaProvider ? `, hops through /ussd/provider/${SHORTCODE_PROVIDER} to 1 of ${SHORTCODE_COUNT} purchased extensions` : ''}`,
  });
} catch (err) {
  reportFailed(err);
}
