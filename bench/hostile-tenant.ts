/**
 * One account's regular expressions and templates against everyone else (issue 10, findings 1 and 8).
 *
 *   npx tsx bench/hostile-tenant.ts                        # patterns, then the server: quiet, regexp, render (~60 s)
 *   npx tsx bench/hostile-tenant.ts --attack=render --phase=10 --attackers=40 --subscribers=20
 *   npx tsx bench/hostile-tenant.ts --attack=rows --patterns=off --postgres   # floods only, on PostgreSQL
 *
 * Part 1, in this process: how long a builder's pattern takes to match (compileComparison, what the engine
 * runs). `^(\w|\d)*$` against growing inputs, up to the 512 characters the engine keeps, stopping at the first
 * length that takes over 2 s; then the worst patterns the limits allow (regexp.ts: 1000 steps a pattern, 2000
 * a menu) against 512 random characters.
 *
 * Then one hop of pathological templates through the engine: how long its renders take before the hop's budget
 * stops them (render.ts), for loops, and for filters at their input caps inside loops.
 *
 * Part 2: the whole server in a child process (bench/servers/dialflow.ts: buildApp, PGlite in memory, the
 * deployed bench shop), this process being the clients. Tenant B is the shop's subscribers, paced
 * (bench/paced.ts: `subscribers` sessions, 5 hops a second each); a probe reads /api/health every 50 ms. An
 * attacker registers over HTTP and, in each attack phase, keeps `attackers` hops in flight on its own test URL:
 *
 *   regexp   a menu whose validation and navigation rule are `^(\w|\d)*$`, sent a 512-character input that
 *            cannot match (`a1a1...a!`).
 *   render   a start hop that deep-dials through 11 menus whose header, text and footer are nested loops of
 *            a billion iterations (33 renders a hop).
 *
 * and, as the control, `plain`: the same flood of hops on a plain menu, so what remains of an attack's effect
 * beyond a flood of requests shows (`--attack=plain` runs the quiet and flood phases only). `rows` is a flood whose
 * hops each deep-dial through 10 menus (some 40 event rows a hop): the flood that fills the event writer's buffer, whose
 * holds are per account. `paused` is that flood while the server's event writes are paused (a database that
 * stops answering them, bench/servers/dialflow.ts) until the phase ends: past 20,000 rows waiting the writer
 * holds hops, and whose hops it holds is what the phase shows. `--postgres[=URL]` runs
 * the server on a fresh PostgreSQL database (made from `postgres://postgres@127.0.0.1:5432/postgres` unless given,
 * dropped afterwards) instead of PGlite. Each phase also reports how many times the event writer held hops
 * (`/api/health`'s `events.holds`). Each phase reports B's p50/p99/max, wrong replies and timeouts (10 s),
 * health's p50/p99/max, and what the attacker's hops were answered. Run it on an older commit to get the "before" figures (a frozen server times
 * everything out; `--attack=` runs one attack on a fresh server). Exit code 1 when the server could not be driven.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as engine from '../src/engine';
import * as appModel from '../src/shared/app';
import { createBenchClient } from './client';
import { LatencyHistogram } from './load';
import { runPaced, type PacedResult } from './paced';
import { createScratchDatabase, DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';
import type { ChildReady } from './servers/protocol';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const args = readBenchArgs();
const PHASE_S = Number(args.phase ?? 10);
const SUBSCRIBERS = Number(args.subscribers ?? 20);
const ATTACKERS = Number(args.attackers ?? 40);
const ATTACKS = (args.attack ?? 'regexp,render').split(',').filter((a) => a !== 'none') as Array<
  'regexp' | 'render' | 'plain' | 'rows' | 'paused'
>;
const POSTGRES_URL = 'postgres' in args ? args.postgres || DEFAULT_POSTGRES_URL : undefined;

const PATTERN = String.raw`^(\w|\d)*$`;
const HOSTILE_INPUT = `${'a1'.repeat(255)}a!`;
const HEAVY = '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}x{% endfor %}{% endfor %}{% endfor %}';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : '-').padStart(9);

// ---- part 1: matching time -------------------------------------------------------------------------------

function compileTest(pattern: string): (input: string) => boolean {
  const comparison = appModel.compileComparison('regexp', pattern);
  if (!comparison.ok) throw new Error(`${pattern}: ${comparison.error}`);
  return comparison.test;
}

/**
 * CPU time of one match in ms, best of three (one run when it is slow): CPU rather than wall time, so another
 * process on a shared machine does not count (it includes this process's GC threads).
 */
function timeMatch(test: (input: string) => boolean, input: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = process.cpuUsage();
    test(input);
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
    if (best > 200) break;
  }
  return best;
}

function reportPathologicalMatch(): void {
  // Every digit matches both \w and \d: a backtracking engine tries both, for each digit, before the ! fails it.
  console.log(`\n1. ${PATTERN} against \`111...1!\` (fails after every way of matching)`);
  const test = compileTest(PATTERN);
  for (const length of [16, 20, 22, 24, 26, 28, 30, 32, 64, 512]) {
    const input = `${'1'.repeat(length - 1)}!`;
    const took = timeMatch(test, input);
    console.log(`   ${String(length).padStart(4)} characters: ${ms(took)} ms`);
    if (took > 2000) {
      console.log('   (stopped: each character more doubles it; 512 characters would never finish)');
      break;
    }
  }
}

/** The worst the limits allow, when the code has limits (regexp.ts); older code has none to measure. */
function reportWorstAllowedMatch(): void {
  const limits = (appModel as { REGEXP_LIMITS?: { maxSize: number; maxMenuSize: number } }).REGEXP_LIMITS;
  if (!limits) return;
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789éあ ';
  const inputs = Array.from({ length: 200 }, () =>
    Array.from({ length: 512 }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
  );
  inputs.push(HOSTILE_INPUT, 'a'.repeat(512), 'é'.repeat(512));
  // Shapes that keep many of RE2's states alive at once, each scaled up to the size limit.
  const shapes: Record<string, (k: number) => string> = {
    'five counted alternatives': (k) => `(?:[a-z0-9]{${k}}|[a-z]{${k - 1}}|[0-9a-f]{${k - 2}}|\\w{${k - 3}}|.{${k - 4}})`,
    'unicode letters': (k) => `(?:\\pL{${k}}|\\w{${k - 1}}|.{${k - 2}})x`,
    'ten counted alternatives': (k) => `(?:${Array.from({ length: 10 }, (_, i) => `[a-z0-9 ]{${k - i}}`).join('|')})`,
    'k-th from the end': (k) => `(?i)[a-z ]*a[a-z0-9 ]{${k}}`,
  };
  console.log(
    `\n2. the worst patterns the limits allow (${limits.maxSize} steps a pattern), against ${inputs.length} inputs of 512 characters (CPU time)`,
  );
  let menuWorst = 0;
  for (const [name, build] of Object.entries(shapes)) {
    let k = 10;
    while (!('error' in appModel.compileRegExp(build(k + 10)))) k += 10;
    const compiled = appModel.compileRegExp(build(k));
    if ('error' in compiled) continue;
    const histogram = new LatencyHistogram();
    for (const input of inputs) histogram.record(timeMatch(compiled.test, input));
    menuWorst = Math.max(menuWorst, histogram.max);
    console.log(
      `   ${name.padEnd(26)} ${String(compiled.size).padStart(5)} steps: p50 ${ms(histogram.percentile(50))} ms  p99 ${ms(histogram.percentile(99))} ms  max ${ms(histogram.max)} ms`,
    );
  }
  const perMenu = limits.maxMenuSize / limits.maxSize;
  console.log(
    `   a menu holds ${limits.maxMenuSize} steps of patterns: ${perMenu} such patterns at most, about ${(menuWorst * perMenu).toFixed(1)} ms of CPU for one input at the worst`,
  );
}

/** How long a hop of pathological templates renders before the budget stops it (engine in this process). */
async function reportRenderBudget(): Promise<void> {
  const budgetMs = (engine.DEFAULT_LIMITS as { renderBudgetMs?: number }).renderBudgetMs;
  if (budgetMs === undefined) return;
  const items = Array.from({ length: 1000 }, (_, i) => ({ k: String(i) }));
  const templates: Record<string, string> = {
    'nested loops': HEAVY,
    'where over 1000 items, in a loop': '{% for i in (1..100000) %}{{ actions.api.items | where: "k", "7" | size }}{% endfor %}',
    'sort_natural over 1000 items, in a loop': '{% for i in (1..100000) %}{{ actions.api.items | sort_natural: "k" | size }}{% endfor %}',
    'strip_html of 5000 characters, in a loop': '{% for i in (1..100000) %}{{ actions.api.text | strip_html | size }}{% endfor %}',
  };
  console.log(
    `\n3. one hop of pathological templates (header, text and footer): how long it renders, the hop's budget being ${budgetMs} ms (wall time)`,
  );
  for (const [name, source] of Object.entries(templates)) {
    const compiled = engine.compileApp(
      appModel.appVersionSchema.parse({
        appId: 'a1',
        versionId: 'v1',
        appName: 'Bench',
        shortCode: '*920#',
        menus: [
          {
            uniqueId: 'm1',
            appId: 'a1',
            userDefinedName: 'home',
            isFirst: true,
            headerText: source,
            displayText: source,
            footerText: source,
            actions: [{ actionName: 'api', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }],
          },
        ],
      }),
    );
    const histogram = new LatencyHistogram();
    for (let i = 0; i < 20; i++) {
      let spent = 0;
      const renderTime = {
        now: () => performance.now(),
        getAvailableMs: () => Infinity,
        spend: (took: number) => {
          spent += took;
        },
      };
      const result = { ok: true as const, result: { items, text: '<script'.repeat(714) } };
      await engine.startSession(
        compiled,
        { sessionId: `s${i}`, msisdn: '', network: '', serviceCode: '*920#', input: '' },
        { now: () => Date.now(), newId: () => 'e', runAction: async () => result, renderTime },
      );
      histogram.record(spent);
    }
    console.log(`   ${name.padEnd(42)} p50 ${ms(histogram.percentile(50))} ms  max ${ms(histogram.max)} ms`);
  }
}

// ---- part 2: the server ------------------------------------------------------------------------------------

interface Server {
  port: number;
  appId: string;
  info: string;
  /** Pauses the server's event writes, or resumes them (bench/servers/dialflow.ts, SIGUSR2). */
  togglePause(): void;
  stop(): void;
}

async function startServer(databaseUrl?: string): Promise<Server> {
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', join(BENCH_DIR, 'servers', 'dialflow.ts')], {
    cwd: resolve(BENCH_DIR, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? '' },
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const ready = await new Promise<ChildReady>((resolvePromise, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
    child.on('message', (message: ChildReady | { type: 'failed'; error: string }) => {
      if (message.type === 'ready') resolvePromise(message);
      else if (message.type === 'failed') reject(new Error(message.error));
    });
  });
  // SIGKILL: a server frozen by the old regexp engine cannot answer a stop.
  return {
    port: ready.port,
    appId: ready.appId,
    info: ready.info,
    togglePause: () => child.kill('SIGUSR2'),
    stop: () => child.kill('SIGKILL'),
  };
}

/**
 * A caller's number for a session: each session its own, as a flood from many phones would come (one number's
 * dials are limited per minute, which would turn a one-number flood away before it reached the event writer).
 */
function phoneNumberOf(sessionId: string): string {
  let hash = 2166136261;
  for (let i = 0; i < sessionId.length; i++) hash = Math.imul(hash ^ sessionId.charCodeAt(i), 16777619);
  return `+23324${String((hash >>> 0) % 10_000_000).padStart(7, '0')}`;
}

/** The bench client, plus a hop of Africa's Talking's form on an app's test URL. */
function createClient(port: number) {
  const client = createBenchClient(port, ATTACKERS + 8);
  const hop = (appId: string, sessionId: string, serviceCode: string, text: string) =>
    client.send(
      'POST',
      `/ussd/${appId}/test`,
      new URLSearchParams({ sessionId, serviceCode, phoneNumber: phoneNumberOf(sessionId), networkCode: '62001', text }).toString(),
      'application/x-www-form-urlencoded',
    );
  return { ...client, hop };
}

type Client = ReturnType<typeof createClient>;

interface Attacker {
  plainAppId: string;
  regexpAppId: string;
  rowsAppId: string;
  renderAppId: string;
}

type AttackKind = 'plain' | 'regexp' | 'render' | 'rows' | 'paused';

/** The event writer's holds so far (`/api/health` -> data.events.holds). */
async function readHolds(client: Client): Promise<number> {
  const reply = await client.send('GET', '/api/health', '', 'application/json', { timeoutMs: 10_000 });
  return (JSON.parse(reply.body) as { data?: { events?: { holds?: number } } }).data?.events?.holds ?? Number.NaN;
}

async function seedAttacker(client: Client): Promise<Attacker> {
  const token = await client.registerAccount('attacker');
  const plainAppId = await client.createApp(token, '*920*65#', [{ userDefinedName: 'hello', displayText: 'Hello', terminate: true }]);
  const regexpAppId = await client.createApp(token, '*920*66#', [
    {
      userDefinedName: 'code',
      displayText: 'Enter a code',
      inputValidations: [{ validationMethod: 'notRegexp', compareValue: PATTERN, errorMessage: 'The code needs a symbol' }],
      switchOperations: [
        { operator: 'regexp', compareVal: PATTERN, action: 'Terminate', actionParam: 'Plain code' },
        { operator: 'contains', compareVal: '!', action: 'Terminate', actionParam: 'Code with a symbol received' },
      ],
    },
  ]);
  // Eleven menus, each going on to the next: a start hop that dials 10 inputs enters them all.
  const heavy = { headerText: HEAVY, displayText: HEAVY, footerText: HEAVY };
  const chain = Array.from({ length: 11 }, (_, i) => ({ userDefinedName: `m${i}`, ...heavy, ...(i === 10 ? { terminate: true } : {}) }));
  const renderAppId = await client.createApp(token, '*920*68#', chain);
  // Nineteen plain menus in a row, dialled with 18 inputs: the hop deep-dials through the first ten ("CON Step 10"),
  // some 40 event rows a hop: a flood that fills the event writer's buffer.
  const steps = Array.from({ length: 19 }, (_, i) => ({
    userDefinedName: `r${i}`,
    displayText: `Step ${i}`,
    ...(i === 18 ? { terminate: true } : {}),
  }));
  const rowsAppId = await client.createApp(token, '*920*69#', steps);
  return { plainAppId, regexpAppId, renderAppId, rowsAppId };
}

/** `attackers` hops in flight until stopped; counts the replies by text. */
function startAttack(client: Client, attacker: Attacker, kind: AttackKind) {
  const counts: Record<string, number> = {};
  const count = (reply: { status: number; body: string }) => {
    const key = reply.status === 200 ? reply.body : `HTTP ${reply.status} ${reply.body}`.slice(0, 60);
    counts[key] = (counts[key] ?? 0) + 1;
  };
  let isRunning = true;
  let n = 0;
  const clients = Array.from({ length: ATTACKERS }, async () => {
    while (isRunning) {
      const sessionId = `${kind}-${n++}`;
      if (kind === 'regexp') {
        const start = await client.hop(attacker.regexpAppId, sessionId, '*920*66#', '');
        if (start.body !== 'CON Enter a code') {
          count(start);
          continue;
        }
        count(await client.hop(attacker.regexpAppId, sessionId, '*920*66#', HOSTILE_INPUT));
      } else if (kind === 'rows' || kind === 'paused') {
        count(await client.hop(attacker.rowsAppId, sessionId, `*920*69${'*1'.repeat(18)}#`, ''));
      } else if (kind === 'render') {
        count(await client.hop(attacker.renderAppId, sessionId, `*920*68${'*1'.repeat(10)}#`, ''));
      } else {
        count(await client.hop(attacker.plainAppId, sessionId, '*920*65#', ''));
      }
    }
  });
  return {
    async stop() {
      isRunning = false;
      await Promise.all(clients);
      return counts;
    },
  };
}

/** /api/health every 50 ms (one at a time) until stopped. */
function startHealthProbe(client: Client) {
  const histogram = new LatencyHistogram();
  let failures = 0;
  let isRunning = true;
  const done = (async () => {
    while (isRunning) {
      const sent = performance.now();
      const reply = await client.send('GET', '/api/health', '', 'application/json', { timeoutMs: 10_000 });
      histogram.record(performance.now() - sent);
      if (reply.status !== 200) failures++;
      await sleep(50);
    }
  })();
  return {
    async stop() {
      isRunning = false;
      await done;
      return { histogram, failures };
    },
  };
}

async function measurePhase(server: Server, client: Client, name: string, attacker: Attacker | null, kind: AttackKind | null) {
  // `paused`: the rows flood while the database takes no event writes, from its start to the phase's end.
  const holdsBefore = await readHolds(client);
  if (kind === 'paused') server.togglePause();
  const attack = attacker && kind ? startAttack(client, attacker, kind) : null;
  if (attack) await sleep(1000);
  const probe = startHealthProbe(client);
  const b: PacedResult = await runPaced({
    port: server.port,
    path: `/ussd/${server.appId}/live`,
    sessions: SUBSCRIBERS,
    pace: 5,
    durationS: PHASE_S,
    expect: 'runtime',
    tag: name,
    timeoutS: 10,
  });
  const health = await probe.stop();
  const holds = (await readHolds(client)) - holdsBefore;
  if (kind === 'paused') server.togglePause();
  const replies = attack ? await attack.stop() : null;
  return { name, b, health, replies, holds };
}

function printPhases(phases: Array<Awaited<ReturnType<typeof measurePhase>>>): void {
  console.log(
    `\n${'phase'.padEnd(8)} ${'B hops'.padStart(7)} ${'B p50'.padStart(9)} ${'B p99'.padStart(9)} ${'B max'.padStart(9)} ${'wrong'.padStart(6)} ${'timeouts'.padStart(8)} | ${'health p50'.padStart(10)} ${'p99'.padStart(9)} ${'max'.padStart(9)} (ms) | holds`,
  );
  for (const { name, b, health, holds } of phases) {
    console.log(
      `${name.padEnd(8)} ${String(b.hops).padStart(7)} ${ms(b.p50)} ${ms(b.p99)} ${ms(b.max)} ${String(b.wrongReplies).padStart(6)} ${String(b.timeouts).padStart(8)} | ${ms(health.histogram.percentile(50)).padStart(10)} ${ms(health.histogram.percentile(99))} ${ms(health.histogram.max)}${health.failures ? ` (${health.failures} failed)` : ''} | ${holds}`,
    );
  }
  for (const { name, b, replies } of phases) {
    for (const sample of b.wrongSamples.slice(0, 2)) console.log(`  ${name}: e.g. ${sample}`);
    if (replies)
      console.log(
        `  ${name}: the attacker's hops were answered ${
          Object.entries(replies)
            .map(([text, n]) => `${n} x ${JSON.stringify(text.slice(0, 70))}`)
            .join(', ') || 'never'
        }`,
      );
  }
}

console.log(`hostile-tenant: load average ${load()} (the machine may be shared: compare phases of one run)`);
// `--patterns=off` skips part 1 (the floods alone).
if (args.patterns !== 'off') {
  reportPathologicalMatch();
  reportWorstAllowedMatch();
  await reportRenderBudget();
}

if (ATTACKS.length > 0)
  console.log(
    `\n4. tenant B (${SUBSCRIBERS} paced sessions on the shop's live URL) while one account keeps ${ATTACKERS} hostile hops in flight; ${PHASE_S} s a phase`,
  );
let isSound = true;
for (const [i, kind] of ATTACKS.entries()) {
  // A fresh server per attack, so an attack that freezes the old code leaves the next one a working server.
  const postgres = POSTGRES_URL ? await createScratchDatabase(POSTGRES_URL, 'hostile') : undefined;
  const server = await startServer(postgres?.url);
  const client = createClient(server.port);
  if (i === 0) console.log(`   server: ${server.info}`);
  const attacker = await seedAttacker(client);
  await runPaced({
    port: server.port,
    path: `/ussd/${server.appId}/live`,
    sessions: SUBSCRIBERS,
    pace: 5,
    durationS: 2,
    expect: 'runtime',
    tag: `warm-${kind}`,
  });
  const phases = [
    await measurePhase(server, client, 'quiet', null, null),
    await measurePhase(server, client, 'plain', attacker, 'plain'),
    ...(kind === 'plain' ? [] : [await measurePhase(server, client, kind, attacker, kind)]),
  ];
  printPhases(phases);
  const [quiet, plain] = phases;
  console.log(`   B's p99 under the plain flood: ${(plain!.b.p99 / quiet!.b.p99).toFixed(1)}x quiet`);
  if (phases.some((p) => p.b.hops === 0)) isSound = false;
  client.close();
  server.stop();
  await postgres?.drop().catch((err: unknown) => console.log(`   could not drop the bench database: ${String(err)}`));
}
console.log(`\nload average ${load()}`);
process.exit(isSound ? 0 : 1);
