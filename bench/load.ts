/**
 * The load: `connections` virtual USSD sessions at once, each a keep-alive connection running
 * start -> choose -> amount (three Africa's Talking hops, a fresh sessionId every session), over and over,
 * loopback only. One autocannon run covers the warm-up and the measured window, so the connections are
 * made during the warm-up and the window measures the steady state. Every reply is checked against the
 * screen it must be; latency is kept per hop at 10 µs resolution (autocannon's own histogram rounds to
 * whole milliseconds), and a hop that times out counts in it at the timeout.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { BARE_REPLY, HOPS_PER_SESSION, atForm, expectedReply } from './shop';

export interface LoadOptions {
  port: number;
  path: string;
  connections: number;
  warmupS: number;
  durationS: number;
  /** 'bare' expects the constant reply on every hop; 'runtime' expects the shop's screens. */
  expect: 'bare' | 'runtime';
  /** Prefix of the sessionIds, unique per run so runs never share sessions. */
  tag: string;
  /** What session n dials (the serviceCode); default the shop's own code. */
  serviceCodeOf?: (n: number) => string;
  timeoutS?: number;
  /** Called when the warm-up ends and the measured window starts (mark the server's CPU, start a profile). */
  onMeasureStart?: () => Promise<void>;
  /** Called when the measured window ends, before the connections close. */
  onMeasureEnd?: () => Promise<void>;
}

export interface PhaseResult {
  /** Hops answered (any status). */
  hops: number;
  seconds: number;
  hopsPerSecond: number;
  sessionsCompleted: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Connection errors other than timeouts. */
  errors: number;
  /** Hops with no reply within the timeout; they count in the latency percentiles as the timeout. */
  timeouts: number;
  non2xx: number;
  wrongReplies: number;
  wrongSamples: string[];
  /** Replies not checked: later hops of a session whose earlier hop timed out (its flow is broken). */
  uncheckedAfterTimeout: number;
  /** CPU the load generator (this process) used, as a share of one core. */
  generatorCpu: number;
}

export interface LoadResult {
  warmup: PhaseResult;
  measured: PhaseResult;
}

const BUCKET_MS = 0.01;
const MAX_MS = 10_000;

/** A fixed-bucket latency histogram (10 µs buckets up to 10 s). */
export class LatencyHistogram {
  private readonly buckets = new Uint32Array(Math.round(MAX_MS / BUCKET_MS) + 1);
  count = 0;
  max = 0;
  record(ms: number): void {
    const i = Math.min(this.buckets.length - 1, Math.floor(ms / BUCKET_MS));
    this.buckets[i]!++;
    this.count++;
    if (ms > this.max) this.max = ms;
  }
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return Math.min((i + 1) * BUCKET_MS, this.max);
    }
    return this.max;
  }
}

class Phase {
  readonly histogram = new LatencyHistogram();
  hops = 0;
  sessionsCompleted = 0;
  errors = 0;
  timeouts = 0;
  non2xx = 0;
  wrongReplies = 0;
  uncheckedAfterTimeout = 0;
  readonly wrongSamples: string[] = [];
  private readonly startedAt = performance.now();
  private readonly cpuAtStart = process.cpuUsage();
  private endedAt = 0;
  private cpuMs = 0;

  end(): void {
    this.endedAt = performance.now();
    const cpu = process.cpuUsage(this.cpuAtStart);
    this.cpuMs = (cpu.user + cpu.system) / 1000;
  }

  result(): PhaseResult {
    if (!this.endedAt) this.end();
    const seconds = (this.endedAt - this.startedAt) / 1000;
    const h = this.histogram;
    return {
      hops: this.hops,
      seconds,
      hopsPerSecond: this.hops / seconds,
      sessionsCompleted: this.sessionsCompleted,
      p50: h.percentile(50),
      p90: h.percentile(90),
      p99: h.percentile(99),
      max: h.max,
      errors: this.errors,
      timeouts: this.timeouts,
      non2xx: this.non2xx,
      wrongReplies: this.wrongReplies,
      wrongSamples: this.wrongSamples,
      uncheckedAfterTimeout: this.uncheckedAfterTimeout,
      generatorCpu: this.cpuMs / (seconds * 1000),
    };
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const timeoutMs = (options.timeoutS ?? 10) * 1000;
  let nextSession = 0;
  const warmup = new Phase();
  let measured: Phase | undefined;
  let phase = warmup;

  const check = (step: number, status: number, body: string, context: Record<string, unknown>) => {
    if (status < 200 || status > 299) phase.non2xx++;
    if (context.afterTimeout) {
      phase.uncheckedAfterTimeout++;
      return;
    }
    const n = context.n as number;
    const want = options.expect === 'bare' ? BARE_REPLY : expectedReply(step, n);
    if (status === 200 && body === want) {
      if (step === HOPS_PER_SESSION - 1) phase.sessionsCompleted++;
      return;
    }
    phase.wrongReplies++;
    if (phase.wrongSamples.length < 5)
      phase.wrongSamples.push(
        `hop ${step + 1} of session ${String(context.sid)}: expected ${JSON.stringify(want)}, got ${status} ${JSON.stringify(body.slice(0, 200))}`,
      );
  };

  const requests: AutocannonRequest[] = Array.from({ length: HOPS_PER_SESSION }, (_, step) => ({
    method: 'POST',
    path: options.path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest(request, context) {
      if (step === 0) {
        context.n = nextSession++;
        context.sid = `${options.tag}-${context.n as number}`;
      }
      const n = context.n as number;
      return { ...request, body: atForm(context.sid as string, step, n, options.serviceCodeOf?.(n)) };
    },
    onResponse(status, body, context) {
      check(step, status, body, context);
    },
  }));

  const instance = autocannon({
    url: `http://127.0.0.1:${options.port}`,
    connections: options.connections,
    duration: options.warmupS + options.durationS,
    timeout: options.timeoutS ?? 10,
    pipelining: 1,
    requests,
    // After a timeout autocannon reconnects and sends the session's next hop: that session is broken, so
    // its remaining replies are not checked (the timeout itself is counted and shows in the latency).
    setupClient(client) {
      client.on('timeout', () => {
        client.requestIterator.context.afterTimeout = true;
        phase.timeouts++;
        phase.histogram.record(timeoutMs);
      });
    },
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    phase.hops++;
    phase.histogram.record(responseTime);
  });
  instance.on('reqError', (err: Error) => {
    if (err.message !== 'request timed out') phase.errors++;
  });

  // The window's edges: the hooks run while the load goes on, so they are quick IPC calls.
  const hooks: Promise<void>[] = [];
  const startTimer = setTimeout(() => {
    warmup.end();
    measured = new Phase();
    phase = measured;
    if (options.onMeasureStart) hooks.push(options.onMeasureStart());
  }, options.warmupS * 1000);
  const endTimer = setTimeout(
    () => {
      measured?.end();
      phase = new Phase(); // the tail after the window is not counted
      if (options.onMeasureEnd) hooks.push(options.onMeasureEnd());
    },
    (options.warmupS + options.durationS) * 1000 - 50,
  );
  try {
    await instance;
  } finally {
    clearTimeout(startTimer);
    clearTimeout(endTimer);
  }
  await Promise.all(hooks);
  if (!measured) throw new Error('the load ended before the measured window started');
  return { warmup: warmup.result(), measured: measured.result() };
}
