// `npm start` runs the server from a bundle (docs/operations.md, "Memory and start"): esbuild joins the server's
// TypeScript into one file a thread, the packages left to node_modules, so the process loads no TypeScript loader
// and parses its code once. It builds only when a source is newer than the last build, like the console's build.
// The tests and `npm run dev` run the sources themselves (tsx).
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/server';
const MAIN = join(OUT, 'main.mjs');
const SOURCES = ['src', 'package-lock.json', 'scripts/build-server-if-needed.mjs'];

/**
 * The bundle's threads. Each keeps the file name its caller asks for with `new URL(name, import.meta.url)`, which
 * in the bundle is dist/server/: the script pool starts `worker-entry.mjs` (in the sources a file that loads
 * worker.ts through tsx; here worker.ts itself), the PGlite client `pglite-thread.mjs`, and `pglite-create.mjs`, the
 * process that creates a new data folder.
 */
const ENTRY_POINTS = {
  main: 'src/server/main.ts',
  'worker-entry': 'src/actions/javascript/worker.ts',
  'pglite-thread': 'src/db/pglite-thread.mjs',
  'pglite-create': 'src/db/pglite-create.mjs',
};

/** The files the code reads beside itself (`new URL(path, import.meta.url)`), copied to where the bundle looks. */
const FILES = [
  ['src/db/migrations', 'migrations'],
  ['src/server/features/bots/demo-bot.json', 'demo-bot.json'],
  ['src/server/features/templates/featured', 'featured'],
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

export async function buildServer() {
  // Built beside the last build and swapped in whole, so a build that fails leaves the last one in place.
  const next = `${OUT}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  try {
    await build({
      entryPoints: ENTRY_POINTS,
      outdir: next,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      target: 'node20.19',
      format: 'esm',
      packages: 'external',
      // No keepNames: it wraps every function made, closures in a hop's path too (0.3% of a hop's CPU). The bundle
      // renames clashing top-level names (a second `log` becomes `log2`), which nothing reads: no code looks at a
      // function's or a class's name (an error's `name` is Error's unless the class sets it).
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    for (const [from, to] of FILES) cpSync(from, join(next, to), { recursive: true });
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  rmSync(OUT, { recursive: true, force: true });
  renameSync(next, OUT);
}

const isStale = !existsSync(MAIN) || SOURCES.some((s) => newestMtime(s) > statSync(MAIN).mtimeMs);
if (isStale) {
  console.log('Building the server (esbuild)...');
  await buildServer();
}
