/**
 * The whole server in the bench's own process, on a scratch PostgreSQL database (scratch-database.ts), driven
 * with app.inject() as the console drives it: for benches that time one call, not a server under load.
 */
import type { FastifyInstance } from 'fastify';
import { type Database, openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { createScratchDatabase } from './scratch-database';

/** A scratch database opened and migrated to this tree's schema; `close` closes it and drops it. */
export async function openScratchDatabase(adminUrl: string, label: string): Promise<{ database: Database; close(): Promise<void> }> {
  const scratch = await createScratchDatabase(adminUrl, label);
  let database: Database | undefined;
  const close = async () => {
    await database?.close();
    await scratch.drop();
  };
  try {
    database = await openDatabase({ url: scratch.url });
    await database.migrate();
  } catch (err) {
    await close();
    throw err;
  }
  return { database, close };
}

/** The whole server on `database`, logger off, sign-ins not rate limited, driven with app.inject(). */
export function buildBenchApp(database: Database): Promise<FastifyInstance> {
  return buildApp(createConfig({ NODE_ENV: 'test', LOGIN_RATE_LIMIT: 1000 }), { database, logger: false });
}

/** Signs in through the API (`path`: the console's or the merchant screen's) and answers the Authorization header. */
export async function signInBench(
  app: FastifyInstance,
  email: string,
  password: string,
  path = '/api/auth/login',
): Promise<{ authorization: string }> {
  const login = await app.inject({ method: 'POST', url: path, payload: { email, password } });
  return { authorization: `Bearer ${login.json().token}` };
}
