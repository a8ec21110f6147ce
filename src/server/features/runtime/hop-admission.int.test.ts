import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedShop } from '../../../../tests/support/seed-app';

const TOKEN = 'metrics-token-0123456789';

/** Hop admission (hop-admission.ts) through the gateway URL: one hop a turn of the event loop before accounts take turns. */
describeDb('hop admission on the gateway URLs', () => {
  const t = useTestApp({ HOP_ADMISSION_SLOTS: 1, METRICS_TOKEN: TOKEN });
  const flooder = useUser(t);
  const quiet = useUser(t);
  let floodAppId: string;
  let quietAppId: string;
  beforeAll(async () => {
    floodAppId = await seedShop(t, flooder.auth, { customShortCode: '*920*81#' });
    quietAppId = await seedShop(t, quiet.auth, { customShortCode: '*920*82#' });
    // Live URLs: a deployed version is read from the cache, so nothing before the gate waits on the database and
    // the requests sent together reach it in one turn of the event loop.
    for (const [appId, auth] of [
      [floodAppId, flooder.auth],
      [quietAppId, quiet.auth],
    ] as const)
      expect((await t.app.inject({ method: 'GET', url: `/api/deployChanges/${appId}`, headers: auth })).statusCode).toBe(200);
  });

  const start = (appId: string, serviceCode: string, sessionId: string, n: number) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/live`,
      payload: new URLSearchParams({
        sessionId,
        serviceCode,
        phoneNumber: `+23324111${String(n).padStart(4, '0')}`,
        networkCode: '62001',
        text: '',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const admissions = async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const count = (outcome: string) =>
      Number(new RegExp(`dialflow_hop_admissions_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    return { queued: count('queued'), expired: count('expired'), refused: count('refused') };
  };

  it("answers another account's hop ahead of a flood's queued hops, and every hop of both", async () => {
    const before = await admissions();
    const answered: string[] = [];
    const send = (name: string, appId: string, code: string, n: number) =>
      start(appId, code, `adm-${name}`, n).then((res) => {
        answered.push(name);
        return res;
      });
    // A hop of each first: both versions are loaded, and the flood is not alone on the thread (an account alone is
    // never held).
    expect((await send('warm', floodAppId, '*920*81#', 97)).body).toContain('Welcome to the shop');
    expect((await send('warm', quietAppId, '*920*82#', 98)).body).toContain('Welcome to the shop');
    answered.length = 0;
    // All sent in one turn of the event loop: the flood's first hop takes the turn's one slot.
    const flood = [0, 1, 2, 3, 4].map((i) => send(`f${i}`, floodAppId, '*920*81#', i));
    const other = send('q0', quietAppId, '*920*82#', 99);
    const replies = await Promise.all([...flood, other]);
    for (const reply of replies) expect(reply.body).toBe('CON Welcome to the shop\n1. Airtime\n2. Data');
    // The quiet account had started no hop in that turn: under its share, it ran at once; the flood's others each
    // waited for a turn of their own.
    expect(answered.slice(0, 2).sort()).toEqual(['f0', 'q0']);
    expect(answered.slice(2)).toEqual(['f1', 'f2', 'f3', 'f4']);
    const after = await admissions();
    expect(after.queued - before.queued).toBe(4);
    expect(after.expired - before.expired).toBe(0);
    expect(t.app.runtime.getAdmissionStats()).toEqual({ queued: 0, accounts: 0 });
  });
});
