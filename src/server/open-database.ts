import { resolve } from 'node:path';
import { openDatabase, type Database } from '../db/client';
import type { Config } from './config';

/**
 * The server's database as the config names it: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR on its own
 * low-priority thread (its CPU work never delays a hop: docs/runtime.md), with PGLITE_SHARED_BUFFERS_MB. main.ts
 * calls it before it loads the server's modules, so the thread compiles PGlite on another core meanwhile.
 */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL }
      : { dataDir: resolve(config.DATA_DIR, 'pglite'), thread: true, lowPriority: true, sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB },
  );
}
