import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdmissionOutcome } from '../../core/metrics';
import { createHopAdmission, type AdmissionOptions } from './hop-admission';

/** The end of the current turn of the event loop: the gate's queues start their hops then. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A gate whose admissions are logged by name as they start (at once, or when their turn comes). */
function buildGate(options: Omit<AdmissionOptions, 'onOutcome'>) {
  const outcomes: AdmissionOutcome[] = [];
  const gate = createHopAdmission({ ...options, onOutcome: (outcome) => outcomes.push(outcome) });
  const started: string[] = [];
  const refused: string[] = [];
  const admit = (ownerId: string, name: string, late?: { isLate: boolean }) => {
    const turn = gate.admit(ownerId, late);
    if (turn === true) started.push(name);
    else if (turn === false) refused.push(name);
    else void turn.then((isAdmitted) => (isAdmitted ? started : refused).push(name));
    return turn;
  };
  return { gate, admit, started, refused, outcomes };
}

/** A gate another account ('quiet') started a hop on in the turn before: the flood is not alone on the thread. */
async function buildSharedGate(options: Omit<AdmissionOptions, 'onOutcome'>) {
  const built = buildGate(options);
  expect(built.admit('quiet', 'warm')).toBe(true);
  built.started.length = 0;
  await nextTurn();
  return built;
}

describe('hop admission', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('never holds an account alone on the thread, and holds it from the turn another account starts a hop', async () => {
    const { gate, admit, started, outcomes } = buildGate({ slots: 2 });
    for (let i = 0; i < 50; i++) expect(admit('flood', `f${i}`)).toBe(true);
    expect(admit('quiet', 'q0')).toBe(true);
    // The quiet account is on the thread now: the flood is past its share of this turn.
    expect(admit('flood', 'f50')).toBeInstanceOf(Promise);
    await nextTurn();
    expect(started).toHaveLength(52);
    expect(outcomes).toEqual(['queued']);
    expect(gate.stats()).toEqual({ queued: 0, accounts: 0 });
  });

  it('holds an account alone again once no other account has started a hop for two seconds', async () => {
    let now = performance.now();
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const { admit, outcomes } = buildGate({ slots: 1 });
    expect(admit('quiet', 'q0')).toBe(true);
    await nextTurn();
    // A second on: the quiet account is still on the thread.
    now += 1100;
    expect(admit('flood', 'f0')).toBe(true);
    expect(admit('flood', 'f1')).toBeInstanceOf(Promise);
    await nextTurn();
    await nextTurn();
    // Two seconds without the quiet account: the flood is alone, and nothing waits.
    now += 1100;
    expect(admit('flood', 'f2')).toBe(true);
    await nextTurn();
    for (let i = 3; i < 20; i++) expect(admit('flood', `f${i}`)).toBe(true);
    expect(outcomes).toEqual(['queued']);
  });

  it('starts every hop at once while a turn of the loop starts fewer than its slots', async () => {
    const { gate, admit, started, outcomes } = await buildSharedGate({ slots: 4 });
    for (let i = 0; i < 4; i++) expect(admit('flood', `f${i}`)).toBe(true);
    await nextTurn();
    // A new turn: four more at once.
    for (let i = 4; i < 8; i++) expect(admit('flood', `f${i}`)).toBe(true);
    expect(started).toHaveLength(8);
    expect(outcomes).toEqual([]);
    expect(gate.stats()).toEqual({ queued: 0, accounts: 0 });
  });

  it("queues an account past its share, starts another account's hop at once, and takes turns round-robin", async () => {
    const { gate, admit, started, outcomes } = await buildSharedGate({ slots: 2 });
    // One turn: the flood's first two fill the slots; its next four wait.
    for (let i = 0; i < 6; i++) void admit('flood', `f${i}`);
    // The quiet account has started none of this turn's hops: under its share (2 slots over 2 accounts), at once.
    expect(admit('quiet', 'q0')).toBe(true);
    // Its second is past its share in a full turn: it waits too, but in a queue of its own.
    expect(admit('quiet', 'q1')).not.toBe(true);
    expect(started).toEqual(['f0', 'f1', 'q0']);
    expect(gate.stats()).toEqual({ queued: 5, accounts: 2 });

    // Each turn starts two waiting hops, one an account a pass: the quiet account's one hop does not wait for the
    // flood's four.
    await nextTurn();
    expect(started).toEqual(['f0', 'f1', 'q0', 'f2', 'q1']);
    await nextTurn();
    expect(started).toEqual(['f0', 'f1', 'q0', 'f2', 'q1', 'f3', 'f4']);
    await nextTurn();
    expect(started.slice(7)).toEqual(['f5']);
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(5);
    expect(gate.stats()).toEqual({ queued: 0, accounts: 0 });
  });

  it("keeps an account's hops in the order they came: a new one waits behind its queue even in a fresh turn", async () => {
    const { admit, started } = await buildSharedGate({ slots: 1 });
    void admit('flood', 'f0');
    void admit('flood', 'f1');
    void admit('flood', 'f2');
    await nextTurn();
    // f1 started this turn; f3, arriving in the same turn, is behind f2.
    void admit('flood', 'f3');
    await nextTurn();
    await nextTurn();
    expect(started).toEqual(['f0', 'f1', 'f2', 'f3']);
  });

  it("refuses at once what comes past an account's queue bound, and only that account's", async () => {
    const { gate, admit, refused, outcomes } = await buildSharedGate({ slots: 1, maxQueued: 3 });
    void admit('flood', 'f0');
    for (let i = 1; i <= 3; i++) expect(admit('flood', `f${i}`)).toBeInstanceOf(Promise);
    expect(admit('flood', 'f4')).toBe(false);
    expect(admit('flood', 'f5')).toBe(false);
    expect(admit('quiet', 'q0')).toBe(true);
    expect(refused).toEqual(['f4', 'f5']);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(2);
    expect(gate.stats()).toEqual({ queued: 3, accounts: 1 });
  });

  it('drops a waiting hop whose gateway was answered at its deadline, or that waited its longest, without starting it', async () => {
    const { gate, admit, started, refused, outcomes } = await buildSharedGate({ slots: 1 });
    const late = { isLate: false };
    void admit('flood', 'f0');
    const answered = admit('flood', 'f1', late);
    void admit('flood', 'f2');
    // The deadline answered f1's gateway (hop-deadline.ts) before its turn came.
    late.isLate = true;
    await nextTurn();
    expect(await answered).toBe(false);
    expect(started).toEqual(['f0', 'f2']);
    expect(refused).toEqual(['f1']);
    expect(outcomes).toEqual(['queued', 'queued', 'expired']);

    const impatient = await buildSharedGate({ slots: 1, maxWaitMs: 0 });
    void impatient.admit('chat', 'c0');
    const chat = impatient.admit('chat', 'c1');
    await nextTurn();
    expect(await chat).toBe(false);
    expect(impatient.outcomes).toEqual(['queued', 'expired']);
    expect(gate.stats()).toEqual({ queued: 0, accounts: 0 });
  });

  it('holds nothing while a hop runs: hops that throw leave every slot of the next turn', async () => {
    const { gate, admit, started } = await buildSharedGate({ slots: 2 });
    const failing = async (name: string) => {
      const turn = admit('flood', name);
      if (turn !== true && !(turn !== false && (await turn))) return;
      throw new Error('the session store is down');
    };
    const runs = ['f0', 'f1', 'f2', 'f3'].map((name) => failing(name).catch(() => undefined));
    await nextTurn();
    await Promise.all(runs);
    expect(started).toEqual(['f0', 'f1', 'f2', 'f3']);
    await nextTurn();
    expect(admit('flood', 'g0')).toBe(true);
    expect(admit('flood', 'g1')).toBe(true);
    expect(gate.stats()).toEqual({ queued: 0, accounts: 0 });
  });

  it('starts what waits when it closes, and every hop at once after; 0 slots turns it off', async () => {
    const { gate, admit, started } = await buildSharedGate({ slots: 1 });
    void admit('flood', 'f0');
    const waiting = [admit('flood', 'f1'), admit('flood', 'f2')];
    gate.close();
    expect(await Promise.all(waiting)).toEqual([true, true]);
    expect(admit('flood', 'f3')).toBe(true);
    expect(started).toEqual(['f0', 'f1', 'f2', 'f3']);

    const off = buildGate({ slots: 0 });
    for (let i = 0; i < 100; i++) expect(off.admit('flood', `f${i}`)).toBe(true);
    expect(off.outcomes).toEqual([]);
  });
});
