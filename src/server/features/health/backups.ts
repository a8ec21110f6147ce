/**
 * Backups of the embedded database while the server runs (docs/operations.md, "Backups"). PGlite is one process's:
 * another process cannot open its folder while the server holds it, so `npm run backup` asks the running server for
 * a copy. The server writes a token into its data folder at start (`backup.token`, readable by its owner only: the
 * same people who could copy the folder); a request to `POST /internal/backup` that presents it gets the database as
 * one tarball, taken between two statements of PGlite's single connection, so it is consistent. With no server
 * running, the script opens the folder itself. On PostgreSQL, pg_dump is the way (the route answers 404).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { dumpPglite, type Database } from '../../../db/client';

export const BACKUP_TOKEN_FILE = 'backup.token';
export const BACKUP_TOKEN_HEADER = 'x-dialflow-backup-token';
export const BACKUP_PATH = '/internal/backup';

/** Writes a new token into the data folder and serves backups to whoever presents it. */
export function registerBackupRoute(app: FastifyInstance, database: Database, dataDir: string): void {
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(resolve(dataDir, BACKUP_TOKEN_FILE), token, { mode: 0o600 });
  const expected = Buffer.from(token);
  app.post(BACKUP_PATH, { schema: { hide: true } }, async (req, reply) => {
    const given = Buffer.from(String(req.headers[BACKUP_TOKEN_HEADER] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return reply.code(401).send({ status: '01', message: 'The backup token from the data folder is required' });
    const dump = await dumpPglite(database);
    return reply
      .header('content-type', 'application/x-tar')
      .header('cache-control', 'no-store')
      .send(Buffer.from(await dump.arrayBuffer()));
  });
}
