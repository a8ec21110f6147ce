import { LRUCache } from 'lru-cache';
import type { ActionOf } from '../../../shared/app';
import { isPlainObject } from '../../../shared/json';
import type { ActionRunner } from '../../../shared/actions/runner';
import { createJavascriptPool, type JavascriptPool, type JavascriptPoolStats } from '../../../actions/javascript/pool';
import { createJavascriptRunner } from '../../../actions/javascript/javascript.runner';
import { DEFAULT_JAVASCRIPT_CODE } from '../../../actions/javascript/default-code';
import { readFileSync } from 'node:fs';
import { createRestapiRunner, type FetchFile, type KeepFile } from '../../../actions/restapi';
import { createDbaccessRunner } from '../../../actions/dbaccess';
import { createPlatformServices, readPlatformService, type AddressRules, type PlatformService } from '../../../actions/net/address-guard';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { isPayingAccount } from '../billing/plan-limits';
import { findCustomActionCode } from '../custom-actions/custom-actions.service';
import type { ScriptTester } from '../custom-actions/custom-actions.routes';
import type { ActionRunners } from './action-runner';
import { isDemoBankPath } from '../demo-bank/demo-bank.routes';
import { MediaRefusal, storeMedia, withSignedUrl } from '../media/media.service';

/**
 * The JavaScript pool starts its workers on first use: most requests (and most test servers) never run a
 * script, and a worker takes a few hundred milliseconds to load QuickJS.
 */
function createLazyPool(idleMs: number): JavascriptPool & { isStarted(): boolean } {
  let pool: JavascriptPool | undefined;
  const get = () => (pool ??= createJavascriptPool({ idleMs }));
  return {
    get limits() {
      return get().limits;
    },
    run: (job) => get().run(job),
    ready: () => get().ready(),
    stats: () => get().stats(),
    close: async () => {
      await pool?.close();
    },
    isStarted: () => pool !== undefined,
  };
}

/** A saved custom function runs like a javascript action, with the app owner's code looked up by uuid. */
function createCustomActionRunner(ctx: AppContext, javascript: ActionRunner<'javascript'>): ActionRunner<'customAction'> {
  return {
    async run(input) {
      const { uuid, actionName } = input.action.code;
      const code = await findCustomActionCode(ctx, input.ownerId, uuid);
      if (code === undefined) return { ok: false, error: `Custom function ${actionName || uuid} not found` };
      const action: ActionOf<'javascript'> = { ...input.action, inheritsPlugin: 'javascript', code };
      return javascript.run({ ...input, action });
    },
  };
}

export const UNPAID_SCRIPT_GROUP = 'unpaid';

/** How long a script waits to learn whether its owner pays, the first time; then it runs as unpaid. */
const PLAN_READ_WAIT_MS = 100;

/**
 * The pool's share group (pool.ts) of every unpaid account's scripts (isPayingAccount): together they hold at most
 * half the workers, each account a quarter, so paying tenants keep the other half however many free accounts run
 * scripts. Accounts are free to make; per-account shares alone would multiply with them.
 *
 * A script never waits on the database for this: what was last read is used, however old, while a fresh read
 * (every 10 s) runs beside it, and a failed read keeps the last answer. An owner never read yet waits at most
 * PLAN_READ_WAIT_MS, then runs as unpaid: a database blink neither stalls hops nor opens the paid half.
 */
function createScriptGroups(ctx: AppContext): (ownerId: string) => Promise<string | undefined> {
  const known = new LRUCache<string, boolean>({ max: 20_000, ttl: 10_000, allowStale: true, noDeleteOnStaleGet: true });
  const reading = new Map<string, Promise<boolean | undefined>>();
  function read(ownerId: string): Promise<boolean | undefined> {
    let pending = reading.get(ownerId);
    if (!pending) {
      pending = isPayingAccount(ctx, ownerId)
        .then((isPaying) => {
          known.set(ownerId, isPaying);
          return isPaying;
        })
        .catch(() => known.get(ownerId))
        .finally(() => reading.delete(ownerId));
      reading.set(ownerId, pending);
    }
    return pending;
  }
  const toGroup = (isPaying: boolean | undefined) => (isPaying ? undefined : UNPAID_SCRIPT_GROUP);
  return async (ownerId) => {
    const last = known.get(ownerId);
    if (last !== undefined) {
      if (known.getRemainingTTL(ownerId) <= 0) void read(ownerId);
      return toGroup(last);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PLAN_READ_WAIT_MS)));
    const isPaying = await Promise.race([read(ownerId), waited]);
    clearTimeout(timer);
    return toGroup(isPaying);
  };
}

/** A test run's `contact` session value as a hop's contact scope: its text fields (`name`, `language`, attributes). */
function toTestContact(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export interface ServerRunners {
  /** Every kind but the two that need the messaging services (sendsms, paymentprompt), added by the caller. */
  runners: Omit<ActionRunners, 'sendsms' | 'paymentprompt'>;
  tester: ScriptTester;
  /** A file by its https address, through the REST action's guarded path (a bot's file by address: whatsapp-media.ts). */
  fetchFile: FetchFile;
  /**
   * Starts every JavaScript worker now and resolves when they have loaded (tests that time scripts). The server
   * does not: workers start with the first script and stop after SCRIPT_WORKER_IDLE_SECONDS without one
   * (docs/operations.md, Memory); that first script waits for its worker (200-600 ms) within its deadline.
   */
  startScripts(): Promise<void>;
  /** The JavaScript pool's figures (queue, refusals, workers), or null while it has not started (metrics). */
  scriptStats(): JavascriptPoolStats | null;
  close(): Promise<void>;
}

/** The host:port of PUBLIC_URL, the name the public reaches this server by; none without it. */
function getPublicHosts(ctx: AppContext): string[] {
  if (!ctx.config.PUBLIC_URL) return [];
  const url = new URL(ctx.config.PUBLIC_URL);
  return [`${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`];
}

/** Origins our own server answers on: the demo bank's paths may be called there even when private addresses are refused. */
function getOwnHosts(ctx: AppContext): string[] {
  return [`127.0.0.1:${ctx.config.PORT}`, `localhost:${ctx.config.PORT}`, ...getPublicHosts(ctx)];
}

/**
 * The servers the platform itself uses. Actions never reach them, whatever ALLOW_PRIVATE_NETWORK and
 * OUTBOUND_ALLOW_HOSTS allow: compared by resolved address and port, so another database name, `localhost`
 * or an IPv6 spelling of the same address is the same server. Only ALLOW_PLATFORM_DATABASE_SERVER opens the
 * database's server to database actions (never Redis, never REST calls). `http` is this server itself, on this
 * machine's addresses and its PORT: HTTP calls reach it only on the demo bank's paths (createServerRunners).
 */
function readPlatformServices(config: Config): { database: PlatformService[]; redis: PlatformService[]; http: PlatformService[] } {
  return {
    database: config.DATABASE_URL ? [readPlatformService("the platform's own database server", config.DATABASE_URL, 5432)] : [],
    redis: config.REDIS_URL ? [readPlatformService("the platform's own Redis", config.REDIS_URL, 6379)] : [],
    http: [{ name: "this platform's own server", host: '', port: config.PORT }],
  };
}

/** The operator's outbound rules (ALLOW_PRIVATE_NETWORK, OUTBOUND_ALLOW_HOSTS), without the platform's services. */
function readOutboundRules(ctx: AppContext): AddressRules {
  return { allowPrivate: ctx.config.ALLOW_PRIVATE_NETWORK, allowHosts: ctx.config.OUTBOUND_ALLOW_HOSTS };
}

/**
 * The address rules of an HTTP call a builder configured: the restapi action's, and the webhooks' (same guard,
 * same operator settings). Neither ever reaches the platform's database or Redis, nor this server itself (by
 * its address and port, or by PUBLIC_URL's name): its gateway URLs, emulator, console API and webhooks would
 * let a hop start another hop, in a loop that holds the outbound pool for ever.
 */
export function createHttpCallRules(ctx: AppContext): AddressRules {
  const { database, redis, http } = readPlatformServices(ctx.config);
  return {
    ...readOutboundRules(ctx),
    platformServices: createPlatformServices([...database, ...redis, ...http]),
    ownHosts: getPublicHosts(ctx),
  };
}

/**
 * The rules of a restapi call to a path of our own server that actions may use (the demo bank of the Balance
 * Enquiry template): this server's own origins are allowed even when private addresses are refused.
 */
function createOwnPathRules(ctx: AppContext): AddressRules {
  const { database, redis } = readPlatformServices(ctx.config);
  const rules = readOutboundRules(ctx);
  return {
    ...rules,
    allowHosts: [...getOwnHosts(ctx), ...(rules.allowHosts ?? [])],
    platformServices: createPlatformServices([...database, ...redis]),
  };
}

/**
 * A REST call's answer that is a file, kept for the app's account (source `action`) after the store's checks; its
 * MediaRef, with a fresh signed link, is the result's `file`. A refusal's sentence becomes the action's error.
 */
function createFileKeeper(ctx: AppContext): KeepFile {
  return async (input, file) => {
    try {
      const ref = await storeMedia(ctx, {
        accountId: input.ownerId,
        appId: input.appId,
        bytes: file.bytes,
        claimedMimeType: file.mimeType,
        ...(file.fileName ? { fileName: file.fileName } : {}),
        source: 'action',
      });
      return withSignedUrl(ctx, ref);
    } catch (err) {
      if (err instanceof MediaRefusal) throw new Error(err.message);
      throw err;
    }
  };
}

export function createServerRunners(ctx: AppContext): ServerRunners {
  const pool = createLazyPool(ctx.config.SCRIPT_WORKER_IDLE_SECONDS * 1000);
  const readScriptGroup = createScriptGroups(ctx);
  const javascript = createJavascriptRunner(pool, (input) => readScriptGroup(input.ownerId));
  const rules = readOutboundRules(ctx);
  const { database, redis } = readPlatformServices(ctx.config);
  const restapi = createRestapiRunner({
    ...createHttpCallRules(ctx),
    ...(ctx.config.OUTBOUND_CA_FILE ? { ca: readFileSync(ctx.config.OUTBOUND_CA_FILE, 'utf8') } : {}),
    keepFile: createFileKeeper(ctx),
    ownServer: { rules: createOwnPathRules(ctx), isPathAllowed: isDemoBankPath },
  });
  const databaseServer = ctx.config.ALLOW_PLATFORM_DATABASE_SERVER ? [] : database;
  const dbaccess = createDbaccessRunner({ ...rules, platformServices: createPlatformServices([...databaseServer, ...redis]) });
  return {
    runners: { javascript, restapi, dbaccess, customAction: createCustomActionRunner(ctx, javascript) },
    fetchFile: restapi.fetchFile,
    tester: {
      defaultCode: DEFAULT_JAVASCRIPT_CODE,
      async test(accountId, code, { contact, ...sessionValues }, actionResults) {
        const session = {
          sessionId: 'test',
          network: 'MTN',
          serviceCode: '',
          vars: {},
          ...sessionValues,
          inputs: { ...((sessionValues.inputs as object) ?? {}) },
        };
        // The account's test runs share its hops' part of the pool: testing cannot buy a tenant a second share.
        const outcome = await pool.run({
          code,
          scope: { session, input: '', actions: actionResults, contact: toTestContact(contact) },
          deadline: Date.now() + pool.limits.wallMs,
          tenant: accountId,
          group: await readScriptGroup(accountId),
        });
        const consoleMessages = outcome.logs.map((line) => ({ message: line.message, type: line.level }));
        if (!outcome.ok) consoleMessages.push({ message: outcome.error, type: 'error' });
        if (!outcome.ok) return { output: null, consoleMessages, error: outcome.error, contactChanges: null };
        return { output: outcome.result, consoleMessages, error: null, contactChanges: outcome.contactChanges ?? null };
      },
    },
    startScripts: () => pool.ready(),
    scriptStats: () => (pool.isStarted() ? pool.stats() : null),
    async close() {
      await Promise.all([pool.close(), restapi.close(), dbaccess.close()]);
    },
  };
}
