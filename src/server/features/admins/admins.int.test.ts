import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

describeDb('system users: admins, roles, assigned merchants, audit log', () => {
  const t = useTestApp();
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
  const api = createApiClient(t, superAdmin);
  const newAdmin = { fullName: 'Yaw Darko', email: 'yaw@dialflow.example', mobileNumber: '233209999999', password: 'secret-12' };
  let merchantUuid: string;

  beforeAll(async () => {
    const merchant = await api.post('/api/merchant/create', {
      fullName: 'Abena',
      email: 'abena@shop.example',
      mobileNumber: '1',
      companyName: 'Abena Shop',
      businessCategory: 'service',
    });
    merchantUuid = merchant.json().data.uuid;
  });

  it.each([
    [{ ...newAdmin, fullName: '' }, 'Please complete all required fields'],
    [{ ...newAdmin, password: '' }, 'Please complete all required fields'],
    [{ ...newAdmin, email: 'nope' }, 'Invalid email'],
    // Registration's password rule (auth.schema.ts) holds for an account an admin makes too.
    [{ ...newAdmin, password: '1' }, 'Password must be at least 6 characters long.'],
    [{ ...newAdmin, password: '  a   ' }, 'Password must have at least 6 characters other than spaces.'],
  ])('Create Admin refuses %j with "%s"', async (payload, message) => {
    const res = await api.post('/api/admin/create', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    // Nothing was made: the email can still be used.
    expect((await api.get('/api/admin/list')).json().data.map((a: { email: string }) => a.email)).not.toContain(newAdmin.email);
  });

  it('creates an admin with no roles, the screen then sets them; assigns and unassigns a merchant; all in the audit log', async () => {
    const created = await api.post('/api/admin/create', { ...newAdmin, roles: ['ADMIN'] });
    expect(created.json()).toMatchObject({ status: '00', data: { email: newAdmin.email, roles: [] } });
    const adminUuid = created.json().data.uuid;
    expect((await api.get('/api/admin/role-types')).json().data).toEqual(['ADMIN', 'MERCHANT', 'DEVELOPER', 'SUPPORT', 'super_admin']);

    const noRoles = await api.post('/api/admin/update-profile', { adminUuid, ...newAdmin, roles: [] });
    expect(noRoles.json()).toMatchObject({ status: '02', message: 'Please select at least one role' });
    const missing = await api.post('/api/admin/update-profile', { adminUuid, ...newAdmin, fullName: ' ', roles: ['SUPPORT'] });
    expect(missing.json()).toMatchObject({ status: '02', message: 'Please fill in all required fields' });
    const updated = await api.post('/api/admin/update-profile', { adminUuid, ...newAdmin, roles: ['SUPPORT'] });
    expect(updated.json()).toMatchObject({ status: '00', data: { roles: ['SUPPORT'] } });

    expect((await api.post('/api/admin/assign-merchant', { adminUuid, merchantUuid })).json().status).toBe('00');
    expect((await api.post('/api/admin/assign-merchant', { adminUuid, merchantUuid })).statusCode).toBe(409);
    const profile = (await api.get(`/api/admin/profile/${adminUuid}`)).json().data;
    expect(profile).toMatchObject({ roles: ['SUPPORT'], assignedMerchants: [{ uuid: merchantUuid, companyName: 'Abena Shop' }] });

    // The support admin now reads that merchant, and only it.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: newAdmin.email, password: newAdmin.password },
    });
    const supportAuth = { authorization: `Bearer ${login.json().token}` };
    expect((await api.get('/api/merchant/my-merchants', supportAuth)).json().data).toMatchObject([{ uuid: merchantUuid }]);
    expect((await api.get(`/api/admin/merchants/${merchantUuid}`, supportAuth)).json().status).toBe('00');
    expect((await api.get('/api/admin/list', supportAuth)).statusCode).toBe(403);

    expect((await api.post('/api/admin/unassign-merchant', { adminUuid, merchantUuid })).json().status).toBe('00');
    expect((await api.post('/api/admin/unassign-merchant', { adminUuid, merchantUuid })).statusCode).toBe(404);
    expect((await api.get(`/api/admin/merchants/${merchantUuid}`, supportAuth)).statusCode).toBe(404);

    expect((await api.post('/api/admin/delete', { uuid: adminUuid })).json().status).toBe('00');
    expect((await api.get(`/api/admin/profile/${adminUuid}`)).statusCode).toBe(404);
    const actions = (await api.get('/api/admin/audit-log')).json().data.map((e: { action: string; actorEmail: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['admin_created', 'admin_roles_changed', 'merchant_assigned', 'merchant_unassigned', 'admin_deleted']),
    );
  });

  it('records provisioning in the audit log', async () => {
    const extension = await api.post('/api/subscription/createShortCode', {
      country: 'Ghana',
      shortCode: '*920*',
      provider: 'mtngh',
      method: 'POST',
      extension: '77',
      price: '150',
    });
    const provisioned = await api.post('/api/subscription/provisionShortCode', { extensionUuid: extension.json().data.uuid, self: true });
    expect(provisioned.json().status).toBe('00');
    const entries = (await api.get('/api/admin/audit-log')).json().data as Array<{ action: string; targetId: string; actorEmail: string }>;
    expect(entries.find((e) => e.action === 'shortcode_provisioned')).toMatchObject({
      targetId: provisioned.json().data.uuid,
      actorEmail: superAdmin.email,
    });
  });

  it('records a manual subscription change in the audit log', async () => {
    const activated = await api.post('/api/subscription/activate', {
      email: superAdmin.email,
      plan: 'ENTERPRISE',
      reason: 'Enterprise contract',
    });
    expect(activated.json().status).toBe('00');
    const entries = (await api.get('/api/admin/audit-log')).json().data as Array<{ action: string; targetId: string; details: object }>;
    expect(entries.find((e) => e.action === 'subscription_changed')).toMatchObject({
      targetId: superAdmin.user.id,
      details: { kind: 'activate', plan: 'ENTERPRISE', reason: 'Enterprise contract' },
    });
  });

  it('nobody deletes or demotes themselves or the last super admin', async () => {
    const self = superAdmin.user.id;
    const me = { adminUuid: self, fullName: 'Super', email: superAdmin.email, mobileNumber: '1' };
    expect((await api.post('/api/admin/delete', { uuid: self })).json()).toMatchObject({
      status: '02',
      message: expect.stringContaining('your own'),
    });
    expect((await api.post('/api/admin/update-profile', { ...me, roles: ['ADMIN'] })).json().status).toBe('02');
    // A second super admin may not remove the first while it is the last other one... but may once another exists.
    const second = (await api.post('/api/admin/create', { ...newAdmin, email: 'second@dialflow.example' })).json().data.uuid;
    await api.post('/api/admin/update-profile', {
      adminUuid: second,
      ...newAdmin,
      email: 'second@dialflow.example',
      roles: ['ADMIN', 'super_admin'],
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'second@dialflow.example', password: newAdmin.password },
    });
    const secondAuth = { authorization: `Bearer ${login.json().token}` };
    // Demoting the first leaves the second: allowed. Then the second is the last one and cannot be demoted by anyone.
    expect((await api.post('/api/admin/update-profile', { ...me, roles: ['ADMIN'] }, secondAuth)).json().status).toBe('00');
    const demoteLast = await api.post(
      '/api/admin/update-profile',
      { adminUuid: second, ...newAdmin, email: 'second@dialflow.example', roles: ['ADMIN'] },
      secondAuth,
    );
    expect(demoteLast.json().status).toBe('02');
    expect(
      (await api.get('/api/admin/list', secondAuth)).json().data.filter((a: { isSuperAdmin: boolean }) => a.isSuperAdmin),
    ).toHaveLength(1);
  });
});
