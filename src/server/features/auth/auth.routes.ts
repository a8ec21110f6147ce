import type { FastifyInstance } from 'fastify';
import {
  changePassword,
  getCurrentUser,
  loginMerchant,
  loginUser,
  logoutUser,
  registerUser,
  requestPasswordReset,
  resetPassword,
} from '../../../shared/api/auth.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { createAuthLimits } from './auth-limits';
import * as auth from './auth.service';
import { registerTwoFactorRoutes } from './two-factor.routes';
import { done, ok } from '../../http';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const limits = createAuthLimits(app, ctx);
  const tags = ['auth'];

  registerCall(app, registerUser, {
    tags,
    preHandler: limits.register,
    // A registration signs the new account in: its browser is a known device from the start.
    onSend: limits.rememberDevice,
    handler: (req) => auth.register(ctx, req.body),
  });

  registerCall(app, loginUser, {
    tags,
    preHandler: limits.signIn,
    onSend: limits.rememberDevice,
    handler: (req) => auth.login(ctx, req.body),
  });

  registerCall(app, loginMerchant, {
    tags,
    preHandler: limits.signIn,
    onSend: limits.rememberDevice,
    handler: (req) => auth.login(ctx, req.body, { merchantOnly: true }),
  });

  registerCall(app, logoutUser, {
    tags,
    onRequest: guard('everyone', 'agent'),
    config: { beforeTwoFactorEnrolment: true },
    handler: async (req) => {
      await auth.logout(ctx, getSignedInUser(req));
      return done('Logged out');
    },
  });

  registerCall(app, getCurrentUser, {
    tags,
    onRequest: guard('everyone', 'agent'),
    config: { beforeTwoFactorEnrolment: true },
    handler: async (req) => ok('OK', await auth.getSessionUser(ctx.db, getSignedInUser(req).id)),
  });

  registerCall(app, requestPasswordReset, {
    tags,
    preHandler: limits.forgotPassword,
    handler: async (req) => {
      auth.requestPasswordReset(ctx, req.body.email);
      return done(auth.FORGOT_PASSWORD_MESSAGE);
    },
  });

  registerCall(app, resetPassword, {
    tags,
    preHandler: limits.resetPassword,
    handler: async (req) => {
      await auth.resetPassword(ctx, req.body.token, req.body.password);
      return done('Your password has been reset. You can now log in.');
    },
  });

  registerTwoFactorRoutes(app, ctx, guard, limits);

  registerCall(app, changePassword, {
    tags,
    onRequest: guard('everyone', 'agent'),
    preHandler: limits.changePassword,
    handler: (req) => auth.changePassword(ctx, getSignedInUser(req), req.body),
  });
}
