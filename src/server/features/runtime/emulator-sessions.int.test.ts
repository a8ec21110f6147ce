import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedFeaturedTemplates } from '../templates/templates.service';

type Auth = Record<string, string>;
const FIRST_SCREEN = 'Airtime Top-Up\n1. My number\n2. Another number';
const VICTIM_NUMBER = '0244123456';

/**
 * Featured templates are open to every account and to visitors without one: an emulator session must belong to
 * whoever started it, so a session id alone (guessed, or seen over a shoulder) reaches nothing of theirs.
 */
describeDb('emulator sessions of featured templates are scoped to their caller', () => {
  const t = useTestApp();
  const operator = useUser(t);
  const alice = useUser(t);
  const bob = useUser(t);
  let airtime: string;
  beforeAll(async () => {
    [airtime] = (await seedFeaturedTemplates(t.db, operator.user.id, 'http://127.0.0.1')) as [string];
  });

  const emulate = (sessionId: string, mode: 'start' | 'continue', userdata: string, headers: Auth = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${airtime}`,
      headers,
      payload: { session_id: sessionId, userdata, msisdn: '233241234567', session_mode: mode, network_id: 'MTN', appId: airtime },
    });
  const textOf = async (reply: ReturnType<typeof emulate>) => (await reply).json().text as string;
  const read = async (url: string, payload: object, auth: Auth) => {
    await t.app.runtime.flushEvents();
    const res = await t.app.inject({ method: 'POST', url, headers: auth, payload });
    expect(res.json().status, url).toBe('00');
    return JSON.stringify(res.json().data);
  };

  /** Alice dials the template and types the number to top up; her next screen asks for the amount. */
  async function startAliceSession(sessionId: string) {
    expect(await textOf(emulate(sessionId, 'start', '*920*11#', alice.auth))).toBe(FIRST_SCREEN);
    expect(await textOf(emulate(sessionId, 'continue', '2', alice.auth))).toBe('Enter the phone number to top up');
    expect(await textOf(emulate(sessionId, 'continue', VICTIM_NUMBER, alice.auth))).toBe('Enter amount (GHS 1 - 500)');
  }

  it("another account, a visitor and a gateway URL cannot continue Alice's session with its exact id", async () => {
    const sessionId = '20261122101500';
    await startAliceSession(sessionId);

    // Each gets a session of its own, at the template's first screen: not Alice's confirmation for her number.
    expect(await textOf(emulate(sessionId, 'continue', '500', bob.auth))).toBe(FIRST_SCREEN);
    expect(await textOf(emulate(sessionId, 'continue', '500'))).toBe(FIRST_SCREEN);
    const viaGateway = await t.app.inject({
      method: 'POST',
      url: `/ussd/${airtime}/test?gateway=emulator`,
      payload: { session_id: sessionId, userdata: '500', msisdn: '233241234567', session_mode: 'continue', network_id: 'MTN' },
    });
    expect(viaGateway.json().text).toBe(FIRST_SCREEN);

    // Alice's session is where she left it.
    expect(await textOf(emulate(sessionId, 'continue', '500', alice.auth))).toBe(
      `Top up ${VICTIM_NUMBER} with GHS 500?\n1. Confirm\n2. Cancel`,
    );
  });

  it("another account reads none of Alice's logs, inputs or action results by her session id; Alice reads hers", async () => {
    const sessionId = '20261122101501';
    await startAliceSession(sessionId);
    expect(await textOf(emulate(sessionId, 'continue', '5', alice.auth))).toMatch(/^Top up/);
    expect(await textOf(emulate(sessionId, 'continue', '1', alice.auth))).toMatch(/^Approve the GHS 5 prompt on your phone\. Ref DF-/);
    // Bob runs the same session id himself: his own rows are his to read, and only those.
    await emulate(sessionId, 'start', '*920*11#', bob.auth);

    const body = { appId: airtime, sessionId };
    const logs = { ...body, timeStamp: 0 };
    expect(await read('/debug/userInputs', body, alice.auth)).toContain(VICTIM_NUMBER);
    expect(await read('/debug/actionResults', body, alice.auth)).toContain('"reference":"DF-');
    expect(await read('/streamLogs', logs, alice.auth)).toContain(VICTIM_NUMBER);

    expect(await read('/debug/userInputs', body, bob.auth)).toBe('[]');
    expect(await read('/debug/actionResults', body, bob.auth)).toBe('[]');
    const bobLogs = await read('/streamLogs', logs, bob.auth);
    expect(bobLogs).toContain('Session started');
    expect(bobLogs).not.toContain(VICTIM_NUMBER);
    expect(bobLogs).not.toContain('DF-');
  });

  it("binds a visitor's session to the browser id the server issued; the same session id without it reaches nothing", async () => {
    const sessionId = '20261122101502';
    const first = await emulate(sessionId, 'start', '*920*11#');
    expect(first.json().text).toBe(FIRST_SCREEN);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/^df_emulator=[A-Za-z0-9_-]{22}; Path=\/ussd-emulator; HttpOnly; SameSite=Strict$/);
    const browser = { cookie: cookie.split(';')[0]! };
    expect(await textOf(emulate(sessionId, 'continue', '2', browser))).toBe('Enter the phone number to top up');

    // Another browser, a made-up browser id, and a signed-in account each start afresh.
    expect(await textOf(emulate(sessionId, 'continue', VICTIM_NUMBER))).toBe(FIRST_SCREEN);
    expect(await textOf(emulate(sessionId, 'continue', VICTIM_NUMBER, { cookie: 'df_emulator=AAAAAAAAAAAAAAAAAAAAAA' }))).toBe(
      FIRST_SCREEN,
    );
    expect(await textOf(emulate(sessionId, 'continue', VICTIM_NUMBER, bob.auth))).toBe(FIRST_SCREEN);
    // The visitor's own session went on undisturbed.
    expect(await textOf(emulate(sessionId, 'continue', VICTIM_NUMBER, browser))).toBe('Enter amount (GHS 1 - 500)');
    // A browser that has its id is not given another.
    expect((await emulate(sessionId, 'continue', '5', browser)).headers['set-cookie']).toBeUndefined();
  });
});
