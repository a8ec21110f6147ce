import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from '../db/client';
import type { Mailer } from '../integrations/mail/mailer';
import type { VersionCache } from './features/runtime/version-cache';

/** What services need, built once by buildApp and passed explicitly (services never import Fastify). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Injected so tests can move time (reset-token expiry). */
  now: () => Date;
  /** Compiled app versions for the runtime; deploys, rollbacks and deletes invalidate them. */
  versions?: VersionCache;
}
