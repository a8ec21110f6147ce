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

// The server's features (docs/architecture.md, "The server core"). src/server/core holds what every feature uses
// and imports no feature. A feature imports another feature only through the files listed here, each with the
// features that may, and why; and never two features each other (a pair both ways is one feature, or a piece
// that belongs in core).
const SERVER_FEATURE_IMPORTS = {
  'auth/auth.service': { by: ['admins', 'merchants'], why: "creating a user account is auth's (admins and merchant users)" },
  'auth/auth-limits': { by: ['apps'], why: 'the app import is rate-limited by the same limiter as sign-in' },
  'billing/plan-limits': { by: ['apps', 'bots', 'menus', 'runtime'], why: "what the account's plan lets it build and run" },
  'billing/plan-settlement': { by: ['payments'], why: 'the settlement registry names its handlers (until a typed registry)' },
  'custom-actions/custom-actions.service': { by: ['runtime'], why: "a javascript action runs the account's functions" },
  'custom-actions/custom-actions.routes': { by: ['runtime'], why: 'the script tester the runners hand the pool' },
  'menus/menus.service': { by: ['apps'], why: "an imported app's menus are written as the menus area writes them" },
  'merchants/merchants.service': { by: ['admins'], why: "an admin's assigned merchants" },
  'payments/payments.service': {
    by: ['auth', 'billing', 'shortcodes'],
    why: "plans and shortcodes are paid through payments' checkout; two-factor is recommended to accounts that took payments",
  },
  'payments/settlements': { by: ['billing', 'shortcodes'], why: "the settlement handlers' types" },
  'runtime/emulator-caller': { by: ['bots', 'logs'], why: 'whom the emulator runs as, when a bot or a log replays a session' },
  'runtime/event-sink': { by: ['health'], why: "health reports the event sink's queue" },
  'runtime/runners': { by: ['webhooks'], why: "a webhook URL is held to the same outbound HTTP rules as an action's" },
  'runtime/runtime.routes': { by: ['shortcodes'], why: "a shared shortcode's gateway URL reads and answers gateways as an app's does" },
  'runtime/runtime.service': { by: ['bots', 'dashboard', 'logs', 'shortcodes'], why: 'the Runtime buildApp hands their routes' },
  'sandbox/sandbox.routes': { by: ['runtime'], why: 'actions may call the sandbox bank in this process' },
  'sessions/sessions.service': { by: ['dashboard'], why: 'the dashboard lists and exports sessions' },
  'shortcodes/purchase-settlement': {
    by: ['billing', 'payments'],
    why: "billing's payment history lists shortcode payments; the settlement registry names the handler",
  },
  'templates/featured-templates': { by: ['bots'], why: 'the demo bot is written as a template' },
  'webhooks/webhooks.service': { by: ['payments'], why: "a payment's outcome goes out as a webhook event" },
};
// Two-way pairs allowed for now, with why: the payments settlement registry calls billing's and shortcodes'
// handlers, which take its types. A typed registry built by buildApp ends both; then this list is empty.
const SERVER_MUTUAL_FEATURES = ['billing|payments', 'payments|shortcodes'];

const serverFeatures = resolve('src/server/features');
const serverCore = resolve('src/server/core');
const featureEdges = new Set();
const featureImportsUsed = new Set();

function checkServerImport(file, target) {
  const feature = (path) => {
    const rel = relative(serverFeatures, path);
    return rel.startsWith('..') ? null : rel.split(sep);
  };
  const to = feature(target);
  if (!to) return;
  if (!relative(serverCore, file).startsWith('..')) {
    problems.push(`${relative('.', file)}: src/server/core may not import a feature (${relative('.', target)})`);
    return;
  }
  const from = feature(file);
  if (!from || from[0] === to[0]) return;
  featureEdges.add(`${from[0]}>${to[0]}`);
  const module = to.join('/').replace(/\.(ts|tsx|mjs|js)$/, '');
  featureImportsUsed.add(`${module}<${from[0]}`);
  if (!SERVER_FEATURE_IMPORTS[module]?.by.includes(from[0]))
    problems.push(
      `${relative('.', file)}: feature ${from[0]} may not import ${module} (move the shared piece to src/server/core, or list it in SERVER_FEATURE_IMPORTS with why)`,
    );
}

function checkServerMutualFeatures() {
  for (const edge of featureEdges) {
    const [a, b] = edge.split('>');
    if (a < b && featureEdges.has(`${b}>${a}`) && !SERVER_MUTUAL_FEATURES.includes(`${a}|${b}`))
      problems.push(`src/server/features: ${a} and ${b} import each other`);
  }
  // An entry no import needs any more is taken out, so the list stays what the code does.
  for (const [module, { by }] of Object.entries(SERVER_FEATURE_IMPORTS))
    for (const feature of by)
      if (!featureImportsUsed.has(`${module}<${feature}`))
        problems.push(`scripts/check-imports.mjs: SERVER_FEATURE_IMPORTS lets ${feature} import ${module}, which it no longer does`);
}

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
      if (area === 'server') checkServerImport(file, resolve(dirname(file), spec));
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
checkServerMutualFeatures();
if (problems.length) {
  console.error(`Import rules broken (docs/architecture.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('import rules: ok');
