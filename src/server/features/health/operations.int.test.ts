import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, useTestApp, useUser, type TestApp } from '../../../../tests/support/test-app';
import { seedShop } from '../../../../tests/support/seed-app';

const TOKEN = 'metrics-token-0123456789';

/** A free TCP port on loopback, for the metrics listener. */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One sample's value in Prometheus' text format, or undefined when the series is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeDb('liveness and readiness', () => {
  const t = useTestApp();

  it('answers alive, and ready until the process starts draining', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).json()).toEqual({ status: '00', message: 'alive' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: '00',
      message: 'ready',
      data: { database: 'up', redis: 'not configured', migrations: 'applied', draining: false },
    });
    // Over HTTP, kept alive until the process drains; from then on each answer closes its connection, so a proxy's
    // pooled connection ends after an answer rather than under a request at shutdown.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new http.Agent({ keepAlive: true });
    const connectionOf = (path: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const { port } = t.app.server.address() as AddressInfo;
        http
          .get({ host: '127.0.0.1', port, path, agent }, (reply) => {
            reply.resume();
            resolve(reply.headers.connection);
          })
          .on('error', reject);
      });
    expect(await connectionOf('/readyz')).toBe('keep-alive');
    // SIGTERM's first step: still serving, no longer ready.
    t.app.startDraining();
    expect(await connectionOf('/livez')).toBe('close');
    agent.destroy();
    const draining = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ status: '03', message: 'draining', data: { database: 'up', draining: true } });
    expect((await t.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describeDb('metrics on the main port', () => {
  const t = useTestApp({ METRICS_TOKEN: TOKEN });
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth);
  });
  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
  // Each session from its own number: the limit on new sessions per number would refuse the eleventh.
  const at = (sessionId: string, text: string, caller: number) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: new URLSearchParams({
        sessionId,
        serviceCode: '*920*55#',
        phoneNumber: `+2332411${String(caller).padStart(5, '0')}`,
        networkCode: '62001',
        text,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('refuses a scrape without the token, or with another', async () => {
    const bare = await scrape();
    expect(bare.statusCode).toBe(401);
    expect(bare.headers['www-authenticate']).toBe('Bearer');
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
  });

  it('counts hops, their time and why sessions ended while traffic runs, with bounded labels', async () => {
    const before = (await scrape(`Bearer ${TOKEN}`)).body;
    const continued = 'dialflow_hops_total{gateway="africastalking",environment="test",outcome="continued"}';
    const ended = 'dialflow_hops_total{gateway="africastalking",environment="test",outcome="ended"}';
    const completed = 'dialflow_sessions_ended_total{gateway="africastalking",cause="completed"}';
    const timed = 'dialflow_hop_duration_seconds_count{part="runtime"}';
    // Twenty sessions of three hops, all at once, scraped while they run.
    const sessions = Array.from({ length: 20 }, async (_, i) => {
      await at(`M-${i}`, '', i);
      await at(`M-${i}`, '1', i);
      await at(`M-${i}`, '1*5', i);
    });
    const during = scrape(`Bearer ${TOKEN}`);
    await Promise.all(sessions);
    expect((await during).statusCode).toBe(200);
    await t.app.runtime.flushEvents();
    const after = await scrape(`Bearer ${TOKEN}`);
    expect(after.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = after.body;
    expect((sample(text, continued) ?? 0) - (sample(before, continued) ?? 0)).toBe(40);
    expect((sample(text, ended) ?? 0) - (sample(before, ended) ?? 0)).toBe(20);
    expect((sample(text, completed) ?? 0) - (sample(before, completed) ?? 0)).toBe(20);
    expect((sample(text, timed) ?? 0) - (sample(before, timed) ?? 0)).toBe(60);
    expect(sample(text, 'dialflow_event_rows_written_total')).toBeGreaterThan(sample(before, 'dialflow_event_rows_written_total') ?? 0);
    expect(sample(text, 'dialflow_event_rows_buffered')).toBe(0);
    expect(sample(text, 'dialflow_queue_depth{queue="webhooks"}')).toBe(0);
    expect(sample(text, 'dialflow_queue_depth{queue="sms"}')).toBe(0);
    expect(sample(text, 'dialflow_round_trip_seconds{service="database"}')).toBeGreaterThanOrEqual(0);
    // The process's own: memory and the event loop's delay.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // No label names an app, a session or a number.
    expect(text).not.toContain(appId);
    expect(text).not.toContain('M-1');
    expect(text).not.toContain('23324110000');
  });
});

describeDb('metrics on a port of their own', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await findFreePort();
    t = await createTestApp({ METRICS_PORT: port });
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves /metrics there without a token, nothing else, and none on the main port', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('dialflow_hops_total');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
