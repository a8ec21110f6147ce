/**
 * The sign-in spray of issue 10: one password tried against a new email on every request, each request with a
 * new forged X-Forwarded-For, against the whole server in a child process (bench/auth-server.ts) with
 * TRUST_PROXY=true and the default limits. Counts what the server answered in the window: every 401 is a
 * password actually checked, every 429 a request refused by a limit.
 *
 * Then the lock-out of issue 26, on a fresh server: four addresses use the platform's ceiling up (40 attempts
 * each, 30 a minute counted per address: 120 against the ceiling of 100), and two legitimate users sign in from
 * addresses of their own: one from a browser that signed in before (with the cookie that sign-in left, if the
 * server left one), one from a new browser (that solves the server's challenge, if it sends one, as the
 * console does). Reports each one's answer and time, the proof of work included.
 *
 *   npx tsx bench/sign-in-spray.ts                          # 10 s, 8 requests in flight, then the lock-out
 *   npx tsx bench/sign-in-spray.ts --seconds=30 --concurrency=16
 */
import { createHash } from 'node:crypto';
import { loadConfig } from '../src/server/config';
import { SIGN_IN_PROOF_HEADER, solveSignInChallenge } from '../src/shared/api/sign-in-proof';
import { REGISTERED, startAuthServer } from './auth-server';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const seconds = Number(args.seconds ?? 10);
const concurrency = Number(args.concurrency ?? 8);

const TRUST_PROXY = loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY;
const server = await startAuthServer({ TRUST_PROXY });
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

// ---- the lock-out (issue 26) ------------------------------------------------------------------------------

const lockout = await startAuthServer({ TRUST_PROXY });
const post = (path: string, body: object, forwardedFor: string, headers: Record<string, string> = {}) =>
  fetch(lockout.url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor, ...headers },
    body: JSON.stringify(body),
  });
try {
  // The known user's earlier sign-in, from its usual browser; and a new user who has never signed in.
  const earlier = await post('/api/auth/login', REGISTERED, '203.0.113.10');
  const deviceCookie = earlier.headers.get('set-cookie')?.split(';')[0];
  await earlier.text();
  const newcomer = { email: `newcomer${Date.now()}@example.com`, password: 'bench-pass-2' };
  const registered = await post('/api/auth/register', { fullName: 'New Comer', mobileNumber: '233200000000', ...newcomer }, '203.0.113.11');
  if (registered.status !== 200) throw new Error(`register failed: ${registered.status} ${await registered.text()}`);
  await registered.text();

  const sprayCounts = new Map<number, number>();
  await Promise.all(
    [1, 2, 3, 4].map(async (a) => {
      for (let i = 0; i < 40; i++) {
        const res = await post('/api/auth/login', { email: `sprayed${a}-${i}@example.com`, password: 'Summer2024!' }, `198.51.100.${a}`);
        await res.text();
        sprayCounts.set(res.status, (sprayCounts.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const sprayLine = [...sprayCounts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');
  console.log(`\nlock-out: 4 addresses sent 40 sign-ins each: ${sprayLine}`);

  /** One sign-in as a browser makes it: once, and once more with a proof of work if the server asks for one. */
  async function signIn(who: string, body: object, forwardedFor: string, headers: Record<string, string>): Promise<void> {
    const started = performance.now();
    let res = await post('/api/auth/login', body, forwardedFor, headers);
    let reply = (await res.json()) as { status?: string; message?: string; challenge?: { token: string; difficulty: number } };
    let how = 'first try';
    if (res.status === 429 && reply.challenge) {
      const solving = performance.now();
      const proof = await solveSignInChallenge(reply.challenge, (text) => createHash('sha256').update(text).digest());
      how = `after a proof of work (${(performance.now() - solving).toFixed(0)} ms to solve in Node)`;
      res = await post('/api/auth/login', body, forwardedFor, { ...headers, [SIGN_IN_PROOF_HEADER]: proof });
      reply = (await res.json()) as typeof reply;
    }
    const ms = (performance.now() - started).toFixed(0);
    const outcome = res.status === 200 ? `signed in ${how}` : `REFUSED: ${res.status} ${JSON.stringify(reply.message)}`;
    console.log(`  ${who.padEnd(34)} ${outcome}, ${ms} ms`);
  }
  await signIn(
    `known device (${deviceCookie ? 'its cookie' : 'no cookie was set'})`,
    REGISTERED,
    '192.0.2.77',
    deviceCookie ? { cookie: deviceCookie } : {},
  );
  await signIn('new browser, never signed in', newcomer, '192.0.2.78', {});
} finally {
  lockout.stop();
}
