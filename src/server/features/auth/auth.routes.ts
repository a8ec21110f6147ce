import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import type { AppContext } from '../../context';
import type { Guard } from '../../plugins/guard';
import * as auth from './auth.service';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Keyed on address and account, after the body is parsed: one address cannot hammer one account, and
  // users behind one NAT (common on mobile networks) do not lock each other out.
  const rateLimit = {
    max: ctx.config.LOGIN_RATE_LIMIT,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (req: FastifyRequest) => `${req.ip}|${String((req.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase()}`,
  };
  const tags = ['auth'];

  r.post('/api/auth/register', {
    schema: { tags, body: registerBodySchema, response: { 200: loginReplySchema } },
    config: { rateLimit },
    handler: (req) => auth.register(ctx, req.body),
  });

  r.post('/api/auth/login', {
    schema: { tags, body: loginBodySchema, response: { 200: loginReplySchema } },
    config: { rateLimit },
    handler: (req) => auth.login(ctx, req.body),
  });

  r.post('/api/merchant/login', {
    schema: { tags, body: loginBodySchema, response: { 200: loginReplySchema } },
    config: { rateLimit },
    handler: (req) => auth.login(ctx, req.body, { merchantOnly: true }),
  });

  r.post('/api/auth/logout', {
    schema: { tags, response: { 200: messageSchema } },
    preHandler: guard(),
    handler: async (req) => {
      await auth.logout(ctx, req.user);
      return { status: '00' as const, message: 'Logged out' };
    },
  });

  r.get('/api/auth/me', {
    schema: { tags, response: { 200: envelopeSchema(sessionUserSchema) } },
    preHandler: guard(),
    handler: async (req) => ({ status: '00' as const, message: 'OK', data: await auth.getSessionUser(ctx.db, req.user.id) }),
  });

  r.post('/api/auth/forgot-password', {
    schema: { tags, body: forgotPasswordBodySchema, response: { 200: messageSchema } },
    config: { rateLimit },
    handler: async (req) => {
      await auth.requestPasswordReset(ctx, req.body.email, `${req.protocol}://${req.host}`);
      return { status: '00' as const, message: auth.FORGOT_PASSWORD_MESSAGE };
    },
  });

  r.post('/api/auth/reset-password', {
    schema: { tags, body: resetPasswordBodySchema, response: { 200: messageSchema } },
    config: { rateLimit },
    handler: async (req) => {
      await auth.resetPassword(ctx, req.body.token, req.body.password);
      return { status: '00' as const, message: 'Your password has been reset. You can now log in.' };
    },
  });

  r.post('/api/changePassword', {
    schema: { tags, body: changePasswordBodySchema, response: { 200: messageSchema.extend({ token: z.string() }) } },
    preHandler: guard(),
    handler: (req) => auth.changePassword(ctx, req.user, req.body),
  });
}
