import type { FastifyInstance } from 'fastify';
import { TWO_FACTOR_MESSAGES as M } from '../../../shared/api/two-factor.schema';
import {
  disableTwoFactor,
  enableTwoFactor,
  findRememberedDevices,
  getTwoFactorStatus,
  loginWithTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  revokeRememberedDevice,
  setupTwoFactor,
} from '../../../shared/api/two-factor.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { AuthLimits } from './auth-limits';
import * as auth from './auth.service';
import * as twoFactor from './two-factor.service';

/** Two-factor sign-in (shared/api/two-factor.schema.ts lists the calls; docs/security.md the design). */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, limits: AuthLimits): void {
  const tags = ['auth'];
  // What an admin who must enrol can still reach (plugins/guard.ts).
  const beforeEnrolment = { beforeTwoFactorEnrolment: true };

  registerCall(app, loginWithTwoFactor, {
    tags,
    preHandler: limits.twoFactorSignIn,
    handler: (req) => auth.loginWithTwoFactor(ctx, req.body, req.headers['user-agent'] ?? ''),
  });

  registerCall(app, getTwoFactorStatus, {
    tags,
    onRequest: guard('everyone', 'agent'),
    config: beforeEnrolment,
    handler: async (req) => ok('OK', await twoFactor.getTwoFactorStatus(ctx, getSignedInUser(req))),
  });

  registerCall(app, setupTwoFactor, {
    tags,
    onRequest: guard('everyone', 'agent'),
    config: beforeEnrolment,
    handler: async (req) => ok('Scan the QR code, then enter a code', await twoFactor.setupTwoFactor(ctx, getSignedInUser(req))),
  });

  registerCall(app, enableTwoFactor, {
    tags,
    onRequest: guard('everyone', 'agent'),
    config: beforeEnrolment,
    preHandler: limits.twoFactorCode,
    handler: async (req) => ok(M.enabled, { recoveryCodes: await twoFactor.enableTwoFactor(ctx, getSignedInUser(req), req.body.code) }),
  });

  registerCall(app, disableTwoFactor, {
    tags,
    onRequest: guard('everyone', 'agent'),
    preHandler: limits.twoFactorCode,
    handler: async (req) => {
      await twoFactor.disableTwoFactor(ctx, getSignedInUser(req), req.body);
      return done(M.disabled);
    },
  });

  registerCall(app, regenerateRecoveryCodes, {
    tags,
    onRequest: guard('everyone', 'agent'),
    preHandler: limits.twoFactorCode,
    handler: async (req) =>
      ok(M.regenerated, { recoveryCodes: await twoFactor.regenerateRecoveryCodes(ctx, getSignedInUser(req), req.body.code) }),
  });

  registerCall(app, findRememberedDevices, {
    tags,
    onRequest: guard('everyone', 'agent'),
    handler: async (req) => ok('OK', await twoFactor.findRememberedDevices(ctx, getSignedInUser(req))),
  });

  registerCall(app, revokeRememberedDevice, {
    tags,
    onRequest: guard('everyone', 'agent'),
    handler: async (req) => {
      await twoFactor.revokeRememberedDevice(ctx, getSignedInUser(req), req.body.uuid);
      return done(M.deviceRevoked);
    },
  });

  registerCall(app, resetTwoFactor, {
    tags: ['admins'],
    onRequest: guard('twoFactor.reset'),
    handler: async (req) => {
      await twoFactor.resetTwoFactor(ctx, getSignedInUser(req), req.body.userUuid);
      return done(M.reset);
    },
  });
}
