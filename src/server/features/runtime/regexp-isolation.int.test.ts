/**
 * A builder's regular expression cannot freeze the hop thread (issue 10, finding 1): `^(\w|\d)*$` passed the
 * old unsafe-pattern check, and 31 characters against it stalled every tenant for 10 s. The server runs in its
 * own process so that, were it frozen, this test would time its requests out and fail rather than hang.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { startTestServer, type TestServer } from '../../../../tests/support/test-server';

const PATTERN = String.raw`^(\w|\d)*$`;
/** 512 characters, what the engine keeps of an input; the `!` at the end makes every way of matching fail. */
const HOSTILE_INPUT = `${'a1'.repeat(255)}a!`;

describeDb('a hostile regular expression', () => {
  let server: TestServer;
  let attackerAppId: string;
  let otherAppId: string;

  beforeAll(async () => {
    server = await startTestServer({ users: 2 });
    const [attacker, other] = server.users as [{ auth: Record<string, string> }, { auth: Record<string, string> }];
    // The pattern in a validation and in a navigation rule: both run on the 512-character input.
    attackerAppId = await server.createApp(attacker.auth, '*920*66#', {
      userDefinedName: 'code',
      displayText: 'Enter a code',
      inputValidations: [{ validationMethod: 'notRegexp', compareValue: PATTERN, errorMessage: 'The code needs a symbol' }],
      switchOperations: [
        { operator: 'regexp', compareVal: PATTERN, action: 'Terminate', actionParam: 'Plain code' },
        { operator: 'contains', compareVal: '!', action: 'Terminate', actionParam: 'Code with a symbol received' },
      ],
    });
    otherAppId = await server.createApp(other.auth, '*920*67#', {
      displayText: 'Welcome\n1. Balance',
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Your balance is GHS 10' }],
    });
  });
  afterAll(() => server?.close());

  it("answers a 512-character input with the menu's own screen, and another app's hops keep answering meanwhile", async () => {
    const attacks = Array.from({ length: 5 }, (_, i) => `attack-${i}`);
    for (const id of attacks) expect(await server.hop(attackerAppId, id, '', 5000)).toBe('CON Enter a code');

    // Sent before the other app's hops, so on a frozen thread those wait behind them.
    const attacked = Promise.all(attacks.map((id) => server.hop(attackerAppId, id, HOSTILE_INPUT, 5000)));
    attacked.catch(() => {}); // awaited below; until then a timeout is not an unhandled rejection
    const replies: string[] = [];
    for (let i = 0; i < 20; i++) {
      // Generous bounds: a hop takes well under a millisecond of thread; the old engine froze for good.
      replies.push(await server.hop(otherAppId, `other-${i}`, '', 2000), await server.hop(otherAppId, `other-${i}`, '1', 2000));
    }
    const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2000) });

    expect(await attacked).toEqual(attacks.map(() => 'END Code with a symbol received'));
    expect(replies).toEqual(Array.from({ length: 20 }, () => ['CON Welcome\n1. Balance', 'END Your balance is GHS 10']).flat());
    expect(health.status).toBe(200);
  });
});
