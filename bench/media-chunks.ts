/**
 * What storing and serving a file costs the server's memory on the embedded database (docs/media.md, Storage),
 * before the bytes went into chunks and after, in one run:
 *   - through the server as `npm start` runs it (bench/shipped.ts: embedded PGlite on its thread, the database
 *     store, BILLING=off), for this checkout and an earlier commit (`--before`, default main: `git archive` of it
 *     in a temporary folder, with this checkout's node_modules). Each case uploads one file as the console does (a
 *     100 MB text document, or a 4.8 MB PNG of noise) to a fresh server, then fetches it by its signed link from
 *     another fresh server on the same data: each step's peak RSS (VmHWM) is its own, over the RSS before it;
 *   - the chunk size alone (`--sizes=256,512,1024,4096`, KB): a process of its own per size, a file PGlite on its
 *     thread holding only `media_bytes`, a 100 MB file put then read whole through the database store.
 *
 *   npx tsx bench/media-chunks.ts
 *   npx tsx bench/media-chunks.ts --before=main --only=server     # or --only=sizes
 */
import { type ChildProcess, execFileSync, execSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { makePng } from '../tests/support/media-files';
import { readBenchArgs } from './scratch-database';
import { readMemoryMb, ShippedServer, signInAsDemo } from './shipped';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const MB = 1024 * 1024;
const args = readBenchArgs();
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** A text document of `size` bytes (text has no signature: printable bytes are one). */
const makeText = (size: number) => Buffer.alloc(size, 'Order 42, total 10 GHS\n');

if (args.child) await runChunkChild(Number(args.child));
else await main();

async function main(): Promise<void> {
  console.log(`load average at the start: ${load()}`);
  if (args.only !== 'sizes') await compareServers(args.before ?? 'main');
  if (args.only !== 'server') compareChunkSizes((args.sizes ?? '256,512,1024,4096').split(',').map(Number));
  console.log(`load average at the end: ${load()}`);
}

// --- before and after, through the server ---------------------------------------------------------------------

async function compareServers(ref: string): Promise<void> {
  const commit = execSync(`git rev-parse --short ${JSON.stringify(`${ref}^{commit}`)}`, { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'dialflow-before-'));
  execSync(`git archive --format=tar ${commit} | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT, shell: '/bin/bash' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const files = [
    { label: '100 MB document', kind: 'document', type: 'text/plain', bytes: makeText(100 * MB) },
    { label: '4.8 MB image', kind: 'image', type: 'image/png', bytes: makePng(1290, 1290, { noise: true }) },
  ];
  try {
    // Before and after side by side for each file, so that the machine's load falls on both alike.
    for (const file of files)
      for (const [name, root] of [
        [`before (${commit})`, dir],
        ['after (chunks)', ROOT],
      ] as const)
        await runServerCase(`${file.label}, ${name}`, root, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runServerCase(label: string, root: string, file: { kind: string; type: string; bytes: Buffer }): Promise<void> {
  // One data folder for two servers: the first stores the file, a fresh one serves it (a heap that storing grew
  // would hide what serving costs).
  const dataDir = mkdtempSync(join(tmpdir(), 'dialflow-media-data-'));
  try {
    const store = await startServer(root, dataDir, async (server, pid) => {
      const auth = await signInAsDemo(server.baseUrl);
      const before = readMemoryMb(pid);
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/media?kind=${file.kind}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': file.type },
        body: new Uint8Array(file.bytes),
      });
      const body = (await res.json()) as { data?: { url: string }; message: string };
      if (res.status !== 200 || !body.data) throw new Error(`upload: ${res.status} ${body.message}`);
      const seconds = (performance.now() - started) / 1000;
      const after = readMemoryMb(pid);
      return { path: new URL(body.data.url).pathname + new URL(body.data.url).search, seconds, before, after };
    });
    const serve = await startServer(root, dataDir, async (server, pid) => {
      const before = readMemoryMb(pid);
      const started = performance.now();
      const served = await fetch(`${server.baseUrl}${store.path}`);
      const hash = createHash('sha256');
      let length = 0;
      for await (const chunk of served.body!) {
        hash.update(chunk);
        length += chunk.length;
      }
      const seconds = (performance.now() - started) / 1000;
      if (served.status !== 200 || hash.digest('hex') !== createHash('sha256').update(file.bytes).digest('hex'))
        throw new Error(`serve: ${served.status}, ${length} bytes`);
      return { seconds, before, after: readMemoryMb(pid) };
    });
    const step = (what: string, m: typeof serve) =>
      `${what} ${m.seconds.toFixed(1)} s, peak +${(m.after.peak - m.before.rss).toFixed(0)} MB over ${m.before.rss.toFixed(0)}, ${m.after.rss.toFixed(0)} MB after`;
    console.log(`${label}: ${step('store', store)}; ${step('serve', serve)} (load ${load()})`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh server of `root` on `dataDir`, for one step: `step` is given it and its pid. */
async function startServer<T>(root: string, dataDir: string, step: (server: ShippedServer, pid: number) => Promise<T>): Promise<T> {
  const children: ChildProcess[] = [];
  const server = await ShippedServer.start({ env: { BILLING: 'off', DATA_DIR: dataDir }, nodeFlags: [], console: true, root }, (p) =>
    children.push(p),
  );
  try {
    return await step(server, server.pids[0]!);
  } finally {
    await server.stop();
    server.remove();
  }
}

// --- the chunk size alone ---------------------------------------------------------------------------------------

function compareChunkSizes(sizesKb: number[]): void {
  for (const kb of sizesKb) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), `--child=${kb * 1024}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    console.log(`chunks of ${kb} KB: ${out.trim()} (load ${load()})`);
  }
}

/** One process, one chunk size: a 100 MB file put, then read whole, through the database store on PGlite. */
async function runChunkChild(chunkBytes: number): Promise<void> {
  const { openDatabase } = await import('../src/db/client');
  const { createDatabaseMediaStore } = await import('../src/server/features/media/media-store');
  const dataDir = mkdtempSync(join(tmpdir(), 'dialflow-chunks-'));
  const database = await openDatabase({ dataDir, thread: true, lowPriority: true });
  try {
    await database.db.execute(
      sql`create table media_bytes (key text not null, seq integer not null default 0, bytes bytea not null, mime_type text not null, primary key (key, seq))`,
    );
    const store = createDatabaseMediaStore(database, chunkBytes);
    const bytes = randomBytes(100 * MB);
    const before = readMemoryMb(process.pid);
    let started = performance.now();
    await store.put('bench/file', bytes, 'application/pdf');
    const putSeconds = (performance.now() - started) / 1000;
    const put = readMemoryMb(process.pid);
    writeFileSync(`/proc/${process.pid}/clear_refs`, '5');
    const beforeRead = readMemoryMb(process.pid);
    started = performance.now();
    const opened = await store.open('bench/file');
    const hash = createHash('sha256');
    for await (const piece of opened!.stream) hash.update(piece as Buffer);
    const readSeconds = (performance.now() - started) / 1000;
    const read = readMemoryMb(process.pid);
    if (hash.digest('hex') !== createHash('sha256').update(bytes).digest('hex')) throw new Error('the bytes read differ');
    console.log(
      `put ${putSeconds.toFixed(1)} s, peak +${(put.peak - before.rss).toFixed(0)} MB; ` +
        `read ${readSeconds.toFixed(1)} s, peak +${(read.peak - beforeRead.rss).toFixed(0)} MB; RSS after ${read.rss.toFixed(0)} MB`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
