/**
 * `npm run backup [-- --out=FILE]` and `npm run restore -- FILE` for the embedded database (docs/operations.md,
 * "Backups"). A backup asks the running server for a consistent copy (features/health/backups.ts), or, with no
 * server running, opens the data folder itself. A restore loads a copy into an empty data folder, checks it opens and
 * counts its rows; it never writes over a folder that holds a database. On PostgreSQL both say to use pg_dump.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { dumpPglite, openDatabase } from '../src/db/client';
import { loadConfig, type Config } from '../src/server/config';
import { BACKUP_PATH, BACKUP_TOKEN_FILE, BACKUP_TOKEN_HEADER } from '../src/server/features/health/backups';

export class BackupError extends Error {}

/** The tables a restore counts, to show the copy holds what it should. */
const COUNTED = ['users', 'apps', 'menus', 'session_records', 'app_logs', 'contacts'];

const pgliteDir = (config: Pick<Config, 'DATA_DIR'>) => resolve(config.DATA_DIR, 'pglite');

/** The copy as the running server gives it, or null when no server answers on the port. */
async function askServer(config: Pick<Config, 'DATA_DIR' | 'PORT'>): Promise<Buffer | null> {
  const tokenFile = resolve(config.DATA_DIR, BACKUP_TOKEN_FILE);
  if (!existsSync(tokenFile)) return null;
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${config.PORT}${BACKUP_PATH}`, {
      method: 'POST',
      headers: { [BACKUP_TOKEN_HEADER]: readFileSync(tokenFile, 'utf8').trim() },
    });
  } catch {
    return null;
  }
  if (!res.ok)
    throw new BackupError(`The server on port ${config.PORT} refused the backup (HTTP ${res.status}): is it this data folder's?`);
  return Buffer.from(await res.arrayBuffer());
}

/** Writes a consistent copy of the embedded database to `out`; answers where it came from and its size. */
export async function takeBackup(config: Pick<Config, 'DATA_DIR' | 'PORT' | 'DATABASE_URL'>, out: string) {
  if (config.DATABASE_URL) throw new BackupError('DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/operations.md, "Backups").');
  let copy = await askServer(config);
  const source = copy ? 'the running server' : 'the data folder';
  if (!copy) {
    if (!existsSync(pgliteDir(config)))
      throw new BackupError(`No database in ${pgliteDir(config)} and no server answering on port ${config.PORT}.`);
    const database = await openDatabase({ dataDir: pgliteDir(config) });
    try {
      copy = Buffer.from(await (await dumpPglite(database)).arrayBuffer());
    } finally {
      await database.close();
    }
  }
  // Written beside the target and renamed: a full disk leaves no half copy under the backup's name.
  const partial = `${out}.partial`;
  try {
    writeFileSync(partial, copy);
    renameSync(partial, out);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new BackupError(`Could not write ${out}: ${(err as Error).message}`);
  }
  return { source, bytes: copy.length };
}

/** Loads a copy into the config's data folder, which must be empty; answers the rows it holds per table. */
export async function restoreBackup(config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL'>, file: string): Promise<Record<string, number>> {
  if (config.DATABASE_URL)
    throw new BackupError('DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md, "Backups").');
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  const dir = pgliteDir(config);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new BackupError(`${dir} is not empty: restore into an empty data folder (move this one aside first).`);
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    database = await openDatabase({ dataDir: dir, loadDataDir: new Blob([readFileSync(file)]) });
    const counts: Record<string, number> = {};
    for (const table of COUNTED) {
      const result = await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
      counts[table] = Number((result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
    }
    return counts;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    // A copy that does not open leaves no half database behind.
    await database?.close().catch(() => {});
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
    throw new BackupError(`${file} is not a Dialflow backup that opens: ${(err as Error).message}`);
  } finally {
    await database?.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig();
  if (command === 'backup') {
    const out =
      args.find((a) => a.startsWith('--out='))?.slice(6) || `dialflow-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar`;
    const { source, bytes } = await takeBackup(config, out);
    console.log(`Backed up ${(bytes / 1048576).toFixed(1)} MB from ${source} to ${out}`);
  } else if (command === 'restore') {
    const file = args[0];
    if (!file) throw new BackupError('Name the backup file: npm run restore -- dialflow-backup-....tar');
    const counts = await restoreBackup(config, file);
    console.log(
      `Restored ${file} into ${pgliteDir(config)}: ${Object.entries(counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    );
  } else {
    throw new BackupError('Usage: backup-restore.ts backup [--out=FILE] | restore FILE');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  });
}
