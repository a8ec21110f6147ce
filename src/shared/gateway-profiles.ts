/**
 * What each USSD gateway carries and how long it waits (docs/runtime.md, "Gateway profiles"): the longest screen it
 * passes on and its response budget, the time it gives the app to answer a hop before it gives up on it. An app's
 * connection to a gateway may narrow both (never widen them); the runtime runs a session under the profile of the
 * gateway it came through, the designer and the lint under the strictest of the app's connections.
 *
 * Figures from the gateways' documentation where it gives them (Africa's Talking: answer within 15 s, 182
 * characters; Nalo: replies up to 120 characters); elsewhere the cautious end of what Ghanaian aggregators are known
 * to expect (5 to 10 s), which a connection narrows further when a gateway's contract says so.
 */
import { z } from 'zod';
import { DEFAULT_SCREEN_LIMIT, MAX_SCREEN_LIMIT, MIN_SCREEN_LIMIT } from './app/screen-limits';

export const USSD_GATEWAYS = ['africastalking', 'hubtel', 'emergent', 'nalo', 'arkesel', 'beem', 'southpawslab', 'mobiverse'] as const;
export type UssdGateway = (typeof USSD_GATEWAYS)[number];

export interface GatewayProfile {
  label: string;
  /** The longest screen the gateway passes on, in characters of the screen's encoding (shared/ussd-encoding.ts). */
  screenLimit: number;
  /** How long the gateway waits for the app's answer to a hop, in milliseconds. */
  budgetMs: number;
}

export const GATEWAY_PROFILES: Record<UssdGateway, GatewayProfile> = {
  africastalking: { label: "Africa's Talking", screenLimit: 182, budgetMs: 15_000 },
  hubtel: { label: 'Hubtel', screenLimit: 160, budgetMs: 10_000 },
  emergent: { label: 'Emergent', screenLimit: 160, budgetMs: 5_000 },
  nalo: { label: 'Nalo', screenLimit: 120, budgetMs: 10_000 },
  arkesel: { label: 'Arkesel', screenLimit: 160, budgetMs: 5_000 },
  beem: { label: 'Beem', screenLimit: 160, budgetMs: 10_000 },
  southpawslab: { label: 'Southpawslab', screenLimit: 160, budgetMs: 5_000 },
  mobiverse: { label: 'Mobiverse', screenLimit: 160, budgetMs: 5_000 },
};

/**
 * The emulator's profile: the protocol's longest screen and a budget that leaves the platform's own hop budget as it
 * is, so a draft tried in the console behaves as the app's screen limit says.
 */
export const EMULATOR_PROFILE: GatewayProfile = { label: 'Emulator', screenLimit: MAX_SCREEN_LIMIT, budgetMs: 7_000 };

/** The shortest budget a connection may set: below it no hop that runs an action could answer. */
export const MIN_GATEWAY_BUDGET_MS = 2_000;
/**
 * What a budget keeps back for the answer's way to the gateway: the engine stops at the budget less this
 * (HOP_MARGIN_MS), and a reply that is still not ready at the budget less half of it gets the end screen instead.
 */
export const HOP_MARGIN_MS = 1_000;

export const GATEWAY_CONNECTION_MESSAGES = {
  duplicate: 'Each gateway may be connected once.',
  screenRange: `A screen limit is a whole number of characters from ${MIN_SCREEN_LIMIT} to ${MAX_SCREEN_LIMIT}.`,
  budgetTooShort: `A response budget is at least ${MIN_GATEWAY_BUDGET_MS / 1000} s: no hop that runs an action answers in less.`,
  screenWider: (label: string, limit: number) => `${label} carries at most ${limit} characters; a connection can only narrow it.`,
  budgetWider: (label: string, budgetMs: number) => `${label} waits at most ${budgetMs / 1000} s; a connection can only narrow it.`,
} as const;

/** An app's connection to one gateway, with the narrower limits the gateway's contract sets, if any. */
export const gatewayConnectionSchema = z
  .object({
    gateway: z.enum(USSD_GATEWAYS),
    screenLimit: z
      .number()
      .int({ message: GATEWAY_CONNECTION_MESSAGES.screenRange })
      .min(MIN_SCREEN_LIMIT, { message: GATEWAY_CONNECTION_MESSAGES.screenRange })
      .max(MAX_SCREEN_LIMIT, { message: GATEWAY_CONNECTION_MESSAGES.screenRange })
      .nullable()
      .default(null),
    budgetMs: z
      .number()
      .int()
      .min(MIN_GATEWAY_BUDGET_MS, { message: GATEWAY_CONNECTION_MESSAGES.budgetTooShort })
      .max(30_000)
      .nullable()
      .default(null),
  })
  .strict();
export type GatewayConnection = z.infer<typeof gatewayConnectionSchema>;

export const gatewayConnectionsSchema = z
  .array(gatewayConnectionSchema)
  .max(USSD_GATEWAYS.length)
  .superRefine((connections, issue) => {
    const seen = new Set<string>();
    connections.forEach((c, index) => {
      if (seen.has(c.gateway)) issue.addIssue({ code: 'custom', path: [index, 'gateway'], message: GATEWAY_CONNECTION_MESSAGES.duplicate });
      seen.add(c.gateway);
      const profile = GATEWAY_PROFILES[c.gateway];
      if (c.screenLimit !== null && c.screenLimit > profile.screenLimit)
        issue.addIssue({
          code: 'custom',
          path: [index, 'screenLimit'],
          message: GATEWAY_CONNECTION_MESSAGES.screenWider(profile.label, profile.screenLimit),
        });
      if (c.budgetMs !== null && c.budgetMs > profile.budgetMs)
        issue.addIssue({
          code: 'custom',
          path: [index, 'budgetMs'],
          message: GATEWAY_CONNECTION_MESSAGES.budgetWider(profile.label, profile.budgetMs),
        });
    });
  });

export function isUssdGateway(name: string): name is UssdGateway {
  return (USSD_GATEWAYS as readonly string[]).includes(name);
}

/** A gateway's profile as an app's connection narrows it; the emulator's for the emulator, null for a chat channel. */
export function resolveGatewayProfile(gateway: string, connections: readonly GatewayConnection[] = []): GatewayProfile | null {
  if (gateway === 'emulator') return EMULATOR_PROFILE;
  if (!isUssdGateway(gateway)) return null;
  const base = GATEWAY_PROFILES[gateway];
  const connection = connections.find((c) => c.gateway === gateway);
  return {
    label: base.label,
    screenLimit: Math.min(base.screenLimit, connection?.screenLimit ?? base.screenLimit),
    budgetMs: Math.min(base.budgetMs, connection?.budgetMs ?? base.budgetMs),
  };
}

/**
 * The screen limit a session through `gateway` runs under: the app's own, narrowed by the gateway's profile.
 * Example: sessionScreenLimit(160, 'nalo') === 120; sessionScreenLimit(160, 'africastalking') === 160.
 */
export function sessionScreenLimit(appScreenLimit: number, gateway: string, connections: readonly GatewayConnection[] = []): number {
  const profile = resolveGatewayProfile(gateway, connections);
  return profile ? Math.min(appScreenLimit, profile.screenLimit) : appScreenLimit;
}

/**
 * The screen limit the designer and the lint hold an app to: its own, narrowed by the strictest of its connected
 * gateways; the gateway that narrows it is named (null when the app's own limit is the strictest).
 */
export function designScreenLimit(
  appScreenLimit: number = DEFAULT_SCREEN_LIMIT,
  connections: readonly GatewayConnection[] = [],
): { limit: number; gateway: UssdGateway | null } {
  let strictest: { limit: number; gateway: UssdGateway | null } = { limit: appScreenLimit, gateway: null };
  for (const c of connections) {
    const limit = sessionScreenLimit(appScreenLimit, c.gateway, connections);
    if (limit < strictest.limit) strictest = { limit, gateway: c.gateway };
  }
  return strictest;
}

/** The engine's hop budget under a gateway: the platform's, shortened so the answer still reaches the gateway in time. */
export function hopBudgetFor(platformHopBudgetMs: number, profile: GatewayProfile | null): number {
  if (!profile) return platformHopBudgetMs;
  return Math.max(MIN_GATEWAY_BUDGET_MS - HOP_MARGIN_MS, Math.min(platformHopBudgetMs, profile.budgetMs - HOP_MARGIN_MS));
}

/** When the runtime stops waiting for a hop and answers the gateway's end screen instead: the budget less half the margin. */
export function replyDeadlineFor(profile: GatewayProfile): number {
  return profile.budgetMs - HOP_MARGIN_MS / 2;
}
