/**
 * Liquid rendering cannot monopolise the hop thread (issue 10, finding 8): each template could take 250 ms,
 * and 40 concurrent hops on an attacker's own test URL stalled /api/health for 9 s. The server runs in its own
 * process so that, were it stalled, this test would time its requests out and fail rather than wait.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { startTestServer, type TestServer } from '../../../../tests/support/test-server';

/** About a billion loop iterations: it renders until a time limit stops it. */
const HEAVY = '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}x{% endfor %}{% endfor %}{% endfor %}';
/**
 * A start hop that enters 11 menus (the first and 10 deep-dial inputs, each taking an Always goto), each with
 * three heavy templates: 33 renders, which the old 250 ms limit let run 8 s back to back on one hop.
 */
const DEEP_DIAL = `*920*68${'*1'.repeat(10)}#`;

describeDb('heavy templates', () => {
  let server: TestServer;
  let attacker: { auth: Record<string, string> };
  let attackerAppId: string;
  let otherAppId: string;

  beforeAll(async () => {
    server = await startTestServer({ users: 2 });
    [attacker] = server.users as [{ auth: Record<string, string> }];
    const heavy = { headerText: HEAVY, displayText: HEAVY, footerText: HEAVY };
    attackerAppId = await server.createApp(attacker.auth, '*920*68#', {
      userDefinedName: 'm10',
      isFirst: false,
      terminate: true,
      ...heavy,
    });
    let next = (await server.api<{ data: Array<{ uniqueId: string }> }>(attacker.auth, 'GET', `/api/getAllMenusLite/${attackerAppId}`))
      .data[0]!.uniqueId;
    for (let i = 9; i >= 0; i--) {
      const always = [{ operator: 'always', compareVal: '', action: 'goto', actionParam: next }];
      next = await server.createMenu(attacker.auth, attackerAppId, {
        userDefinedName: `m${i}`,
        isFirst: i === 0,
        switchOperations: always,
        ...heavy,
      });
    }
    // Plain variables, rendered without Liquid: a Liquid render is timed on the wall clock, and this machine may
    // be busy enough to pause any process for longer than a render's budget (render.test.ts covers Liquid).
    otherAppId = await server.createApp(server.users[1]!.auth, '*920*69#', {
      displayText: 'Welcome to {{ app.shortCode }}\n1. Balance',
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Balance for {{ session.mobile }}: GHS 15' }],
    });
  });
  afterAll(() => server?.close());

  it("answers 40 concurrent heavy hops with the unavailable screen while /api/health and another account's hops answer", async () => {
    let isAttacking = true;
    const attacks = Promise.all(
      Array.from({ length: 40 }, (_, i) => server.hop(attackerAppId, `heavy-${i}`, '', 600_000, DEEP_DIAL)),
    ).finally(() => (isAttacking = false));
    attacks.catch(() => {}); // awaited below; until then a timeout is not an unhandled rejection
    // Until the attack is over: a generous bound (health and a light hop take milliseconds; one heavy hop held
    // the old thread 8 s) on /api/health and the other account's sessions.
    const replies: string[] = [];
    let i = 0;
    do {
      const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(3000) });
      expect(health.status).toBe(200);
      replies.push(await server.hop(otherAppId, `other-${i}`, '', 3000), await server.hop(otherAppId, `other-${i}`, '1', 3000));
      i += 1;
    } while (isAttacking);

    expect(replies).toEqual(
      // Each session dials from its own number (tests/support/test-server.ts).
      Array.from({ length: i }, () => [
        'CON Welcome to *920*69#\n1. Balance',
        expect.stringMatching(/^END Balance for \+233\d{9}: GHS 15$/),
      ]).flat(),
    );
    expect(await attacks).toEqual(Array.from({ length: 40 }, () => 'END Service temporarily unavailable. Please try again.'));

    const logs = await server.api<{ data: Array<{ message: string }> }>(attacker.auth, 'POST', '/actionlogs/searchLogs', {
      appId: attackerAppId,
      filterByLevel: true,
      level: 'error',
    });
    const messages = logs.data.map((l) => l.message);
    expect(messages).toHaveLength(40);
    // The first hops render until the hop's budget stops them; the rest find the account's share used up.
    expect(messages.every((m) => m.startsWith('Template rendering exceeded its time budget in headerText: '))).toBe(true);
    expect(messages.some((m) => m.endsWith("this account's share of render time is used up for now"))).toBe(true);
  });
});
