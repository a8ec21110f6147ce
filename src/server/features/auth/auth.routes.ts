import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginReplySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  sessionUserSchema,
} from '../../../shared/api/auth.schema';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import { passwordLoginReplySchema } from '../../../shared/api/two-factor.schema';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { createAuthLimits } from './auth-limits';
import * as auth from './auth.service';
import { registerTwoFactorRoutes } from './two-factor.routes';
import { done, ok } from '../../http';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = createAuthLimits(app, ctx);
  const tags = ['auth'];

  r.post('/api/auth/register', {
    schema: { tags, body: registerBodySchema, response: { 200: loginReplySchema } },
    preHandler: limits.register,
    // A registration signs the new account in: its browser is a known device from the start.
    onSend: limits.rememberDevice,
    handler: (req) => auth.register(ctx, req.body),
  });

  r.post('/api/auth/login', {
    schema: { tags, body: loginBodySchema, response: { 200: passwordLoginReplySchema } },
    preHandler: limits.signIn,
    onSend: limits.rememberDevice,
    handler: (req) => auth.login(ctx, req.body),
  });

  r.post('/api/merchant/login', {
    schema: { tags, body: loginBodySchema, response: { 200: passwordLoginReplySchema } },
    preHandler: limits.signIn,
    onSend: limits.rememberDevice,
    handler: (req) => auth.login(ctx, req.body, { merchantOnly: true }),
  });

  r.post('/api/auth/logout', {
    schema: { tags, response: { 200: messageSchema } },
    onRequest: guard(),
    config: { beforeTwoFactorEnrolment: true },
    handler: async (req) => {
      await auth.logout(ctx, getSignedInUser(req));
      return done('Logged out');
    },
  });

  r.get('/api/auth/me', {
    schema: { tags, response: { 200: envelopeSchema(sessionUserSchema) } },
    onRequest: guard(),
    config: { beforeTwoFactorEnrolment: true },
    handler: async (req) => ok('OK', await auth.getSessionUser(ctx.db, getSignedInUser(req).id)),
  });

  r.post('/api/auth/forgot-password', {
    schema: { tags, body: forgotPasswordBodySchema, response: { 200: messageSchema } },
    preHandler: limits.forgotPassword,
    handler: async (req) => {
      auth.requestPasswordReset(ctx, req.body.email);
      return done(auth.FORGOT_PASSWORD_MESSAGE);
    },
  });

  r.post('/api/auth/reset-password', {
    schema: { tags, body: resetPasswordBodySchema, response: { 200: messageSchema } },
    preHandler: limits.resetPassword,
    handler: async (req) => {
      await auth.resetPassword(ctx, req.body.token, req.body.password);
      return done('Your password has been reset. You can now log in.');
    },
  });

  registerTwoFactorRoutes(app, ctx, guard, limits);

  r.post('/api/changePassword', {
    schema: { tags, body: changePasswordBodySchema, response: { 200: messageSchema.extend({ token: z.string() }) } },
    onRequest: guard(),
    preHandler: limits.changePassword,
    handler: (req) => auth.changePassword(ctx, getSignedInUser(req), req.body),
  });
}
