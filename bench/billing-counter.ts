/**
 * Diagnostic: what the plan-limit check costs a new live session (docs/billing.md, The counter's cost). Calls
 * `admitLiveSession` (the owner's cached standing, then one conditional upsert of the month's counter) N times,
 * one after another and then 100 at a time, on PGlite on its own thread as `npm start` runs it, or on
 * PostgreSQL with BENCH_DATABASE_URL, and prints µs per check:
 *
 *   npx tsx bench/billing-counter.ts
 */
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { openDatabase } from '../src/db/client';
import { createUser } from '../src/server/core/accounts';
import { admitLiveSession } from '../src/server/features/billing/plan-limits';
import { applyPlanPeriod } from '../src/server/features/billing/plan-settlement';

const CHECKS = Number(process.env.CHECKS ?? 5000);
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;

const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { thread: true, lowPriority: true });
await database.migrate();
const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', BILLING_TIMER_INTERVAL_MS: 0 }), {
  database,
  logger: false,
});
await app.ready();
const owner = await createUser(database.db, { fullName: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'bench-pass' });
// PREMIUM: 100,000 sessions a month, so every check below is admitted and counted.
await applyPlanPeriod(database.db, owner.id, 'PREMIUM', 12, new Date());

async function measure(label: string, concurrency: number): Promise<void> {
  const started = process.hrtime.bigint();
  for (let done = 0; done < CHECKS; done += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, CHECKS - done) }, () => admitLiveSession(app.ctx, owner.id));
    for (const refusal of await Promise.all(batch)) if (refusal !== null) throw new Error(`refused: ${refusal}`);
  }
  const us = Number(process.hrtime.bigint() - started) / 1000 / CHECKS;
  console.log(`${label}: ${us.toFixed(1)} µs per new session (${CHECKS} checks, ${concurrency} at a time)`);
}

await measure('warm-up', 1);
await measure('one at a time', 1);
await measure('100 at a time', 100);
await app.close();
await database.close();
