/**
 * The inbox's live events (docs/inbox.md, "Live"): what happened to an account's conversations, told to every agent
 * of the account who has the inbox open, through the account events bus (src/server/core/account-events.ts).
 */
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { InboxEvent } from '../../../shared/api/inbox.schema';
import { type AccountEvents, createAccountEvents } from '../../core/account-events';

export type InboxEvents = AccountEvents<InboxEvent>;

export const createInboxEvents = (redis: Redis | undefined, log: FastifyBaseLogger): InboxEvents =>
  createAccountEvents<InboxEvent>(redis, log, 'inbox');
