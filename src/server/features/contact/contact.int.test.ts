import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, useTestApp } from '../../../../tests/support/test-app';

describeDb('contact requests', () => {
  const t = useTestApp();

  const send = (payload: object) => t.app.inject({ method: 'POST', url: '/api/contactus', payload });
  const valid = { subject: 'I want a Shared Shortcode for Ghana', email: 'kojo@example.com', mobile: '', message: 'Hello' };

  it.each([
    [{ ...valid, email: '' }, 'Email is required'],
    [{ ...valid, email: 'kojo.example.com' }, 'Invalid email'],
    [{ ...valid, subject: ' ' }, 'Subject is required'],
    [{ ...valid, message: '' }, 'Message is required'],
    [{ ...valid, message: 'x'.repeat(501) }, 'Message cannot be longer than 500 characters'],
  ])('refuses %j with "%s" and stores nothing', async (payload, message) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
  });

  it('stores a request (mobile optional) that only admins can read', async () => {
    const res = await send({ subject: 'Talk to sales', email: 'efua@example.com', message: 'x'.repeat(500) });
    expect(res.json().status).toBe('00');

    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/contact-requests' });
    expect(anonymous.statusCode).toBe(401);
    const user = await seedUser(t);
    const forbidden = await t.app.inject({ method: 'GET', url: '/api/admin/contact-requests', headers: user.auth });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().status).toBe('05');

    const admin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/contact-requests', headers: admin.auth });
    expect(list.json().status).toBe('00');
    const rows = list.json().data as Array<{ subject: string; mobile: string; message: string }>;
    expect(rows.filter((r) => r.subject === 'Talk to sales')).toEqual([expect.objectContaining({ mobile: '', message: 'x'.repeat(500) })]);
    // The five refused requests above left nothing behind.
    expect(rows).toHaveLength(1);

    // The role table: support reads them, an admin who only builds apps (DEVELOPER) does not.
    const support = await seedUser(t, { userType: 'internal_admin', roles: ['SUPPORT'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/contact-requests', headers: support.auth })).json().status).toBe('00');
    const developer = await seedUser(t, { userType: 'internal_admin', roles: ['DEVELOPER'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/contact-requests', headers: developer.auth })).statusCode).toBe(403);
  });
});
