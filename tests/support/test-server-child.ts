/**
 * The child side of startTestServer (test-server.ts): a whole server (createTestApp: its own database) that
 * listens on 127.0.0.1, with `TEST_SERVER_USERS` users signed in. It prints one `READY {json}` line with the
 * port and the users' auth headers, and closes on SIGTERM. Run with `node --import tsx`.
 */
import { sql } from 'drizzle-orm';
import { createTestApp, seedUser } from './test-app';

const t = await createTestApp(JSON.parse(process.env.TEST_SERVER_CONFIG ?? '{}'));
const users: Array<{ auth: Record<string, string> }> = [];
for (let i = 0; i < Number(process.env.TEST_SERVER_USERS ?? 1); i++) users.push({ auth: (await seedUser(t)).auth });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
// On PostgreSQL, the test's own database: a test scopes pg_terminate_backend to it.
const { rows } = (await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
const databaseName = rows[0]?.name ?? '';
process.stdout.write(`READY ${JSON.stringify({ port, users, databaseName })}\n`);
process.on('SIGTERM', () => {
  void t.close().finally(() => process.exit(0));
});
