import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyFormbody from '@fastify/formbody';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { getTrustProxy, type Config } from './config';
import type { AppContext } from './context';
import type { Database } from '../db/client';
import { openConfiguredDatabase } from './open-database';
import { createOutboxMailer, createSmtpMailer, type Mailer } from '../integrations/mail/mailer';
import { STATUS, tooManyAttempts } from '../shared/errors';
import { createBackgroundTasks } from './background';
import { registerErrorHandler, replyToClientError, replyWithFrameworkError } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { createRateLimitStore } from './plugins/rate-limit-store';
import { registerRouteTable } from './plugins/route-table';
import { registerSecurityHeaders } from './plugins/security-headers';
import { toTileSource } from './core/map-tiles';
import { createLoggerOptions, registerRequestLog, type LoggerOverrides } from './log';
import { createGuard } from './plugins/guard';
import { registerAuthRoutes } from './features/auth/auth.routes';
import { registerApiKeysRoutes } from './features/auth/api-keys.routes';
import { registerRetentionRoutes } from './features/retention/retention.routes';
import { loadTwoFactorKey } from './features/auth/two-factor-key';
import { registerContactRoutes } from './features/contact/contact.routes';
import { registerMailRoutes } from './features/mail/mail.routes';
import { registerHealthRoutes } from './features/health/health.routes';
import { createOperations } from './features/health/operations';
import { registerBackupRoute } from './features/health/backups';
import { registerTestCaseRoutes } from './features/testcases/test-cases.routes';
import { registerSubflowRoutes } from './features/subflows/subflows.routes';
import { checkBeforeDeploy } from './features/testcases/test-cases.service';
import type { ActionRequest } from '../shared/actions/runner';
import { registerAppsRoutes } from './features/apps/apps.routes';
import { registerMenusRoutes } from './features/menus/menus.routes';
import { registerRuntimeRoutes } from './features/runtime/runtime.routes';
import { isDemoBankPath, registerDemoBankRoutes } from './features/demo-bank/demo-bank.routes';
import { registerActionHopGuard } from './plugins/action-hops';
import { registerLogsRoutes } from './features/logs/logs.routes';
import { registerDashboardRoutes } from './features/dashboard/dashboard.routes';
import { registerSmsRoutes } from './features/sms/sms.routes';
import { registerPaymentsRoutes, registerTransactionsRoutes } from './features/payments/payments.routes';
import { registerWebhooksRoutes } from './features/webhooks/webhooks.routes';
import type { CampaignDispatcher } from './features/campaigns/campaign-dispatcher';
import { registerCampaignsRoutes } from './features/campaigns/campaigns.routes';
import { createCampaignEvents, createCampaignStreams } from './features/campaigns/campaign-events';
import { registerContactsRoutes } from './features/contacts/contacts.routes';
import { registerSubscriberDataRoutes } from './features/contacts/subscriber-data.routes';
import type { WebhookDispatcher } from './features/webhooks/webhook-dispatcher';
import { createContactReader } from './core/contact-records';
import { createGatewayAccessCache } from './core/gateway-access';
import { createGatewayLimits } from './features/runtime/gateway-limits';
import { createRuntime, type Runtime, type StoredSession } from './features/runtime/runtime.service';
import { createMemorySessionStore, createRedisSessionStore } from './features/runtime/session-store';
import { connectRedis } from './redis';
import type { Redis } from 'ioredis';
import { createVersionCache } from './core/version-cache';
import { createShortcodeRouteTable } from './core/shortcode-route-table';
import { registerShortcodeProviderRoutes, registerShortcodesRoutes } from './features/shortcodes/shortcodes.routes';
import { warnAboutLegacyProviders } from './features/shortcodes/providers.service';
import { registerBillingRoutes } from './features/billing/billing.routes';
import { createTestHopLimit } from './features/runtime/test-hop-limit';
import { admitLiveSession, admitSms, createPlanStandings } from './features/billing/plan-limits';
import { settleCreditPayment, settlePlanPayment } from './features/billing/plan-settlement';
import { createUsageTallies } from './features/billing/usage-tallies';
import { settleShortcodePayment } from './features/shortcodes/purchase-settlement';
import { createEventSink } from './features/runtime/event-sink';
import { createActionRunner } from './features/runtime/action-runner';
import { createHttpCallRules, createServerRunners } from './features/runtime/runners';
import { registerCustomActionsRoutes } from './features/custom-actions/custom-actions.routes';
import { registerMerchantsRoutes } from './features/merchants/merchants.routes';
import { registerAdminsRoutes } from './features/admins/admins.routes';
import { registerBotsRoutes } from './features/bots/bots.routes';
import { registerWhatsAppRoutes } from './features/bots/whatsapp.routes';
import { registerWhatsAppTemplateRoutes } from './features/bots/whatsapp-templates.routes';
import { createWhatsApp } from './features/bots/whatsapp-connectors';
import { createInboxEvents } from './features/inbox/inbox-events';
import { createChatHandoffs, createInbox } from './features/inbox/inbox.service';
import { createInboxStreams } from './features/inbox/inbox-stream';
import { registerInboxRoutes } from './features/inbox/inbox.routes';
import { createSendsmsRunner } from '../actions/sendsms';
import { createPaymentpromptRunner } from '../actions/paymentprompt';
import { checkSmsConsent, createSmsProvider, queueSms, type SmsDispatcher } from './features/sms/sms.service';
import { createPaymentProviders } from './core/payment-providers';
import { startPayment } from './features/payments/payment-start';
import { createTimers } from './timers';
import { createMediaStore } from './features/media/media-store';
import { createMediaUploads } from './features/media/media-uploads';
import { refreshMediaLinks } from './features/media/media.service';
import { loadMediaUrlKey } from './features/media/media-links';
import { registerMediaFileRoute, registerMediaRoutes } from './features/media/media.routes';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    runtime: Runtime;
    /** Sends queued webhook deliveries (features/webhooks); tests call its deliverDue. */
    webhookDispatcher: WebhookDispatcher;
    /** Sends campaigns (features/campaigns); tests call its runOnce. */
    campaignDispatcher: CampaignDispatcher;
    /** Sends queued SMS (features/sms), telling campaigns what it sent; tests call its runOnce. */
    smsDispatcher: SmsDispatcher;
    /**
     * Loads every JavaScript worker now if this process serves gateway traffic (see ServerRunners.startScripts);
     * resolves when they are ready. The server itself leaves them to start with the first script.
     */
    startScripts(): Promise<void>;
    /** SIGTERM's first step (main.ts): readiness answers 503 while the process still serves. */
    startDraining(): void;
  }
}

export interface BuildOptions {
  /** An open, migrated database; when absent buildApp opens one from the config and closes it on close. */
  database?: Database;
  /**
   * The config's database, which the caller started opening (openConfiguredDatabase) before loading this module:
   * buildApp then migrates and closes it as one it opened.
   */
  openingDatabase?: Promise<Database>;
  mailer?: Mailer;
  now?: () => Date;
  /** pino options or false; tests pass false. */
  logger?: boolean | LoggerOverrides;
}

/** Builds the whole server without listening (docs/architecture.md, The server shell); tests drive it with app.inject(). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : createLoggerOptions(config, typeof options.logger === 'object' ? options.logger : {}),
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: getTrustProxy(config),
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
    // Errors raised before a route runs get the envelope too (plugins/errors.ts).
    frameworkErrors: replyWithFrameworkError,
    clientErrorHandler: replyToClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  registerRequestLog(app);
  registerRouteTable(app);
  registerActionHopGuard(app, isDemoBankPath);

  // The one place MODE is read (docs/operations.md): `console` serves the console and its API, `runtime` gateway
  // traffic, `all` both. Route files register what they are given.
  const servesConsole = config.MODE !== 'runtime';
  const servesGateways = config.MODE !== 'console';

  const ownsDatabase = !options.database;
  const database = options.database ?? (await (options.openingDatabase ?? openConfiguredDatabase(config)));
  if (ownsDatabase) await database.migrate();
  const redis = connectRedis(config);
  if (redis) watchRedis(redis, app.log);

  let twoFactorKey: Buffer | undefined;
  let mediaUrlKey: Buffer | undefined;
  // Every provider and cache of the process, built once here; features reach them through ctx.
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer: options.mailer ?? (config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : createOutboxMailer()),
    log: app.log,
    now: options.now ?? (() => new Date()),
    background: createBackgroundTasks(app.log),
    versions: createVersionCache(database.db, redis),
    shortcodeRoutes: createShortcodeRouteTable(database.db, { redis, now: () => ctx.now() }),
    getTwoFactorKey: () => {
      twoFactorKey ??= loadTwoFactorKey(config);
      return twoFactorKey;
    },
    gatewayAccess: createGatewayAccessCache(database.db, redis),
    settlements: {
      plan: (tx, payment) => settlePlanPayment(ctx, tx, payment),
      credit: (tx, payment) => settleCreditPayment(ctx, tx, payment),
      shortcode: (tx, payment) => settleShortcodePayment(ctx, tx, payment),
    },
    smsProvider: createSmsProvider(config),
    paymentProviders: createPaymentProviders(config),
    planStandings: createPlanStandings(),
    usageTallies: createUsageTallies({ db: database.db, now: () => ctx.now() }),
    mediaStore: createMediaStore(config, database),
    mediaUploads: createMediaUploads({ perAccount: config.MEDIA_UPLOADS_PER_ACCOUNT, bufferBytes: config.MEDIA_UPLOAD_BUFFER_BYTES }),
    // The REST action's runner holds the guarded outbound agents; it is made just below, with this context.
    fetchFile: (address, limits) => serverRunners.fetchFile(address, limits),
    getMediaUrlKey: () => {
      mediaUrlKey ??= loadMediaUrlKey(config);
      return mediaUrlKey;
    },
  };
  app.decorate('ctx', ctx);

  // The one clock, in milliseconds, for the parts that count in them (session expiry, action deadlines).
  const nowMs = () => ctx.now().getTime();
  const serverRunners = createServerRunners(ctx);
  // The runtime's batched writer: the sessions' records, and the contact's `sms` seen of an app's SMS.
  const sink = createEventSink(database, app.log);
  const runAction = createActionRunner(
    nowMs,
    {
      ...serverRunners.runners,
      // An SMS beyond the owner's plan is refused with the reason (the action's result shows it).
      sendsms: createSendsmsRunner({
        queueSms: async (sms) => {
          // A contact opted out of SMS is refused before the plan counts the message.
          const msisdn = await checkSmsConsent(ctx, sms);
          await admitSms(ctx, sms.ownerId);
          const queued = await queueSms(ctx, sms);
          // SMS "seen" is when the account's apps sent the number an SMS (we only send), written with the sessions' records.
          if (msisdn)
            sink.push(
              { table: 'contacts', row: { ownerId: sms.ownerId, msisdn, seen: { channel: 'sms', at: ctx.now().toISOString() } } },
              sms.ownerId,
            );
          return queued;
        },
      }),
      paymentprompt: createPaymentpromptRunner({ startPayment: (payment) => startPayment(ctx, ctx.paymentProviders.configured, payment) }),
    },
    // Anyone may run a featured template: its payments go to the sandbox and its SMS stay in the outbox,
    // whatever providers are configured, and their rows are owned by no account (only admins list them).
    {
      sendsms: createSendsmsRunner({ queueSms: (sms) => queueSms(ctx, { ...sms, ownerId: null }, { keepInOutbox: true }) }),
      paymentprompt: createPaymentpromptRunner({
        startPayment: (payment) => startPayment(ctx, ctx.paymentProviders.sandbox, { ...payment, ownerId: null }),
      }),
    },
    // An action reads the session's files by signed links: made fresh for each action, for the app's account. The
    // database not answering leaves the links as they were rather than failing the action.
    (scope, owner) =>
      refreshMediaLinks(ctx, owner.ownerId, scope).catch((err: unknown) =>
        ctx.log.warn({ err, appId: owner.appId }, 'the links of the files an action reads were not renewed'),
      ),
  );
  // Before the runtime: its gateway limits count with the same store as every route's limits.
  await app.register(fastifyRateLimit, {
    global: false,
    // The client adds REDIS_KEY_PREFIX; the name space only tells the counters apart from the other keys. With
    // Redis gone the counts go on in this process (plugins/rate-limit-store.ts).
    ...(redis ? { store: createRateLimitStore(redis, 'rate-limit:', app.log) } : {}),
    errorResponseBuilder: () => tooManyAttempts(),
  });
  // The inbox (docs/inbox.md): its live events (through Redis when there is one) and the runtime's handoffs, which
  // a USSD rule's callback request uses from the runtime and the connectors give with each linked number's message.
  const inboxEvents = createInboxEvents(redis, app.log);
  const handoffs = createChatHandoffs(ctx, inboxEvents);
  const operations = createOperations(app, ctx, { redis, eventStats: () => sink.stats(), scriptStats: serverRunners.scriptStats });
  app.decorate('startDraining', operations.startDraining);
  const runtime = createRuntime(ctx, {
    sessions: redis
      ? createRedisSessionStore<StoredSession>(redis, { now: nowMs })
      : createMemorySessionStore<StoredSession>({ now: nowMs }),
    sink,
    readContact: createContactReader(database.db),
    runAction,
    admitLiveSession: (ownerId) => admitLiveSession(ctx, ownerId),
    admitTestHop: createTestHopLimit(app, config.TEST_HOP_RATE_LIMIT),
    admitGatewaySession: createGatewayLimits(app, config),
    handoffs,
    metrics: operations.metrics.runtime,
  });
  app.decorate('runtime', runtime);
  // The agents' calls and their streams.
  const whatsapp = createWhatsApp(ctx, runtime, handoffs);
  const inbox = createInbox(ctx, { events: inboxEvents, sender: whatsapp });
  const streamLimits = {
    perAccount: config.INBOX_STREAMS_PER_ACCOUNT,
    total: config.INBOX_STREAMS_MAX,
    heartbeatMs: config.INBOX_HEARTBEAT_MS,
  };
  const inboxStreams = createInboxStreams(inboxEvents, streamLimits);
  // Campaigns' progress, live (docs/campaigns.md): the dispatcher and the routes tell, the screens listen.
  const campaignEvents = createCampaignEvents(redis, app.log);
  const campaignStreams = createCampaignStreams(campaignEvents, streamLimits);
  // Held connections would keep the server from closing: they end first.
  app.addHook('preClose', async () => {
    inboxStreams.closeAll();
    campaignStreams.closeAll();
  });
  // Workers start with the first script (a hop's, or a custom action's test run) and stop when idle; tests that
  // time scripts load them first with this.
  app.decorate('startScripts', servesGateways ? serverRunners.startScripts : async () => {});

  // One hook, in order: finish background work and drain the event buffer while the database is still open,
  // then close it.
  app.addHook('onClose', async () => {
    await ctx.background.settle();
    await whatsapp.close();
    await runtime.close();
    await ctx.shortcodeRoutes.close();
    await ctx.gatewayAccess.close();
    inboxEvents.close();
    campaignEvents.close();
    await serverRunners.close();
    redis?.disconnect();
    if (ownsDatabase) await database.close();
  });

  // Timers and dispatchers, the same in every mode (timers.ts): started when the server is ready, stopped in
  // preClose, which runs before onClose, so the database is still open while their last runs finish.
  const webhookRules = createHttpCallRules(ctx);
  const timers = createTimers(ctx, webhookRules, { whatsapp, campaignEvents, eventStats: () => sink.stats() });
  app.decorate('webhookDispatcher', timers.webhookDispatcher);
  app.decorate('campaignDispatcher', timers.campaignDispatcher);
  app.decorate('smsDispatcher', timers.smsDispatcher);
  app.addHook('onReady', async () => timers.start());
  app.addHook('preClose', async () => timers.stop());

  await registerSecurityHeaders(app, {
    embeddedSignup: !!(ctx.config.WHATSAPP_CLOUD_APP_ID && ctx.config.WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID),
    mapTileSource: toTileSource(ctx.config.MAP_TILE_URL),
  });
  await app.register(fastifyFormbody);
  // Gateways send XML or plain text too; the adapters read the raw string.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Dialflow API',
        version: '1.0.0',
        description: 'Every call answers { status, message, data? }; status "00" is success.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The token a sign-in answers with.' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'dfk_...',
            description: "An account's API key (Account Settings, API keys); only the calls that say so accept one (docs/api-keys.md).",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const guard = createGuard(ctx);
  const testCaseDeps = {
    // A case's scripts run as the app's hops do, on the account's share of the pool.
    runAppScript:
      ({ appId, ownerId }: { appId: string; ownerId: string }) =>
      (request: ActionRequest) =>
        runAction(request, { appId, ownerId, isTemplate: false }),
    flushEvents: () => runtime.flushEvents(),
  };
  registerHealthRoutes(app, ctx, {
    pingRedis: redis ? async () => void (await redis.ping()) : undefined,
    getEventStats: runtime.getEventStats,
    isDraining: operations.isDraining,
    metrics: operations.metrics,
  });
  // The embedded database's own copy, for `npm run backup` while the server runs (features/health/backups.ts).
  if (ownsDatabase && database.kind === 'pglite') registerBackupRoute(app, database, resolve(config.DATA_DIR));
  // Every mode: a provider calls back whichever process it reaches, and the sandbox's checkout page is its.
  registerPaymentsRoutes(app, ctx);
  // Every mode: a signed link points at PUBLIC_URL, whichever process answers it.
  registerMediaFileRoute(app, ctx);
  if (servesGateways) {
    registerRuntimeRoutes(app, ctx, guard, runtime);
    registerShortcodeProviderRoutes(app, ctx, runtime);
    // Providers still serving their bare URL are named at every start, until an admin turns the legacy flag off.
    app.addHook('onReady', async () => warnAboutLegacyProviders(ctx));
  }
  if (servesConsole) {
    registerAuthRoutes(app, ctx, guard);
    registerApiKeysRoutes(app, ctx, guard);
    registerRetentionRoutes(app, ctx, guard);
    registerContactRoutes(app, ctx, guard);
    registerMailRoutes(app, ctx, guard);
    registerAppsRoutes(app, ctx, guard);
    // A deploy runs the app's saved test cases first (docs/testing-apps.md, "Deploys").
    registerMenusRoutes(app, ctx, guard, (user, owned, override) =>
      checkBeforeDeploy(ctx, user, owned, testCaseDeps.runAppScript, override),
    );
    registerDemoBankRoutes(app);
    registerLogsRoutes(app, ctx, guard, runtime);
    registerCustomActionsRoutes(app, ctx, guard, serverRunners.tester);
    registerDashboardRoutes(app, ctx, guard, runtime);
    registerMerchantsRoutes(app, ctx, guard);
    registerAdminsRoutes(app, ctx, guard);
    registerSmsRoutes(app, ctx, guard);
    registerTransactionsRoutes(app, ctx, guard);
    registerWebhooksRoutes(app, ctx, guard, timers.webhookDispatcher, webhookRules);
    registerContactsRoutes(app, ctx, guard);
    registerSubscriberDataRoutes(app, ctx, guard, runtime);
    registerCampaignsRoutes(app, ctx, guard, whatsapp, { events: campaignEvents, streams: campaignStreams });
    registerShortcodesRoutes(app, ctx, guard);
    registerBillingRoutes(app, ctx, guard);
    // Linked numbers' connections live in the process that links them (docs/bots.md): the console's.
    registerBotsRoutes(app, ctx, guard, whatsapp);
    registerWhatsAppRoutes(app, ctx, guard, runtime, whatsapp);
    registerWhatsAppTemplateRoutes(app, ctx, guard);
    registerMediaRoutes(app, ctx, guard);
    registerInboxRoutes(app, ctx, guard, inbox, { events: inboxEvents, streams: inboxStreams });
    registerTestCaseRoutes(app, ctx, guard, testCaseDeps);
    registerSubflowRoutes(app, ctx, guard);
    ctx.background.run('resume linked WhatsApp numbers', () => whatsapp.resumeLinks());
  }
  registerWebApp(app, config, servesConsole);
  return app;
}

/**
 * Redis going away (a restart, a failover, the network) must not crash the process or fill its log: ioredis
 * reconnects by itself and emits an error for each failed try. One warning when it is lost, one line when it is
 * back; meanwhile commands fail after their retries and hops answer the gateway's unavailable screen
 * (runtime.service.ts).
 */
function watchRedis(redis: Redis, log: FastifyInstance['log']): void {
  let isLost = false;
  redis.on('error', (err: Error) => {
    if (isLost) return;
    isLost = true;
    log.warn({ err }, 'Redis connection lost; reconnecting');
  });
  redis.on('ready', () => {
    if (!isLost) return;
    isLost = false;
    log.info('Redis connection back');
  });
}

/** The build's hashed files (`/assets/index-3hX9.js`): a new build names them anew, so browsers keep them a year. */
const WEB_ASSETS_PREFIX = '/assets/';
const CACHE_HASHED = 'public, max-age=31536000, immutable';
/** Every other file, index.html above all: asked again (a 304 when unchanged), so a deploy is seen at once. */
const CACHE_REVALIDATE = 'no-cache';

/**
 * Serves the built console with a fallback to index.html for client routes; API paths get the envelope's 404.
 * Each file goes out as the build precompressed it (scripts/precompress.ts), brotli or gzip by the request's
 * Accept-Encoding (with `Vary: accept-encoding`), as is otherwise; nothing is compressed per request.
 */
function registerWebApp(app: FastifyInstance, config: Config, servesConsole: boolean): void {
  const root = resolve(config.WEB_DIST);
  const hasWeb = servesConsole && existsSync(resolve(root, 'index.html'));
  if (hasWeb) {
    const assetsDir = resolve(root, WEB_ASSETS_PREFIX.slice(1));
    app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are served in place of their file, never under their own URL.
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.startsWith(assetsDir + sep) ? CACHE_HASHED : CACHE_REVALIDATE);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A browser navigating asks for HTML; API clients and gateways do not. /api/* never falls back, nor a build
    // file that is gone (a tab open across a deploy asks for the old build's chunks: it gets a 404, not a page).
    // The home page is the console's page for any client (`curl http://localhost:3000/` shows it is up).
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith(WEB_ASSETS_PREFIX) &&
      (path === '/' || !!request.headers.accept?.includes('text/html'));
    if (hasWeb && isPage) return reply.sendFile('index.html');
    return reply.code(404).send({ status: STATUS.notFound, message: `No route for ${request.method} ${path}` });
  });
}
