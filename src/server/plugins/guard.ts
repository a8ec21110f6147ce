import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { isInAudience, type Audience } from '../../shared/roles';
import { notAllowed, unauthenticated } from '../../shared/errors';
import type { AppContext } from '../context';
import { findUserByToken, type AuthUser } from '../features/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard; routes without a guard never read it. */
    user: AuthUser;
  }
}

export type Guard = (...audiences: Audience[]) => preHandlerAsyncHookHandler;

function readBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * The server-side role guard every signed-in route uses: `preHandler: guard()` for any account,
 * `guard('admin')`, `guard('superAdmin')`, `guard('admin', 'chatbot')` (any one audience is enough).
 */
export function createGuard(ctx: AppContext): Guard {
  return (...audiences) =>
    async function guard(request: FastifyRequest, _reply: FastifyReply) {
      const token = readBearer(request);
      const user = token ? await findUserByToken(ctx, token) : undefined;
      if (!user) throw unauthenticated();
      if (audiences.length > 0 && !audiences.some((a) => isInAudience(a, user))) throw notAllowed();
      request.user = user;
    };
}
