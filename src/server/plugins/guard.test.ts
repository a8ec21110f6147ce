import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from './errors';
import { getSignedInUser } from './guard';

describe('getSignedInUser', () => {
  it('answers 401 on a route without a guard instead of running the handler with no user', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    let reached = false;
    app.get('/unguarded', async (req) => {
      const user = getSignedInUser(req);
      reached = true;
      return { id: user.id };
    });
    const res = await app.inject({ method: 'GET', url: '/unguarded' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: '05', message: 'Please log in to continue' });
    expect(reached).toBe(false);
    await app.close();
  });
});
