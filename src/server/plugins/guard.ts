import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { getRoles, isInAudience, type Audience } from '../../shared/roles';
import { notAllowed, unauthenticated } from '../../shared/errors';
import { API_KEY_MESSAGES, API_KEY_PREFIX, type ApiKeyScope } from '../../shared/api/api-keys.schema';
import type { AppContext } from '../context';
import { findUserByToken } from '../features/auth/auth.service';
import type { AuthUser } from '../core/auth-user';
import { findUserByApiKey } from '../features/auth/api-keys.service';
import { isTwoFactorEnabled, isTwoFactorRequired } from '../features/auth/two-factor.service';
import { TWO_FACTOR_MESSAGES } from '../../shared/api/two-factor.schema';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard; absent on a route without one (or a signed-out call to a route whose guard is optional). */
    user?: AuthUser;
  }
  interface FastifyContextConfig {
    /**
     * The route takes an API key (docs/api-keys.md): `read` for a call that only reads (any key), `write` for one
     * that changes something (write keys). Without it, a key gets 403.
     */
    apiKeyScope?: ApiKeyScope;
    /**
     * The route works for an admin who has not yet enrolled in two-factor sign-in (the enrolment itself, who am
     * I, log out); every other route answers 403 until they have (docs/security.md, Two-factor sign-in).
     */
    beforeTwoFactorEnrolment?: boolean;
  }
}

/**
 * The user the route's guard signed in. A guarded handler (or its rate limit's key) reads the user through
 * this; on a route without a guard it answers 401 rather than letting a handler run with no user.
 * @example handler: async (req) => ok('OK', await findApps(ctx, getSignedInUser(req)))
 */
export function getSignedInUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/** What an agent hears from any route but the inbox's and their own profile's. */
export const AGENT_REFUSED = "An inbox agent's sign-in opens the inbox only.";

export type Guard = (...audiences: Audience[]) => onRequestAsyncHookHandler;

function readBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * The server-side role guard every signed-in route uses: `onRequest: guard()` for any account, `guard('merchant')`,
 * or an admin permission of the role table (src/shared/roles.ts): `guard('subscription.manage')`,
 * `guard('bot.build', 'chatbot')` (any one audience is enough). Admin routes name a permission, never `admin`:
 * an admin's roles decide what they may do.
 *
 * An account's inbox agent (docs/inbox.md, "Agents") is refused here, 403, by every route whose audiences do not
 * name `agent`, `guard()` included: the inbox and their own sign-in, profile and password name it
 * (`guard('everyone', 'agent')`), nothing else does, and a new route is closed to agents until it says otherwise.
 */
export function createGuard(ctx: AppContext): Guard {
  return (...audiences) => {
    const hook = async function guard(request: FastifyRequest, _reply: FastifyReply) {
      const token = readBearer(request);
      const user = token?.startsWith(API_KEY_PREFIX)
        ? await checkApiKey(request, token)
        : token
          ? await findUserByToken(ctx, token)
          : undefined;
      if (!user) throw unauthenticated();
      const isAllowed = audiences.length > 0 ? audiences.some((a) => isInAudience(a, user)) : !getRoles(user).isAgent;
      if (!isAllowed) throw notAllowed(getRoles(user).isAgent ? AGENT_REFUSED : undefined);
      if (!request.routeOptions.config.beforeTwoFactorEnrolment && isTwoFactorRequired(ctx, user)) {
        if (!(await isTwoFactorEnabled(ctx.db, user.id))) throw notAllowed(TWO_FACTOR_MESSAGES.enrolmentRequired);
      }
      request.user = user;
    };
    guardAudiences.set(hook, audiences);
    return hook;
  };

  /** A key's account, if the key is live (else 401) and the route takes keys of its scope (else 403). */
  async function checkApiKey(request: FastifyRequest, key: string): Promise<AuthUser> {
    const found = await findUserByApiKey(ctx, key);
    if (!found) throw unauthenticated(API_KEY_MESSAGES.invalid);
    const needed = request.routeOptions.config.apiKeyScope;
    if (!needed) throw notAllowed(API_KEY_MESSAGES.notAccepted);
    if (needed === 'write' && found.scope !== 'write') throw notAllowed(API_KEY_MESSAGES.readOnly);
    return found.user;
  }
}

/** Each guard hook's audiences, so the route table can say who may call a route (plugins/route-table.ts). */
const guardAudiences = new WeakMap<object, Audience[]>();

/** The audiences of a route's guard hook (`[]`: any signed-in account), or undefined for any other hook. */
export function getGuardAudiences(hook: unknown): Audience[] | undefined {
  return typeof hook === 'function' ? guardAudiences.get(hook) : undefined;
}
