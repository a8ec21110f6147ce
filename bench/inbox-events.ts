/**
 * The inbox's live events (docs/inbox.md, "Live"): how long an agent's note takes to reach 50 open inbox streams of
 * its account, from the moment the note is sent to each stream's reading of it. The server runs in its own child
 * process (in-memory PGlite on its thread, as `npm start` runs it; `--redis` adds REDIS_URL so events go through
 * Redis pub/sub as in a fleet); the 50 streams are streaming fetches in this process, as the console reads them.
 * INBOX_STREAMS_PER_ACCOUNT is raised to 50 for the run (the default is 20 a process). A report, never part of
 * `npm test`.
 *
 *   npx tsx bench/inbox-events.ts [--agents=50] [--notes=200] [--redis[=redis://127.0.0.1:6379]]
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../src/db/client';
import { apps, inboxConversations } from '../src/db/schema';
import { buildApp } from '../src/server/app';
import { createConfig, type Config } from '../src/server/config';
import { createUser } from '../src/server/core/accounts';

const AGENT = { email: 'agent@example.com', password: 'bench-pass' };

async function serve(overrides: Partial<Config>): Promise<void> {
  const database = await openDatabase({ thread: true });
  await database.migrate();
  const user = await createUser(database.db, { fullName: 'Agent', ...AGENT, roles: ['CHATBOT'] });
  const appId = randomBytes(16).toString('hex');
  await database.db.insert(apps).values({
    id: appId,
    userId: user.id,
    appName: 'Bench Bot',
    country: 'ghana',
    shortCode: '',
    connectionMode: 'none',
    channel: 'whatsapp',
  });
  const [conversation] = await database.db
    .insert(inboxConversations)
    .values({ ownerId: user.id, appId, msisdn: '+233241000000', reason: 'bench' })
    .returning();
  const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', ...overrides }), { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(`port=${typeof address === 'object' && address ? address.port : 0} conversation=${conversation!.id}`);
}

const arg = (name: string) => process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))?.split('=')[1];

async function main(): Promise<void> {
  const agents = Number(arg('agents') ?? 50);
  const notes = Number(arg('notes') ?? 200);
  const redisFlag = process.argv.some((a) => a.startsWith('--redis'));
  const redisUrl = arg('redis') ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const overrides: Partial<Config> = {
    INBOX_STREAMS_PER_ACCOUNT: agents,
    ...(redisFlag ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `df-bench-${randomBytes(4).toString('hex')}:` } : {}),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve', JSON.stringify(overrides)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { port, conversationId } = await new Promise<{ port: number; conversationId: string }>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const match = out.match(/port=(\d+) conversation=([0-9a-f-]+)/);
        if (match) resolve({ port: Number(match[1]), conversationId: match[2]! });
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(AGENT),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };

    // Each stream resolves the waiter of a note's text when it reads it.
    const waiters = new Map<string, Array<(at: number) => void>>();
    const aborts: AbortController[] = [];
    await Promise.all(
      Array.from({ length: agents }, async (_, i) => {
        const abort = new AbortController();
        aborts.push(abort);
        const res = await fetch(`${base}/api/inbox/events`, { headers: auth, signal: abort.signal });
        if (res.status !== 200) throw new Error(`stream ${i}: ${res.status}`);
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        let buffered = '';
        let connected!: () => void;
        const ready = new Promise<void>((resolve) => (connected = resolve));
        void (async () => {
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            buffered += decoder.decode(value, { stream: true });
            if (buffered.includes(': connected')) connected();
            let end = buffered.indexOf('\n\n');
            while (end >= 0) {
              const block = buffered.slice(0, end);
              buffered = buffered.slice(end + 2);
              const data = block.split('\n').find((line) => line.startsWith('data: '));
              if (data) {
                const at = performance.now();
                const event = JSON.parse(data.slice(6)) as { type: string; message?: { text: string } };
                if (event.type === 'message_added' && event.message) waiters.get(event.message.text)?.[i]?.(at);
              }
              end = buffered.indexOf('\n\n');
            }
          }
        })();
        await ready;
      }),
    );
    // Warm-up: notes until the first stream hears one (with Redis, the server's subscriber is connected by then).
    for (let heard = false; !heard; ) {
      const arrived = new Promise<boolean>((resolve) => {
        waiters.set('warm-up', [() => resolve(true)]);
        setTimeout(() => resolve(false), 200);
      });
      await fetch(`${base}/api/inbox/conversations/${conversationId}/notes`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'warm-up' }),
      });
      heard = await arrived;
    }
    waiters.delete('warm-up');

    const each: number[] = [];
    const last: number[] = [];
    const replied: number[] = [];
    for (let n = 0; n < notes; n++) {
      const text = `note ${n}`;
      const arrivals = Array.from({ length: agents }, () => {
        let arrive!: (at: number) => void;
        const promise = new Promise<number>((resolve) => (arrive = resolve));
        return { promise, arrive };
      });
      waiters.set(
        text,
        arrivals.map((a) => a.arrive),
      );
      const sentAt = performance.now();
      const posted = await fetch(`${base}/api/inbox/conversations/${conversationId}/notes`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      if (posted.status !== 200) throw new Error(`note ${n}: ${posted.status} ${await posted.text()}`);
      replied.push(performance.now() - sentAt);
      const times = await Promise.all(arrivals.map((a) => a.promise));
      waiters.delete(text);
      const latencies = times.map((at) => at - sentAt);
      each.push(...latencies);
      last.push(Math.max(...latencies));
    }
    for (const abort of aborts) abort.abort();
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
    const fmt = (xs: number[]) =>
      `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
    console.log(`inbox events, ${agents} streams, ${notes} notes, ${redisFlag ? 'through Redis' : 'in process'}:`);
    console.log(`  each delivery (note sent -> a stream read it): ${fmt(each)}`);
    console.log(`  the last of the ${agents} streams per note:     ${fmt(last)}`);
    console.log(`  the note's own reply (stored, then published):  ${fmt(replied)}`);
  } finally {
    child.kill();
  }
}

if (process.argv[2] === '--serve') await serve(JSON.parse(process.argv[3] ?? '{}') as Partial<Config>);
else await main();
