/**
 * A gateway's response budget, kept by the runtime (docs/runtime.md, "Gateway profiles"): a hop whose answer is not
 * ready when the budget is nearly spent (the budget less half the margin, replyDeadlineFor) is answered with the
 * gateway's own end screen then, rather than late, when the gateway would drop it and show the caller a network
 * error. The app's logs say so. The hop still finishes in the background (its rows are written, nothing runs twice)
 * and its session ends there as over its budget (hop-steps.ts, `late`). What makes a hop late is not the engine,
 * which keeps a shorter budget of its own, but what it waits on: the database catching up, the session store.
 */
import type { ChannelAdapter, FormattedReply, InboundHop } from '../../../channels';
import { UNAVAILABLE_TEXT } from '../../../engine';
import { replyDeadlineFor, resolveGatewayProfile } from '../../../shared/gateway-profiles';
import type { LoadedApp } from '../../core/caches';
import type { HopEnv } from './hop-env';
import type { Environment } from './runtime-types';

/** The hop being timed: what its late answer and its log line need. */
export interface TimedHop {
  appId: string | undefined;
  environment: Environment | undefined;
  caller: string | null;
  loaded: LoadedApp | undefined;
  adapter: ChannelAdapter;
  hop: InboundHop;
  startedAt: number;
  late: { isLate: boolean };
}

/**
 * The hop's answer, or the gateway's end screen if the answer is not ready by the deadline. A late hop's failure
 * is logged, never left unhandled. A chat channel and a gateway's end notice are not timed.
 */
export function answerInTime(env: HopEnv, timed: TimedHop, answer: Promise<FormattedReply | null>): Promise<FormattedReply | null> {
  const { adapter, hop, loaded } = timed;
  if (adapter.conversation || hop.kind === 'end') return answer;
  const connections = loaded && !('missing' in loaded) ? loaded.compiled.app.gatewayConnections : undefined;
  const profile = resolveGatewayProfile(adapter.name, connections);
  if (!profile) return answer;
  const deadlineMs = replyDeadlineFor(profile);
  const waitMs = Math.max(0, timed.startedAt + deadlineMs - performance.now());
  return new Promise((resolve, reject) => {
    let isSettled = false;
    const timer = setTimeout(() => {
      if (isSettled) return;
      isSettled = true;
      timed.late.isLate = true;
      env.deps.metrics?.countHop(adapter.name, timed.environment ?? 'routed', 'late');
      recordLateAnswer(env, timed, profile.label, profile.budgetMs);
      resolve(adapter.formatReply({ text: UNAVAILABLE_TEXT, end: true }, hop));
    }, waitMs);
    answer.then(
      (reply) => {
        clearTimeout(timer);
        if (isSettled) return;
        isSettled = true;
        resolve(reply);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!isSettled) {
          isSettled = true;
          reject(err);
        } else {
          env.ctx.log.error({ err, appId: timed.appId }, 'a hop answered late with the end screen then failed');
        }
      },
    );
  });
}

/** One error line in the app's logs (and the server's) for a hop that got the end screen at its deadline. */
function recordLateAnswer(env: HopEnv, timed: TimedHop, label: string, budgetMs: number): void {
  const elapsedMs = Math.round(performance.now() - timed.startedAt);
  const message = `Answered ${label}'s end screen after ${elapsedMs} ms: the reply would have missed its ${budgetMs / 1000} s response budget`;
  env.ctx.log.warn({ appId: timed.appId, gateway: timed.adapter.name, elapsedMs, budgetMs }, 'a hop missed its gateway budget');
  if (!timed.appId || !timed.environment) return;
  const ownerId = timed.loaded && 'ownerId' in timed.loaded ? timed.loaded.ownerId : undefined;
  env.deps.sink.push(
    {
      table: 'logs',
      row: {
        appId: timed.appId,
        sessionId: timed.hop.sessionId,
        environment: timed.environment,
        caller: timed.caller,
        level: 'error',
        type: 'budget_exceeded',
        menuId: null,
        menu: null,
        plugin: null,
        action: null,
        message,
        data: { gateway: timed.adapter.name, elapsedMs, budgetMs },
        createdAt: new Date(env.now()),
      },
    },
    ownerId,
  );
}
