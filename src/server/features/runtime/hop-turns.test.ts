import { describe, expect, it } from 'vitest';
import { createHopTurns } from './hop-turns';

/** A hop whose end the test decides, recording when it started. */
function buildHop(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (err: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const run = () => {
    log.push(`start ${name}`);
    return done;
  };
  return { run, finish: () => finish(`reply ${name}`), fail: (message: string) => fail(new Error(message)) };
}

describe('hop turns', () => {
  it('runs a hop sent again while it runs once, and gives both requests its reply', async () => {
    const turns = createHopTurns<string>();
    const log: string[] = [];
    const first = buildHop(log, 'first');
    const again = buildHop(log, 'again');
    const a = turns.take('s1', '1*2', first.run);
    const b = turns.take('s1', '1*2', again.run);
    first.finish();
    expect(await Promise.all([a, b])).toEqual(['reply first', 'reply first']);
    expect(log).toEqual(['start first']);
    expect(turns.size).toBe(0);
  });

  it('makes the next hop of a session wait for the one before, and lets other sessions run at once', async () => {
    const turns = createHopTurns<string>();
    const log: string[] = [];
    const one = buildHop(log, 'one');
    const two = buildHop(log, 'two');
    const other = buildHop(log, 'other');
    const a = turns.take('s1', '1', one.run);
    const b = turns.take('s1', '1*2', two.run);
    const c = turns.take('s2', '1', other.run);
    expect(log).toEqual(['start one', 'start other']);
    one.finish();
    await a;
    await Promise.resolve();
    expect(log).toEqual(['start one', 'start other', 'start two']);
    two.finish();
    other.finish();
    expect(await Promise.all([b, c])).toEqual(['reply two', 'reply other']);
    expect(turns.size).toBe(0);
  });

  it('shares a failure with the copy, and the next hop still runs after it', async () => {
    const turns = createHopTurns<string>();
    const log: string[] = [];
    const bad = buildHop(log, 'bad');
    const next = buildHop(log, 'next');
    const a = turns.take('s1', 'x', bad.run);
    const copy = turns.take('s1', 'x', bad.run);
    const b = turns.take('s1', 'y', next.run);
    bad.fail('path mismatch');
    await expect(a).rejects.toThrow('path mismatch');
    await expect(copy).rejects.toThrow('path mismatch');
    next.finish();
    expect(await b).toBe('reply next');
    expect(log).toEqual(['start bad', 'start next']);
  });

  it('never shares between hops without a hopId: they take turns', async () => {
    const turns = createHopTurns<string>();
    const log: string[] = [];
    const one = buildHop(log, 'one');
    const two = buildHop(log, 'two');
    const a = turns.take('s1', undefined, one.run);
    const b = turns.take('s1', undefined, two.run);
    one.finish();
    two.finish();
    expect(await Promise.all([a, b])).toEqual(['reply one', 'reply two']);
    expect(log).toEqual(['start one', 'start two']);
  });

  it('refuses a hop past a session bound at once with 429; copies of the running hop still share it, and the bound frees up', async () => {
    const turns = createHopTurns<string>(2);
    const log: string[] = [];
    const one = buildHop(log, 'one');
    const two = buildHop(log, 'two');
    const a = turns.take('s1', '1', one.run);
    const b = turns.take('s1', '1*2', two.run);
    const refused = turns.take('s1', '1*2*3', buildHop(log, 'three').run);
    await expect(refused).rejects.toMatchObject({
      httpStatus: 429,
      message: 'Too many requests for this session at once (2); answer the screen first',
    });
    expect(turns.take('s1', '1*2', buildHop(log, 'copy').run)).toBe(b);
    expect((await Promise.allSettled([turns.take('s2', '1', async () => 'other')]))[0]).toEqual({ status: 'fulfilled', value: 'other' });
    one.finish();
    two.finish();
    await Promise.all([a, b]);
    expect(await turns.take('s1', '1*2*3', async () => 'three later')).toBe('three later');
    expect(log).toEqual(['start one', 'start two']);
    expect(turns.size).toBe(0);
  });
});
