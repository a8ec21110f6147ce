/**
 * Reads a V8 .cpuprofile (from bench/run.ts --profile, or `node --cpu-prof`) and says where the time went:
 * self time by module (npm package, src/ folder, node internals, WebAssembly = PGlite's Postgres, GC),
 * time spent with a module anywhere on the stack, and the top functions by self time.
 *
 *   npx tsx bench/profile-summary.ts /tmp/dialflow-bench-.../memory.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  share: number;
}
export interface ProfileSummary {
  totalMs: number;
  samples: number;
  /** Share of the window the thread was busy (not idle). */
  busyShare: number;
  selfByModule: Share[];
  inclusiveByModule: Share[];
  selfByFunction: Share[];
  inclusiveByFunction: Share[];
}

const SPECIAL = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

export function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return SPECIAL.has(functionName) ? functionName : '(native / V8 builtins)';
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite Postgres)';
  if (url.startsWith('node:')) {
    const rest = url.replace(/^node:(internal\/)?/, '');
    return `node:${rest.split('/')[0]}`;
  }
  const path = decodeURIComponent(url.replace(/^file:\/\//, ''));
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const src = path.lastIndexOf('/src/');
  if (src >= 0) {
    const parts = path.slice(src + 1).split('/');
    // src/server/features/runtime/x.ts -> src/server/features/runtime; src/engine/x.ts -> src/engine
    return parts.slice(0, parts[1] === 'server' && parts[2] === 'features' ? 4 : 2).join('/');
  }
  const bench = path.lastIndexOf('/bench/');
  if (bench >= 0) return 'bench';
  return path;
}

function functionOf(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = decodeURIComponent(frame.url.replace(/^file:\/\//, ''));
  const nm = file.lastIndexOf('/node_modules/');
  const src = file.lastIndexOf('/src/');
  const short =
    nm >= 0 ? file.slice(nm + '/node_modules/'.length) : src >= 0 ? file.slice(src + 1) : file.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '');
  return `${name} ${short}:${frame.lineNumber + 1}`;
}

function top(map: Map<string, number>, totalMs: number, n: number): Share[] {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / 1000 / totalMs }));
}

export function summarizeProfile(profile: CpuProfile, topN = 20): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfModule = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const inclModule = new Map<string, number>();
  const inclFunction = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;

  // A sample's time is the delta to the next sample (the last one gets the mean).
  const deltas = profile.timeDeltas;
  const mean = deltas.length ? deltas.reduce((a, b) => a + b, 0) / deltas.length : 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const us = Math.max(0, i + 1 < deltas.length ? deltas[i + 1]! : mean);
    const leaf = byId.get(profile.samples[i]!)!;
    totalUs += us;
    if (leaf.callFrame.functionName === '(idle)') idleUs += us;
    const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + us);
    add(selfModule, moduleOf(leaf.callFrame));
    add(selfFunction, functionOf(leaf.callFrame));
    const seenModules = new Set<string>();
    const seenFunctions = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (SPECIAL.has(frame.functionName)) continue;
      seenModules.add(moduleOf(frame));
      seenFunctions.add(functionOf(frame));
    }
    for (const m of seenModules) add(inclModule, m);
    for (const f of seenFunctions) add(inclFunction, f);
  }
  const totalMs = totalUs / 1000;
  return {
    totalMs,
    samples: profile.samples.length,
    busyShare: totalUs ? 1 - idleUs / totalUs : 0,
    selfByModule: top(selfModule, totalMs, topN),
    inclusiveByModule: top(inclModule, totalMs, topN),
    selfByFunction: top(selfFunction, totalMs, topN),
    inclusiveByFunction: top(inclFunction, totalMs, topN),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;

export function formatSummary(title: string, s: ProfileSummary): string {
  const block = (heading: string, rows: Share[]) =>
    [`  ${heading}`, ...rows.map((r) => `    ${pct(r.share)}  ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}`)].join('\n');
  return [
    `Profile: ${title}: ${s.samples} samples over ${(s.totalMs / 1000).toFixed(1)} s, main thread busy ${pct(s.busyShare).trim()}`,
    block('Self time by module (where the CPU actually was):', s.selfByModule),
    block('Time with the module anywhere on the stack (synchronous stacks only; async hops break them):', s.inclusiveByModule),
    block('Top functions by self time:', s.selfByFunction),
    block('Top functions by inclusive time:', s.inclusiveByFunction),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [top]');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  console.log(formatSummary(file, summarizeProfile(profile, Number(process.argv[3] ?? 25))));
}

export type { CpuProfile };
