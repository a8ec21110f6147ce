// `npm start` builds the console only when its sources are newer than the last build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

const output = 'dist/web/index.html';
const sources = ['src/web', 'src/shared', 'src/engine', 'vite.config.ts', 'scripts/precompress.ts', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

const isStale = !existsSync(output) || sources.some((s) => newestMtime(s) > statSync(output).mtimeMs);
if (isStale) {
  console.log('Building the console (vite build)...');
  // Always the production build, whoever runs this: under vitest (the browser tests' setup) NODE_ENV is 'test', which
  // would build React's development code, and npm start would then serve that build as fresh.
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
