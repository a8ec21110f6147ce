import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookDeliveries } from '../../../db/schema';
import { createApiClient, type SeededUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedApp } from '../../../../tests/support/seed-app';
import { createHttpCallRules } from '../runtime/runners';
import { createWebhookDispatcher } from './webhook-dispatcher';

const HOSTILE_APPS = 8;

/** A receiver on 127.0.0.1 that holds every request until released (a slow endpoint), or answers at once. */
function startReceiver(slow: boolean) {
  let isSlow = slow;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => (isSlow ? held.push(res) : res.writeHead(200).end('ok')));
  });
  return {
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    /** Answers what it holds, and from now on answers at once. */
    release() {
      isSlow = false;
      for (const res of held.splice(0)) res.writeHead(200).end('late');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Webhook slots are shared per account, not per app: one account's eight apps whose receivers hang hold at most
 * its cap (2) of the 16 slots, counted across processes, and another account's delivery queued after all of
 * theirs is claimed in the first round. Asserted on what each claim took, never on time.
 */
describeDb("one account's slow receivers and another account's webhooks", () => {
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true, WEBHOOK_TIMEOUT_MS: 30_000 });
  const hostile = useUser(t);
  const victim = useUser(t);
  const slow = startReceiver(true);
  const fast = startReceiver(false);
  const hostileIds: string[] = [];
  let victimId: string;

  async function hookApp(user: SeededUser, url: string): Promise<string> {
    const appId = await seedApp(t, user.auth);
    const saved = await createApiClient(t, user).post(`/api/apps/${appId}/webhook`, {
      url,
      events: ['session.completed'],
      isEnabled: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return appId;
  }

  /** Queues a delivery due `ageMs` ago (older ones are claimed first). */
  async function queue(appId: string, ageMs: number): Promise<string> {
    const at = new Date(t.app.ctx.now().getTime() - ageMs);
    const [row] = await t.db
      .insert(webhookDeliveries)
      .values({ appId, eventId: `evt_test_fair_${appId}_${ageMs}`, eventType: 'webhook.test', data: {}, occurredAt: at, nextAttemptAt: at })
      .returning();
    return row!.id;
  }

  beforeAll(async () => {
    const slowBase = await slow.listen();
    const fastBase = await fast.listen();
    // Two deliveries for each of the hostile account's apps, all older than the victim's one.
    for (let i = 0; i < HOSTILE_APPS; i++) {
      const appId = await hookApp(hostile, `${slowBase}/hooks/${i}`);
      hostileIds.push(await queue(appId, 60_000 + i * 2), await queue(appId, 60_001 + i * 2));
    }
    victimId = await queue(await hookApp(victim, `${fastBase}/hooks/victim`), 1_000);
  });
  afterAll(async () => {
    slow.release();
    await Promise.all([slow.close(), fast.close()]);
  });

  const readRows = async (ids: string[]) => t.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
  const countTaken = async () => (await readRows(hostileIds)).filter((row) => row.attemptCount > 0).length;

  it("claims the victim's delivery in the first round while the hostile account holds its cap, in one process and two", async () => {
    // Two processes claim at once (a fleet): the cap is counted in the database, under the claim's lock.
    const other = createWebhookDispatcher(t.app.ctx, { intervalMs: 0, timeoutMs: 30_000, rules: createHttpCallRules(t.app.ctx) });
    try {
      const [here, there] = await Promise.all([t.app.webhookDispatcher.runOnce(), other.runOnce()]);
      expect(here + there).toBe(3);
      const [victimRow] = await readRows([victimId]);
      expect(victimRow!.attemptCount).toBe(1);
      expect(await countTaken()).toBe(2);
      // Later rounds, its two attempts still hanging: nothing more of the hostile account is taken.
      expect(await t.app.webhookDispatcher.runOnce()).toBe(0);
      expect(await other.runOnce()).toBe(0);
      expect(await countTaken()).toBe(2);
      slow.release();
      await t.app.webhookDispatcher.deliverDue();
      expect((await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, victimId)))[0]!.status).toBe('delivered');
    } finally {
      slow.release();
      await other.close();
    }
  });
});
