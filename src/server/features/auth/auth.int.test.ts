import { afterAll, beforeAll, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';

describeDb('accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('registers an account and signs it in with the login response entity', async () => {
    const res = await post('/api/auth/register', { fullName: 'Abena Owusu', email: 'Abena@Example.com', mobileNumber: '233244000111', companyName: 'Owusu Ltd', password: 'abena-pass' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: '00', data: { fullName: 'Abena Owusu', email: 'abena@example.com', role: 'USER', userType: 'user', merchantUser: false, mobileNumber: '233244000111' } });
    expect(body.token).toMatch(/^[\w-]{43}$/);
    expect(body.data).not.toHaveProperty('passwordHash');
    expect((await me(body.token)).json().data.email).toBe('abena@example.com');
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const payload = { fullName: 'Kwame', email: 'dup@example.com', mobileNumber: '1', companyName: '', password: 'secret-1' };
    expect((await post('/api/auth/register', payload)).statusCode).toBe(200);
    const again = await post('/api/auth/register', { ...payload, email: 'DUP@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ status: '02', message: 'An account with this email already exists' });
  });

  it('refuses a registration with bad fields, naming the field', async () => {
    const res = await post('/api/auth/register', { fullName: '', email: 'not-an-email', mobileNumber: '1', password: '123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe('02');
    expect(res.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'fullName', 'password']);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const { email } = await seedUser(t);
    const wrong = await post('/api/auth/login', { email, password: 'not-it' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.com', password: 'not-it' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ status: '05', message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('rejects a token after logout', async () => {
    const { token, auth } = await seedUser(t);
    expect((await me(token)).statusCode).toBe(200);
    expect((await post('/api/auth/logout', undefined, auth)).json().status).toBe('00');
    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(after.json().status).toBe('05');
  });

  it('rejects a missing, malformed or made-up token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
    expect((await me('x'.repeat(43))).statusCode).toBe(401);
  });

  it('changes the password with the spec messages and revokes old tokens', async () => {
    const { email, token, auth } = await seedUser(t, { password: 'first-pass' });
    const missingOld = await post('/api/changePassword', { password: '', newPassword: 'second-pass' }, auth);
    expect(missingOld.json()).toMatchObject({ status: '02', message: 'Old password is required.' });
    const short = await post('/api/changePassword', { password: 'first-pass', newPassword: '12345' }, auth);
    expect(short.json()).toMatchObject({ status: '02', message: 'New password must be at least 6 characters long.' });
    const wrongOld = await post('/api/changePassword', { password: 'nope-nope', newPassword: 'second-pass' }, auth);
    expect(wrongOld.json()).toEqual({ status: '02', message: 'Old password is incorrect.' });
    expect((await me(token)).statusCode).toBe(200);

    const ok = await post('/api/changePassword', { password: 'first-pass', newPassword: 'second-pass' }, auth);
    expect(ok.json()).toMatchObject({ status: '00', message: 'Password changed successfully.' });
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(ok.json().token)).statusCode).toBe(200);
    expect((await post('/api/auth/login', { email, password: 'first-pass' })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email, password: 'second-pass' })).statusCode).toBe(200);
  });

  async function readResetToken(email: string): Promise<string> {
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
    const match = mail?.body.match(/\/reset-password\/([\w-]+)/);
    if (!match) throw new Error(`no reset mail for ${email}`);
    return match[1]!;
  }

  it('answers forgot-password the same for a known and an unknown email', async () => {
    const { email } = await seedUser(t);
    const known = await post('/api/auth/forgot-password', { email });
    const unknown = await post('/api/auth/forgot-password', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await readResetToken(email)).toBeTruthy();
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ghost@example.com'))).toHaveLength(0);
  });

  it('resets a password once with a reset token, revoking sessions; a reused token is refused', async () => {
    const { email, token } = await seedUser(t, { password: 'old-secret' });
    await post('/api/auth/forgot-password', { email });
    const resetToken = await readResetToken(email);
    const first = await post('/api/auth/reset-password', { token: resetToken, password: 'new-secret' });
    expect(first.json().status).toBe('00');
    expect((await me(token)).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email, password: 'new-secret' })).statusCode).toBe(200);
    const reused = await post('/api/auth/reset-password', { token: resetToken, password: 'third-secret' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().status).toBe('02');
    expect((await post('/api/auth/login', { email, password: 'third-secret' })).statusCode).toBe(401);
  });

  it('refuses a reset token after 30 minutes', async () => {
    const { email } = await seedUser(t, { password: 'old-secret' });
    await post('/api/auth/forgot-password', { email });
    const resetToken = await readResetToken(email);
    t.advanceClock(31 * 60_000);
    try {
      const late = await post('/api/auth/reset-password', { token: resetToken, password: 'new-secret' });
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toMatch(/invalid or has expired/);
    } finally {
      t.advanceClock(-31 * 60_000);
    }
  });

  it('lets only merchant users through the merchant login', async () => {
    const merchant = await seedUser(t, { userType: 'merchant', roles: ['MERCHANT'] });
    const res = await post('/api/merchant/login', { email: merchant.email, password: merchant.password });
    expect(res.json()).toMatchObject({ status: '00', data: { userType: 'merchant', merchantUser: true, role: 'MERCHANT' } });
    const plain = await seedUser(t);
    expect((await post('/api/merchant/login', { email: plain.email, password: plain.password })).statusCode).toBe(401);
  });

  it('reports each role in the login response', async () => {
    const admin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    const superAdmin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });
    const bot = await seedUser(t, { roles: ['CHATBOT'] });
    expect((await me(admin.token)).json().data.role).toBe('ADMIN');
    expect((await me(superAdmin.token)).json().data.role).toBe('super_admin');
    expect((await me(bot.token)).json().data.role).toBe('CHATBOT');
  });
});

describeDb('login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: 3 });
  });
  afterAll(() => t.close());

  it('answers 429 after too many login and forgot-password attempts', async () => {
    const attempt = (url: string) => t.app.inject({ method: "POST", url, payload: { email: "a@b.co", password: "x" } });
    for (let i = 0; i < 3; i++) expect((await attempt('/api/auth/login')).statusCode).toBe(401);
    const blocked = await attempt('/api/auth/login');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ status: '05', message: 'Too many attempts. Please wait a minute and try again.' });
    for (let i = 0; i < 3; i++) expect((await attempt('/api/auth/forgot-password')).statusCode).toBe(200);
    expect((await attempt('/api/auth/forgot-password')).statusCode).toBe(429);
  });
});
