import { describe, expect, it } from 'vitest';
import { arkesel, whatsapp, type FormattedReply } from '../../../channels';
import { jsonRequest } from '../../../channels/test-requests';
import { compileApp } from '../../../engine';
import { buildTestApp } from '../../../engine/test-app';
import type { LoadedApp } from '../../core/caches';
import type { EventRecord } from './event-sink';
import { answerInTime, type TimedHop } from './hop-deadline';
import type { HopEnv } from './hop-env';

/** What answerInTime reads of a runtime: the logger and the event sink, here keeping what is pushed. */
function buildEnv() {
  const pushed: EventRecord[] = [];
  const logged: string[] = [];
  const env = {
    ctx: { log: { warn: (_: unknown, m: string) => logged.push(m), error: (_: unknown, m: string) => logged.push(m) } },
    deps: { sink: { push: (record: EventRecord) => pushed.push(record) } },
    now: () => Date.now(),
  } as unknown as HopEnv;
  return { env, pushed, logged };
}

/** An Arkesel hop of an app whose connection to Arkesel narrows its response budget to 2 s: the reply is due at 1.5 s. */
function buildTimedHop(): TimedHop {
  const app = buildTestApp([{ uniqueId: 'm1', userDefinedName: 'home', displayText: 'Hi' }], {
    gatewayConnections: [{ gateway: 'arkesel', screenLimit: null, budgetMs: 2000 }],
  });
  const loaded = { compiled: compileApp(app), ownerId: 'owner-1' } as unknown as LoadedApp;
  const hop = arkesel.parseRequest(
    jsonRequest({ sessionID: 's-1', userID: 'u', msisdn: '+233241234567', newSession: true, userData: '*920#' }),
  );
  return {
    appId: 'a1',
    environment: 'live',
    caller: null,
    loaded,
    adapter: arkesel,
    hop,
    startedAt: performance.now(),
    late: { isLate: false },
  };
}

const never = () => new Promise<FormattedReply | null>(() => {});

describe('answerInTime', () => {
  it("answers the gateway's end screen at the deadline, marks the hop late and says so in the app's logs", async () => {
    const { env, pushed } = buildEnv();
    const timed = buildTimedHop();
    const reply = await answerInTime(env, timed, never());
    const elapsed = performance.now() - timed.startedAt;
    expect(JSON.parse(reply!.body)).toMatchObject({
      continueSession: false,
      message: 'Service temporarily unavailable. Please try again.',
    });
    expect(elapsed).toBeGreaterThanOrEqual(1490);
    expect(timed.late.isLate).toBe(true);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      table: 'logs',
      row: { appId: 'a1', sessionId: 's-1', level: 'error', type: 'budget_exceeded', data: { gateway: 'arkesel', budgetMs: 2000 } },
    });
    expect((pushed[0]!.row as { message: string }).message).toMatch(
      /^Answered Arkesel's end screen after \d+ ms: the reply would have missed its 2 s response budget$/,
    );
  });

  it('passes on an answer that is ready in time, and its failure', async () => {
    const { env, pushed } = buildEnv();
    const timed = buildTimedHop();
    const ready: FormattedReply = { contentType: 'application/json', body: '{"message":"Hi"}' };
    expect(await answerInTime(env, timed, Promise.resolve(ready))).toBe(ready);
    await expect(answerInTime(env, buildTimedHop(), Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(timed.late.isLate).toBe(false);
    expect(pushed).toEqual([]);
  });

  it('logs a late hop that fails after its end screen went, rather than leaving the failure unhandled', async () => {
    const { env, logged } = buildEnv();
    let fail!: (err: Error) => void;
    const answer = new Promise<FormattedReply | null>((_, reject) => {
      fail = reject;
    });
    const timed = buildTimedHop();
    await answerInTime(env, timed, answer);
    fail(new Error('late and broken'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toEqual(['a hop missed its gateway budget', 'a hop answered late with the end screen then failed']);
  });

  it("does not time a gateway's end notice or a chat message", async () => {
    const { env } = buildEnv();
    const timed = buildTimedHop();
    const end = { ...timed, hop: { ...timed.hop, kind: 'end' as const } };
    const pending = never();
    expect(answerInTime(env, end, pending)).toBe(pending);
    expect(answerInTime(env, { ...timed, adapter: whatsapp }, pending)).toBe(pending);
  });
});
