/**
 * Does the forgot-password reply take longer for a registered email? Times POST /api/auth/forgot-password over
 * real HTTP against the whole server in a child process (bench/auth-server.ts). Requests alternate a
 * registered and an unknown email; two passes: "idle" (20 ms apart, so the previous request's mail work is
 * over) and "back to back" (as an attacker would send them). Prints medians and p90s.
 *
 *   npx tsx bench/forgot-password-timing.ts              # 300 requests of each kind per pass
 *   npx tsx bench/forgot-password-timing.ts --rounds=1000
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { REGISTERED, startAuthServer } from './auth-server';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const rounds = Number(args.rounds ?? 300);

// The limits would answer 429 long before the end; this measures the reply, not the limiter.
const server = await startAuthServer({ LOGIN_RATE_LIMIT: 1e6, LOGIN_ADDRESS_RATE_LIMIT: 1e6 });
const url = server.url('/api/auth/forgot-password');
async function timeRequest(email: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  await res.text();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return performance.now() - started;
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
const format = (values: number[]) => `median ${quantile(values, 0.5).toFixed(2)} ms, p90 ${quantile(values, 0.9).toFixed(2)} ms`;

try {
  for (let i = 0; i < 50; i++) await timeRequest(i % 2 ? REGISTERED.email : `warmup${i}@example.com`);
  for (const pass of ['idle', 'back to back'] as const) {
    const times = { registered: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      times.registered.push(await timeRequest(REGISTERED.email));
      if (pass === 'idle') await sleep(20);
      times.unknown.push(await timeRequest(`nobody${i}@example.com`));
      if (pass === 'idle') await sleep(20);
    }
    console.log(`${pass.padEnd(12)} registered: ${format(times.registered)} | unknown: ${format(times.unknown)} (${rounds} each)`);
  }
} finally {
  server.stop();
}
