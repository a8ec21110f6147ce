import { expect, it } from 'vitest';
import { seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';

/** A bot's test cases (docs/testing-apps.md): a chat simulator conversation saved as a case, run against the draft. */
describeDb('bot test cases', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const { get, post } = createApiClient(t, builder);
  const FROM = '233209999931';

  it('records a chat simulator conversation as a case, which passes, and fails where the bot changed', async () => {
    const appId = (await post('/api/chatbot/app/create', { appName: 'Order desk', description: 'Orders', botType: 'whatsapp' })).json().data
      .appId as string;
    const done = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Thanks {{ session.inputs.name }}, your order is in.',
      terminate: true,
    });
    const ask = { userDefinedName: 'name', displayText: 'Hello! What is your name?', isFirst: true };
    const askId = await seedMenu(t, builder.auth, appId, {
      ...ask,
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
    });
    const chat = (text: string) => post(`/whatsapp-emulator/${appId}`, { from: FROM, text });
    const first = (await chat('hi')).json();
    expect(first.sessionId).toEqual(expect.any(String));
    await chat('Ama');

    const recorded = (await post(`/api/apps/${appId}/test-cases/record`, { sessionId: first.sessionId, name: 'Orders by name' })).json();
    expect(recorded).toMatchObject({ status: '00' });
    expect(recorded.data.steps).toEqual([
      { input: '', expect: 'Hello! What is your name?' },
      { input: 'Ama', expect: 'Thanks Ama, your order is in.' },
    ]);
    expect((await post(`/api/apps/${appId}/test-cases/run`, {})).json().data).toMatchObject({ total: 1, passed: 1 });

    // The greeting changes: the run fails at the first step, and the bot's deploy is refused for it.
    const menus = (await get(`/api/getAllMenus/${appId}`)).json().data as Array<Record<string, unknown>>;
    const menu = menus.find((m) => m.uniqueId === askId)!;
    expect((await post('/api/updateMenu', { ...menu, displayText: 'Hi there! Your name?' })).json().status).toBe('00');
    const run = (await post(`/api/apps/${appId}/test-cases/run`, {})).json().data;
    expect(run).toMatchObject({ total: 1, failed: 1 });
    expect(run.results[0].steps[0]).toMatchObject({ ok: false, difference: { line: 1, expected: 'Hello! What is your name?' } });
    const deploy = (await get(`/api/deployChanges/${appId}`)).json();
    expect(deploy.status).not.toBe('00');
    expect(deploy.message).toContain('1 of 1 test case failed');
  });
});
