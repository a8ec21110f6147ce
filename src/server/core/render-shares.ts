/**
 * Each account's share of Liquid rendering on the hop thread: a token bucket of render milliseconds. A hop
 * may render while its account has time left (and within the engine's own per-hop budget); the time a
 * render takes is then taken from the bucket, overrun included, so a tenant whose templates are heavy gets
 * the unavailable screen on its Liquid hops while everyone else's hops go on. Plain and simple-variable
 * screens never reach Liquid and are never refused.
 */
import type { RenderTimeAccount } from '../../engine';

export interface RenderShareOptions {
  /** Render milliseconds an account earns per second. */
  msPerSecond: number;
  /** Most an account can hold, and what a new one starts with. */
  burstMs: number;
  /** Monotonic milliseconds (tests inject their own). */
  now?: () => number;
}

/** 10% of the hop thread per account, and at most a tenth of a second in one burst (docs/runtime.md). */
export const RENDER_SHARE: RenderShareOptions = { msPerSecond: 100, burstMs: 100 };

/** Buckets kept before full ones (idle accounts) are dropped. */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export interface RenderShares {
  /** The account's share, as the engine takes it (EngineDeps.renderTime). */
  forAccount(accountId: string): RenderTimeAccount;
}

export function createRenderShares(options: RenderShareOptions = RENDER_SHARE): RenderShares {
  const now = options.now ?? (() => performance.now());
  const buckets = new Map<string, Bucket>();

  function getBucket(accountId: string): Bucket {
    const time = now();
    let bucket = buckets.get(accountId);
    if (!bucket) {
      if (buckets.size >= MAX_BUCKETS) dropFullBuckets(time);
      bucket = { tokens: options.burstMs, at: time };
      buckets.set(accountId, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(options.burstMs, bucket.tokens + ((time - bucket.at) * options.msPerSecond) / 1000);
    bucket.at = time;
    return bucket;
  }

  /** A full bucket is the same as none. */
  function dropFullBuckets(time: number): void {
    for (const [id, bucket] of buckets) {
      if (bucket.tokens + ((time - bucket.at) * options.msPerSecond) / 1000 >= options.burstMs) buckets.delete(id);
    }
  }

  return {
    forAccount(accountId) {
      return {
        now,
        getAvailableMs: () => getBucket(accountId).tokens,
        spend(ms) {
          getBucket(accountId).tokens -= ms;
        },
      };
    },
  };
}

/**
 * A fixed amount of render time for one piece of work off the hop path (a deploy's lint renders every
 * screen once): `totalMs` in all, then renders are refused.
 */
export function createRenderAllowance(totalMs: number): RenderTimeAccount {
  let left = totalMs;
  return {
    now: () => performance.now(),
    getAvailableMs: () => left,
    spend(ms) {
      left -= ms;
    },
  };
}

/** What a deploy's lint may spend rendering: one account's burst. */
export const DEPLOY_LINT_RENDER_MS = RENDER_SHARE.burstMs;
