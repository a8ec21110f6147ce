/**
 * The flow map of a 100-menu app under pan and zoom, in this machine's Chromium, against the goal of issue 20: 60
 * frames a second. A report, never part of `npm test`.
 *
 *   npx tsx bench/flowmap-fps.ts                          # ~2 min: 100 menus, 20 menus, 100 without the minimap
 *   npx tsx bench/flowmap-fps.ts --rounds=2               # the variants twice, interleaved
 *   npx tsx bench/flowmap-fps.ts --phase=3 --variants=100 --json=/tmp/fps.json
 *   npx tsx bench/flowmap-fps.ts --profile=/tmp/fps       # also a CPU profile of each variant's pan at fit view
 *   npx tsx bench/flowmap-fps.ts --trace=/tmp/fps         # or a Chromium trace of it: where a frame's time goes
 *
 * What ships: the console is built as `npm start` builds it (scripts/build-web-if-needed.mjs, the production
 * build), and src/server/main.ts is started as `npm start` starts it (bench/shipped.ts, default settings, a fresh
 * DATA_DIR) and serves it. Chromium is Debian's, launched as the browser tests launch it (tests/e2e/chromium.ts:
 * headless, software rendering). The seeded demo account (PREMIUM: no menu limit) signs in through the API and
 * builds each app through it: a tree of menus (three options each) with Terminate rules, Back on every other
 * menu, actions on every third (badges), a few long screens and a few "0. Main menu" gotos back to the first.
 *
 * Each variant opens /app/design/:appId/flow at 1600x1000 in a fresh context, presses the fit-view control (every
 * node in view), then, for --phase seconds each: idle, pan (the pane dragged round in circles), zoom (the wheel, in
 * then out by the same steps); then "Find a menu" centres it at 100% and pan and zoom again. Input is paced at one
 * event per 16.7 ms, as a hand on a mouse at 60 Hz, sent over the DevTools protocol without waiting for the page
 * to take each (as a mouse does). In the page a requestAnimationFrame loop records each frame's timestamp and
 * whether the map moved in it (React Flow's viewport transform changed): a frame drawn is not a frame that moved;
 * long animation frames (over 50 ms) are read from a PerformanceObserver; the renderer's main-thread time from the
 * DevTools protocol's Performance metrics; Chromium's CPU (all its processes) from /proc.
 *
 * Before anything starts it waits (up to --wait-quiet seconds) for the 1-minute load average to drop under
 * --max-load; the load is printed at the start and the end. Exit code 0 when the figures are sound, whether or not
 * the goal is met; 1 when they are not (a page error, nodes missing, no frames).
 */
import { execSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { DEMO_USER } from '../src/server/seed';
import { launchChromium, storeSession } from '../tests/e2e/chromium';
import type { LoginReplyBody } from '../tests/e2e/accounts';
import { formatSummary, summarizeProfile, type CpuProfile } from './profile-summary';
import { ShippedServer } from './shipped';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

// ---- options ---------------------------------------------------------------------------------------------

const VARIANTS = {
  '100': { menus: 100, label: '100 menus' },
  '20': { menus: 20, label: 'diag: 20 menus' },
  nominimap: { menus: 100, css: '.react-flow__minimap { display: none !important; }', label: 'diag: 100 menus, minimap not drawn' },
  // Not run by default: what a frame's time goes to, by taking a part of the work away.
  nohit: {
    menus: 100,
    css: '.react-flow__viewport * { pointer-events: none !important; }',
    label: 'diag: 100 menus, nodes and edges not hit-tested',
  },
  nolabels: {
    menus: 100,
    css: '.react-flow__edge-textwrapper, .react-flow__edge-interaction { display: none; }',
    label: 'diag: 100 menus, no edge labels',
  },
  layer: { menus: 100, css: '.react-flow__viewport { will-change: transform; }', label: 'diag: 100 menus, the viewport a layer' },
} as const satisfies Record<string, { menus: number; css?: string; label: string }>;
type VariantName = keyof typeof VARIANTS;

function readOptions() {
  const get = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const num = (name: string, fallback: number) => {
    const value = Number(get(name) ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const variants = (get('variants') ?? '100,20,nominimap').split(',').filter(Boolean) as VariantName[];
  for (const v of variants) if (!(v in VARIANTS)) throw new Error(`--variants: unknown ${v} (${Object.keys(VARIANTS).join(', ')})`);
  return {
    phaseS: num('phase', 5),
    idleS: num('idle', 2),
    rounds: num('rounds', 1),
    variants,
    maxLoad: num('max-load', 1.5),
    waitQuietS: Number(get('wait-quiet') ?? 600),
    json: get('json'),
    profileDir: get('profile'),
    traceDir: get('trace'),
  };
}
let options: ReturnType<typeof readOptions>;
try {
  options = readOptions();
} catch (err) {
  console.error(`flowmap-fps: ${(err as Error).message}`);
  process.exit(2);
}

const VIEWPORT = { width: 1600, height: 1000 };
/** One input event per frame at 60 Hz. */
const INPUT_INTERVAL_MS = 1000 / 60;
const FRAME_MS = 1000 / 60;
/** The goal: every 100-menu pan and zoom phase at 60 frames a second, read as at least 57 (5% of frames missed). */
const GOAL_FPS = 57;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0]!;
const formatLoad = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---- the app -------------------------------------------------------------------------------------------------

interface Api {
  call<T = unknown>(path: string, body?: unknown): Promise<{ status: string; message: string; data: T; uniqueId?: string }>;
}

function createApi(baseUrl: string, token: string): Api {
  return {
    async call(path, body) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const reply = (await res.json()) as Awaited<ReturnType<Api['call']>>;
      if (reply.status !== '00') throw new Error(`${path} failed (${res.status}): ${JSON.stringify(reply)}`);
      return reply as never;
    },
  };
}

const LONG_TEXT =
  'Terms: by continuing you agree that airtime and data bought here cannot be refunded once delivered. ' +
  'Prices include all taxes. Promotions end without notice. For help call 100 free from any network.';

/** What a menu runs, so the map draws action badges: a script before the screen, an SMS or a REST call after. */
function actionsOf(i: number): object[] {
  if (i % 3 !== 0) return [];
  const script = { actionName: `load${i}`, actionType: 'pre', inheritsPlugin: 'javascript', code: 'return { ok: true };' };
  const after =
    i % 2 === 0
      ? {
          actionName: `notify${i}`,
          actionType: 'post',
          inheritsPlugin: 'sendsms',
          code: { smsSender: 'Shop', mobile: '{{ session.mobile }}', smsMessage: `Step ${i} done` },
        }
      : {
          actionName: `fetch${i}`,
          actionType: 'post',
          inheritsPlugin: 'restapi',
          code: { method: 'POST', url: 'https://api.example.com/orders', payload: '{}' },
        };
  return [script, after];
}

/**
 * An app of `count` menus: menu i offers menus 3i+1..3i+3 (a tree), every fourth has a Terminate rule, every other
 * one Back, every third two actions, every seventh a long screen; leaves end (even) or go on to the first menu with
 * "0. Main menu" (odd, set once the first menu exists: cycles back to the top).
 */
async function createMapApp(api: Api, count: number, shortCode: string): Promise<string> {
  const app = await api.call<{ appId: string }>('/api/createApp', {
    appName: `Flow map ${count}`,
    description: 'bench/flowmap-fps.ts',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    useTemplateTag: false,
    customShortCode: shortCode,
  });
  const appId = app.data.appId;
  const ids: string[] = new Array(count);
  const bodies: Record<string, unknown>[] = new Array(count);
  // Children first (a new menu goes to the top of the list), so every goto has its target.
  for (let i = count - 1; i >= 0; i--) {
    const children = [i * 3 + 1, i * 3 + 2, i * 3 + 3].filter((c) => c < count);
    const rules: object[] = children.map((c, k) => ({ operator: 'eq', compareVal: String(k + 1), action: 'goto', actionParam: ids[c] }));
    if (i % 4 === 0) rules.push({ operator: 'eq', compareVal: '9', action: 'Terminate', actionParam: 'Thank you for shopping with us' });
    const options = children.map((c, k) => `${k + 1}. Option ${c}`);
    const text =
      i % 7 === 3 ? `${LONG_TEXT}\n${options.join('\n')}` : children.length ? `Menu ${i}\n${options.join('\n')}` : `Menu ${i}: all done`;
    const isLeaf = children.length === 0;
    const body: Record<string, unknown> = {
      appId,
      isFirst: i === 0,
      displayText: isLeaf && i % 2 === 1 ? `${text}\n0. Main menu` : text,
      headerText: '',
      footerText: '',
      userDefinedName: `menu${i}`,
      inputHolder: '',
      allowGoBack: i % 2 === 1 && !isLeaf,
      goBackInputIndicator: i % 2 === 1 && !isLeaf ? '0' : '',
      terminate: isLeaf && i % 2 === 0,
      parentMenuId: null,
      switchOperations: rules,
      actions: actionsOf(i),
      inputValidations: [],
    };
    const reply = await api.call('/api/createMenu', body);
    ids[i] = reply.uniqueId!;
    bodies[i] = { ...body, uniqueId: ids[i] };
  }
  for (let i = 1; i < count; i++) {
    const body = bodies[i]!;
    if ((body.switchOperations as object[]).length > 0 || body.terminate) continue;
    await api.call('/api/updateMenu', {
      ...body,
      switchOperations: [{ operator: 'eq', compareVal: '0', action: 'goto', actionParam: ids[0] }],
    });
  }
  return appId;
}

// ---- Chromium's CPU -----------------------------------------------------------------------------------------

/** utime + stime (ms) of every process below this one but the server's tree: Chromium's processes. */
function readBrowserCpuMs(serverPid: number): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // gone meanwhile
    }
  }
  const isBelow = (pid: number, ancestor: number) => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === ancestor) return true;
    return false;
  };
  let total = 0;
  for (const [pid, ms] of cpu)
    if (pid !== serverPid && isBelow(pid, process.pid) && !isBelow(pid, serverPid) && pid !== process.pid) total += ms;
  return total;
}

// ---- in the page ------------------------------------------------------------------------------------------

/** Installed in the page: a requestAnimationFrame loop and a long-animation-frame observer, started and stopped per phase. */
function installRecorder(): void {
  type Loaf = { duration: number; blockingDuration: number };
  const state = { running: false, times: [] as number[], moved: [] as boolean[], loafs: [] as Loaf[], last: '' };
  const supportsLoaf = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame');
  if (supportsLoaf)
    new PerformanceObserver((list) => {
      if (!state.running) return;
      for (const e of list.getEntries()) {
        const entry = e as PerformanceEntry & { blockingDuration: number };
        state.loafs.push({ duration: entry.duration, blockingDuration: entry.blockingDuration });
      }
    }).observe({ type: 'long-animation-frame' });
  // A frame moved the map when React Flow's viewport transform differs from the one the frame before showed.
  const transform = () => document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '';
  const tick = (t: number) => {
    if (!state.running) return;
    const now = transform();
    state.times.push(t);
    state.moved.push(now !== state.last);
    state.last = now;
    requestAnimationFrame(tick);
  };
  Object.assign(window, {
    __fps: {
      supportsLoaf,
      start() {
        state.times = [];
        state.moved = [];
        state.loafs = [];
        state.last = transform();
        state.running = true;
        requestAnimationFrame(tick);
      },
      stop() {
        state.running = false;
        return { times: state.times, moved: state.moved, loafs: state.loafs };
      },
    },
  });
}

type Recorded = { times: number[]; moved: boolean[]; loafs: { duration: number; blockingDuration: number }[] };
type FpsWindow = { __fps: { supportsLoaf: boolean; start(): void; stop(): Recorded } };

/** The map's zoom, read from React Flow's viewport transform. */
const readZoom = (page: Page) =>
  page.evaluate(() => {
    const transform = document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '';
    return Number(/scale\(([\d.]+)\)/.exec(transform)?.[1] ?? Number.NaN);
  });

/** Resolves once React Flow's viewport transform has not changed for half a second (5 s at most). */
async function settle(page: Page): Promise<void> {
  const read = () => page.evaluate(() => document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '');
  const deadline = performance.now() + 5000;
  let last = await read();
  let still = 0;
  while (still < 5 && performance.now() < deadline) {
    await sleep(100);
    const now = await read();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

/** How many nodes there are, and how many lie at least partly inside the map. */
const countNodes = (page: Page) =>
  page.evaluate(() => {
    const map = document.querySelector('.react-flow')!.getBoundingClientRect();
    const nodes = [...document.querySelectorAll('.react-flow__node')];
    const inView = nodes.filter((n) => {
      const r = n.getBoundingClientRect();
      return r.right > map.left && r.left < map.right && r.bottom > map.top && r.top < map.bottom;
    });
    return { all: nodes.length, inView: inView.length };
  });

/** A point of the empty pane (not a node, an edge, the minimap or the controls), near the map's left edge first. */
const findPanePoint = (page: Page) =>
  page.evaluate(() => {
    const map = document.querySelector('.react-flow')!.getBoundingClientRect();
    for (let fy = 0.5; fy < 0.95; fy += 0.05)
      for (const sign of [1, -1])
        for (let fx = 0.02; fx < 0.6; fx += 0.02) {
          const x = map.left + map.width * fx;
          const y = map.top + map.height * (sign > 0 ? fy : 1 - fy);
          if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y };
        }
    return null;
  });

// ---- where a frame's time goes ----------------------------------------------------------------------------------

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/**
 * Self time (ms) by event name on each of Chromium's threads that did anything, from a trace's complete events:
 * an event's time minus that of the events nested in it (a Paint inside a frame counts once).
 */
function summarizeTrace(events: TraceEvent[], wallMs: number, topN = 8): string {
  const threadNames = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const key = `${e.pid}:${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const lines: string[] = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: { end: number; name: string }[] = [];
    for (const e of list) {
      while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
      stack.push({ end: e.ts + e.dur!, name: e.name });
    }
    const totalMs = [...self.values()].reduce((a, b) => a + b, 0) / 1000;
    if (totalMs < wallMs * 0.02) continue;
    const top = [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([name, us]) => `${name} ${((us / 1000 / wallMs) * 100).toFixed(1)}%`);
    lines.push(
      `  ${(threadNames.get(key) ?? key).padEnd(24)} ${((totalMs / wallMs) * 100).toFixed(0).padStart(3)}% busy: ${top.join(', ')}`,
    );
  }
  return lines.join('\n');
}

// ---- phases ---------------------------------------------------------------------------------------------------

interface PhaseResult {
  variant: string;
  /** With --rounds: which pass over the variants (ratios compare phases of one round). */
  round: number;
  phase: string;
  zoom: number;
  nodes: number;
  nodesInView: number;
  frames: number;
  fps: number;
  /** Frames that showed the map moved (a new viewport transform), a second: what the eye sees of a pan or zoom. */
  movedFps: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Frame intervals over one refresh (16.7 ms, with 1 ms for timestamp jitter) and over two (33.3 ms). */
  over16: number;
  over33: number;
  /** Long animation frames (over 50 ms): how many, and the longest. */
  longFrames: number;
  longestFrameMs: number;
  /** The renderer's main thread busy (Performance metrics' TaskDuration) over the phase, share of wall time. */
  mainThread: number;
  /** All of Chromium's processes' CPU over the phase, in cores, and per frame drawn. */
  browserCores: number;
  browserMsPerFrame: number;
  inputs: number;
  wallMs: number;
}

/**
 * Calls `step` once per input interval for `ms`, never bunching up when a step comes back late (the interval it
 * missed is skipped); `step` gets how many steps came before it (a stroke goes on where it was, whatever was
 * skipped); resolves with the number of steps made.
 */
async function paced(ms: number, step: (made: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  let i = 0;
  let made = 0;
  while (performance.now() - start < ms) {
    const wait = start + i * INPUT_INTERVAL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    else if (wait < -INPUT_INTERVAL_MS) i = Math.ceil((performance.now() - start) / INPUT_INTERVAL_MS);
    i++;
    await step(made++);
  }
  return made;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function readMetric(cdp: CDPSession, name: string): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === name)?.value ?? Number.NaN;
}

/** A circle of this radius, in 60 steps (a second at 60 Hz), started and ended where the pane was grabbed. */
const PAN_RADIUS = 160;
const PAN_STEPS = 60;
/** Wheel notches in, then the same out (d3-zoom: 1.15x a notch of 100 px): the view comes back where it was. */
const WHEEL_NOTCHES = 4;

async function runPhase(
  ctx: { browser: Browser; page: Page; cdp: CDPSession; variant: string; round: number; serverPid: number },
  phase: string,
  kind: 'idle' | 'pan' | 'zoom',
  ms: number,
): Promise<PhaseResult> {
  const { page, cdp } = ctx;
  const zoom = await readZoom(page);
  const nodes = await countNodes(page);
  const map = (await page.locator('.react-flow').boundingBox())!;
  const centre = { x: map.x + map.width / 2, y: map.y + map.height / 2 };
  const examined = kind === 'pan' && phase.startsWith('fit');
  const profiling = examined && options.profileDir;
  const tracing = examined && options.traceDir;
  if (profiling) await cdp.send('Profiler.start');
  if (tracing)
    await ctx.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'] });
  const taskBefore = await readMetric(cdp, 'TaskDuration');
  const cpuBefore = readBrowserCpuMs(ctx.serverPid);
  const wallBefore = performance.now();
  await page.evaluate(() => (window as unknown as FpsWindow).__fps.start());

  // Input goes as a mouse sends it, whether or not the page has taken the one before: sent over the DevTools
  // protocol without waiting for each to be handled (page.mouse waits, a round trip that would pace the hand).
  const sent: Promise<unknown>[] = [];
  const fire = (params: Record<string, unknown>) => sent.push(cdp.send('Input.dispatchMouseEvent', params as never));
  let inputs = 0;
  if (kind === 'idle') await sleep(ms);
  else if (kind === 'pan') {
    let from = { x: 0, y: 0 };
    inputs = await paced(ms, async (i) => {
      const step = i % (PAN_STEPS + 2);
      if (step === 0) {
        const point = await findPanePoint(page);
        if (!point) throw new Error(`${ctx.variant} ${phase}: no empty pane to grab`);
        from = point;
        fire({ type: 'mouseMoved', ...from });
        fire({ type: 'mousePressed', ...from, button: 'left', buttons: 1, clickCount: 1 });
      } else if (step <= PAN_STEPS) {
        const angle = (2 * Math.PI * step) / PAN_STEPS;
        const at = { x: from.x + PAN_RADIUS - PAN_RADIUS * Math.cos(angle), y: from.y + PAN_RADIUS * Math.sin(angle) };
        fire({ type: 'mouseMoved', ...at, button: 'left', buttons: 1 });
      } else fire({ type: 'mouseReleased', ...from, button: 'left', buttons: 0, clickCount: 1 });
    });
    // A circle the window cut off goes back to where it grabbed the pane: the view ends where it started.
    if (inputs > 0 && (inputs - 1) % (PAN_STEPS + 2) <= PAN_STEPS) {
      fire({ type: 'mouseMoved', ...from, button: 'left', buttons: 1 });
      fire({ type: 'mouseReleased', ...from, button: 'left', buttons: 0, clickCount: 1 });
    }
  } else {
    fire({ type: 'mouseMoved', ...centre });
    inputs = await paced(ms, async (i) => {
      const notch = i % (2 * WHEEL_NOTCHES);
      fire({ type: 'mouseWheel', ...centre, deltaX: 0, deltaY: notch < WHEEL_NOTCHES ? -100 : 100 });
    });
    // The notches in that the window cut off before their way back out: the view ends where it started.
    const left = inputs % (2 * WHEEL_NOTCHES);
    for (let n = 0; n < (left <= WHEEL_NOTCHES ? left : 2 * WHEEL_NOTCHES - left); n++)
      fire({ type: 'mouseWheel', ...centre, deltaX: 0, deltaY: 100 });
  }
  await Promise.all(sent);

  const recorded = await page.evaluate(() => (window as unknown as FpsWindow).__fps.stop());
  const wallMs = performance.now() - wallBefore;
  const cpuMs = readBrowserCpuMs(ctx.serverPid) - cpuBefore;
  const taskS = (await readMetric(cdp, 'TaskDuration')) - taskBefore;
  const fileOf = (dir: string, ext: string) => {
    mkdirSync(dir, { recursive: true });
    return join(dir, `${ctx.variant.replace(/\W+/g, '-')}-${phase.replace(/\W+/g, '-')}.${ext}`);
  };
  if (profiling) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const file = fileOf(options.profileDir!, 'cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    console.log(formatSummary(`${ctx.variant}, ${phase} (${file})`, summarizeProfile(profile, 15)));
  }
  if (tracing) {
    const trace = await ctx.browser.stopTracing();
    const file = fileOf(options.traceDir!, 'json');
    writeFileSync(file, trace);
    const { traceEvents } = JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] };
    console.log(`${ctx.variant}, ${phase}: self time by thread, share of the phase (${file})\n${summarizeTrace(traceEvents, wallMs)}\n`);
  }
  // The last events sent are taken and the view stops moving before the next phase.
  await settle(page);

  const { times, moved, loafs } = recorded;
  const intervals = times.slice(1).map((t, i) => t - times[i]!);
  const sorted = [...intervals].sort((a, b) => a - b);
  const span = times.length > 1 ? times[times.length - 1]! - times[0]! : Number.NaN;
  return {
    variant: ctx.variant,
    round: ctx.round,
    phase,
    zoom,
    nodes: nodes.all,
    nodesInView: nodes.inView,
    frames: intervals.length,
    fps: (intervals.length / span) * 1000,
    movedFps: (moved.slice(1).filter(Boolean).length / span) * 1000,
    medianMs: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    over16: intervals.filter((d) => d > FRAME_MS + 1).length,
    over33: intervals.filter((d) => d > 2 * FRAME_MS + 1).length,
    longFrames: loafs.length,
    longestFrameMs: Math.max(0, ...loafs.map((l) => l.duration)),
    mainThread: (taskS * 1000) / wallMs,
    browserCores: cpuMs / wallMs,
    browserMsPerFrame: cpuMs / Math.max(1, intervals.length),
    inputs,
    wallMs,
  };
}

async function measureVariant(
  browser: Browser,
  server: ShippedServer,
  login: LoginReplyBody,
  name: VariantName,
  appId: string,
  round: number,
  problems: string[],
): Promise<PhaseResult[]> {
  const variant = VARIANTS[name];
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: server.baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`${variant.label}: page error: ${err.message}`));
  try {
    await storeSession(page, login);
    // tsx keeps function names with a `__name` helper the page does not have.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.addInitScript(installRecorder);
    await page.goto(`/app/design/${appId}/flow`);
    await page.locator('[data-testid="flow-node"]').first().waitFor({ timeout: 30_000 });
    if ('css' in variant) await page.addStyleTag({ content: variant.css });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (options.profileDir) await cdp.send('Profiler.enable');
    const ctx = { browser, page, cdp, variant: variant.label, round, serverPid: server.pids[0]! };
    const phaseMs = options.phaseS * 1000;

    await page.locator('.react-flow__controls-fitview').click();
    await sleep(500);
    const fitted = await countNodes(page);
    if (fitted.inView !== fitted.all || fitted.all < variant.menus)
      problems.push(`${variant.label}: after fit view ${fitted.inView} of ${fitted.all} nodes in view (${variant.menus} menus)`);
    const results = [
      await runPhase(ctx, 'fit: idle', 'idle', options.idleS * 1000),
      await runPhase(ctx, 'fit: pan', 'pan', phaseMs),
      await runPhase(ctx, 'fit: zoom', 'zoom', phaseMs),
    ];

    // "Find a menu" centres it at 100% (a 300 ms animation).
    const find = page.getByRole('combobox', { name: 'Find a menu' });
    await find.fill('menu13');
    await page.getByRole('option', { name: 'menu13', exact: true }).click();
    await settle(page);
    const zoom = await readZoom(page);
    if (Math.abs(zoom - 1) > 0.01) problems.push(`${variant.label}: "Find a menu" left the zoom at ${zoom}, not 1`);
    results.push(await runPhase(ctx, '100%: pan', 'pan', phaseMs), await runPhase(ctx, '100%: zoom', 'zoom', phaseMs));
    for (const r of results) if (r.frames < 10) problems.push(`${variant.label} ${r.phase}: ${r.frames} frames`);
    return results;
  } finally {
    await context.close();
  }
}

// ---- report ----------------------------------------------------------------------------------------------------

function printTable(results: PhaseResult[]): void {
  const header = [
    ...(options.rounds > 1 ? ['round'] : []),
    'variant',
    'phase',
    'zoom',
    'nodes (in view)',
    'fps',
    'moved/s',
    'inputs/s',
    'median ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    '>16.7',
    '>33',
    'long frames',
    'main thread',
    'Chromium CPU',
    'CPU ms/frame',
  ];
  const rows = results.map((r) => [
    ...(options.rounds > 1 ? [String(r.round)] : []),
    r.variant,
    r.phase,
    r.zoom.toFixed(2),
    `${r.nodes} (${r.nodesInView})`,
    r.fps.toFixed(1),
    r.movedFps.toFixed(1),
    ((r.inputs / r.wallMs) * 1000).toFixed(0),
    r.medianMs.toFixed(1),
    r.p95Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    r.maxMs.toFixed(1),
    `${r.over16} of ${r.frames}`,
    String(r.over33),
    r.longFrames ? `${r.longFrames} (max ${r.longestFrameMs.toFixed(0)} ms)` : '0',
    `${(r.mainThread * 100).toFixed(0)}%`,
    `${r.browserCores.toFixed(2)} cores`,
    r.browserMsPerFrame.toFixed(1),
  ]);
  console.log(`| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/** Each diagnostic variant's fps against the 100-menu map's, phase by phase, round by round. */
function printRatios(results: PhaseResult[]): void {
  const base = results.filter((r) => r.variant === VARIANTS['100'].label);
  const others = results.filter((r) => r.variant !== VARIANTS['100'].label && !r.phase.endsWith('idle'));
  if (base.length === 0 || others.length === 0) return;
  console.log('\nfps of 100 menus against each diagnostic, same run (1.00 = as smooth):');
  for (const r of others) {
    const same = base.find((b) => b.phase === r.phase && b.round === r.round);
    const round = options.rounds > 1 ? `round ${r.round}, ` : '';
    if (same) console.log(`  ${round}${r.phase.padEnd(11)} 100 menus / ${r.variant}: ${(same.fps / r.fps).toFixed(2)}`);
  }
}

// ---- main -----------------------------------------------------------------------------------------------------

async function waitForQuiet(): Promise<void> {
  const deadline = performance.now() + options.waitQuietS * 1000;
  while (load1() > options.maxLoad && performance.now() < deadline) {
    console.log(`load ${formatLoad()}: waiting for the 1-minute load to drop under ${options.maxLoad}...`);
    await sleep(20_000);
  }
  if (load1() > options.maxLoad) console.log(`NOTE: the machine is busy (load ${formatLoad()}): the figures are low bounds.`);
}

async function main(): Promise<number> {
  await waitForQuiet();
  // Bounded: two minutes of building and seeding, then each variant's phases plus half a minute.
  const perVariantS = options.idleS + 4 * options.phaseS + 30;
  setTimeout(
    () => {
      console.error('flowmap-fps: still running past its bound; stopping.');
      process.exit(2);
    },
    (120 + options.rounds * options.variants.length * perVariantS) * 1000,
  ).unref();
  console.log(`flowmap-fps: load average ${formatLoad()} at the start; Chromium headless, software rendering (--disable-gpu)`);
  execSync('node scripts/build-web-if-needed.mjs', { cwd: ROOT, stdio: 'inherit' });
  const children: ChildProcess[] = [];
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  const server = await ShippedServer.start({ env: {}, nodeFlags: ['--max-semi-space-size=32'], console: true }, (p) => children.push(p));
  let browser: Browser | undefined;
  const problems: string[] = [];
  const results: PhaseResult[] = [];
  try {
    const res = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
    });
    const login = (await res.json()) as LoginReplyBody;
    if (!login.token) throw new Error(`sign-in failed: ${JSON.stringify(login)}`);
    const api = createApi(server.baseUrl, login.token);
    const appIds = new Map<number, string>();
    for (const name of options.variants) {
      const { menus } = VARIANTS[name];
      if (!appIds.has(menus)) appIds.set(menus, await createMapApp(api, menus, `*931*${menus}#`));
    }
    browser = await launchChromium();
    console.log(`Chromium ${browser.version()}; viewport ${VIEWPORT.width}x${VIEWPORT.height}; ${options.phaseS} s a phase\n`);
    for (let round = 0; round < options.rounds; round++)
      for (const name of options.variants)
        results.push(...(await measureVariant(browser, server, login, name, appIds.get(VARIANTS[name].menus)!, round + 1, problems)));
  } finally {
    await browser?.close();
    await server.stop();
    server.remove();
  }

  printTable(results);
  printRatios(results);
  console.log(`\nload average ${formatLoad()} at the end`);
  const goal = results.filter((r) => r.variant === VARIANTS['100'].label && !r.phase.endsWith('idle'));
  if (goal.length > 0) {
    const worst = Math.min(...goal.map((r) => r.fps));
    console.log(
      `${worst >= GOAL_FPS ? 'PASS' : 'FAIL'}: 100 menus, pan and zoom at fit view and at 100%: lowest ${worst.toFixed(1)} fps (goal: 60, read as >= ${GOAL_FPS})`,
    );
  }
  if (options.json) writeFileSync(options.json, JSON.stringify({ load: loadavg(), results, problems }, null, 2));
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
