import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  TWO_FACTOR_MESSAGES as M,
  recoveryCodesSchema,
  rememberedDeviceSchema,
  resetTwoFactorBodySchema,
  revokeDeviceBodySchema,
  twoFactorCodeBodySchema,
  twoFactorDisableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorLoginReplySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../../shared/api/two-factor.schema';
import type { AppContext } from '../../context';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { AuthLimits } from './auth-limits';
import { loginWithTwoFactor } from './auth.service';
import * as twoFactor from './two-factor.service';

/** Two-factor sign-in (shared/api/two-factor.schema.ts lists the calls; docs/security.md the design). */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, limits: AuthLimits): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  // What an admin who must enrol can still reach (plugins/guard.ts).
  const beforeEnrolment = { beforeTwoFactorEnrolment: true };

  r.post('/api/auth/login/two-factor', {
    schema: { tags, body: twoFactorLoginBodySchema, response: { 200: twoFactorLoginReplySchema } },
    preHandler: limits.twoFactorSignIn,
    handler: (req) => loginWithTwoFactor(ctx, req.body, req.headers['user-agent'] ?? ''),
  });

  r.get('/api/auth/two-factor', {
    schema: { tags, response: { 200: envelopeSchema(twoFactorStatusSchema) } },
    onRequest: guard(),
    config: beforeEnrolment,
    handler: async (req) => ok('OK', await twoFactor.getTwoFactorStatus(ctx, getSignedInUser(req))),
  });

  r.post('/api/auth/two-factor/setup', {
    schema: { tags, response: { 200: envelopeSchema(twoFactorSetupSchema) } },
    onRequest: guard(),
    config: beforeEnrolment,
    handler: async (req) => ok('Scan the QR code, then enter a code', await twoFactor.setupTwoFactor(ctx, getSignedInUser(req))),
  });

  r.post('/api/auth/two-factor/enable', {
    schema: { tags, body: twoFactorCodeBodySchema, response: { 200: envelopeSchema(recoveryCodesSchema) } },
    onRequest: guard(),
    config: beforeEnrolment,
    preHandler: limits.twoFactorCode,
    handler: async (req) => ok(M.enabled, { recoveryCodes: await twoFactor.enableTwoFactor(ctx, getSignedInUser(req), req.body.code) }),
  });

  r.post('/api/auth/two-factor/disable', {
    schema: { tags, body: twoFactorDisableBodySchema, response: { 200: messageSchema } },
    onRequest: guard(),
    preHandler: limits.twoFactorCode,
    handler: async (req) => {
      await twoFactor.disableTwoFactor(ctx, getSignedInUser(req), req.body);
      return done(M.disabled);
    },
  });

  r.post('/api/auth/two-factor/recovery-codes', {
    schema: { tags, body: twoFactorCodeBodySchema, response: { 200: envelopeSchema(recoveryCodesSchema) } },
    onRequest: guard(),
    preHandler: limits.twoFactorCode,
    handler: async (req) =>
      ok(M.regenerated, { recoveryCodes: await twoFactor.regenerateRecoveryCodes(ctx, getSignedInUser(req), req.body.code) }),
  });

  r.get('/api/auth/two-factor/devices', {
    schema: { tags, response: { 200: envelopeSchema(z.array(rememberedDeviceSchema)) } },
    onRequest: guard(),
    handler: async (req) => ok('OK', await twoFactor.findRememberedDevices(ctx, getSignedInUser(req))),
  });

  r.post('/api/auth/two-factor/devices/revoke', {
    schema: { tags, body: revokeDeviceBodySchema, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await twoFactor.revokeRememberedDevice(ctx, getSignedInUser(req), req.body.uuid);
      return done(M.deviceRevoked);
    },
  });

  r.post('/api/admin/two-factor/reset', {
    schema: { tags: ['admins'], body: resetTwoFactorBodySchema, response: { 200: messageSchema } },
    onRequest: guard('twoFactor.reset'),
    handler: async (req) => {
      await twoFactor.resetTwoFactor(ctx, getSignedInUser(req), req.body.userUuid);
      return done(M.reset);
    },
  });
}
