import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appLogs, sessionRecords } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

/** Two menus: a name asked with an input holder, then a greeting that ends the session. */
async function seedGreeter(t: TestApp, auth: Record<string, string>, shortCode: string, useTemplateTag = false) {
  const appId = await seedApp(t, auth, { customShortCode: shortCode, useTemplateTag });
  const done = await seedMenu(t, auth, appId, {
    userDefinedName: 'done',
    displayText: 'Hello {{ session.inputs.name }}{{ session.vars.branch }}',
    terminate: true,
  });
  await seedMenu(t, auth, appId, {
    userDefinedName: 'name',
    displayText: 'Your name?',
    inputHolder: 'e.g. Ama',
    isFirst: true,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
  });
  return appId;
}

describeDb('the emulator channel stands in for the network', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  let tagged: string;
  let turn = 0;
  beforeAll(async () => {
    appId = await seedGreeter(t, owner.auth, '*920*55#');
    tagged = await seedGreeter(t, owner.auth, '*920*{branch}#', true);
  });

  const emulate = async (app: string, sessionId: string, mode: 'start' | 'continue', userdata: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${app}`,
      headers: owner.auth,
      payload: { session_id: sessionId, userdata, msisdn: '233241234567', session_mode: mode, network_id: 'MTN', appId: app },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { text: string; session_mode: string; inputHolder?: string };
  };
  const newSessionId = () => `20261121120000-dial${++turn}`;

  it("answers a code that is not the app's with the network's UNKNOWN APPLICATION, and the app never runs; gateways are left alone", async () => {
    for (const dialled of ['*1#', '*920#', '*920*5#', '*920*555#', '*92055#']) {
      const sessionId = newSessionId();
      expect(await emulate(appId, sessionId, 'start', dialled)).toEqual({ text: 'UNKNOWN APPLICATION', session_mode: 'end' });
      // No session was stored: nothing waits for a reply.
      expect((await t.app.runtime.findActiveSessions(appId)).map((s) => s.sessionId)).not.toContain(sessionId);
    }
    await t.app.runtime.flushEvents();
    const logs = await t.db.select().from(appLogs).where(eq(appLogs.appId, appId)).orderBy(appLogs.id);
    // One line per refused dial saying why, and no engine event at all (no session_started, no menu_shown).
    expect(logs.map((row) => row.type)).toEqual(['dial_refused', 'dial_refused', 'dial_refused', 'dial_refused', 'dial_refused']);
    expect(logs[0]).toMatchObject({
      level: 'system',
      caller: `user:${owner.user.id}`,
      message: "*1# is not this app's code (*920*55#); the network answered UNKNOWN APPLICATION",
    });
    expect(await t.db.select().from(sessionRecords).where(eq(sessionRecords.appId, appId))).toEqual([]);

    // Gateway traffic is left alone: the network already chose the app for the code it sent.
    const res = await t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: new URLSearchParams({
        sessionId: 'AT-dial-1',
        serviceCode: '*384*1#',
        phoneNumber: '+233241112222',
        networkCode: '62001',
        text: '',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.body).toBe('CON Your name?');
  });

  it("runs the app's own code and its deep dials, with the menu's input holder for the reply box", async () => {
    const sessionId = newSessionId();
    expect(await emulate(appId, sessionId, 'start', '*920*55#')).toEqual({
      text: 'Your name?',
      session_mode: 'continue',
      inputHolder: 'e.g. Ama',
    });
    expect(await emulate(appId, sessionId, 'continue', 'Kofi')).toEqual({ text: 'Hello Kofi', session_mode: 'end' });
    expect(await emulate(appId, newSessionId(), 'start', '*920*55*Esi#')).toEqual({ text: 'Hello Esi', session_mode: 'end' });
  });

  it("reads a template-tag code's values, and refuses another code", async () => {
    const sessionId = newSessionId();
    expect(await emulate(tagged, sessionId, 'start', '*920*7#')).toMatchObject({ text: 'Your name?', session_mode: 'continue' });
    expect(await emulate(tagged, sessionId, 'continue', 'Ama')).toEqual({ text: 'Hello Ama7', session_mode: 'end' });
    expect(await emulate(tagged, newSessionId(), 'start', '*921*7#')).toEqual({ text: 'UNKNOWN APPLICATION', session_mode: 'end' });
  });
});
