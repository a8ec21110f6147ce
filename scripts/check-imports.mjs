// Keeps the architecture picture true (docs/architecture.md, "Folders and who may import whom"): fails when a
// folder under src/ imports one it may not. web may import engine's pure parts, which is all of engine.
// TypeScript and JavaScript modules alike (.ts, .tsx, .mjs, .js: the worker and database-thread entries are .mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

const ALLOWED = {
  shared: [],
  engine: ['shared'],
  channels: ['engine', 'shared'],
  actions: ['shared'],
  integrations: ['shared'],
  db: ['shared'],
  server: ['shared', 'engine', 'channels', 'actions', 'integrations', 'db'],
  web: ['shared', 'engine'],
};
const FORBIDDEN_PACKAGES = {
  engine: [/^node:/, /^fastify/, /^drizzle/, /^pg$/, /^ioredis/, /^@electric-sql/, /^undici/],
  shared: [/^node:/, /^fastify/, /^drizzle/, /^pg$/, /^ioredis/, /^@electric-sql/],
  web: [/^node:/, /^fastify/, /^drizzle/, /^pg$/, /^ioredis/, /^@electric-sql/],
};

const root = resolve('src');
const problems = [];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.(int\.)?test\.ts$/.test(name)) check(path);
  }
}

function check(file) {
  const area = relative(root, file).split(sep)[0];
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = match[1] ?? match[2];
    if (spec.startsWith('.')) {
      const target = relative(root, resolve(dirname(file), spec)).split(sep)[0];
      if (target !== area && !(ALLOWED[area] ?? []).includes(target))
        problems.push(`${relative('.', file)}: ${area} may not import ${target} (${spec})`);
    } else if ((FORBIDDEN_PACKAGES[area] ?? []).some((re) => re.test(spec))) {
      problems.push(`${relative('.', file)}: ${area} may not import the package ${spec}`);
    }
  }
  // Toasts go through showToast (src/web/lib/toast.ts), which drops a title the message repeats.
  if (
    area === 'web' &&
    !/lib[\\/]toast\.ts$/.test(file) &&
    /import\s*\{[^}]*\bnotifications\b[^}]*\}\s*from\s*['"]@mantine\/notifications['"]/.test(source)
  ) {
    problems.push(`${relative('.', file)}: show toasts with showToast (src/web/lib/toast.ts), not notifications.show`);
  }
  if (area === 'engine' && /\b(process\.env|Date\.now\(\)|new Date\(\)|Math\.random\(\))/.test(source)) {
    problems.push(`${relative('.', file)}: the engine is pure: no process.env, clock or randomness (inject them)`);
  }
}

walk(root);
if (problems.length) {
  console.error(`Import rules broken (docs/architecture.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('import rules: ok');
