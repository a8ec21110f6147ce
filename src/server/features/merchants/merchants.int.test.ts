import { beforeAll, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { apps, mediaBytes, mediaFiles, transactions, users } from '../../../db/schema';
import { APP_MESSAGES } from '../../../shared/api/apps.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { makePng } from '../../../../tests/support/media-files';
import { storeMedia } from '../media/media.service';

describeDb('merchants, their users and transactions', () => {
  const t = useTestApp();
  const admin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
  const manager = useUser(t, { userType: 'internal_admin', roles: ['MERCHANT'] });
  const support = useUser(t, { userType: 'internal_admin', roles: ['SUPPORT'] });
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
  const owner = useUser(t);
  const api = createApiClient(t, admin);
  const form = { fullName: 'Esi Owusu', mobileNumber: '233201234567', companyName: 'Owusu Foods', businessCategory: 'retail' };
  let merchantA: string;
  let merchantB: string;

  const register = async (email: string, auth = admin.auth) => api.post('/api/merchant/create', { ...form, email }, auth);
  const signIn = async (email: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/merchant/login', payload: { email, password } })).json();

  beforeAll(async () => {
    merchantA = (await register('a@owusu.example')).json().data.uuid;
    merchantB = (await register('b@other.example')).json().data.uuid;
  });

  it.each([
    [{ ...form, email: 'x@y.example', fullName: '' }, 'Please complete all required fields'],
    [{ ...form, email: '' }, 'Please complete all required fields'],
    [{ ...form, email: 'x@y.example', businessCategory: '' }, 'Please complete all required fields'],
    [{ ...form, email: 'not-an-email' }, 'Invalid email'],
  ])('Register New Merchant refuses %j with "%s", and stores nothing', async (payload, message) => {
    const before = (await api.get('/api/merchant/list')).json().data.length;
    const res = await api.post('/api/merchant/create', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    expect((await api.get('/api/merchant/list')).json().data).toHaveLength(before);
  });

  it('registers, lists, reads, updates a merchant; a second one with the same email is refused', async () => {
    expect((await register('A@owusu.example')).json()).toMatchObject({
      status: '02',
      message: 'A merchant with this email already exists',
    });
    const list = (await api.get('/api/merchant/list')).json().data;
    expect(list.map((m: { uuid: string }) => m.uuid)).toEqual(expect.arrayContaining([merchantA, merchantB]));
    expect((await api.get(`/api/admin/merchants/${merchantA}`)).json().data).toMatchObject({
      email: 'a@owusu.example',
      companyName: 'Owusu Foods',
    });
    const updated = await api.post('/merchant/update', {
      ...form,
      uuid: merchantA,
      email: 'a@owusu.example',
      companyName: 'Owusu Foods Ltd',
    });
    expect(updated.json()).toMatchObject({ status: '00', data: { companyName: 'Owusu Foods Ltd' } });
    expect((await api.get('/api/admin/merchants/not-a-uuid')).statusCode).toBe(404);
  });

  it('a merchant manager (MERCHANT role) is assigned what they register and reaches only their assigned merchants', async () => {
    const own = (await register('mine@manager.example', manager.auth)).json().data.uuid;
    expect((await api.get('/api/merchant/my-merchants', manager.auth)).json().data.map((m: { uuid: string }) => m.uuid)).toEqual([own]);
    expect((await api.get('/api/merchant/list', manager.auth)).json().data.map((m: { uuid: string }) => m.uuid)).toEqual([own]);
    // Merchant B is not theirs: 404 on every call that names it, and nothing changes.
    expect((await api.get(`/api/admin/merchants/${merchantB}`, manager.auth)).statusCode).toBe(404);
    expect((await api.post('/merchant/update', { ...form, uuid: merchantB, email: 'b@other.example' }, manager.auth)).statusCode).toBe(404);
    expect((await api.get(`/api/merchant/${merchantB}/users`, manager.auth)).statusCode).toBe(404);
    const userBody = { fullName: 'X', email: 'x@b.example', mobileNumber: '1', password: 'secret-1', merchantUuid: merchantB };
    expect((await api.post('/api/merchant/user/create', userBody, manager.auth)).statusCode).toBe(404);
    // Deleting needs the ADMIN role: the manager's role does not give it at all.
    expect((await api.post('/merchant/delete', { uuid: own }, manager.auth)).statusCode).toBe(403);
    // Support registers nothing and sees no merchant until one is assigned.
    expect((await register('s@support.example', support.auth)).statusCode).toBe(403);
    expect((await api.get('/api/merchant/list', support.auth)).json().data).toEqual([]);
    expect((await api.get(`/api/admin/merchants/${merchantB}`)).json().data.companyName).toBe('Owusu Foods');
  });

  it('creates merchant users (confirmPassword is not sent), who sign in at /merchant/login and see only their merchant', async () => {
    const bad = await api.post('/api/merchant/user/create', {
      fullName: '',
      email: 'u@a.example',
      mobileNumber: '1',
      password: 'x',
      merchantUuid: merchantA,
    });
    expect(bad.json()).toMatchObject({ status: '02', message: 'Please complete all required fields' });
    // Registration's password rule (auth.schema.ts): no merchant user with the password 'a'.
    for (const [password, message] of [
      ['a', 'Password must be at least 6 characters long.'],
      ['1', 'Password must be at least 6 characters long.'],
      ['a     b', 'Password must have at least 6 characters other than spaces.'],
    ]) {
      const weak = await api.post('/api/merchant/user/create', {
        fullName: 'Weak',
        email: 'weak@owusu.example',
        mobileNumber: '1',
        password,
        merchantUuid: merchantA,
      });
      expect(weak.statusCode, password).toBe(400);
      expect(weak.json(), password).toMatchObject({ status: '02', message });
    }
    expect((await api.get(`/api/merchant/${merchantA}/users`)).json().data).toEqual([]);
    const created = await api.post('/api/merchant/user/create', {
      fullName: 'Dev User',
      email: 'dev@owusu.example',
      mobileNumber: '233201234568',
      password: 'secret-12',
      isDeveloper: true,
      merchantUuid: merchantA,
    });
    expect(created.json()).toMatchObject({ status: '00', data: { isDeveloper: true, merchantUuid: merchantA } });
    const users = (await api.get(`/api/merchant/${merchantA}/users`)).json().data;
    expect(users).toMatchObject([{ email: 'dev@owusu.example', isDeveloper: true }]);

    const login = await signIn('dev@owusu.example', 'secret-12');
    expect(login.data).toMatchObject({ merchantUser: true, merchantUuid: merchantA, merchantName: 'Owusu Foods Ltd' });
    const merchantAuth = { authorization: `Bearer ${login.token}` };
    expect((await api.get('/api/merchant/profile', merchantAuth)).json().data.uuid).toBe(merchantA);
    expect((await api.get(`/api/merchant/${merchantA}/users`, merchantAuth)).json().data).toHaveLength(1);
    expect((await api.get(`/api/merchant/${merchantB}/users`, merchantAuth)).statusCode).toBe(404);
    const foreignSearch = { startDate: '2020-01-01', endDate: '2030-01-01', userUuid: merchantB };
    expect((await api.post('/api/merchant/transactions', foreignSearch, merchantAuth)).statusCode).toBe(404);
    // No admin call: the guard refuses them.
    expect((await api.get('/api/merchant/list', merchantAuth)).statusCode).toBe(403);
    expect((await api.post('/merchant/user/delete', { uuid: users[0].uuid }, merchantAuth)).statusCode).toBe(403);
    // An ordinary account is neither: 403.
    expect((await createApiClient(t, owner).get('/api/merchant/transaction-types')).statusCode).toBe(403);
  });

  it("searches a merchant's transactions: its apps' payments and its users' own payments, in the range, with totals", async () => {
    const userRes = await api.post('/api/merchant/user/create', {
      fullName: 'Cashier',
      email: 'cashier@owusu.example',
      mobileNumber: '233201234569',
      password: 'secret-12',
      merchantUuid: merchantA,
    });
    const cashierId = userRes.json().data.uuid;
    const login = await signIn('cashier@owusu.example', 'secret-12');
    const merchantAuth = { authorization: `Bearer ${login.token}` };
    const templateApp = await seedApp(t, admin.auth);
    const cloned = await api.post('/api/cloneApp', {
      appId: templateApp,
      appName: 'Owusu Pay',
      description: 'Pay',
      merchantUuid: merchantA,
    });
    expect(cloned.json()).toMatchObject({ status: '00' });
    const appId = cloned.json().data.appId;
    const otherApp = await seedApp(t, owner.auth);

    const at = (iso: string) => new Date(iso);
    await t.db.insert(transactions).values([
      {
        reference: 'r-app-1',
        transactionType: 'paymentprompt',
        amount: '10.00',
        status: 'SUCCESS',
        appId,
        createdAt: at('2026-03-02T10:00:00Z'),
      },
      {
        reference: 'r-app-2',
        transactionType: 'paymentprompt',
        amount: '5.50',
        status: 'FAILED',
        appId,
        createdAt: at('2026-03-02T11:00:00Z'),
      },
      {
        reference: 'r-plan',
        transactionType: 'plan',
        amount: '50.00',
        currency: 'USD',
        status: 'SUCCESS',
        userId: cashierId,
        createdAt: at('2026-03-03T09:00:00Z'),
      },
      {
        reference: 'r-old',
        transactionType: 'paymentprompt',
        amount: '1.00',
        status: 'SUCCESS',
        appId,
        createdAt: at('2026-01-01T00:00:00Z'),
      },
      {
        reference: 'r-other',
        transactionType: 'paymentprompt',
        amount: '7.00',
        status: 'SUCCESS',
        appId: otherApp,
        createdAt: at('2026-03-02T10:00:00Z'),
      },
    ]);
    const range = { startDate: '2026-03-01T00:00:00Z', endDate: '2026-03-04T00:00:00Z' };
    const own = (await api.post('/api/merchant/transactions', range, merchantAuth)).json();
    expect(own.data.map((r: { reference: string }) => r.reference)).toEqual(['r-plan', 'r-app-2', 'r-app-1']);
    expect(own.totals).toEqual([
      { status: 'FAILED', currency: 'GHS', count: 1, amount: '5.50' },
      { status: 'SUCCESS', currency: 'GHS', count: 1, amount: '10.00' },
      { status: 'SUCCESS', currency: 'USD', count: 1, amount: '50.00' },
    ]);
    const filtered = await api.post('/api/merchant/transactions', {
      ...range,
      userUuid: merchantA,
      status: 'SUCCESS',
      transactionType: 'paymentprompt',
    });
    expect(filtered.json().data.map((r: { reference: string }) => r.reference)).toEqual(['r-app-1']);
    const none = await api.post('/api/merchant/transactions', { ...range, userUuid: merchantB });
    expect(none.json()).toMatchObject({ status: '00', message: 'No transactions found', data: [] });
    const noRange = await api.post('/api/merchant/transactions', { startDate: '', endDate: '', userUuid: merchantA });
    expect(noRange.json()).toMatchObject({ status: '02', message: 'Please select a date range' });
    expect((await api.get('/api/merchant/transaction-types', merchantAuth)).json().data.map((x: { value: string }) => x.value)).toContain(
      'plan',
    );
    // An admin's own search (no merchant of their own): 'No merchant account found'.
    expect((await api.post('/api/merchant/transactions', range)).json()).toMatchObject({
      status: '04',
      message: 'No merchant account found',
    });
  });

  it("a merchant user marked Developer builds the merchant's apps; one who is not cannot see them", async () => {
    const create = (email: string, isDeveloper: boolean) =>
      api.post('/api/merchant/user/create', {
        fullName: 'U',
        email,
        mobileNumber: '1',
        password: 'secret-12',
        isDeveloper,
        merchantUuid: merchantA,
      });
    await create('builder@owusu.example', true);
    await create('viewer@owusu.example', false);
    const builder = { authorization: `Bearer ${(await signIn('builder@owusu.example', 'secret-12')).token}` };
    const viewer = { authorization: `Bearer ${(await signIn('viewer@owusu.example', 'secret-12')).token}` };
    // The app cloned into merchant A's account belongs to its first user; the other developer builds it too.
    const merchantApps = (await api.get('/api/getAllApps', builder)).json().data as Array<{ appId: string; appName: string }>;
    const app = merchantApps.find((a) => a.appName === 'Owusu Pay')!;
    expect(app).toBeDefined();
    const menu = await api.post('/api/createMenu', { appId: app.appId, userDefinedName: 'extra', displayText: 'Extra' }, builder);
    expect(menu.json().status).toBe('00');
    expect((await api.get('/api/getAllApps', viewer)).json().data).toEqual([]);
    expect((await api.get(`/api/getAppByAppId/${app.appId}`, viewer)).statusCode).toBe(404);
    expect((await api.post('/api/createMenu', { appId: app.appId, userDefinedName: 'x', displayText: 'x' }, viewer)).statusCode).toBe(404);
  });

  it("a transaction names its app (deleted: none) and never sends the server's own metadata (checkout secret, settling event)", async () => {
    const create = (email: string, isDeveloper: boolean) =>
      api.post('/api/merchant/user/create', {
        fullName: 'U',
        email,
        mobileNumber: '1',
        password: 'secret-12',
        isDeveloper,
        merchantUuid: merchantA,
      });
    const developerId = (await create('dev-tx@owusu.example', true)).json().data.uuid;
    await create('clerk-tx@owusu.example', false);
    const developer = { authorization: `Bearer ${(await signIn('dev-tx@owusu.example', 'secret-12')).token}` };
    const clerk = { authorization: `Bearer ${(await signIn('clerk-tx@owusu.example', 'secret-12')).token}` };
    const app = ((await api.get('/api/getAllApps', developer)).json().data as Array<{ appId: string; appName: string }>).find(
      (a) => a.appName === 'Owusu Pay',
    )!;
    const stored = {
      provider: 'sandbox',
      mobile: '+233244000111',
      network: 'MTN',
      sessionId: 'sess-9',
      checkoutUrl: 'http://localhost/payments/sandbox/r-secret?token=tok-SECRET',
      checkoutToken: 'tok-SECRET',
      settledBy: 'evt-SECRET',
    };
    await t.db.insert(transactions).values([
      {
        reference: 'r-named',
        transactionType: 'paymentprompt',
        amount: '12.00',
        status: 'SUCCESS',
        appId: app.appId,
        metadata: stored,
        createdAt: new Date('2026-05-02T10:00:00Z'),
      },
      {
        reference: 'r-gone',
        transactionType: 'paymentprompt',
        amount: '3.00',
        status: 'SUCCESS',
        userId: developerId,
        appId: 'app-deleted-since',
        metadata: stored,
        createdAt: new Date('2026-05-02T09:00:00Z'),
      },
    ]);
    const range = { startDate: '2026-05-01T00:00:00Z', endDate: '2026-05-03T00:00:00Z' };
    const reply = await api.post('/api/merchant/transactions', range, developer);
    for (const secret of ['checkoutToken', 'settledBy', 'checkoutUrl', 'tok-SECRET', 'evt-SECRET'])
      expect(reply.body).not.toContain(secret);
    const [named, gone] = reply.json().data;
    expect(named).toMatchObject({
      reference: 'r-named',
      appId: app.appId,
      app: { appId: app.appId, appName: 'Owusu Pay', channel: 'ussd', canOpen: true },
      metadata: { provider: 'sandbox', mobile: '+233244000111', network: 'MTN', sessionId: 'sess-9' },
    });
    expect(Object.keys(named.metadata).sort()).toEqual(['mobile', 'network', 'provider', 'sessionId']);
    expect(gone).toMatchObject({ reference: 'r-gone', appId: 'app-deleted-since', app: null });
    // A merchant user who does not build the merchant's apps sees the name, with nothing to open.
    const clerkRows = (await api.post('/api/merchant/transactions', range, clerk)).json().data;
    expect(clerkRows[0].app).toEqual({ appId: app.appId, appName: 'Owusu Pay', channel: 'ussd', canOpen: false });
    const adminReply = await api.post('/api/merchant/transactions', { ...range, userUuid: merchantA });
    expect(adminReply.body).not.toContain('checkoutToken');
    expect(adminReply.json().data[0].app).toMatchObject({ appName: 'Owusu Pay', canOpen: true });
  });

  it('a merchant user who is not a Developer builds no app: create, clone, import and bots answer 403, and an app cloned in under their name stays out of reach', async () => {
    const merchantC = (await register('c@owusu.example')).json().data.uuid;
    const create = (email: string, isDeveloper: boolean) =>
      api.post('/api/merchant/user/create', {
        fullName: 'U',
        email,
        mobileNumber: '1',
        password: 'secret-12',
        isDeveloper,
        merchantUuid: merchantC,
      });
    // The first user (who gets the apps an admin clones into the merchant) is not a developer.
    await create('clerk@c.example', false);
    await create('coder@c.example', true);
    const clerk = { authorization: `Bearer ${(await signIn('clerk@c.example', 'secret-12')).token}` };
    const coder = { authorization: `Bearer ${(await signIn('coder@c.example', 'secret-12')).token}` };
    const template = await seedApp(t, admin.auth, { appName: 'Featured', customShortCode: '*920*56#' });
    await t.db.update(apps).set({ isTemplate: true }).where(eq(apps.id, template));
    const exported = (await api.get(`/api/exportApp/${template}`)).json().data;

    const refused = { status: '05', message: APP_MESSAGES.notAppBuilder };
    const attempts = [
      [
        '/api/createApp',
        {
          appName: 'Mine',
          description: 'x',
          country: 'ghana',
          connectionMode: 'existing-shortcode',
          customShortCode: '*920*57#',
          useTemplateTag: false,
        },
      ],
      ['/api/cloneApp', { appId: template, appName: 'My copy', description: 'x' }],
      ['/api/importApp', { document: exported, shortCode: '*920*58#' }],
    ] as const;
    for (const [url, body] of attempts) {
      const res = await api.post(url, body, clerk);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual(refused);
    }
    // Given the chatbot role, the same user still builds no bot.
    expect((await api.post('/api/admin/chatbot-access', { email: 'clerk@c.example', enabled: true })).json().status).toBe('00');
    const clerkAgain = { authorization: `Bearer ${(await signIn('clerk@c.example', 'secret-12')).token}` };
    const bot = await api.post('/api/chatbot/app/create', { appName: 'Bot', description: 'x', botType: 'whatsapp' }, clerkAgain);
    expect(bot.statusCode).toBe(403);
    expect(bot.json()).toEqual(refused);
    expect(
      await t.db.select({ id: apps.id }).from(apps).innerJoin(users, eq(users.id, apps.userId)).where(eq(users.email, 'clerk@c.example')),
    ).toEqual([]);

    // An admin clones an app into the merchant: it is the clerk's row, but the developer builds it, not the clerk.
    const cloned = (
      await api.post('/api/cloneApp', { appId: template, appName: 'C Pay', description: 'Pay', merchantUuid: merchantC })
    ).json();
    expect(cloned).toMatchObject({ status: '00', data: { userEmail: 'clerk@c.example' } });
    const appId = cloned.data.appId as string;
    expect((await api.get('/api/getAllApps', clerk)).json().data).toEqual([]);
    expect((await api.get(`/api/getAppByAppId/${appId}`, clerk)).statusCode).toBe(404);
    const edit = { appId, userDefinedName: 'x', displayText: 'x' };
    expect((await api.post('/api/createMenu', edit, clerk)).statusCode).toBe(404);
    expect((await api.get(`/deleteApp/${appId}`, clerk)).statusCode).toBe(404);
    expect((await api.get('/api/getAllApps', coder)).json().data.map((a: { appId: string }) => a.appId)).toEqual([appId]);
    expect((await api.post('/api/createMenu', edit, coder)).json().status).toBe('00');
    // A developer clones and creates as any builder does.
    expect((await api.post('/api/cloneApp', { appId: template, appName: 'Coder copy', description: 'x' }, coder)).json().status).toBe('00');
  });

  it('clones into a merchant only with a role that allows it, and never into one without users', async () => {
    const appId = await seedApp(t, admin.auth);
    const body = { appId, appName: 'Copy', description: 'x' };
    expect((await api.post('/api/cloneApp', { ...body, merchantUuid: merchantB })).json()).toMatchObject({
      status: '02',
      message: 'This merchant has no users yet: create one before cloning an app into its account',
    });
    expect((await api.post('/api/cloneApp', { ...body, merchantUuid: merchantA }, manager.auth)).statusCode).toBe(404);
    expect((await api.post('/api/cloneApp', { ...body, merchantUuid: merchantA }, owner.auth)).statusCode).toBe(404);
  });

  it('deletes a merchant user and a merchant (its users go with it), and records every admin action', async () => {
    const temp = (await register('temp@owusu.example')).json().data.uuid;
    const user = await api.post('/api/merchant/user/create', {
      fullName: 'Temp',
      email: 'temp-user@owusu.example',
      mobileNumber: '1',
      password: 'secret-12',
      merchantUuid: temp,
    });
    await api.post('/api/merchant/user/create', {
      fullName: 'Temp 2',
      email: 'temp-user2@owusu.example',
      mobileNumber: '1',
      password: 'secret-12',
      merchantUuid: temp,
    });
    // Each user has a file stored (the database store by default): deleting the account deletes its bytes too.
    const [first, second] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.email, ['temp-user@owusu.example', 'temp-user2@owusu.example']))
      .orderBy(users.email);
    const stored = [];
    for (const accountId of [first!.id, second!.id])
      stored.push(await storeMedia(t.app.ctx, { accountId, bytes: makePng(2, 2), claimedMimeType: 'image/png', source: 'upload' }));
    const storageKeys = (
      await t.db
        .select({ key: mediaFiles.storageKey })
        .from(mediaFiles)
        .where(
          inArray(
            mediaFiles.id,
            stored.map((ref) => ref.mediaId),
          ),
        )
    ).map((row) => row.key);
    const storedBytes = async () =>
      (await t.db.select({ key: mediaBytes.key }).from(mediaBytes).where(inArray(mediaBytes.key, storageKeys))).length;
    expect(await storedBytes()).toBe(2);
    expect((await api.post('/merchant/user/delete', { uuid: user.json().data.uuid })).json()).toMatchObject({ status: '00' });
    expect((await api.post('/merchant/user/delete', { uuid: user.json().data.uuid })).statusCode).toBe(404);
    expect(await storedBytes()).toBe(1);
    expect((await api.post('/merchant/delete', { uuid: temp })).json()).toMatchObject({ status: '00', message: 'Merchant deleted' });
    expect(await storedBytes()).toBe(0);
    expect(
      await t.db
        .select()
        .from(mediaFiles)
        .where(inArray(mediaFiles.ownerId, [first!.id, second!.id])),
    ).toEqual([]);
    expect((await api.get(`/api/admin/merchants/${temp}`)).statusCode).toBe(404);
    expect((await signIn('temp-user2@owusu.example', 'secret-12')).status).toBe('05');
    const audit = (await api.get('/api/admin/audit-log', superAdmin.auth)).json().data.map((e: { action: string }) => e.action);
    expect(audit).toEqual(
      expect.arrayContaining([
        'merchant_registered',
        'merchant_updated',
        'merchant_user_created',
        'merchant_user_deleted',
        'merchant_deleted',
        'app_cloned_into_merchant',
      ]),
    );
  });
});
