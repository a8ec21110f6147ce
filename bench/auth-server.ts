/**
 * The whole server in a child process for the auth benchmarks (bench/forgot-password-timing.ts,
 * bench/sign-in-spray.ts), so the measuring client never shares an event loop with it: an in-memory PGlite on
 * its own thread as in production, one registered account, the config overrides the parent passes.
 *
 *   const server = await startAuthServer({ LOGIN_RATE_LIMIT: 1e6 });  // server.url('/api/auth/login')
 */
import { spawn } from 'node:child_process';
import { openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { createConfig, type Config } from '../src/server/config';
import { createUser } from '../src/server/core/accounts';

export const REGISTERED = { email: 'registered@example.com', password: 'bench-pass' };

export async function startAuthServer(overrides: Partial<Config>) {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, JSON.stringify(overrides)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = out.match(/port=(\d+)/);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: (path: string) => `http://127.0.0.1:${port}${path}`, stop: () => child.kill() };
}

async function serve(overrides: Partial<Config>): Promise<void> {
  const database = await openDatabase({ thread: true });
  await database.migrate();
  await createUser(database.db, { fullName: 'Bench', ...REGISTERED });
  const app = await buildApp(createConfig({ NODE_ENV: 'test', ...overrides }), { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(`port=${typeof address === 'object' && address ? address.port : 0}`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) await serve(JSON.parse(process.argv[2] ?? '{}') as Partial<Config>);
