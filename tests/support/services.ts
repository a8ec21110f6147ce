import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';

/**
 * Test tiers that need a service (PostgreSQL, MariaDB, Redis, Chromium) run when it is reachable and say loudly
 * when they are skipped. With REQUIRE_SERVICES=1 (CI) a missing service fails the run instead.
 */
export const isServiceRequired = process.env.REQUIRE_SERVICES === '1' || process.env.REQUIRE_SERVICES === 'true';

/** Where the services tests find each server; the PostgreSQL user may create databases. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testMysqlUrl = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export function reportMissingService(tier: string, reason: string): void {
  const line = `\n*** SKIPPED: ${tier}: ${reason} ***\n`;
  if (isServiceRequired) throw new Error(`${tier} cannot run: ${reason} (REQUIRE_SERVICES=1)`);
  console.warn(line);
}

/** `describe` when the service answers, else a skipped describe after a loud line (a failure with REQUIRE_SERVICES=1). */
export function describeWithService(name: string, isReachable: boolean, reason: string, fn: () => void): void {
  if (!isReachable) reportMissingService(name, reason);
  (isReachable ? describe : describe.skip)(name, fn);
}

export async function isPostgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function isMysqlReachable(url: string): Promise<boolean> {
  const mysql = await import('mysql2/promise');
  try {
    await (await mysql.createConnection({ uri: url, connectTimeout: 1500 })).end();
    return true;
  } catch {
    return false;
  }
}

/**
 * A new database on the server of TEST_DATABASE_URL, named `<prefix>_<random>` (a copy of `template` when one
 * is named), and how to drop it again.
 */
export async function createPostgresDatabase(
  prefix: string,
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await runAdminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => runAdminQuery(`drop database if exists ${name} with (force)`) };
}

async function runAdminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
