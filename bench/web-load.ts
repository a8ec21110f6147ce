/**
 * What a visitor on a mobile connection downloads and waits for: the public home page, a console screen (My USSD
 * Apps) and the designer, each opened cold (an empty cache) in Chromium under DevTools' network throttling, on
 * the server as `npm start` runs it, for this checkout and an earlier commit in the same run. A report, never
 * part of `npm test`.
 *
 *   npm run bench:web                                    # "3G", 3 rounds, against the baseline commit: ~5 min
 *   npm run bench:web -- --before=none                   # this checkout only
 *   npm run bench:web -- --before=<commit> --network=slow3g --rounds=5 --json=/tmp/web-load.json
 *
 * What ships, both sides: the console is built as `npm start` builds it (this checkout: scripts/build-web-if-needed.mjs;
 * the earlier commit: its own vite build, in a copy of its tree under the temporary folder, `git archive`, with
 * this checkout's node_modules), and its src/server/main.ts is started as `npm start` starts it (bench/shipped.ts:
 * default settings, a fresh DATA_DIR, 127.0.0.1). The default earlier commit is BASELINE, the last one that
 * served the console as one uncompressed script.
 *
 * Each visit is a fresh browser context at a phone's size (390x844), the seeded demo user signed in by the stored
 * session (written before any script runs, so nothing is loaded beforehand), throttled over the DevTools protocol
 * (Network.emulateNetworkConditions: DevTools' own "3G" preset, 562.5 ms latency, 1.44 Mbit/s down, or "Slow 3G",
 * 2 s and 400 kbit/s). It records every response's bytes on the wire (Network.loadingFinished's encodedDataLength:
 * headers and the body as sent, compressed or not), the console's files apart from API calls, and the time from
 * the navigation to the screen's content being visible ("ready": the home page's heading, the app list's row,
 * the designer's title); the bytes once the page has gone quiet. Rounds interleave the two servers; the figures
 * are medians. Exit code 1 when a visit failed (a screen never showed).
 */
import { execSync, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { DEMO_USER } from '../src/server/seed';
import type { LoginReplyBody } from '../tests/e2e/accounts';
import { launchChromium, writeStoredSession } from '../tests/e2e/chromium';
import { prepareCheckout, ShippedServer } from './shipped';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The last commit that served the console in one piece, uncompressed, its HTML cached an hour (issue 27). */
const BASELINE = '82fb9f6';

/** DevTools' presets (Chromium's front end, NetworkManager.ts): throughput in bytes a second. */
const NETWORKS = {
  '3g': { label: '3G (DevTools preset: 562.5 ms, 1.44 Mbit/s down, 675 kbit/s up)', latency: 562.5, download: 180_000, upload: 84_375 },
  slow3g: { label: 'Slow 3G (DevTools preset: 2 s, 400 kbit/s)', latency: 2000, download: 50_000, upload: 50_000 },
} as const;
type NetworkName = keyof typeof NETWORKS;

const PHONE = { width: 390, height: 844 };

// ---- options ---------------------------------------------------------------------------------------------

function readOption(name: string): string | undefined {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg?.slice(name.length + 3);
}

const options = {
  before: readOption('before') ?? BASELINE,
  network: (readOption('network') ?? '3g') as NetworkName,
  rounds: Number(readOption('rounds') ?? 3),
  json: readOption('json'),
};
if (!(options.network in NETWORKS)) throw new Error(`--network: one of ${Object.keys(NETWORKS).join(', ')}`);
if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error('--rounds: a whole number, 1 or more');

// ---- what is measured ------------------------------------------------------------------------------------

interface Target {
  name: string;
  server: ShippedServer;
  login: LoginReplyBody;
  /** The demo user's deployed app, whose designer is opened. */
  appId: string;
}

interface Screen {
  name: string;
  path: (target: Target) => string;
  isSignedIn: boolean;
  /** The content that shows the screen is there. */
  ready: (page: Page) => ReturnType<Page['locator']>;
}

const SEEDED_APP = 'Mensah Airtime';

const SCREENS: Screen[] = [
  { name: 'home page /', path: () => '/', isSignedIn: false, ready: (page) => page.locator('#hero-heading') },
  {
    name: 'console /app-list',
    path: () => '/app-list',
    isSignedIn: true,
    // The visible one: at a phone's width the list shows cards and keeps the desktop table hidden.
    ready: (page) => page.getByText(SEEDED_APP).filter({ visible: true }).first(),
  },
  {
    name: 'designer /app/design/:id',
    path: (t) => `/app/design/${t.appId}`,
    isSignedIn: true,
    ready: (page) => page.getByRole('heading', { name: SEEDED_APP }),
  },
];

interface Visit {
  target: string;
  screen: string;
  round: number;
  /** Everything on the wire, headers included. */
  bytes: number;
  requests: number;
  /** The console's files: the page, scripts, style sheets, fonts, images. */
  codeBytes: number;
  codeRequests: number;
  /** How many of the console's files came compressed (Content-Encoding br or gzip). */
  compressedCode: number;
  readyMs: number;
}

const API_TYPES = new Set(['Fetch', 'XHR', 'EventSource', 'WebSocket']);

async function visit(browser: Browser, target: Target, screen: Screen, round: number): Promise<Visit> {
  const context = await browser.newContext({ viewport: PHONE, baseURL: target.server.baseUrl });
  try {
    if (screen.isSignedIn) {
      // The values the login screen stores, written before the console's code runs (no visit beforehand to warm a cache).
      await context.addInitScript(writeStoredSession, target.login);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    const network = NETWORKS[options.network];
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: network.latency,
      downloadThroughput: network.download,
      uploadThroughput: network.upload,
    });
    const kinds = new Map<string, { isCode: boolean; isCompressed: boolean }>();
    const pending = new Set<string>();
    let bytes = 0;
    let requests = 0;
    let codeBytes = 0;
    let codeRequests = 0;
    let compressedCode = 0;
    let lastActivity = performance.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      pending.add(e.requestId);
      lastActivity = performance.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      const encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
      kinds.set(e.requestId, { isCode: !API_TYPES.has(e.type), isCompressed: encoding === 'br' || encoding === 'gzip' });
    });
    cdp.on('Network.loadingFinished', (e) => {
      pending.delete(e.requestId);
      lastActivity = performance.now();
      const kind = kinds.get(e.requestId);
      bytes += e.encodedDataLength;
      requests++;
      if (kind?.isCode) {
        codeBytes += e.encodedDataLength;
        codeRequests++;
        if (kind.isCompressed) compressedCode++;
      }
    });
    cdp.on('Network.loadingFailed', (e) => {
      pending.delete(e.requestId);
      lastActivity = performance.now();
    });

    const started = performance.now();
    await page.goto(screen.path(target), { waitUntil: 'commit', timeout: 180_000 });
    await screen.ready(page).waitFor({ state: 'visible', timeout: 180_000 });
    const readyMs = performance.now() - started;
    // The bytes once the page has gone quiet: nothing in flight for a second (bounded).
    const quietBy = performance.now() + 60_000;
    while ((pending.size > 0 || performance.now() - lastActivity < 1000) && performance.now() < quietBy) await sleep(100);
    return { target: target.name, screen: screen.name, round, bytes, requests, codeBytes, codeRequests, compressedCode, readyMs };
  } finally {
    await context.close();
  }
}

// ---- servers ----------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A copy of an earlier commit's tree with this checkout's node_modules and its console built by its own config. */

async function signIn(server: ShippedServer): Promise<{ login: LoginReplyBody; appId: string }> {
  const res = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
  });
  const login = (await res.json()) as LoginReplyBody;
  if (!login.token) throw new Error(`sign-in failed: ${JSON.stringify(login)}`);
  const apps = (await (
    await fetch(`${server.baseUrl}/api/getAllApps`, { headers: { authorization: `Bearer ${login.token}` } })
  ).json()) as {
    data?: { appId: string; appName: string }[];
  };
  const app = apps.data?.find((a) => a.appName === SEEDED_APP);
  if (!app) throw new Error(`the demo user has no app named ${SEEDED_APP}`);
  return { login, appId: app.appId };
}

// ---- report -----------------------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Row {
  target: string;
  screen: string;
  bytes: number;
  codeBytes: number;
  requests: number;
  codeRequests: number;
  compressedCode: number;
  readyMs: number;
  readyMsRange: [number, number];
}

function summarize(visits: Visit[]): Row[] {
  const rows: Row[] = [];
  for (const target of [...new Set(visits.map((v) => v.target))])
    for (const screen of SCREENS) {
      const mine = visits.filter((v) => v.target === target && v.screen === screen.name);
      if (mine.length === 0) continue;
      const ready = mine.map((v) => v.readyMs);
      rows.push({
        target,
        screen: screen.name,
        bytes: median(mine.map((v) => v.bytes)),
        codeBytes: median(mine.map((v) => v.codeBytes)),
        requests: median(mine.map((v) => v.requests)),
        codeRequests: median(mine.map((v) => v.codeRequests)),
        compressedCode: median(mine.map((v) => v.compressedCode)),
        readyMs: median(ready),
        readyMsRange: [Math.min(...ready), Math.max(...ready)],
      });
    }
  return rows;
}

function printReport(rows: Row[]): void {
  const header = [
    'target',
    'screen',
    'bytes',
    'console files',
    'requests (files)',
    'compressed files',
    'ready (median)',
    'ready (min-max)',
  ];
  const lines = rows.map((r) => [
    r.target,
    r.screen,
    kb(r.bytes),
    kb(r.codeBytes),
    `${r.requests} (${r.codeRequests})`,
    `${r.compressedCode}/${r.codeRequests}`,
    seconds(r.readyMs),
    `${seconds(r.readyMsRange[0])}-${seconds(r.readyMsRange[1])}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n${format(header)}`);
  for (const line of lines) console.log(format(line));
  const after = rows.filter((r) => r.target === 'now');
  const before = rows.filter((r) => r.target !== 'now');
  if (before.length === 0) return;
  console.log('\nnow against before (lower is better):');
  for (const a of after) {
    const b = before.find((r) => r.screen === a.screen);
    if (!b) continue;
    console.log(
      `  ${a.screen.padEnd(widths[1]!)}  bytes x${(a.bytes / b.bytes).toFixed(2)} (${kb(b.bytes)} -> ${kb(a.bytes)}), ready x${(a.readyMs / b.readyMs).toFixed(2)} (${seconds(b.readyMs)} -> ${seconds(a.readyMs)})`,
    );
  }
}

// ---- main -------------------------------------------------------------------------------------------------

const formatLoad = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<number> {
  const network = NETWORKS[options.network];
  // Bounded: building and starting (5 minutes), then three minutes a visit at most.
  setTimeout(
    () => {
      console.error('web-load: still running past its bound; stopping.');
      process.exit(2);
    },
    (300 + options.rounds * SCREENS.length * 2 * 180) * 1000,
  ).unref();
  console.log(`web-load: ${network.label}; ${options.rounds} rounds; load average ${formatLoad()} at the start`);
  execSync('node scripts/build-web-if-needed.mjs', { cwd: ROOT, stdio: 'inherit' });
  const checkout = options.before === 'none' ? undefined : prepareCheckout(options.before, { buildConsole: true });
  const children: ChildProcess[] = [];
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  const targets: Target[] = [];
  let browser: Browser | undefined;
  const visits: Visit[] = [];
  const problems: string[] = [];
  try {
    const start = async (name: string, root?: string) => {
      const server = await ShippedServer.start({ env: {}, nodeFlags: ['--max-semi-space-size=32'], console: true, root }, (p) =>
        children.push(p),
      );
      targets.push({ name, server, ...(await signIn(server)) });
    };
    if (checkout) await start(`before (${checkout.commit.slice(0, 7)})`, checkout.dir);
    await start('now');
    browser = await launchChromium();
    console.log(`Chromium ${browser.version()}; viewport ${PHONE.width}x${PHONE.height}; every visit with an empty cache`);
    for (let round = 1; round <= options.rounds; round++)
      for (const target of targets)
        for (const screen of SCREENS) {
          try {
            const v = await visit(browser, target, screen, round);
            visits.push(v);
            console.log(
              `  round ${round}  ${target.name.padEnd(18)} ${screen.name.padEnd(26)} ${kb(v.bytes).padStart(8)} in ${String(v.requests).padStart(3)} requests, ready in ${seconds(v.readyMs)}`,
            );
          } catch (err) {
            problems.push(`${target.name}, ${screen.name}, round ${round}: ${(err as Error).message.split('\n')[0]}`);
          }
        }
  } finally {
    await browser?.close();
    for (const target of targets) {
      await target.server.stop();
      target.server.remove();
    }
    if (checkout) rmSync(checkout.dir, { recursive: true, force: true });
  }
  const rows = summarize(visits);
  printReport(rows);
  console.log(`\nload average ${formatLoad()} at the end`);
  if (options.json) writeFileSync(options.json, JSON.stringify({ network, load: loadavg(), rows, visits, problems }, null, 2));
  for (const p of problems) console.log(`INVALID: ${p}`);
  return problems.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
