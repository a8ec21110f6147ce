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

// The console's areas (src/web/features/<area>) build on src/web/lib, src/web/components and shared, not on each
// other, so that no two areas grow into one loop. The reuses below are one way and each says why; a new one
// belongs in lib or components unless it is truly the other area's screen or data.
const WEB_FEATURES = join(root, 'web', 'features');
const WEB_FEATURE_IMPORTERS = {
  // An app's own screens (designer, flow map, monitoring, webhooks, bots) show its title and header and read it
  // with useApp; the console's home, the templates and the shortcodes import, clone and connect apps; a contacts
  // import picks the country of national numbers from the apps' countries.
  apps: [
    'bots',
    'console',
    'contacts',
    'dashboard',
    'emulator',
    'flowmap',
    'logs',
    'menus',
    'sessions',
    'shortcodes',
    'templates',
    'testcases',
    'webhooks',
  ],
  // The flow map is a second editor of the designer's draft; the logs and sessions name an app's menus.
  menus: ['flowmap', 'logs', 'sessions'],
  // A designer's goto rule may enter one of the account's sub-flows, picked from their list; the flow map names their boxes.
  subflows: ['flowmap', 'menus'],
  // The designer's custom-action picker lists the account's custom actions; a JavaScript action starts from their code.
  'custom-actions': ['menus'],
  // The sidebar shows the inbox's unread count; an app's dashboard links its inbox figures to the inbox.
  inbox: ['console', 'dashboard'],
  // The bots' chat simulator and simulated phone reuse the emulator's phone frame, panels and session.
  emulator: ['bots'],
  // Two-factor: the layout's enrolment and advice (console), the reset button on user tables (admins, merchants).
  auth: ['admins', 'console', 'merchants'],
  // The designer previews a bot's screen with its chat bubble; the inbox draws a customer's files as the simulator does; Subscriptions switches a bot's access; a bot
  // session's messages and a contact's timeline (what was sent first) show the chat's ticks; a campaign previews its template as the phone draws it.
  bots: ['billing', 'campaigns', 'contacts', 'inbox', 'menus', 'sessions'],
  // The emulator's action logs panel reads the logs' calls.
  logs: ['emulator'],
  // The featured templates on both homes; the template emulator loads a template.
  templates: ['console', 'emulator', 'public'],
  // The pricing page shows the billing plan cards.
  billing: ['public'],
  // An admin is linked to merchants; an app is cloned for a merchant.
  merchants: ['admins', 'apps'],
  // The live view marks a session's source as the sessions list does.
  sessions: ['dashboard'],
  // A CSV for one campaign is the contacts import, every contact tagged with the file's name (docs/campaigns.md).
  contacts: ['campaigns'],
};

// Two areas never import each other, not even through this list.
for (const [to, importers] of Object.entries(WEB_FEATURE_IMPORTERS))
  for (const from of importers)
    if (WEB_FEATURE_IMPORTERS[from]?.includes(to))
      problems.push(`scripts/check-imports.mjs: the console areas ${from} and ${to} import each other`);

/** The area of a path under src/web/features, or null. */
const findWebFeature = (path) => {
  const inside = relative(WEB_FEATURES, path);
  return inside.startsWith('..') || !inside.includes(sep) ? null : inside.split(sep)[0];
};

/** Fails a file of one console area that imports another area, unless WEB_FEATURE_IMPORTERS names the pair. */
function checkWebFeatureImport(file, spec) {
  const from = findWebFeature(file);
  const to = from && findWebFeature(resolve(dirname(file), spec));
  if (to && to !== from && !(WEB_FEATURE_IMPORTERS[to] ?? []).includes(from))
    problems.push(
      `${relative('.', file)}: the console area ${from} may not import the area ${to} (${spec}): share it through src/web/lib or src/web/components`,
    );
}

// The server's features (docs/architecture.md, "The server core"). src/server/core holds what every feature uses
// and imports no feature. A feature imports another feature only through the files listed here, each with the
// features that may, and why; and never two features each other (a pair both ways is one feature, or a piece
// that belongs in core).
const SERVER_FEATURE_IMPORTS = {
  'bots/bot-conversations.service': {
    by: ['campaigns', 'inbox'],
    why: "an agent's template and a campaign's take the contact's fields as a business writing first does",
  },
  'bots/whatsapp-templates.service': {
    by: ['campaigns', 'inbox'],
    why: "an agent and a campaign send the linked number's approved templates",
  },
  'billing/subscription': { by: ['retention'], why: "an account's retention starts from its plan's figures" },
  'retention/daily-counts': { by: ['dashboard'], why: "the dashboard's counts for days past an app's retention" },
  'billing/plan-limits': { by: ['apps', 'bots', 'media', 'menus', 'runtime'], why: "what the account's plan lets it build, run and store" },
  'custom-actions/custom-actions.service': { by: ['runtime'], why: "a javascript action runs the account's functions" },
  'custom-actions/custom-actions.routes': { by: ['runtime'], why: 'the script tester the runners hand the pool' },
  'media/media.service': {
    by: ['admins', 'bots', 'contacts', 'inbox', 'logs', 'merchants', 'runtime', 'sessions'],
    why: "a bot's files in and out are stored and read for its account; deleting a contact erases the files the number sent, deleting an account the account's files; a REST action's file is stored for the app's account; a session's files are shown (the debug panel's inputs too) and exported with signed links; an inbox conversation's files are shown to its agents, and a file an agent replies with is checked for the account",
  },
  'menus/menus.service': { by: ['apps'], why: "an imported app's menus are written as the menus area writes them" },
  'merchants/merchants.service': { by: ['admins'], why: "an admin's assigned merchants" },
  'payments/payment-callbacks': { by: ['billing'], why: 'the billing timer verifies a plan payment left pending' },
  'payments/payment-start': { by: ['billing', 'shortcodes'], why: "plans and shortcodes are paid through payments' checkout" },
  'runtime/emulator-caller': {
    by: ['bots', 'logs', 'testcases'],
    why: 'whom the emulator runs as, when a bot, a log or a recorded test case replays a session',
  },
  'runtime/event-sink': { by: ['health'], why: "health reports the event sink's queue" },
  'runtime/runtime.routes': { by: ['shortcodes'], why: "a shared shortcode's gateway URL reads and answers gateways as an app's does" },
  'runtime/runtime.service': {
    by: ['bots', 'contacts', 'dashboard', 'logs', 'shortcodes'],
    why: "the Runtime buildApp hands their routes (a number's erasure asks it for the number's live sessions)",
  },
  'demo-bank/demo-bank.routes': { by: ['runtime'], why: 'actions may call the demo bank in this process' },
  'subflows/subflows.service': { by: ['apps'], why: "an imported app's sub-flows become the account's, within its bound" },
  'sms/sms.service': { by: ['campaigns'], why: "a campaign's SMS joins the outbox the SMS dispatcher sends" },
  'sessions/sessions.service': {
    by: ['contacts', 'dashboard'],
    why: "the dashboard lists and exports sessions; a number's subscriber data export signs its files' links for as long",
  },
  'templates/featured-templates': { by: ['bots'], why: 'the demo bot is written as a template' },
  'webhooks/webhooks.service': { by: ['payments'], why: "a payment's outcome goes out as a webhook event" },
};

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
    if (a < b && featureEdges.has(`${b}>${a}`)) problems.push(`src/server/features: ${a} and ${b} import each other`);
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
      checkWebFeatureImport(file, spec);
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
