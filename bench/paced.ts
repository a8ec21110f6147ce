/**
 * The latency probe: `sessions` concurrent USSD sessions that behave like people, each waiting a think
 * time between hops (uniform 0..2/pace s, so `pace` hops per second per session on average, starts
 * spread at random), instead of firing the next hop the instant a reply lands. At 500 sessions and
 * pace 1 that offers ~500 hops/s, several times what 500 real subscribers type, and measures what one
 * hop costs a subscriber when the server is not saturated by the benchmark itself. (Under the saturating
 * load of load.ts latency is set by queueing: p50 ~ sessions / throughput, whatever the server does.)
 * A plain node:http keep-alive client is enough at this rate.
 */
import { Agent, request } from 'node:http';
import { BARE_REPLY, HOPS_PER_SESSION, atForm, expectedReply } from './shop';
import { LatencyHistogram } from './load';

export interface PacedOptions {
  port: number;
  path: string;
  sessions: number;
  /** Mean hops per second per session. */
  pace: number;
  durationS: number;
  expect: 'bare' | 'runtime';
  tag: string;
  /** What session n dials (the serviceCode); default the shop's own code. */
  serviceCodeOf?: (n: number) => string;
  timeoutS?: number;
}

export interface PacedResult {
  hops: number;
  hopsPerSecond: number;
  sessionsCompleted: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  wrongReplies: number;
  wrongSamples: string[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runPaced(options: PacedOptions): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.sessions });
  const histogram = new LatencyHistogram();
  const timeoutMs = (options.timeoutS ?? 10) * 1000;
  const result = { hops: 0, sessionsCompleted: 0, errors: 0, timeouts: 0, non2xx: 0, wrongReplies: 0, wrongSamples: [] as string[] };
  const started = performance.now();
  const endAt = started + options.durationS * 1000;
  const meanThinkMs = 1000 / options.pace;
  let nextSession = 0;

  const hop = (body: string) =>
    new Promise<{ status: number; body: string } | 'timeout' | 'error'>((resolve) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port: options.port,
          method: 'POST',
          path: options.path,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
          timeout: timeoutMs,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', () => resolve('error'));
        },
      );
      req.on('timeout', () => {
        req.destroy();
        resolve('timeout');
      });
      req.on('error', () => resolve('error'));
      req.end(body);
    });

  async function virtualSubscriber(): Promise<void> {
    await sleep(Math.random() * meanThinkMs * 2);
    while (performance.now() < endAt) {
      const n = nextSession++;
      const sid = `${options.tag}-${n}`;
      for (let step = 0; step < HOPS_PER_SESSION; step++) {
        if (performance.now() >= endAt) return;
        const sent = performance.now();
        const reply = await hop(atForm(sid, step, n, options.serviceCodeOf?.(n)));
        const ms = performance.now() - sent;
        if (reply === 'timeout') {
          result.timeouts++;
          histogram.record(timeoutMs);
          break;
        }
        if (reply === 'error') {
          result.errors++;
          break;
        }
        result.hops++;
        histogram.record(ms);
        if (reply.status < 200 || reply.status > 299) result.non2xx++;
        const want = options.expect === 'bare' ? BARE_REPLY : expectedReply(step, n);
        if (reply.status !== 200 || reply.body !== want) {
          result.wrongReplies++;
          if (result.wrongSamples.length < 5)
            result.wrongSamples.push(
              `hop ${step + 1} of session ${sid}: expected ${JSON.stringify(want)}, got ${reply.status} ${JSON.stringify(reply.body.slice(0, 200))}`,
            );
          break;
        }
        if (step === HOPS_PER_SESSION - 1) result.sessionsCompleted++;
        await sleep(Math.random() * meanThinkMs * 2);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: options.sessions }, virtualSubscriber));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    ...result,
    hopsPerSecond: result.hops / seconds,
    p50: histogram.percentile(50),
    p90: histogram.percentile(90),
    p99: histogram.percentile(99),
    max: histogram.max,
  };
}
