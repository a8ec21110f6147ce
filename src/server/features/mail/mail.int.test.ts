import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp } from '../../../../tests/support/test-app';
import { sendMail } from '../../core/mail';

describeDb('mail outbox', () => {
  const t = useTestApp();

  it('lists every mail newest first to super admins only; every other account gets 403', async () => {
    await sendMail(t.app.ctx, { to: 'ama@example.com', subject: 'Reset your password', text: 'Open http://localhost/reset-password/abc' });
    t.advanceClock(10);
    await sendMail(t.app.ctx, { to: 'kofi@example.com', subject: 'Welcome', text: 'Hello Kofi' });

    const superAdmin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/mail-outbox', headers: superAdmin.auth });
    expect(res.statusCode).toBe(200);
    const mails = res.json().data as Array<{ to: string; subject: string; body: string; status: string; createdAt: string }>;
    const ours = mails.filter((m) => m.to === 'ama@example.com' || m.to === 'kofi@example.com');
    expect(ours).toEqual([
      {
        id: expect.any(String),
        to: 'kofi@example.com',
        subject: 'Welcome',
        body: 'Hello Kofi',
        status: 'outbox',
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        to: 'ama@example.com',
        subject: 'Reset your password',
        body: 'Open http://localhost/reset-password/abc',
        status: 'outbox',
        createdAt: expect.any(String),
      },
    ]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/admin/mail-outbox?limit=1', headers: superAdmin.auth });
    expect(limited.json().data).toHaveLength(1);

    // The mails hold password-reset links, an admin's too: no other account reads them, ADMIN included.
    const others = [
      {},
      { userType: 'internal_admin' as const, roles: ['ADMIN'] },
      { userType: 'internal_admin' as const, roles: ['SUPPORT'] },
    ];
    for (const input of others) {
      const user = await seedUser(t, input);
      const refused = await t.app.inject({ method: 'GET', url: '/api/admin/mail-outbox', headers: user.auth });
      expect(refused.statusCode).toBe(403);
      expect(JSON.stringify(refused.json())).not.toContain('reset-password');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail-outbox' })).statusCode).toBe(401);
  });
});
