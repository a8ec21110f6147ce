import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

describeDb('custom functions', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);

  const { get, post } = createApiClient(t, owner);

  it('creates, lists, renames, saves code and deletes, for its owner only', async () => {
    expect((await post('/api/custom-action/create', { actionName: '', description: '' })).json()).toMatchObject({
      status: '02',
      message: 'Action name is required.',
    });
    const created = await post('/api/custom-action/create', { actionName: 'fee', description: 'Computes a fee', code: 'return 1;' });
    const uuid = created.json().uuid as string;
    expect(created.json().status).toBe('00');
    expect((await get('/api/custom-actions')).json().data).toEqual([
      expect.objectContaining({ uuid, actionName: 'fee', description: 'Computes a fee' }),
    ]);
    expect((await get('/api/custom-actions', stranger.auth)).json().data).toEqual([]);

    expect((await post('/api/custom-action/update-code', { uuid, code: 'return 2;' })).json().status).toBe('00');
    expect((await post('/api/custom-action/update-name', { uuid, actionName: 'fee2', description: 'New' })).json().status).toBe('00');
    expect((await get(`/api/custom-action/${uuid}`)).json().data).toMatchObject({
      uuid,
      actionName: 'fee2',
      description: 'New',
      code: 'return 2;',
    });

    for (const res of [
      await get(`/api/custom-action/${uuid}`, stranger.auth),
      await post('/api/custom-action/update-code', { uuid, code: 'hacked' }, stranger.auth),
      await get(`/api/custom-action/delete/${uuid}`, stranger.auth),
      await get('/api/custom-action/not-a-uuid'),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await get(`/api/custom-action/delete/${uuid}`)).json().status).toBe('00');
    expect((await get(`/api/custom-action/${uuid}`)).statusCode).toBe(404);
  });

  it('offers example templates and the default SDK code', async () => {
    const templates = (await get('/api/template/custom-actions')).json().data;
    expect(templates.length).toBeGreaterThanOrEqual(3);
    expect(templates[0]).toEqual({ uuid: expect.any(String), actionName: expect.any(String), code: expect.any(String) });
    const docs = (await get('/api/docs/javascript')).json();
    expect(docs.status).toBe('00');
    expect(docs.data).toMatch(/session/);
  });

  it('tests a function with session values and action results, returning output and console messages', async () => {
    // The JavaScript workers started first: a cold start on a loaded machine can take the run's whole budget.
    await t.app.startScripts();
    const res = await post('/api/custom-action/test', {
      code: "log.info('mobile ' + session.mobile); return { total: Number(session.inputs.amount) + actions.lookup.body.fee };",
      sessionValues: { mobile: '233241234567', inputs: { amount: '20' } },
      actionResults: { lookup: { status: 200, ok: true, body: { fee: 1.5 } } },
    });
    expect(res.json()).toMatchObject({
      status: '00',
      message: 'Function ran',
      data: { output: { total: 21.5 }, consoleMessages: [{ message: 'mobile 233241234567', type: 'info' }], error: null },
    });
    // A SyntaxError is a failed run: the message says so and `error` carries it (the console's last line too).
    const broken = (await post('/api/custom-action/test', { code: 'return (;', sessionValues: {}, actionResults: {} })).json();
    expect(broken).toMatchObject({
      status: '00',
      message: 'Function failed',
      data: { output: null, error: expect.stringMatching(/SyntaxError/) },
    });
    expect(broken.data.consoleMessages.at(-1)).toEqual({ type: 'error', message: broken.data.error });
    // A function that logs an error and returns is not a failure.
    const logged = (
      await post('/api/custom-action/test', { code: "log.error('careful'); return 1;", sessionValues: {}, actionResults: {} })
    ).json();
    expect(logged).toMatchObject({ message: 'Function ran', data: { output: 1, error: null } });
  });

  it('runs a saved function from a menu through the customAction kind', async () => {
    const uuid = (
      await post('/api/custom-action/create', {
        actionName: 'greet',
        description: '',
        code: "return { vars: { greeting: 'Akwaaba ' + session.inputs.name } };",
      })
    ).json().uuid;
    const appId = await seedApp(t, owner.auth);
    const done = await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'done',
      displayText: '{{ session.vars.greeting }}',
      terminate: true,
      actions: [
        { actionName: 'greet', actionType: 'pre', inheritsPlugin: 'customAction', code: { uuid, actionName: 'greet', description: '' } },
      ],
    });
    await seedMenu(t, owner.auth, appId, {
      userDefinedName: 'name',
      displayText: 'Your name?',
      isFirst: true,
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
    });
    const hop = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: { sessionId: 'ca-1', serviceCode: '*920*55#', phoneNumber: '233241234567', networkCode: '62001', text },
      });
    await hop('');
    expect((await hop('Esi')).body).toBe('END Akwaaba Esi');
  });
});
