import { setFlagsFromString } from 'node:v8';
import { ConfigError, getPublicOrigin, loadConfig, type Config } from './config';

// `npm start`'s --max-semi-space-size=32 sizes this thread's young generation for the hops (set when the process
// started); the threads started from here on (the database's, the script workers') size theirs with their own
// resourceLimits, which the flag would override: without this each grows to 64 MB under load and keeps it.
setFlagsFromString('--max-semi-space-size=0');
import { openConfiguredDatabase } from './open-database';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// Start-up (docs/operations.md, Memory and start): the database opens (PGlite compiles on its own thread) while the
// server's modules load; buildApp waits for it, migrates, and the port opens once the routes are registered.
const openingDatabase = openConfiguredDatabase(config);
// buildApp awaits it and reports a failure; this only keeps it from counting as unhandled while the modules load.
openingDatabase.catch(() => {});
const { buildApp } = await import('./app');
const { seedDatabase, DEMO_BOT_USER, DEMO_USER, DEMO_MERCHANT_USER } = await import('./seed');
const app = await buildApp(config, { openingDatabase });
const seed = await seedDatabase(app.ctx.db, {
  adminEmail: config.ADMIN_EMAIL,
  adminPassword: config.ADMIN_PASSWORD,
  demo: config.SEED_DEMO,
  sandboxOrigin: config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`,
});
if (seed.seeded) {
  const lines = [`Seeded an empty database. Super admin: ${seed.adminEmail}`];
  if (seed.generatedAdminPassword) lines.push(`  generated password (shown once): ${seed.generatedAdminPassword}`);
  if (config.SEED_DEMO) {
    lines.push(`  demo user: ${DEMO_USER.email} / ${DEMO_USER.password}`);
    lines.push(`  demo merchant user: ${DEMO_MERCHANT_USER.email} / ${DEMO_MERCHANT_USER.password}`);
    lines.push(`  demo bot builder (WhatsApp bots): ${DEMO_BOT_USER.email} / ${DEMO_BOT_USER.password}`);
  }
  console.log(lines.join('\n'));
}

// The JavaScript workers and WhatsApp's Baileys start when first needed, not here (docs/operations.md, Memory).
await app.listen({ port: config.PORT, host: config.HOST });
console.log(`Dialflow is running: http://localhost:${config.PORT} (API docs at /api/docs, database ${app.ctx.database.kind})`);
if (!config.PUBLIC_URL) {
  console.log(`Links in mail (password reset) point to ${getPublicOrigin(config)}; set PUBLIC_URL to the console's public address.`);
}

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database (onClose hooks).
let isClosing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (isClosing) return;
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    // Not ready from now on, still serving: a load balancer stops sending traffic before the server closes.
    app.startDraining();
    if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((done) => setTimeout(done, config.SHUTDOWN_DRAIN_MS));
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  });
}
