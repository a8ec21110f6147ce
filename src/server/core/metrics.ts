/**
 * The process's metrics in Prometheus' text format (docs/operations.md, "Metrics"), with prom-client and a registry
 * of the server's own (several servers share a test process). What the runtime counts as it goes (hops, their time,
 * why sessions ended) is pushed through `RuntimeMetrics`; what a scrape reads (the event buffer, the script pool,
 * the outbound queues, linked numbers, the database's and Redis's round trips) is read when it is asked for. Labels
 * are bounded: gateway, environment, outcome, cause, queue and state; never an app, a session or a number.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../../db/client';
import type { JavascriptPoolStats } from '../../actions/javascript/pool';

/**
 * What became of a hop: `continued` (a screen that waits for input), `ended` (a closing screen), `refused` (a limit
 * or the plan ended it before the app ran), `unavailable` (the runtime could not run it: the store or the database
 * failed), `late` (its gateway's deadline answered for it), `notice` (a gateway's end notice).
 */
export type HopOutcome = 'continued' | 'ended' | 'refused' | 'unavailable' | 'late' | 'notice';

/**
 * What became of a hop that did not run at once while the process was busy (features/runtime/hop-admission.ts):
 * `queued` for its account's turn, then `expired` if its gateway's deadline passed first; or `refused`, its account's
 * queue being full.
 */
export type AdmissionOutcome = 'queued' | 'expired' | 'refused';

/** What the runtime reports as it runs (runtime-types.ts RuntimeDeps.metrics). */
export interface RuntimeMetrics {
  countHop(gateway: string, environment: string, outcome: HopOutcome): void;
  /** A hop's time in the runtime and the part of it spent in actions, in ms. */
  timeHop(hopMs: number, actionMs: number): void;
  countSessionEnd(gateway: string, cause: string): void;
  /** A hop that did not run at once (features/runtime/hop-admission.ts): queued, then expired waiting; or refused. */
  countAdmission(outcome: AdmissionOutcome): void;
}

/** What a scrape reads; each part is optional so a process that has not got one reports without it. */
export interface MetricSources {
  database: Pick<Database, 'db' | 'ping'>;
  pingRedis?: () => Promise<void>;
  eventStats?: () => { buffered: number; written: number; shed: number; failedBatches: number; holds: number; retries: number };
  scriptStats?: () => JavascriptPoolStats | null;
}

export interface Metrics {
  registry: Registry;
  runtime: RuntimeMetrics;
  /** The text a scrape gets. */
  render(): Promise<string>;
  contentType: string;
}

/** PGlite and node-postgres both answer a raw query with { rows }. */
const readRows = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Seconds, from a hop's 5 ms to a gateway's 15 s budget. */
const HOP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

/** A count kept elsewhere (the event sink's, the pool's), exported as a Prometheus counter: it is only ever added to. */
function mirrorCounter(registry: Registry, name: string, help: string, read: () => number | null): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === null) return;
      // A source that started again (a new pool) counts from zero: the counter goes on from where it was.
      if (value > seen) this.inc(value - seen);
      seen = Math.max(seen, value);
    },
  });
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  // Process memory, CPU, event-loop delay, heap and handles, under their usual names (dashboards know them).
  collectDefaultMetrics({ register: registry });

  const hops = new Counter({
    name: 'dialflow_hops_total',
    help: 'Hops answered, by gateway, environment and outcome (continued, ended, refused, unavailable, late, notice)',
    labelNames: ['gateway', 'environment', 'outcome'] as const,
    registers: [registry],
  });
  const hopSeconds = new Histogram({
    name: 'dialflow_hop_duration_seconds',
    help: "A hop's time from the request to the answer (part runtime) and in actions (part actions, hops that ran one)",
    labelNames: ['part'] as const,
    buckets: HOP_BUCKETS,
    registers: [registry],
  });
  const admissions = new Counter({
    name: 'dialflow_hop_admissions_total',
    help: "Hops that did not run at once while the process was busy, by outcome: queued for their account's turn, expired waiting (their gateway's deadline passed), refused (their account's queue was full)",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const sessionEnds = new Counter({
    name: 'dialflow_sessions_ended_total',
    help: 'Sessions ended, by gateway and cause (docs/runtime.md, "Why a session ended")',
    labelNames: ['gateway', 'cause'] as const,
    registers: [registry],
  });

  const { eventStats, scriptStats } = sources;
  if (eventStats) {
    new Gauge({
      name: 'dialflow_event_rows_buffered',
      help: 'Event rows (logs, inputs, session records) waiting to be written',
      registers: [registry],
      collect() {
        this.set(eventStats().buffered);
      },
    });
    mirrorCounter(registry, 'dialflow_event_rows_written_total', 'Event rows written', () => eventStats().written);
    mirrorCounter(
      registry,
      'dialflow_event_rows_shed_total',
      'Debug and info log lines shed while the database fell behind',
      () => eventStats().shed,
    );
    mirrorCounter(
      registry,
      'dialflow_event_rows_failed_total',
      'Event rows the database refused as data and were lost',
      () => eventStats().failedBatches,
    );
    mirrorCounter(
      registry,
      'dialflow_event_holds_total',
      'Times new hops waited for the event writer to catch up',
      () => eventStats().holds,
    );
    mirrorCounter(
      registry,
      'dialflow_event_write_retries_total',
      'Event writes the database failed and that were tried again',
      () => eventStats().retries,
    );
  }
  if (scriptStats) {
    const poolGauge = (name: string, help: string, read: (s: JavascriptPoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const stats = scriptStats();
          this.set(stats ? read(stats) : 0);
        },
      });
    poolGauge('dialflow_script_jobs_queued', 'JavaScript jobs waiting for a worker', (s) => s.queued);
    poolGauge('dialflow_script_workers_busy', 'JavaScript workers running a job', (s) => s.busy);
    poolGauge('dialflow_script_tenants', 'Accounts with a JavaScript job running or waiting', (s) => s.tenants);
    mirrorCounter(
      registry,
      'dialflow_script_jobs_refused_total',
      "JavaScript jobs refused because their account's queue was full",
      () => scriptStats()?.refused ?? null,
    );
    mirrorCounter(
      registry,
      'dialflow_script_workers_killed_total',
      'JavaScript workers stopped by the watchdog',
      () => scriptStats()?.killed ?? null,
    );
  }

  const { db } = sources.database;
  new Gauge({
    name: 'dialflow_queue_depth',
    help: 'Outbound rows waiting to be sent: webhooks (pending), sms (queued), campaign (queued messages); counted up to 100,000',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const result = await db.execute(sql`
        select 'webhooks' as queue, (select count(*) from (select 1 from webhook_deliveries where status = 'pending' limit 100000) q)::int as n
        union all select 'sms', (select count(*) from (select 1 from sms_messages where status = 'QUEUED' limit 100000) q)::int
        union all select 'campaign', (select count(*) from (select 1 from campaign_messages where status = 'queued' limit 100000) q)::int`);
      for (const row of readRows<{ queue: string; n: number }>(result)) this.set({ queue: row.queue }, Number(row.n));
    },
  });
  new Gauge({
    name: 'dialflow_whatsapp_links',
    help: 'Linked WhatsApp numbers by connection state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const result = await db.execute(sql`select lower(status) as state, count(*)::int as n from whatsapp_links group by 1`);
      for (const row of readRows<{ state: string; n: number }>(result)) this.set({ state: row.state }, Number(row.n));
    },
  });
  const roundTrip = new Gauge({
    name: 'dialflow_round_trip_seconds',
    help: 'Time of one ping to the database and to Redis at the scrape; -1 when it failed',
    labelNames: ['service'] as const,
    registers: [registry],
    async collect() {
      const time = async (service: string, ping: () => Promise<unknown>) => {
        const started = performance.now();
        try {
          await ping();
          roundTrip.set({ service }, (performance.now() - started) / 1000);
        } catch {
          roundTrip.set({ service }, -1);
        }
      };
      await Promise.all([
        time('database', () => sources.database.ping()),
        ...(sources.pingRedis ? [time('redis', sources.pingRedis)] : []),
      ]);
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    runtime: {
      countHop: (gateway, environment, outcome) => hops.inc({ gateway, environment, outcome }),
      timeHop(hopMs, actionMs) {
        hopSeconds.observe({ part: 'runtime' }, Math.max(0, hopMs - actionMs) / 1000);
        if (actionMs > 0) hopSeconds.observe({ part: 'actions' }, actionMs / 1000);
      },
      countSessionEnd: (gateway, cause) => sessionEnds.inc({ gateway, cause }),
      countAdmission: (outcome) => admissions.inc({ outcome }),
    },
  };
}
