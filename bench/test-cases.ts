/**
 * Saved test cases (docs/testing-apps.md): how long a run of 200 cases takes, the server as `npm start` runs it
 * (bench/shipped.ts: the embedded database, default settings), signed in as the seeded demo account. The app is the
 * bench shop (bench/shop.ts, three menus, deployed through the API); each case dials it and answers both menus
 * (`n` picks Airtime or Data and an amount), expecting the closing screen. Then the same 200 cases on an app whose
 * first rule goes through a sub-flow (docs/sub-flows.md) of two menus: the sub-flow's cost per case.
 * Five runs each (the run limit is 12 a minute per account); the median and the worst, in seconds.
 *
 *   npx tsx bench/test-cases.ts [--cases=200] [--runs=5]
 */
import type { ChildProcess } from 'node:child_process';
import { readBenchArgs } from './scratch-database';
import { ShippedServer, signInAsDemo } from './shipped';
import { seedShopOverHttp } from './seed-shop';
import { DEMO_USER } from '../src/server/seed';

const args = readBenchArgs();
const cases = Number(args.cases ?? 200);
const runs = Number(args.runs ?? 5);

type Auth = { authorization: string };
async function api(base: string, auth: Auth, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Writes `cases` cases on the app, then runs them `runs` times: seconds per run. */
async function timeRuns(base: string, auth: Auth, appId: string, steps: (n: number) => Array<{ input: string; expect: string }>) {
  for (let n = 0; n < cases; n++) {
    const saved = await api(base, auth, 'POST', `/api/apps/${appId}/test-cases`, { name: `Case ${n}`, steps: steps(n) });
    if (saved.status !== '00') throw new Error(`case ${n} not saved: ${JSON.stringify(saved)}`);
  }
  const seconds: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    const run = await api(base, auth, 'POST', `/api/apps/${appId}/test-cases/run`);
    seconds.push((performance.now() - started) / 1000);
    const data = run.data as { passed: number; total: number } | undefined;
    if (data?.passed !== cases) throw new Error(`run ${r}: ${JSON.stringify(run).slice(0, 300)}`);
  }
  return seconds;
}

const children: ChildProcess[] = [];
const server = await ShippedServer.start({ env: { BILLING: 'off' }, nodeFlags: [], console: true }, (p) => children.push(p));
try {
  const base = server.baseUrl;
  const auth = await signInAsDemo(base);
  const { appId } = await seedShopOverHttp(base, DEMO_USER);
  const label = (n: number) => (n % 2 === 0 ? 'Airtime' : 'Data');
  const shopSteps = (n: number) => [
    { input: '', expect: 'Welcome to the shop' },
    { input: n % 2 === 0 ? '1' : '2', expect: 'Enter amount' },
    { input: String(10 + n), expect: `You chose ${label(n)} for GHS ${10 + n}` },
  ];
  const plain = await timeRuns(base, auth, appId, shopSteps);

  // The same cases through a two-menu sub-flow entered by the first menu's rule.
  const subflow = (await api(base, auth, 'POST', '/api/subflows', { name: 'Confirm', outputs: [{ name: 'ok', value: 'yes' }] })).data as {
    id: string;
  };
  const back = await api(base, auth, 'POST', '/api/createMenu', {
    appId: subflow.id,
    userDefinedName: 'sure',
    displayText: 'Sure?\n1. Yes',
    switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Return' }],
  });
  await api(base, auth, 'POST', '/api/createMenu', {
    appId: subflow.id,
    userDefinedName: 'confirm',
    isFirst: true,
    displayText: 'Confirm your choice',
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: String(back.uniqueId) }],
  });
  const app = (
    await api(base, auth, 'POST', '/api/createApp', {
      ...{ appName: 'Bench sub-flow', description: 'bench', country: 'ghana' },
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*56#',
      useTemplateTag: false,
    })
  ).data as { appId: string };
  const done = await api(base, auth, 'POST', '/api/createMenu', {
    appId: app.appId,
    userDefinedName: 'done',
    displayText: 'Done {{ session.vars.ok }} {{ session.inputs.amount }}',
    terminate: true,
  });
  const amount = await api(base, auth, 'POST', '/api/createMenu', {
    appId: app.appId,
    userDefinedName: 'amount',
    displayText: 'Enter amount',
    switchOperations: [
      { operator: 'always', compareVal: '', action: 'goto', actionParam: String(done.uniqueId), subflow: { id: subflow.id, inputs: {} } },
    ],
  });
  await api(base, auth, 'POST', '/api/createMenu', {
    appId: app.appId,
    userDefinedName: 'home',
    isFirst: true,
    displayText: 'Welcome',
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: String(amount.uniqueId) }],
  });
  const through = await timeRuns(base, auth, app.appId, (n) => [
    { input: '', expect: 'Welcome' },
    { input: '1', expect: 'Enter amount' },
    { input: String(10 + n), expect: 'Confirm your choice' },
    { input: 'ok', expect: 'Sure?' },
    { input: '1', expect: `Done yes ${10 + n}` },
  ]);
  const show = (name: string, seconds: number[], hops: number) =>
    console.log(
      `${name}: ${cases} cases (${cases * hops} hops) in ${median(seconds).toFixed(2)} s median, ${Math.max(...seconds).toFixed(2)} s worst ` +
        `of ${runs} runs (${((median(seconds) * 1000) / cases).toFixed(1)} ms a case)`,
    );
  show('the shop, 3 hops a case', plain, 3);
  show('through a sub-flow, 5 hops a case', through, 5);
} finally {
  await server.stop();
  server.remove();
}
