/**
 * Golden cases for the engine (after goflow): each file in cases/ holds an app, the hops a user types
 * (with fake action outcomes) and the expected screens and events (type and data). A fixed clock and counter ids
 * make every run identical. `UPDATE_GOLDEN=1 npx vitest run tests/golden` rewrites the expected parts;
 * review the diff like code.
 *
 * Case file shape:
 *   { description, limits?, app: { appId, shortCode?, screenLimit?, menus: [menu...], subflows?: [{ id, menus... }] },
 *     hops: [{ start?, dial?, input?, waitMs?, outcomes?: { <actionName>: outcome | outcome[] },
 *              expect: { text, end, events: [{ type, data? }...], errors?, inputs?, vars? } }] }
 * A menu's uniqueId defaults to its userDefinedName and appId to the app's. The first hop always starts a
 * session; `start: true` starts a new one later, `resume: true` a new one that offers the last state back
 * (offerResume, resume on redial). An outcome is `{ ok, result | error, timedOut?, logs? }`
 * plus `ms` (time the action takes on the fake clock), `throws` (the runner rejects) or `render`
 * (the result is `renderTemplate(render)`, to test action templates).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appVersionSchema } from '../../src/shared/app';
import { compileApp, continueSession, offerResume, startSession } from '../../src/engine';
import type { ActionOutcome, ActionRequest, EngineDeps, EngineEventType, EngineLimits, HopResult, SessionState } from '../../src/engine';

interface FakeOutcome {
  ok?: boolean;
  result?: unknown;
  error?: string;
  timedOut?: boolean;
  logs?: ActionOutcome['logs'];
  ms?: number;
  throws?: string;
  render?: string;
}

/** An event as a case records it: its type and, when it has any, its data (the rest is ids and the clock). */
interface GoldenEvent {
  type: EngineEventType;
  data?: unknown;
}

interface GoldenExpect {
  text: string;
  end: boolean;
  events: GoldenEvent[];
  errors?: string[];
  inputs?: Record<string, string>;
  vars?: Record<string, unknown>;
}

interface GoldenHop {
  note?: string;
  start?: boolean;
  /** Starts a new session that offers the previous hop's state back (offerResume). */
  resume?: boolean;
  dial?: string;
  input?: string;
  /** Repeat the input this many times (for untrusted-input cases: a megabyte of text). */
  repeat?: number;
  waitMs?: number;
  outcomes?: Record<string, FakeOutcome | FakeOutcome[]>;
  expect?: GoldenExpect;
}

interface GoldenCase {
  description: string;
  limits?: Partial<EngineLimits>;
  app: Record<string, unknown> & { appId: string; menus: Array<Record<string, unknown>> };
  hops: GoldenHop[];
}

const CASES_DIR = join(import.meta.dirname, 'cases');
const isUpdating = process.env.UPDATE_GOLDEN === '1';
const START_TIME = 1_700_000_000_000;

function buildDeps(limits: Partial<EngineLimits> | undefined) {
  let time = START_TIME;
  let ids = 0;
  let outcomes: GoldenHop['outcomes'] = {};
  const calls = new Map<string, number>();
  const deps: EngineDeps = {
    now: () => time,
    newId: () => `id-${++ids}`,
    limits,
    runAction: async (request: ActionRequest): Promise<ActionOutcome> => {
      const name = request.action.actionName;
      const listed = outcomes?.[name];
      const n = calls.get(name) ?? 0;
      calls.set(name, n + 1);
      const fake: FakeOutcome = (Array.isArray(listed) ? listed[Math.min(n, listed.length - 1)] : listed) ?? { ok: true, result: null };
      time += fake.ms ?? 0;
      if (fake.throws) throw new Error(fake.throws);
      if (fake.render !== undefined) return { ok: true, result: request.renderTemplate(fake.render) };
      if (fake.ok === false) return { ok: false, error: fake.error ?? 'failed', timedOut: fake.timedOut, logs: fake.logs };
      return { ok: true, result: fake.result ?? null, logs: fake.logs };
    },
  };
  return {
    deps,
    advance: (ms: number) => {
      time += ms;
    },
    setHop: (hop: GoldenHop) => {
      outcomes = hop.outcomes ?? {};
      calls.clear();
    },
  };
}

function readApp(golden: GoldenCase) {
  const withIds = (menus: Array<Record<string, unknown>>) =>
    menus.map((m) => ({ appId: golden.app.appId, uniqueId: m.userDefinedName, ...m }));
  const subflows = (golden.app.subflows as Array<{ menus: Array<Record<string, unknown>> }> | undefined)?.map((sf) => ({
    ...sf,
    menus: withIds(sf.menus),
  }));
  return appVersionSchema.parse({ ...golden.app, menus: withIds(golden.app.menus), ...(subflows ? { subflows } : {}) });
}

function describeHop(result: HopResult, previous: GoldenExpect | undefined): GoldenExpect {
  const events = result.events.map((e): GoldenEvent => (e.data === undefined ? { type: e.type } : { type: e.type, data: e.data }));
  const actual: GoldenExpect = { text: result.reply.text, end: result.reply.end, events };
  const errors = result.events.filter((e) => e.level === 'error').map((e) => e.message);
  if (errors.length > 0) actual.errors = errors;
  if (previous?.inputs !== undefined) actual.inputs = result.state.inputs;
  if (previous?.vars !== undefined) actual.vars = result.state.vars;
  return actual;
}

async function runCase(golden: GoldenCase): Promise<GoldenExpect[]> {
  const compiled = compileApp(readApp(golden));
  const { deps, advance, setHop } = buildDeps(golden.limits);
  const actuals: GoldenExpect[] = [];
  let state: SessionState | null = null;
  for (const [i, hop] of golden.hops.entries()) {
    advance(hop.waitMs ?? 0);
    setHop(hop);
    const input = hop.repeat ? (hop.input ?? '').repeat(hop.repeat) : (hop.input ?? '');
    const base = {
      sessionId: `session-${i}`,
      msisdn: '233200000001',
      network: 'MTN',
      serviceCode: String(golden.app.shortCode ?? ''),
      input,
    };
    const result: HopResult =
      hop.resume && state !== null
        ? await offerResume(compiled, { ...base, dialString: hop.dial }, state, deps)
        : state === null || hop.start || i === 0
          ? await startSession(compiled, { ...base, dialString: hop.dial }, deps)
          : await continueSession(compiled, state, base, deps);
    // The stored state must survive a round trip through JSON (Redis).
    state = JSON.parse(JSON.stringify(result.state)) as SessionState;
    actuals.push(describeHop(result, hop.expect));
  }
  return actuals;
}

/** Two-space JSON with short arrays and small objects kept on one line, so case files stay readable. */
function formatJson(value: unknown, indent = ''): string {
  const inline = JSON.stringify(value);
  if (inline === undefined) return 'null';
  if (typeof value !== 'object' || value === null || inline.length + indent.length <= 100) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

const files = readdirSync(CASES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('golden cases', () => {
  it('has cases', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file.replace(/\.json$/, ''), async () => {
      const path = join(CASES_DIR, file);
      const golden = JSON.parse(readFileSync(path, 'utf8')) as GoldenCase;
      const actuals = await runCase(golden);
      if (isUpdating) {
        golden.hops.forEach((hop, i) => {
          hop.expect = actuals[i];
        });
        writeFileSync(path, `${formatJson(golden)}\n`);
        return;
      }
      golden.hops.forEach((hop, i) => {
        expect(hop.expect, `${file} hop ${i + 1} has no expect (run with UPDATE_GOLDEN=1)`).toBeDefined();
        expect(actuals[i], `${file} hop ${i + 1}${hop.note ? ` (${hop.note})` : ''}`).toEqual(hop.expect);
      });
    });
  }
});
