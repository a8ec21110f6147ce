/** The runtime's parts every step of a hop reads (hop-steps.ts), made once per runtime by createRuntime. */
import { randomUUID } from 'node:crypto';
import type { ChannelAdapter } from '../../../channels';
import type { EngineDeps } from '../../../engine';
import type { AppContext } from '../../context';
import type { ActionApp } from './action-runner';
import { createRenderShares } from '../../core/render-shares';
import { createSessionRecorder } from './session-records';
import type { RuntimeDeps } from './runtime-types';
import type { LoadedApp } from '../../core/caches';

/** A version that can run (not a missing app or an app never deployed). */
export type RunnableApp = Exclude<LoadedApp, { missing: unknown }>;

/** The runtime's parts every step reads, made once by createRuntime. */
export interface HopEnv {
  ctx: AppContext;
  deps: RuntimeDeps;
  records: ReturnType<typeof createSessionRecorder>;
  /** The engine's dependencies for one loaded version, made once rather than on every hop. */
  getEngineDeps(version: RunnableApp, appId: string, adapter: ChannelAdapter): EngineDeps;
  now(): number;
  /** Inactivity after which a USSD session is over (RuntimeDeps.sessionTimeoutSeconds). */
  ussdTtlSeconds: number;
}

/** The parts of a HopEnv, made once: ids, the engine's limits and its dependencies per loaded version. */
export function createHopEnv(ctx: AppContext, deps: RuntimeDeps, chatTimeoutSeconds: number): HopEnv {
  const ussdTtlSeconds = deps.sessionTimeoutSeconds ?? 180;
  // Event ids only need to be unique (they are never stored): a random process prefix and a counter cost
  // far less than a UUID per event. They also name a session whose gateway sent no id.
  const idPrefix = randomUUID().slice(0, 8);
  let idCounter = 0;
  const newId = () => `${idPrefix}-${(++idCounter).toString(36)}`;
  const now = () => ctx.now().getTime();
  // One limits object per kind of channel, made once: the engine resolves limits by object.
  const ussdLimits = { sessionTimeoutMs: ussdTtlSeconds * 1000 };
  const chatLimits = { sessionTimeoutMs: chatTimeoutSeconds * 1000 };
  const depsByVersion = new WeakMap<object, EngineDeps>();
  // Liquid time on this thread, shared out per account: all of an owner's apps draw on one share.
  const renderShares = createRenderShares();
  function getEngineDeps(version: RunnableApp, appId: string, adapter: ChannelAdapter): EngineDeps {
    // A loaded version runs on one kind of channel only (checkVersion refuses a bot on a USSD URL and back).
    let engineDeps = depsByVersion.get(version);
    if (!engineDeps) {
      const appRef: ActionApp = { appId, ownerId: version.ownerId, isTemplate: version.isTemplate };
      engineDeps = {
        now,
        newId,
        limits: adapter.conversation ? chatLimits : ussdLimits,
        runAction: (request) => deps.runAction(request, appRef),
        renderTime: renderShares.forAccount(version.ownerId),
      };
      depsByVersion.set(version, engineDeps);
    }
    return engineDeps;
  }
  return { ctx, deps, records: createSessionRecorder(deps.sink, ctx.now), getEngineDeps, now, ussdTtlSeconds };
}
