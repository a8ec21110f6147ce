/**
 * The sign-in spray of issue 10: one password tried against a new email on every request, each request with a
 * new forged X-Forwarded-For, against the whole server in a child process (bench/auth-server.ts) with
 * TRUST_PROXY=true and the default limits. Counts what the server answered in the window: every 401 is a
 * password actually checked, every 429 a request refused by a limit.
 *
 *   npx tsx bench/sign-in-spray.ts                          # 10 s, 8 requests in flight
 *   npx tsx bench/sign-in-spray.ts --seconds=30 --concurrency=16
 */
import { loadConfig } from '../src/server/config';
import { startAuthServer } from './auth-server';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const seconds = Number(args.seconds ?? 10);
const concurrency = Number(args.concurrency ?? 8);

const server = await startAuthServer({ TRUST_PROXY: loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY });
const url = server.url('/api/auth/login');
const counts = new Map<number, number>();
let sent = 0;
const endAt = performance.now() + seconds * 1000;
async function spray(): Promise<void> {
  while (performance.now() < endAt) {
    const i = sent++;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      body: JSON.stringify({ email: `victim${i}@example.com`, password: 'Summer2024!' }),
    });
    await res.text();
    counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  }
}
try {
  await Promise.all(Array.from({ length: concurrency }, spray));
  const line = [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');
  console.log(`${sent} sign-in attempts in ${seconds} s (${concurrency} in flight): ${line}`);
} finally {
  server.stop();
}
