import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { appVersions } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

// Readable versions (docs/versions.md): a deploy's name and note, a version's diff, a version in the emulator, and
// a rollback that names what it restores.
describeDb('readable versions', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  const { get, post } = createApiClient(t, owner);

  /** An app whose first menu says `text` and ends; on a dial string of its own. */
  let greetings = 0;
  async function seedGreeting(text: string) {
    const appId = await seedApp(t, owner.auth, { customShortCode: `*920*7${++greetings}#` });
    const menuId = await seedMenu(t, owner.auth, appId, { userDefinedName: 'hello', displayText: text, terminate: true, isFirst: true });
    return { appId, menuId, dialString: `*920*7${greetings}#` };
  }
  const setText = (appId: string, menuId: string, text: string) =>
    post('/api/updateMenu', { appId, uniqueId: menuId, userDefinedName: 'hello', displayText: text, terminate: true });
  const deploy = (appId: string, query = '') => get(`/api/deployChanges/${appId}${query}`);
  const dial = async (
    app: { appId: string; dialString: string },
    sessionId: string,
    query = '',
    headers: Record<string, string> = owner.auth,
  ) => {
    const { appId, dialString } = app;
    const res = await t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${appId}${query}`,
      headers,
      payload: { session_id: sessionId, userdata: dialString, msisdn: '233241234567', session_mode: 'start', network_id: 'MTN', appId },
    });
    return res;
  };

  it('keeps a deploy’s name and note, lists them with who deployed and what changed, and refuses a bad one deploying nothing', async () => {
    const { appId, menuId } = await seedGreeting('Hello');
    const tooLong = await deploy(appId, `?name=${'x'.repeat(81)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ status: '02', message: 'A version name is at most 80 characters.', field: 'name' });
    const longNote = await deploy(appId, `?name=ok&note=${'n'.repeat(1001)}`);
    expect(longNote.statusCode).toBe(400);
    expect(longNote.json().message).toBe('A version note is at most 1000 characters.');
    expect((await get(`/api/getAppVersions/${appId}`)).json().data).toEqual([]);

    const v1 = await deploy(appId, `?name=${encodeURIComponent('  Easter promo ')}&note=${encodeURIComponent('First cut')}`);
    expect(v1.json()).toMatchObject({
      status: '00',
      data: { version: 1, name: 'Easter promo', note: 'First cut', createdBy: owner.email },
    });
    expect(v1.json().data.changes).toMatchObject({ menusAdded: 1, menusRemoved: 0 });
    await setText(appId, menuId, 'Hello again');
    // Blank is no name.
    const v2 = await deploy(appId, '?name=%20%20');
    expect(v2.json().data).toMatchObject({ version: 2, name: null, note: null });

    const list = (await get(`/api/getAppVersions/${appId}`)).json().data;
    expect(list.map((v: { version: number; name: string | null; createdBy: string }) => [v.version, v.name, v.createdBy])).toEqual([
      [2, null, owner.email],
      [1, 'Easter promo', owner.email],
    ]);
    expect(list[0].changes).toEqual({
      menusAdded: 0,
      menusRemoved: 0,
      menusRenamed: 0,
      fields: { text: 1, rule: 0, action: 0, validation: 0, media: 0, setting: 0 },
      app: 0,
      isReordered: false,
    });
    const [row] = await t.db
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.appId, appId), eq(appVersions.number, 1)));
    expect(row).toMatchObject({ name: 'Easter promo', note: 'First cut', createdBy: owner.user.id });
  });

  it('answers a version with its menus and its diff against the one before, another version, or the draft; 404 for others', async () => {
    const { appId, menuId } = await seedGreeting('Hello');
    await deploy(appId, '?name=First');
    await setText(appId, menuId, 'Hello again');
    await seedMenu(t, owner.auth, appId, { userDefinedName: 'extra', displayText: 'More' });
    await deploy(appId);
    await setText(appId, menuId, 'Hello draft');

    const v2 = (await get(`/api/getAppVersion/${appId}/2`)).json();
    expect(v2.status).toBe('00');
    expect(v2.data.against).toBe(1);
    expect(v2.data.definition.menus.map((m: { userDefinedName: string }) => m.userDefinedName)).toEqual(['hello', 'extra']);
    expect(v2.data.diff.menus).toEqual([
      {
        uniqueId: menuId,
        name: 'hello',
        status: 'changed',
        fields: [{ field: 'displayText', label: 'Menu text', kind: 'text', before: 'Hello', after: 'Hello again' }],
      },
      expect.objectContaining({ name: 'extra', status: 'added' }),
    ]);
    const v1 = (await get(`/api/getAppVersion/${appId}/1`)).json().data;
    expect(v1).toMatchObject({ against: null, info: { version: 1, name: 'First', isLive: false } });
    expect(v1.diff.menus.map((m: { status: string }) => m.status)).toEqual(['added']);

    const backwards = (await get(`/api/getAppVersion/${appId}/1?against=2`)).json().data;
    expect(backwards.diff.menus.map((m: { name: string; status: string }) => [m.name, m.status])).toEqual([
      ['hello', 'changed'],
      ['extra', 'removed'],
    ]);
    const draft = (await get(`/api/getAppVersion/${appId}/2?against=draft`)).json().data;
    expect(draft.against).toBe('draft');
    expect(draft.diff.menus[0].fields[0]).toMatchObject({ before: 'Hello again', after: 'Hello draft' });

    expect((await get(`/api/getAppVersion/${appId}/3`)).statusCode).toBe(404);
    expect((await get(`/api/getAppVersion/${appId}/2?against=7`)).statusCode).toBe(404);
    expect((await get(`/api/getAppVersion/${appId}/2?against=soon`)).statusCode).toBe(400);
    expect((await get(`/api/getAppVersion/${appId}/2`, stranger.auth)).statusCode).toBe(404);
  });

  it("runs a deployed version in the emulator for its owner, the draft without one; another account's app or an unknown version is 404", async () => {
    const greeting = await seedGreeting('Version one text');
    const { appId, menuId } = greeting;
    await deploy(appId);
    await setText(appId, menuId, 'Version two text');
    await deploy(appId);
    await setText(appId, menuId, 'Draft text');

    expect((await dial(greeting, 's-v1', '?version=1')).json()).toEqual({ text: 'Version one text', session_mode: 'end' });
    expect((await dial(greeting, 's-v2', '?version=2')).json()).toEqual({ text: 'Version two text', session_mode: 'end' });
    expect((await dial(greeting, 's-draft')).json()).toEqual({ text: 'Draft text', session_mode: 'end' });

    const unknown = await dial(greeting, 's-v9', '?version=9');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Version 9 not found');
    expect((await dial(greeting, 's-other', '?version=1', stranger.auth)).statusCode).toBe(404);
    expect((await dial(greeting, 's-nobody', '?version=1', {})).statusCode).toBe(401);
    expect((await dial(greeting, 's-bad', '?version=first')).statusCode).toBe(400);
  });

  it('a rollback names the version it restores, carries its name, and is recorded with who and when', async () => {
    const { appId, menuId } = await seedGreeting('Hello');
    await deploy(appId, '?name=Easter%20promo');
    await setText(appId, menuId, 'Hello again');
    await deploy(appId);

    const rolled = await post('/api/rollbackVersion', { appId, version: 1 });
    expect(rolled.json()).toMatchObject({
      status: '00',
      message: 'Restored version 1 "Easter promo" as version 3',
      data: { version: 3, name: 'Easter promo', rolledBackFrom: 1, createdBy: owner.email, isLive: true },
    });
    // Against version 2, the rollback changes the text back.
    expect(rolled.json().data.changes.fields.text).toBe(1);
    await deploy(appId, '?name=');
    const unnamed = await post('/api/rollbackVersion', { appId, version: 2 });
    expect(unnamed.json().message).toBe('Restored version 2 as version 5');

    // The rollback's own version row is its record (an owner's changes are not in the admins' audit log).
    const rows = await t.db.select().from(appVersions).where(eq(appVersions.appId, appId));
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    expect(byNumber.get(3)).toMatchObject({ rolledBackFrom: 1, createdBy: owner.user.id, name: 'Easter promo', note: null });
    expect(byNumber.get(5)).toMatchObject({ rolledBackFrom: 2, createdBy: owner.user.id, name: null });
    expect(byNumber.get(5)!.createdAt.getTime()).toBeGreaterThanOrEqual(byNumber.get(4)!.createdAt.getTime());
  });
  it('a version stored by a newer Dialflow: no summary for it or the one after it, and it cannot be opened; the others still can', async () => {
    const { appId, menuId } = await seedGreeting('Hello');
    await deploy(appId);
    await setText(appId, menuId, 'Hello again');
    await deploy(appId);
    await setText(appId, menuId, 'Hello once more');
    await deploy(appId);
    await t.db
      .update(appVersions)
      .set({ definition: sql`jsonb_set(${appVersions.definition}, '{specVersion}', '999'::jsonb)` })
      .where(and(eq(appVersions.appId, appId), eq(appVersions.number, 2)));

    const list = (await get(`/api/getAppVersions/${appId}`)).json().data;
    expect(list.map((v: { version: number; changes: object | null }) => [v.version, v.changes === null])).toEqual([
      [3, true],
      [2, true],
      [1, false],
    ]);
    const opened = await get(`/api/getAppVersion/${appId}/2`);
    expect(opened.statusCode).toBe(400);
    expect(opened.json().message).toMatch(/^Version 2 cannot be opened: /);
    expect((await get(`/api/getAppVersion/${appId}/3?against=1`)).json().data.diff.menus[0].fields[0]).toMatchObject({
      before: 'Hello',
      after: 'Hello once more',
    });
  });
});
