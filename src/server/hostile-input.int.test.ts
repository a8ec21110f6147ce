import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../tests/support/test-db';
import { useTestApp, useUser } from '../../tests/support/test-app';
import { seedApp, seedMenu } from '../../tests/support/seed-app';

/**
 * Inputs that used to reach a query and come back as 500 (PostgreSQL refused them): NUL characters, ids
 * that cannot be ids, instants and numbers outside the database's ranges. Each gets a 4xx with the envelope
 * and changes nothing.
 */
describeDb('hostile input', () => {
  const t = useTestApp();
  const owner = useUser(t);
  let appId: string;
  let menuId: string;
  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    menuId = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome' });
  });

  const cases: Array<[string, () => { method: 'GET' | 'POST'; url: string; payload?: object; auth?: boolean }, number]> = [
    [
      'NUL in a sign-in email',
      () => ({ method: 'POST', url: '/api/auth/login', payload: { email: 'a\u0000@b.co', password: 'secret-123' }, auth: false }),
      400,
    ],
    [
      'NUL in a merchant sign-in email',
      () => ({ method: 'POST', url: '/api/merchant/login', payload: { email: '\u0000', password: 'secret-123' }, auth: false }),
      400,
    ],
    ['NUL in an app id (path)', () => ({ method: 'GET', url: `/api/getAppByAppId/a%00b` }), 400],
    ['NUL in an app id (body)', () => ({ method: 'POST', url: '/streamLogs', payload: { appId: 'a\u0000b' } }), 400],
    ['NUL in a query string', () => ({ method: 'GET', url: `/api/payments/transactions?appId=%00` }), 400],
    [
      'NUL in a custom function name',
      () => ({ method: 'POST', url: '/api/custom-action/create', payload: { actionName: 'x\u0000', description: 'd', code: 'return 1' } }),
      400,
    ],
    ['NUL in an object key', () => ({ method: 'POST', url: '/api/contactus', payload: { 'a\u0000': 1 }, auth: false }), 400],
    ['a menu id that is not an id (delete)', () => ({ method: 'GET', url: '/api/deleteMenu/zz' }), 404],
    ['a huge number as a menu id', () => ({ method: 'GET', url: '/api/deleteMenu/99999999999999999999999' }), 404],
    [
      'a menu id that is not an id (update)',
      () => ({ method: 'POST', url: '/api/updateMenu', payload: { appId, uniqueId: 'abc', userDefinedName: 'home', displayText: 'Hi' } }),
      404,
    ],
    [
      "an instant before the database's first day",
      () => ({ method: 'POST', url: '/streamLogs', payload: { appId, timeStamp: -8.64e15 } }),
      400,
    ],
    ['an id past bigint', () => ({ method: 'POST', url: '/streamLogs', payload: { appId, afterId: 1e20 } }), 400],
    [
      "a search date past the database's last day",
      () => ({
        method: 'POST',
        url: '/dashboard/search',
        payload: { appId, searchBy: 'date', startDate: '2024-01-01', endDate: '275760-09-13' },
      }),
      400,
    ],
  ];

  it.each(cases)('%s: a clear 4xx, never a 500', async (_name, build, expected) => {
    const { auth = true, ...request } = build();
    const res = await t.app.inject({ ...request, headers: auth ? owner.auth : {} });
    expect(res.statusCode, res.body).toBe(expected);
    expect(res.json().status).toBe(expected === 404 ? '04' : '02');
  });

  it('the menu is still there and unchanged after the hostile requests', async () => {
    const menus = (await t.app.inject({ method: 'GET', url: `/api/getAllMenus/${appId}`, headers: owner.auth })).json().data;
    expect(menus).toMatchObject([{ uniqueId: menuId, userDefinedName: 'home', displayText: 'Welcome' }]);
  });
});
