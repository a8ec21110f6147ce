/** The runtime's parts every step of a hop reads (hop-steps.ts), made once per runtime by createRuntime. */
import { randomUUID } from 'node:crypto';
import type { ChannelAdapter } from '../../../channels';
import { DEFAULT_LIMITS, type EngineDeps, type EngineLimits } from '../../../engine';
import { hopBudgetFor, resolveGatewayProfile, sessionScreenLimit } from '../../../shared/gateway-profiles';
import type { AppContext } from '../../context';
import type { ActionApp } from './action-runner';
import { createRenderShares } from '../../core/render-shares';
import { createSessionRecorder } from './session-records';
import { createHopAdmission, type HopAdmission } from './hop-admission';
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
  /** Each account's share of the hop thread while the process is busy (hop-admission.ts). */
  admission: HopAdmission;
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
  const chatLimits = { sessionTimeoutMs: chatTimeoutSeconds * 1000 };
  // The engine's dependencies per loaded version and gateway, made once: the engine resolves limits by object.
  const depsByVersion = new WeakMap<object, Map<string, EngineDeps>>();
  // Liquid time on this thread, shared out per account: all of an owner's apps draw on one share.
  const renderShares = createRenderShares();
  function getEngineDeps(version: RunnableApp, appId: string, adapter: ChannelAdapter): EngineDeps {
    let byGateway = depsByVersion.get(version);
    if (!byGateway) {
      byGateway = new Map();
      depsByVersion.set(version, byGateway);
    }
    let engineDeps = byGateway.get(adapter.name);
    if (!engineDeps) {
      const appRef: ActionApp = { appId, ownerId: version.ownerId, isTemplate: version.isTemplate };
      engineDeps = {
        now,
        newId,
        limits: adapter.conversation ? chatLimits : toGatewayLimits(version, adapter.name, ussdTtlSeconds),
        runAction: (request) => deps.runAction(request, appRef),
        renderTime: renderShares.forAccount(version.ownerId),
      };
      byGateway.set(adapter.name, engineDeps);
    }
    return engineDeps;
  }
  const admission = createHopAdmission({
    slots: ctx.config.HOP_ADMISSION_SLOTS,
    onOutcome: (outcome) => deps.metrics?.countAdmission(outcome),
  });
  const records = createSessionRecorder(deps.sink, ctx.now, deps.metrics);
  return { ctx, deps, records, getEngineDeps, now, ussdTtlSeconds, admission };
}

/**
 * A USSD session's limits under the gateway it came through (docs/runtime.md, "Gateway profiles"): the hop budget
 * shortened so the answer reaches the gateway within its response budget, and the screen limit narrowed to what the
 * gateway carries, both as the app's connection to the gateway narrows them. The emulator keeps the compiled app's
 * screen limit, the strictest of its connected gateways', so what is tried in the console is the narrowest case.
 */
function toGatewayLimits(version: RunnableApp, gateway: string, ttlSeconds: number): Partial<EngineLimits> {
  const { app } = version.compiled;
  const connections = app.gatewayConnections ?? [];
  const limits: Partial<EngineLimits> = {
    sessionTimeoutMs: ttlSeconds * 1000,
    hopBudgetMs: hopBudgetFor(DEFAULT_LIMITS.hopBudgetMs, resolveGatewayProfile(gateway, connections)),
  };
  if (gateway !== 'emulator') limits.screenLimit = sessionScreenLimit(app.screenLimit, gateway, connections);
  return limits;
}
