/**
 * The inbox with 10,000 open conversations (docs/inbox.md, "Figures"; issue 31's "10,000 open conversations"): how
 * long the agents' calls and the dashboard's figures take for an account holding that many, beside an account
 * holding 10, in the same run and on the same server. The server is what `npm start` runs: in-memory PGlite on its
 * own thread, production settings, real HTTP on a loopback port. Each conversation has a customer's message, the
 * bot's handoff text, and (every other one) an agent's reply; a fifth are assigned to the agent. A report, never part
 * of `npm test`.
 *
 *   npx tsx bench/inbox-conversations.ts [--conversations=10000] [--runs=20]
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client';
import { apps, inboxConversations, inboxMessages } from '../src/db/schema';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { createUser } from '../src/server/core/accounts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const BATCH = 1000;

type Database = Awaited<ReturnType<typeof openDatabase>>;

/** An account with a bot and `count` open conversations opened over the last 30 days. */
async function seedAccount(database: Database, name: string, count: number) {
  const password = 'bench-pass';
  const email = `${name}-${randomBytes(3).toString('hex')}@example.com`;
  const user = await createUser(database.db, { fullName: name, email, password, roles: ['CHATBOT'] });
  const appId = randomBytes(16).toString('hex');
  await database.db.insert(apps).values({
    id: appId,
    userId: user.id,
    appName: `${name} Bot`,
    country: 'ghana',
    shortCode: '',
    connectionMode: 'none',
    channel: 'whatsapp',
  });
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => {
      const i = start + k;
      const opened = new Date(now - ((i * 7919) % (30 * 86_400)) * 1000);
      return {
        ownerId: user.id,
        appId,
        msisdn: `+23324${String(i).padStart(7, '0')}`,
        reason: 'asked for a person',
        inputs: { home: '2' },
        unreadCount: i % 3,
        assigneeId: i % 5 === 0 ? user.id : null,
        lastInboundAt: opened,
        lastMessageAt: new Date(opened.getTime() + 60_000),
        createdAt: opened,
      };
    });
    const inserted = await database.db.insert(inboxConversations).values(rows).returning({
      id: inboxConversations.id,
      createdAt: inboxConversations.createdAt,
    });
    const messages = inserted.flatMap((c, k) => {
      const at = c.createdAt.getTime();
      const list = [
        { conversationId: c.id, direction: 'in', author: 'customer', text: '2', createdAt: new Date(at) },
        { conversationId: c.id, direction: 'out', author: 'bot', text: 'A person will reply shortly.', createdAt: new Date(at + 1000) },
      ];
      if ((start + k) % 2 === 0)
        list.push({
          conversationId: c.id,
          direction: 'out',
          author: 'agent',
          text: 'Hello, how can I help?',
          createdAt: new Date(at + 60_000),
          ...{ authorId: user.id, authorName: name, sendStatus: 'sent' },
        });
      return list;
    });
    await database.db.insert(inboxMessages).values(messages);
  }
  const [middle] = await database.db
    .select({ id: inboxConversations.id })
    .from(inboxConversations)
    .where(eq(inboxConversations.msisdn, `+23324${String(Math.floor(count / 2)).padStart(7, '0')}`));
  return { email, password, appId, middleId: middle!.id };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const count = Number(arg('conversations') ?? 10_000);
  const runs = Number(arg('runs') ?? 20);
  const database = await openDatabase({ thread: true });
  await database.migrate();
  const seedStarted = performance.now();
  const small = await seedAccount(database, 'Small', 10);
  const large = await seedAccount(database, 'Large', count);
  const seedMs = performance.now() - seedStarted;
  const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn' }), { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const signIn = async (account: { email: string; password: string }) => {
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
    };
    const auths = { small: await signIn(small), large: await signIn(large) };

    /** The median of `runs` timed GETs (after one warm-up), failing on anything but 200. */
    const time = async (auth: Record<string, string>, path: string) => {
      const once = async () => {
        const started = performance.now();
        const res = await fetch(`${base}${path}`, { headers: auth });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        return { ms: performance.now() - started, body };
      };
      await once();
      const all: number[] = [];
      for (let i = 0; i < runs; i++) all.push((await once()).ms);
      return median(all);
    };
    /** The cursor of page `n` (1 = the first page) of the Open tab. */
    const cursorOf = async (auth: Record<string, string>, n: number) => {
      let cursor: string | null = null;
      for (let page = 1; page < n; page++) {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const res = await fetch(`${base}/api/inbox/conversations?filter=open${query}`, { headers: auth });
        cursor = ((await res.json()) as { data: { nextCursor: string | null } }).data.nextCursor;
        if (!cursor) return null;
      }
      return cursor;
    };
    const deepLarge = await cursorOf(auths.large, 50);
    // The page-50 row is the large account's only (the small one has one page); its cursor is read first.
    const calls: Array<[string, (a: typeof small) => string, string | null]> = [
      ['Open tab, first page (50)', () => '/api/inbox/conversations?filter=open', null],
      ['Mine tab, first page', () => '/api/inbox/conversations?filter=mine', null],
      ['Unassigned tab, first page', () => '/api/inbox/conversations?filter=unassigned', null],
      ['Open tab, page 50 (cursor)', () => '/api/inbox/conversations?filter=open', deepLarge],
      ['A conversation (detail)', (a) => `/api/inbox/conversations/${a.middleId}`, null],
      ['Dashboard figures, 30 days', (a) => `/api/dashboard/inbox/${a.appId}?period=month`, null],
      ['Dashboard figures, 24 hours', (a) => `/api/dashboard/inbox/${a.appId}?period=day`, null],
    ];
    console.log(
      `inbox with ${count.toLocaleString()} open conversations vs 10 (PGlite on its thread, as npm start); seeded in ${(seedMs / 1000).toFixed(1)} s`,
    );
    console.log(`median of ${runs} requests each, ms\n`);
    console.log(`${'call'.padEnd(32)} ${'10'.padStart(8)} ${count.toLocaleString().padStart(8)}   ratio`);
    for (const [name, path, cursor] of calls) {
      if (name.includes('page 50') && !cursor) continue;
      const suffix = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const smallMs = cursor ? NaN : await time(auths.small, path(small));
      const largeMs = await time(auths.large, `${path(large)}${suffix}`);
      const ratio = Number.isNaN(smallMs) ? '' : `${(largeMs / smallMs).toFixed(1)}x`;
      console.log(
        `${name.padEnd(32)} ${(Number.isNaN(smallMs) ? '-' : smallMs.toFixed(1)).padStart(8)} ${largeMs.toFixed(1).padStart(8)}   ${ratio}`,
      );
    }
  } finally {
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
