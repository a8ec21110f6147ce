import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { sessionRecords } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu, seedShop, updateAppSettings } from '../../../../tests/support/seed-app';

/** Why sessions end (docs/runtime.md, "Why a session ended"), as the records show it, through the gateways' own wires. */
describeDb('session end causes', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  beforeAll(async () => {
    appId = await seedShop(t, owner.auth);
  });

  const form = (fields: Record<string, string>) => ({
    method: 'POST' as const,
    url: `/ussd/${appId}/test`,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const at = (sessionId: string, text: string) =>
    t.app.inject(form({ sessionId, serviceCode: '*920*55#', phoneNumber: '+233241112222', networkCode: '62001', text }));
  /** Africa's Talking's end-of-session notice. */
  const atNotice = (sessionId: string, fields: Record<string, string>) =>
    t.app.inject(
      form({
        sessionId,
        serviceCode: '*920*55#',
        phoneNumber: '+233241112222',
        networkCode: '62001',
        date: '2026-11-30 09:00:00',
        hopsCount: '3',
        input: '',
        lastAppResponse: '',
        errorMessage: '',
        cost: '',
        durationInMillis: '',
        ...fields,
      }),
    );
  const hubtel = (SessionId: string, Type: string, Message: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { SessionId, Type, Message, ServiceCode: '920', Operator: 'mtn', ClientState: '', Mobile: '233200000001', Platform: 'USSD' },
    });
  const recordsOf = async (sessionId: string, id = appId) => {
    await t.app.runtime.flushEvents();
    return t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, id), eq(sessionRecords.sessionId, sessionId)));
  };

  it("records a completed session with each hop's time, then adds what Africa's Talking's notice says, once", async () => {
    await at('END-1', '');
    await at('END-1', '1');
    expect((await at('END-1', '1*20')).body).toBe('END You chose Airtime for GHS 20');
    const [completed] = await recordsOf('END-1');
    expect(completed).toMatchObject({ status: 'completed', endCause: 'completed', gatewayCost: null, gatewayDurationMs: null });
    expect(completed!.hopMs).toHaveLength(3);
    expect(completed!.actionMs).toEqual([0, 0, 0]);
    for (const ms of completed!.hopMs!) expect(ms).toBeGreaterThanOrEqual(0);

    const notice = await atNotice('END-1', { status: 'Success', cost: 'GHS 0.0200', durationInMillis: '21500' });
    expect(notice.statusCode).toBe(200);
    expect(notice.body).toBe('');
    // Sent again (a gateway retry): the same values, still one record.
    await atNotice('END-1', { status: 'Success', cost: 'GHS 0.0200', durationInMillis: '21500' });
    const records = await recordsOf('END-1');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'completed', endCause: 'completed', gatewayCost: 'GHS 0.0200', gatewayDurationMs: 21500 });
  });

  it("records Africa's Talking's Incomplete as timed out, and a Failed after the closing screen as a network error", async () => {
    await at('END-2', '');
    await at('END-2', '2');
    await atNotice('END-2', { status: 'Incomplete', durationInMillis: '60000', cost: 'GHS 0.0100' });
    const [timedOut] = await recordsOf('END-2');
    expect(timedOut).toMatchObject({ status: 'abandoned', endCause: 'timed_out', lastMenu: expect.any(String), gatewayDurationMs: 60000 });
    expect(timedOut!.hopMs).toHaveLength(2);

    await at('END-3', '');
    await at('END-3', '2');
    await at('END-3', '2*5');
    await atNotice('END-3', { status: 'Failed', errorMessage: 'Request timed out' });
    const [failed] = await recordsOf('END-3');
    expect(failed).toMatchObject({ status: 'completed', endCause: 'network_error', gatewayWords: 'Request timed out' });
  });

  it('answers a notice for a session it never saw with an empty 200 and records nothing', async () => {
    const notice = await atNotice('NEVER-SEEN', { status: 'Failed', errorMessage: 'No such session' });
    expect(notice.statusCode).toBe(200);
    expect(await recordsOf('NEVER-SEEN')).toEqual([]);
  });

  it("records Hubtel's Release as cancelled by the user and its Timeout as timed out", async () => {
    await hubtel('HB-R', 'Initiation', '*920*55#');
    await hubtel('HB-R', 'Release', '');
    await hubtel('HB-T', 'Initiation', '*920*55#');
    await hubtel('HB-T', 'Response', '1');
    await hubtel('HB-T', 'Timeout', '');
    // A Release repeated for a session already closed changes nothing.
    await hubtel('HB-R', 'Release', '');
    expect(await recordsOf('HB-R')).toEqual([expect.objectContaining({ status: 'abandoned', endCause: 'user_cancelled' })]);
    expect(await recordsOf('HB-T')).toEqual([expect.objectContaining({ status: 'abandoned', endCause: 'timed_out' })]);
  });

  it("records the emulator's Cancel as the user's, a Terminate rule as terminated and an authoring fault as an app error", async () => {
    const ruled = await seedApp(t, owner.auth, { customShortCode: '*920*71#' });
    const bye = await seedMenu(t, owner.auth, ruled, { userDefinedName: 'bye', displayText: 'Bye', terminate: true });
    const gone = await seedMenu(t, owner.auth, ruled, { userDefinedName: 'gone', displayText: 'Gone', terminate: true });
    await seedMenu(t, owner.auth, ruled, {
      userDefinedName: 'home',
      displayText: 'Home\n1. Stay\n0. Exit\n9. Broken',
      isFirst: true,
      switchOperations: [
        { operator: 'eq', compareVal: '0', action: 'Terminate', actionParam: 'Goodbye' },
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: bye },
        { operator: 'eq', compareVal: '9', action: 'goto', actionParam: gone },
      ],
    });
    // The draft loses the rule's target: choosing 9 is an authoring fault.
    expect((await t.app.inject({ method: 'GET', url: `/api/deleteMenu/${gone}`, headers: owner.auth })).json().status).toBe('00');
    const emulate = (session_id: string, session_mode: string, userdata: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${ruled}`,
        headers: owner.auth,
        payload: { session_id, session_mode, userdata, msisdn: '233200000009', network_id: '62001', appId: ruled },
      });
    await emulate('EM-C', 'start', '*920*71#');
    await emulate('EM-C', 'end', '');
    await emulate('EM-T', 'start', '*920*71#');
    expect((await emulate('EM-T', 'continue', '0')).json()).toMatchObject({ session_mode: 'end', text: 'Goodbye' });
    await emulate('EM-F', 'start', '*920*71#');
    expect((await emulate('EM-F', 'continue', '9')).json()).toMatchObject({ session_mode: 'end' });
    await emulate('EM-D', 'start', '*920*71#');
    expect((await emulate('EM-D', 'continue', '1')).json()).toMatchObject({ session_mode: 'end', text: 'Bye' });
    const causeOf = async (id: string) => (await recordsOf(id, ruled)).map((r) => r.endCause);
    expect(await causeOf('EM-C')).toEqual(['user_cancelled']);
    expect(await causeOf('EM-T')).toEqual(['terminated']);
    expect(await causeOf('EM-F')).toEqual(['app_error']);
    expect(await causeOf('EM-D')).toEqual(['completed']);
  });
});

describe('screens under the gateway a session came through', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  const options = Array.from({ length: 9 }, (_, i) => `${i + 1}. Option number ${i + 1}`).join('\n');
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth, { customShortCode: '*920*72#' });
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: `Pick one\n${options}`, isFirst: true, terminate: false });
  });

  it("pages at Nalo's 120 characters and at the app's 160 through Africa's Talking", async () => {
    const viaAt = await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: new URLSearchParams({ sessionId: 'W-AT', serviceCode: '*920*72#', phoneNumber: '+233241112222', text: '' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const viaNalo = await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { USERID: 'NALOTest', MSISDN: '233200000000', USERDATA: '*920*72#', MSGTYPE: true, NETWORK: 'MTN', SESSIONID: 'W-NA' },
    });
    const atScreen = viaAt.body.replace(/^CON /, '');
    const naloScreen = viaNalo.json().MSG as string;
    expect(atScreen.length).toBeGreaterThan(120);
    expect(atScreen.length).toBeLessThanOrEqual(160);
    expect(naloScreen.length).toBeLessThanOrEqual(120);
    expect(naloScreen.endsWith('98. More')).toBe(true);
  });
});

describeDb("a hop under its gateway's response budget", () => {
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true });
  const owner = useUser(t);
  let server: Server;
  let appId: string;
  beforeAll(async () => {
    // An API that answers after 2.5 s: past a 2 s gateway's budget, within the platform's own 3 s for an action.
    server = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":"10"}'), 2500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/balance`;
    appId = await seedApp(t, owner.auth, { customShortCode: '*920*73#' });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'balance',
      displayText: 'Balance {{ actions.lookup.body.balance }}',
      isFirst: true,
      terminate: true,
      actions: [
        {
          actionName: 'lookup',
          actionType: 'pre',
          inheritsPlugin: 'restapi',
          code: { method: 'GET', url, contentType: 'application/json' },
        },
      ],
    });
    // Arkesel's contract for this app says it waits 2 s: hops get 1 s.
    const saved = await updateAppSettings(t, owner.auth, appId, { gatewayConnections: [{ gateway: 'arkesel', budgetMs: 2000 }] });
    expect(saved.json().status).toBe('00');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('cuts the action at the shortened hop budget and records the session as over budget', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionID: 'ARK-1', userID: 'u', msisdn: '+233241234567', newSession: true, userData: '*920*73#', network: 'MTN' },
    });
    expect(res.json()).toMatchObject({ continueSession: false, message: 'Service temporarily unavailable. Please try again.' });
    await t.app.runtime.flushEvents();
    const [record] = await t.db
      .select()
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.sessionId, 'ARK-1')));
    expect(record).toMatchObject({ endCause: 'budget_exceeded', gateway: 'arkesel' });
    // The action was cut at the hop's 1 s, not its own 3 s: its time on the record says so.
    expect(record!.actionMs![0]).toBeGreaterThanOrEqual(900);
    expect(record!.actionMs![0]).toBeLessThan(2500);
  });
});
