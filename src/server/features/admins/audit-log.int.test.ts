import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, type SeededUser, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';
import { webhooks } from '../../../db/schema';
import { ADMIN_ACTIONS, type AdminAction } from '../../core/audit-log';

interface Entry {
  actorEmail: string;
  action: string;
  targetId: string;
  details: Record<string, unknown>;
  createdAt: string;
}

describeDb('the audit log: every kind of admin action writes a row', () => {
  const t = useTestApp();
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
  const developer = useUser(t, { userType: 'internal_admin', roles: ['DEVELOPER'] });
  const owner = useUser(t);

  /** A call that must succeed: the audit rows below are only worth checking after the change happened. */
  async function must(user: SeededUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
    const res = await t.app.inject({ method, url, headers: user.auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json();
  }

  it('records who, what, on which object and when, for the platform, merchant, admin and other accounts’ app actions', async () => {
    const api = createApiClient(t, superAdmin);
    const startedAt = Date.now();

    // The shortcode catalogue and provisioning.
    const provider = await must(superAdmin, 'POST', '/api/registerProvider', { providerName: 'Audit Net', providerId: 'auditnet' });
    await must(superAdmin, 'POST', `/api/rotateProviderKey/${provider.data.uuid}`);
    await must(superAdmin, 'POST', `/api/updateProviderAccess/${provider.data.uuid}`, {
      acceptsUnauthenticated: false,
      allowedSources: ['192.0.2.0/24'],
    });
    await must(superAdmin, 'GET', `/api/deleteProvider/${provider.data.uuid}`);
    const extension = { country: 'Ghana', shortCode: '*920*', provider: 'mtngh', method: 'POST', price: '150' };
    const kept = await must(superAdmin, 'POST', '/api/subscription/createShortCode', { ...extension, extension: '61' });
    const dropped = await must(superAdmin, 'POST', '/api/subscription/createShortCode', { ...extension, extension: '62' });
    await must(superAdmin, 'GET', `/api/deleteShortCode/${dropped.data.uuid}`);
    await must(superAdmin, 'POST', '/api/subscription/provisionShortCode', { extensionUuid: kept.data.uuid, userEmail: owner.email });

    // Billing and chatbot access.
    await must(superAdmin, 'POST', '/api/subscription/extend', { email: owner.email, days: 10, reason: 'Outage' });
    await must(superAdmin, 'POST', '/api/admin/chatbot-access', { email: owner.email, enabled: true });

    // Merchants, their users, an app cloned into one.
    const merchantBody = {
      fullName: 'Esi',
      email: 'esi@audit.example',
      mobileNumber: '1',
      companyName: 'Esi Foods',
      businessCategory: 'service',
    };
    const merchant = (await must(superAdmin, 'POST', '/api/merchant/create', merchantBody)).data.uuid;
    await must(superAdmin, 'POST', '/merchant/update', { ...merchantBody, uuid: merchant, companyName: 'Esi Foods Ltd' });
    const merchantUser = await must(superAdmin, 'POST', '/api/merchant/user/create', {
      fullName: 'Kofi',
      email: 'kofi@audit.example',
      mobileNumber: '1',
      password: 'secret-12',
      merchantUuid: merchant,
    });
    const ownApp = await seedApp(t, superAdmin.auth, { appName: 'Source' });
    await must(superAdmin, 'POST', '/api/cloneApp', { appId: ownApp, appName: 'For Esi', description: 'x', merchantUuid: merchant });

    // Admins.
    const adminBody = { fullName: 'Yaa', email: 'yaa@audit.example', mobileNumber: '1', password: 'secret-12' };
    const created = (await must(superAdmin, 'POST', '/api/admin/create', adminBody)).data.uuid;
    await must(superAdmin, 'POST', '/api/admin/update-profile', { adminUuid: created, ...adminBody, roles: ['SUPPORT'] });
    await must(superAdmin, 'POST', '/api/admin/assign-merchant', { adminUuid: created, merchantUuid: merchant });
    await must(superAdmin, 'POST', '/api/admin/unassign-merchant', { adminUuid: created, merchantUuid: merchant });
    await must(superAdmin, 'POST', '/api/admin/delete', { uuid: created });
    await must(superAdmin, 'POST', '/merchant/user/delete', { uuid: merchantUser.data.uuid });
    await must(superAdmin, 'POST', '/merchant/delete', { uuid: merchant });

    // The owner's own work: never an admin action.
    const app = await seedApp(t, owner.auth, { appName: 'Owned' });
    const home = await seedMenu(t, owner.auth, app, { userDefinedName: 'home', displayText: 'Welcome', terminate: true });
    const fn = (await must(owner, 'POST', '/api/custom-action/create', { actionName: 'fee', code: 'return 1' })).uuid;
    const bot = (await must(owner, 'POST', '/api/chatbot/app/create', { appName: 'Ama', description: 'Orders', botType: 'whatsapp' })).data
      .appId;
    await must(owner, 'GET', `/api/deployChanges/${app}`);
    await t.db.insert(webhooks).values({ appId: app, url: 'https://example.com/hook', events: ['session.completed'], secret: 'whsec_x' });

    // A DEVELOPER admin fixes the owner's app (the role table's tenantApp.edit): each change is recorded.
    await must(developer, 'POST', '/api/updateApp', {
      appId: app,
      appName: 'Owned',
      description: 'Fixed by support',
      country: 'ghana',
      useTemplateTag: false,
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*55#',
      shortCode: '*920*55#',
    });
    const added = (await must(developer, 'POST', '/api/createMenu', { appId: app, userDefinedName: 'extra', displayText: 'More' }))
      .uniqueId;
    await must(developer, 'POST', '/api/updateMenu', { appId: app, uniqueId: home, userDefinedName: 'home', displayText: 'Hello' });
    await must(developer, 'POST', '/api/saveMenuOrder', { appId: app, menuIds: [home, added] });
    await must(developer, 'POST', '/api/saveMenuPositions', { appId: app, direction: 'TB', positions: [{ uniqueId: home, x: 1, y: 2 }] });
    await must(developer, 'GET', `/api/deleteMenu/${added}`);
    await must(developer, 'GET', `/api/deployChanges/${app}`);
    await must(developer, 'POST', '/api/rollbackVersion', { appId: app, version: 1 });
    await must(developer, 'POST', '/actionlogs/clearLogs', { appId: app });
    await must(developer, 'POST', `/api/apps/${app}/webhook/rotate-secret`);
    await must(developer, 'POST', '/api/custom-action/update-code', { uuid: fn, code: 'return 2' });
    await must(developer, 'GET', `/api/custom-action/delete/${fn}`);
    await must(developer, 'POST', '/chatbot/app/update', { appId: bot, appName: 'Ama', description: 'Fixed' });
    await must(developer, 'DELETE', `/api/chatbot/app/${bot}`);
    await must(developer, 'GET', `/deleteApp/${app}`);

    const entries: Entry[] = (await api.get('/api/admin/audit-log')).json().data;
    const byAction = (action: AdminAction) => entries.filter((e) => e.action === action);
    // A two-factor reset needs an enrolled account: two-factor.int.test.ts checks its row.
    for (const action of ADMIN_ACTIONS.filter((a) => a !== 'two_factor_reset')) {
      const rows = byAction(action);
      expect(rows.length, action).toBeGreaterThan(0);
      for (const row of rows) {
        expect([superAdmin.email, developer.email], action).toContain(row.actorEmail);
        expect(row.targetId, action).not.toBe('');
        expect(new Date(row.createdAt).getTime(), action).toBeGreaterThanOrEqual(startedAt - 1000);
      }
    }
    // An admin's change to another account's app names the admin, the app and its owner.
    for (const action of ['app_updated', 'menu_updated', 'app_deployed', 'app_rolled_back', 'app_deleted'] as const)
      expect(byAction(action)[0], action).toMatchObject({
        actorEmail: developer.email,
        targetId: app,
        details: { ownerId: owner.user.id },
      });
    expect(byAction('bot_deleted')[0]).toMatchObject({ actorEmail: developer.email, targetId: bot });
    expect(byAction('custom_action_changed')[0]).toMatchObject({ actorEmail: developer.email, targetId: fn });
    expect(byAction('provider_registered')[0]).toMatchObject({ actorEmail: superAdmin.email, details: { providerId: 'auditnet' } });
    expect(byAction('provider_access_changed')[0]).toMatchObject({ details: { providerId: 'auditnet', allowedSources: ['192.0.2.0/24'] } });
    expect(byAction('extension_created').map((e) => e.details.dialString)).toEqual(expect.arrayContaining(['*920*61#', '*920*62#']));
    // The owner's own changes, and the super admin's to their own app, are not admin actions.
    expect(entries.filter((e) => e.actorEmail === owner.email)).toEqual([]);
    expect(entries.filter((e) => e.targetId === ownApp)).toEqual([]);
  });
});
