import { beforeAll, expect, it } from 'vitest';
import { APP_MESSAGES } from '../../../shared/api/apps.schema';
import { MENU_MESSAGES } from '../../../shared/app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { MAX_SUBFLOWS_PER_ACCOUNT, SUBFLOW_API_MESSAGES } from '../../../shared/api/subflows.schema';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

/** Sub-flows (docs/sub-flows.md): shared menus an app's rule enters and returns from, frozen at the app's deploy. */
describeDb('sub-flows', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  let subflowId: string;
  let pinMenu: string;
  let shopId: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = owner.auth) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const dial = (appId: string, sessionId: string, text: string, env = 'test') =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/${env}`,
      payload: new URLSearchParams({
        sessionId,
        serviceCode: '*920*71#',
        phoneNumber: '+233241110071',
        networkCode: '62001',
        text,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const pinCheck = {
    name: 'PIN check',
    inputs: [{ name: 'amount', description: 'What the caller is about to pay' }],
    outputs: [{ name: 'pinOk', value: "{% if session.inputs.pin == '1234' %}yes{% else %}no{% endif %}" }],
  };

  beforeAll(async () => {
    const created = (await call('POST', '/api/subflows', pinCheck)).json();
    expect(created).toMatchObject({ status: '00', data: { name: 'PIN check', menus: 0, latestVersion: null, usedBy: [] } });
    subflowId = created.data.id;
    const taken = await seedMenu(t, owner.auth, subflowId, {
      userDefinedName: 'pinTaken',
      displayText: 'PIN taken\n1. Continue',
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Return' }],
    });
    pinMenu = await seedMenu(t, owner.auth, subflowId, {
      userDefinedName: 'pin',
      displayText: 'Confirm GHS {{ session.vars.amount }}\nEnter your PIN',
      isFirst: true,
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: taken }],
    });
    shopId = await seedApp(t, owner.auth, { appName: 'Sub-flow shop', customShortCode: '*920*71#' });
    const paid = await seedMenu(t, owner.auth, shopId, {
      userDefinedName: 'paid',
      displayText: 'Paid GHS {{ session.vars.amount }} (PIN ok: {{ session.vars.pinOk }})',
      terminate: true,
    });
    await seedMenu(t, owner.auth, shopId, {
      userDefinedName: 'home',
      displayText: 'Welcome\n1. Pay',
      isFirst: true,
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: paid, subflow: { id: subflowId, inputs: { amount: '50' } } },
      ],
    });
  });

  it('runs the draft through the sub-flow and back, and freezes the sub-flow at the deploy', async () => {
    expect((await dial(shopId, 's1', '')).body).toBe('CON Welcome\n1. Pay');
    expect((await dial(shopId, 's1', '1')).body).toBe('CON Confirm GHS 50\nEnter your PIN');
    expect((await dial(shopId, 's1', '1*1234')).body).toBe('CON PIN taken\n1. Continue');
    expect((await dial(shopId, 's1', '1*1234*1')).body).toBe('END Paid GHS 50 (PIN ok: yes)');

    expect((await call('GET', `/api/deployChanges/${shopId}`)).json().status).toBe('00');
    const listed = (await call('GET', '/api/subflows')).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: subflowId,
      menus: 2,
      latestVersion: 1,
      usedBy: [{ appId: shopId, appName: 'Sub-flow shop', inDraft: true, liveVersion: 1, subflowVersion: 1 }],
    });
    // A sub-flow is not an app: not in the apps list, never served by a gateway URL.
    const appIds = (await call('GET', '/api/getAllApps')).json().data.map((a: { appId: string }) => a.appId);
    expect(appIds).toContain(shopId);
    expect(appIds).not.toContain(subflowId);
    expect((await dial(subflowId, 's0', '')).body).not.toContain('Confirm');

    // The sub-flow changes: the app's draft sees it at once, its live version keeps the frozen one until a deploy.
    const menus = (await call('GET', `/api/getAllMenus/${subflowId}`)).json();
    const pin = (menus.data ?? menus).find((m: { uniqueId: string }) => m.uniqueId === pinMenu);
    expect(
      (await call('POST', '/api/updateMenu', { ...pin, displayText: 'Pay GHS {{ session.vars.amount }}?\nEnter your PIN' })).json().status,
    ).toBe('00');
    await dial(shopId, 's2', '');
    expect((await dial(shopId, 's2', '1')).body).toBe('CON Pay GHS 50?\nEnter your PIN');
    expect((await dial(shopId, 's3', '', 'live')).body).toBe('CON Welcome\n1. Pay');
    expect((await dial(shopId, 's3', '1', 'live')).body).toBe('CON Confirm GHS 50\nEnter your PIN');
    expect((await call('GET', `/api/deployChanges/${shopId}`)).json().status).toBe('00');
    await dial(shopId, 's4', '', 'live');
    expect((await dial(shopId, 's4', '1', 'live')).body).toBe('CON Pay GHS 50?\nEnter your PIN');
    const after = (await call('GET', `/api/subflows/${subflowId}`)).json().data;
    expect(after).toMatchObject({ latestVersion: 2, usedBy: [{ appId: shopId, liveVersion: 2, subflowVersion: 2 }] });
    // Nothing new since: the deploy says so, and the sub-flow gets no version of its own either.
    expect((await call('GET', `/api/deployChanges/${shopId}`)).json().status).not.toBe('00');
    expect((await call('GET', `/api/subflows/${subflowId}`)).json().data.latestVersion).toBe(2);
  });

  it("carries its sub-flows in an export; an import makes them the importing account's, and runs through them", async () => {
    const file = (await call('GET', `/api/exportApp/${shopId}`)).json().data;
    expect(file.subflows).toHaveLength(1);
    expect(file.subflows[0]).toMatchObject({
      id: subflowId,
      name: 'PIN check',
      inputs: [{ name: 'amount' }],
      outputs: [{ name: 'pinOk' }],
    });
    // Its first menu first, as an import reads it.
    expect(file.subflows[0].menus.map((m: { userDefinedName: string }) => m.userDefinedName)).toEqual(['pin', 'pinTaken']);
    const imported = (
      await call('POST', '/api/importApp', { document: file, appName: 'Borrowed shop', shortCode: '*920*74#' }, stranger.auth)
    ).json();
    expect(imported.status, JSON.stringify(imported)).toBe('00');
    const theirs = (await call('GET', '/api/subflows', undefined, stranger.auth)).json().data;
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ name: 'PIN check', menus: 2, usedBy: [{ appId: imported.data.appId, inDraft: true }] });
    expect(theirs[0].id).not.toBe(subflowId);
    const copy = imported.data.appId;
    await dial(copy, 'i1', '');
    expect((await dial(copy, 'i1', '1')).body).toContain('GHS 50');
    await dial(copy, 'i1', '1*4321');
    expect((await dial(copy, 'i1', '1*4321*1')).body).toBe('END Paid GHS 50 (PIN ok: no)');
    // The owner's sub-flow is untouched and still used by the owner's app alone.
    expect((await call('GET', `/api/subflows/${subflowId}`)).json().data.usedBy.map((u: { appId: string }) => u.appId)).toEqual([shopId]);
  });

  it('refuses to delete a sub-flow an app uses, naming the app', async () => {
    const refused = (await call('DELETE', `/api/subflows/${subflowId}`)).json();
    expect(refused.status).not.toBe('00');
    expect(refused.message).toContain('Sub-flow shop');
    // Nor through the apps' calls: delete, change or export it as an app is refused with where to go.
    const asApp = (await call('GET', `/deleteApp/${subflowId}`)).json();
    expect(asApp.message).toBe(APP_MESSAGES.isSubflow);
    expect((await call('GET', `/api/exportApp/${subflowId}`)).json().message).toBe(APP_MESSAGES.isSubflow);
    expect((await call('GET', `/api/subflows/${subflowId}`)).json().data.name).toBe('PIN check');
  });

  it('keeps it from other accounts: 404 to read, change or delete; an app naming it cannot deploy', async () => {
    for (const [method, payload] of [['GET'], ['PUT', pinCheck], ['DELETE']] as const) {
      const res = await call(method, `/api/subflows/${subflowId}`, payload, stranger.auth);
      expect(res.statusCode, method).toBe(404);
    }
    const theirs = await seedApp(t, stranger.auth, { appName: 'Borrower', customShortCode: '*920*72#' });
    const end = await seedMenu(t, stranger.auth, theirs, { userDefinedName: 'end', displayText: 'Bye', terminate: true });
    await seedMenu(t, stranger.auth, theirs, {
      userDefinedName: 'home',
      displayText: '1. Borrow a PIN check',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'goto', actionParam: end, subflow: { id: subflowId } }],
    });
    const deploy = (await call('GET', `/api/deployChanges/${theirs}`, undefined, stranger.auth)).json();
    expect(deploy.status).not.toBe('00');
    expect(deploy.message).toContain(MENU_MESSAGES.subflowNotFound);
  });

  it('keeps an account to 100 sub-flows: the next is refused with the reason, nothing made', async () => {
    const hoarder = (await seedUser(t)).auth;
    const made = await Promise.all(
      Array.from({ length: MAX_SUBFLOWS_PER_ACCOUNT + 2 }, (_, i) => call('POST', '/api/subflows', { name: `Piece ${i}` }, hoarder)),
    );
    const refused = made.filter((r) => r.json().status !== '00');
    expect(refused).toHaveLength(2);
    expect(refused[0]!.json().message).toBe(SUBFLOW_API_MESSAGES.tooMany);
    expect((await call('GET', '/api/subflows', undefined, hoarder)).json().data).toHaveLength(MAX_SUBFLOWS_PER_ACCOUNT);
  });

  it('refuses bad declarations with their messages, and Return in an app', async () => {
    const duplicate = (
      await call('POST', '/api/subflows', { name: 'Twice', inputs: [{ name: 'a' }], outputs: [{ name: 'a', value: '1' }] })
    ).json();
    expect(duplicate.status).not.toBe('00');
    expect(JSON.stringify(duplicate)).toContain('Two inputs or outputs of a sub-flow cannot have the same name');
    const noValue = (await call('POST', '/api/subflows', { name: 'Empty', outputs: [{ name: 'b', value: ' ' }] })).json();
    expect(JSON.stringify(noValue)).toContain('An output needs a value');
    const lone = await seedApp(t, owner.auth, { appName: 'Returner', customShortCode: '*920*73#' });
    await seedMenu(t, owner.auth, lone, {
      userDefinedName: 'home',
      displayText: '1. Back',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Return' }],
    });
    const deploy = (await call('GET', `/api/deployChanges/${lone}`)).json();
    expect(deploy.message).toContain(MENU_MESSAGES.returnOutsideSubflow);
    expect((await call('GET', '/api/subflows')).json().data.map((s: { name: string }) => s.name)).toEqual(['PIN check']);
  });
});
