/**
 * `npm run bench:footprint`: what the server as it ships holds in memory and how soon it answers after a restart,
 * for this checkout and an earlier commit in the same run. A report, never part of `npm test`.
 *
 *   npm run bench:footprint                                   # against BASELINE, the commit before issue 36
 *   npm run bench:footprint -- --before=none                  # this checkout only
 *   npm run bench:footprint -- --before=<commit> --connections=500 --duration=10 --json=/tmp/footprint.json
 *   npm run bench:footprint -- --also=PGLITE_SHARED_BUFFERS_MB=128   # this checkout once more with these settings
 *   npm run bench:footprint -- --sources                      # and once more from its sources under tsx
 *
 * What ships, both sides: the server started as `npm start` starts it (bench/shipped.ts: the bundle in dist/server, or
 * an earlier commit's src/server/main.ts under tsx when it has no bundle; default settings,
 * file PGlite, 127.0.0.1, the console served from this checkout's build, dist/web or --web=, built first as
 * `npm start` builds it). Both start on a copy of one existing data folder: a first start seeds it (the demo
 * accounts) and builds and deploys the bench shop (bench/shop.ts) through the API, then stops. Then, for each side:
 *
 * - start: from the spawn to the first 200 of /api/health, on the copied folder (a restart, not a first start);
 * - idle: RSS summed over the process tree (every thread and worker, tsx's esbuild service) after --idle seconds;
 * - console: after the console's first use (its page and the files the page names, a sign-in, the app list, the
 *   shop's menus and dashboard), 3 s later;
 * - load: the peak while the shipped target's load runs (bench/load.ts: --connections sessions on the shop's live
 *   URL, a warm-up and a measured window), sampled every 250 ms, and VmHWM, the process's own peak;
 * - after: --after seconds once the load has stopped and the event buffer is written.
 */
import type { ChildProcess } from 'node:child_process';
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load';
import { prepareCheckout, readMemoryMb, readTreeRssMb, ShippedServer, signInAsDemo } from './shipped';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The last commit before issue 36's memory and start work (every JavaScript worker started at boot). */
const BASELINE = '95f708d';

function readOption(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
const options = {
  before: readOption('before') ?? BASELINE,
  connections: Number(readOption('connections') ?? 500),
  warmupS: Number(readOption('warmup') ?? 2),
  durationS: Number(readOption('duration') ?? 10),
  idleS: Number(readOption('idle') ?? 10),
  afterS: Number(readOption('after') ?? 15),
  web: readOption('web'),
  json: readOption('json'),
  /** Settings (KEY=value, comma-separated) for a third measurement of this checkout: what a setting costs or saves. */
  also: readOption('also'),
  /** This checkout once more from its sources under tsx (as the tests run it): what the bundle saves. */
  sources: process.argv.includes('--sources'),
};
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=32').split(' ').filter(Boolean);

const children = new Set<ChildProcess>();
const track = (proc: ChildProcess) => {
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
};
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const mb = (n: number) => `${n.toFixed(0)} MB`;

interface Row {
  target: string;
  startMs: number;
  idleMb: number;
  consoleMb: number;
  loadPeakMb: number;
  peakHwmMb: number;
  afterMb: number;
  hopsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/** The console's first use: the page and its files, a sign-in, then what the app list and an app's screens ask. */
async function visitConsole(server: ShippedServer): Promise<void> {
  const page = await fetch(`${server.baseUrl}/`, { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<script')) throw new Error(`the console page answered ${page.status}`);
  for (const [, path] of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
    const res = await fetch(`${server.baseUrl}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    await res.arrayBuffer();
  }
  const headers = await signInAsDemo(server.baseUrl);
  const call = async (path: string) => {
    const res = await fetch(`${server.baseUrl}${path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return res.json();
  };
  await call('/api/getAllApps');
  await call(`/api/getAllMenus/${server.appId}`);
  await call(`/api/dashboard/appDashboard/${server.appId}?environment=live`);
}

/** The first start: seeds the folder and deploys the shop; the folder and the shop's id, for every side to copy. */
async function prepareDataFolder(web: string): Promise<{ dataDir: string; appId: string; keep: string }> {
  const server = await ShippedServer.start({ env: { WEB_DIST: web }, nodeFlags: NODE_FLAGS }, track);
  await server.stop();
  const keep = mkdtempSync(join(tmpdir(), 'dialflow-footprint-'));
  execSync(`cp -r ${JSON.stringify(server.dataDir)} ${JSON.stringify(join(keep, 'data'))}`);
  server.remove();
  return { dataDir: join(keep, 'data'), appId: server.appId, keep };
}

interface Side {
  target: string;
  root: string;
  settings?: Record<string, string>;
  /** The sources under tsx instead of the bundle npm start runs: what the bundle saves. */
  source?: boolean;
}

async function measure({ target, root, settings = {}, source }: Side, web: string, dataFrom: string, appId: string): Promise<Row> {
  const env = { ...settings, WEB_DIST: web };
  const server = await ShippedServer.start({ env, console: true, nodeFlags: NODE_FLAGS, root, dataFrom, source }, track);
  try {
    server.appId = appId;
    const pid = server.proc.pid!;
    const startMs = server.healthyAfterMs;
    await sleep(options.idleS * 1000);
    const idleMb = readTreeRssMb(pid);
    await visitConsole(server);
    await sleep(3000);
    const consoleMb = readTreeRssMb(pid);
    let loadPeakMb = 0;
    const sampler = setInterval(() => (loadPeakMb = Math.max(loadPeakMb, readTreeRssMb(pid))), 250);
    const { measured } = await runLoad({
      port: server.port,
      path: `/ussd/${appId}/live`,
      connections: options.connections,
      warmupS: options.warmupS,
      durationS: options.durationS,
      expect: 'runtime',
      tag: `fp${target}${Date.now().toString(36)}`,
    });
    clearInterval(sampler);
    const peakHwmMb = readMemoryMb(pid).peak;
    await server.settle();
    await sleep(options.afterS * 1000);
    const afterMb = readTreeRssMb(pid);
    return {
      target,
      startMs,
      idleMb,
      consoleMb,
      loadPeakMb,
      peakHwmMb,
      afterMb,
      hopsPerSecond: measured.hopsPerSecond,
      p99Ms: measured.p99,
      errors: measured.errors + measured.timeouts + measured.non2xx + measured.wrongReplies,
    };
  } finally {
    await server.stop();
    server.remove();
  }
}

async function main(): Promise<void> {
  const web = options.web ?? join(ROOT, 'dist', 'web');
  if (!options.web) execSync('node scripts/build-web-if-needed.mjs', { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(join(web, 'index.html'))) throw new Error(`no console build in ${web}`);
  const checkout = options.before === 'none' ? undefined : prepareCheckout(options.before, { buildConsole: false });
  const [load1] = loadavg();
  console.log(`footprint: ${availableParallelism()} cores, load average ${load1!.toFixed(2)} at start`);
  const data = await prepareDataFolder(web);
  const rows: Row[] = [];
  try {
    const sides: Side[] = [
      ...(checkout ? [{ target: `before (${checkout.commit.slice(0, 7)})`, root: checkout.dir }] : []),
      { target: 'now', root: ROOT },
      ...(options.sources ? [{ target: 'now, sources (tsx)', root: ROOT, source: true }] : []),
      ...(options.also
        ? [
            {
              target: `now, ${options.also}`,
              root: ROOT,
              settings: Object.fromEntries(options.also.split(',').map((pair) => pair.split('=') as [string, string])),
            },
          ]
        : []),
    ];
    for (const side of sides) rows.push(await measure(side, web, data.dataDir, data.appId));
  } finally {
    rmSync(data.keep, { recursive: true, force: true });
    if (checkout) rmSync(checkout.dir, { recursive: true, force: true });
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)} at end`);
  console.log(
    `\n${'target'.padEnd(20)} ${'start'.padStart(8)} ${'idle'.padStart(8)} ${'console'.padStart(8)} ${'load'.padStart(8)} ${'HWM'.padStart(8)} ${'after'.padStart(8)} ${'hops/s'.padStart(8)} ${'p99'.padStart(8)} errors`,
  );
  for (const r of rows) {
    console.log(
      `${r.target.padEnd(20)} ${`${(r.startMs / 1000).toFixed(2)} s`.padStart(8)} ${mb(r.idleMb).padStart(8)} ${mb(r.consoleMb).padStart(8)} ${mb(r.loadPeakMb).padStart(8)} ${mb(r.peakHwmMb).padStart(8)} ${mb(r.afterMb).padStart(8)} ${r.hopsPerSecond.toFixed(0).padStart(8)} ${`${r.p99Ms.toFixed(1)} ms`.padStart(8)} ${r.errors}`,
    );
  }
  console.log('\nGoals (issue 36): idle <= 250 MB, load <= 400 MB, start <= 2 s.');
  if (options.json) writeFileSync(options.json, JSON.stringify({ loadavg: loadavg(), rows }, null, 2));
  if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
}

await main();
