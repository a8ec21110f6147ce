import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { isRedisServerInstalled, startOwnRedisServer, type OwnRedisServer } from '../../../../tests/support/redis';
import { describeWithService } from '../../../../tests/support/services';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';
import { seedShop } from '../../../../tests/support/seed-app';

const UNAVAILABLE = 'Service temporarily unavailable. Please try again.';

describeDb('a Redis outage', () => {
  describeWithService('the runtime on its own Redis', isRedisServerInstalled, 'redis-server is not installed', () => {
    let redis: OwnRedisServer;
    let t: TestApp;
    let appId: string;
    let owner: Awaited<ReturnType<typeof seedUser>>;
    beforeAll(async () => {
      redis = await startOwnRedisServer();
      t = await createTestApp({ REDIS_URL: redis.url });
      owner = await seedUser(t);
      appId = await seedShop(t, owner.auth);
    });
    afterAll(async () => {
      await t?.close();
      await redis?.stop();
    });

    const at = (sessionId: string, text: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: new URLSearchParams({
          sessionId,
          serviceCode: '*920*55#',
          phoneNumber: '+233241112222',
          networkCode: '62001',
          text,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const hubtel = (SessionId: string, Type: string, Message: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: {
          SessionId,
          Type,
          Message,
          ServiceCode: '920',
          Operator: 'mtn',
          ClientState: '',
          Mobile: '233200000001',
          Sequence: 1,
          Platform: 'USSD',
        },
      });

    it('answers every gateway with its own end screen while Redis is gone, and serves again once it is back', async () => {
      expect((await at('ro-1', '')).body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
      await redis.stop();

      // A session under way and a new one, in Africa's Talking's dialect and in Hubtel's: HTTP 200, the end screen.
      for (const reply of [await at('ro-1', '1'), await at('ro-2', '')]) {
        expect(reply.statusCode).toBe(200);
        expect(reply.body).toBe(`END ${UNAVAILABLE}`);
      }
      const fromHubtel = await hubtel('ro-3', 'Initiation', '*920*55#');
      expect(fromHubtel.statusCode).toBe(200);
      expect(fromHubtel.json()).toMatchObject({ SessionId: 'ro-3', Type: 'Release', Message: UNAVAILABLE });
      // A bad request is still the gateway's 400, and an unknown app still 404, with Redis down.
      expect((await t.app.inject({ method: 'POST', url: `/ussd/${appId}/test`, payload: { nothing: 'here' } })).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: '/ussd/no-such-app/test', payload: { nothing: 'here' } })).statusCode).toBe(404);

      // The console's limits count in this process meanwhile: sign-in answers (not a 500), and its per-account
      // limit still holds.
      const signIn = (password: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password } });
      expect((await signIn(owner.password)).statusCode).toBe(200);
      const guesses: number[] = [];
      for (let i = 0; i < 12; i++) guesses.push((await signIn('a-wrong-guess')).statusCode);
      expect(guesses[0]).toBe(401);
      expect(guesses.at(-1)).toBe(429);

      await redis.start();
      // ioredis reconnects by itself: a new session runs again (the lost one starts over, as a dropped call would).
      let first = await at('ro-4', '');
      for (let i = 0; i < 100 && first.body !== 'CON Welcome to the shop\n1. Airtime\n2. Data'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        first = await at(`ro-4-${i}`, '');
      }
      expect(first.body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    });
  });
});
