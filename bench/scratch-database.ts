/**
 * What the PostgreSQL benches share: their `--name=value` arguments and a scratch database of their own
 * (`dialflow_bench_<label>_<random>`, made and dropped through the `--postgres` admin URL, whose user may create
 * databases). Only `pg`: the load generators import it, and stay light (bench-app.ts opens the server on one).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The admin URL when `--postgres` is not given. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** `--rows=20000 --postgres=postgres://...` as `{ rows: '20000', postgres: 'postgres://...' }`. */
export function readBenchArgs(argv: string[] = process.argv.slice(2)): Record<string, string> {
  return Object.fromEntries(argv.map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
}

export interface ScratchDatabase {
  name: string;
  /** The admin URL with the scratch database's name. */
  url: string;
  /** Drops it, ending whatever connections are still open to it. */
  drop(): Promise<void>;
}

/** One statement on a connection of its own to the admin URL (a database cannot be dropped from inside itself). */
async function runAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new empty database beside the admin URL's; `label` names the bench in it (`dialflow_bench_search_1a2b3c4d`). */
export async function createScratchDatabase(adminUrl: string, label: string): Promise<ScratchDatabase> {
  const name = `dialflow_bench_${label}_${randomBytes(4).toString('hex')}`;
  await runAdmin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => runAdmin(adminUrl, `drop database if exists ${name} with (force)`) };
}
