import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../../db/schema';
import type { Mailer, MailMessage } from '../../../integrations/mail/mailer';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createTestApp, seedUser, type TestApp, useTestApp } from '../../../../tests/support/test-app';
import { loadConfig } from '../../config';
import { SIGN_IN_KEY_FILE } from './auth-limits';
import { hasLeadingZeroBits, SIGN_IN_PROOF_HEADER, solveSignInChallenge } from '../../../shared/api/sign-in-proof';

const SPACES_MESSAGE = 'must have at least 6 characters other than spaces.';
const SAME_MESSAGE = 'New password must be different from the old password.';

/** The newest reset link mailed to `email`, once the background mail work has finished. */
async function readResetLink(t: TestApp, email: string): Promise<{ link: string; token: string }> {
  await t.app.ctx.background.settle();
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  const match = mail?.body.match(/(\S+)\/reset-password\/([\w-]+)/);
  if (!match) throw new Error(`no reset mail for ${email}`);
  return { link: match[0], token: match[2]! };
}

describeDb('accounts', () => {
  const t = useTestApp();

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('registers an account and signs it in with the login response entity', async () => {
    const res = await post('/api/auth/register', {
      fullName: 'Abena Owusu',
      email: 'Abena@Example.com',
      mobileNumber: '233244000111',
      companyName: 'Owusu Ltd',
      password: 'abena-pass',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: '00',
      data: {
        fullName: 'Abena Owusu',
        email: 'abena@example.com',
        role: 'USER',
        userType: 'user',
        merchantUser: false,
        mobileNumber: '233244000111',
      },
    });
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
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'fullName', 'password']);
  });

  it('says an email is required when none is given, and invalid only when one is (register, forgot password)', async () => {
    const registration = { fullName: 'Esi Badu', mobileNumber: '233244000222', password: 'esi-pass-1' };
    for (const email of ['', '   ']) {
      const res = await post('/api/auth/register', { ...registration, email });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        status: '02',
        message: 'Email is required',
        errors: [{ field: 'email', message: 'Email is required' }],
      });
      expect((await post('/api/auth/forgot-password', { email })).json()).toMatchObject({ status: '02', message: 'Email is required' });
    }
    expect((await post('/api/auth/register', { ...registration, email: 'esi.example.com' })).json()).toMatchObject({
      message: 'Invalid email',
      errors: [{ field: 'email', message: 'Invalid email' }],
    });
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

  it('changes the password with its messages and revokes old tokens', async () => {
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

  const readResetToken = async (email: string) => (await readResetLink(t, email)).token;

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

  it('mails the reset link to the configured origin, whatever Host header the request carries', async () => {
    const { email } = await seedUser(t);
    const res = await post('/api/auth/forgot-password', { email }, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    expect(res.statusCode).toBe(200);
    const { link } = await readResetLink(t, email);
    // PUBLIC_URL is unset here: the origin comes from the configured port, fixed at boot.
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\/[\w-]{43}$/);
  });

  it('refuses a password of spaces on register, change and reset, and a short one with the length message', async () => {
    const registration = { fullName: 'Kofi Spaces', email: 'spaces@example.com', mobileNumber: '1', companyName: '' };
    const blank = await post('/api/auth/register', { ...registration, password: '      ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ status: '02', field: 'password', message: `Password ${SPACES_MESSAGE}` });
    // Spaces do not count: six spaces around three letters is still too weak; spaces inside a password are kept.
    expect((await post('/api/auth/register', { ...registration, password: '   abc   ' })).json().message).toBe(
      `Password ${SPACES_MESSAGE}`,
    );
    const short = await post('/api/auth/register', { ...registration, password: '12345' });
    expect(short.json().message).toBe('Password must be at least 6 characters long.');
    expect((await post('/api/auth/register', { ...registration, password: ' my pass word ' })).statusCode).toBe(200);
    expect((await post('/api/auth/login', { email: registration.email, password: ' my pass word ' })).statusCode).toBe(200);

    const { email, auth } = await seedUser(t, { password: 'first-pass' });
    const change = await post('/api/changePassword', { password: 'first-pass', newPassword: '        ' }, auth);
    expect(change.json()).toMatchObject({ status: '02', message: `New password ${SPACES_MESSAGE}` });
    await post('/api/auth/forgot-password', { email });
    const reset = await post('/api/auth/reset-password', { token: await readResetToken(email), password: '       ' });
    expect(reset.json()).toMatchObject({ status: '02', message: `New password ${SPACES_MESSAGE}` });
    expect((await post('/api/auth/login', { email, password: 'first-pass' })).statusCode).toBe(200);
  });

  it('refuses a new password equal to the old one on change and on reset, and keeps the reset link usable', async () => {
    const { email, auth, token } = await seedUser(t, { password: 'same-pass' });
    const change = await post('/api/changePassword', { password: 'same-pass', newPassword: 'same-pass' }, auth);
    expect(change.statusCode).toBe(400);
    expect(change.json()).toMatchObject({ status: '02', field: 'newPassword', message: SAME_MESSAGE });
    expect((await me(token)).statusCode).toBe(200);

    await post('/api/auth/forgot-password', { email });
    const resetToken = await readResetToken(email);
    const same = await post('/api/auth/reset-password', { token: resetToken, password: 'same-pass' });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ status: '02', message: SAME_MESSAGE });
    expect((await me(token)).statusCode).toBe(200);
    expect((await post('/api/auth/reset-password', { token: resetToken, password: 'other-pass' })).json().status).toBe('00');
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
  const t = useTestApp({ LOGIN_RATE_LIMIT: 3 });

  it('answers 429 after too many login and forgot-password attempts', async () => {
    const attempt = (url: string) => t.app.inject({ method: 'POST', url, payload: { email: 'a@b.co', password: 'x' } });
    for (let i = 0; i < 3; i++) expect((await attempt('/api/auth/login')).statusCode).toBe(401);
    const blocked = await attempt('/api/auth/login');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ status: '05', message: 'Too many attempts. Please wait a minute and try again.' });
    for (let i = 0; i < 3; i++) expect((await attempt('/api/auth/forgot-password')).statusCode).toBe(200);
    expect((await attempt('/api/auth/forgot-password')).statusCode).toBe(429);
  });
});

describeDb('forgot-password timing', () => {
  // A mailer that holds every message until the test lets it go (an SMTP server that takes its time).
  const sent: MailMessage[] = [];
  let releaseMail!: () => void;
  const mailReleased = new Promise<void>((resolve) => (releaseMail = resolve));
  const heldMailer: Mailer = {
    kind: 'smtp',
    async send(message) {
      sent.push(message);
      await mailReleased;
      return 'sent';
    },
  };
  const t = useTestApp({}, { mailer: heldMailer });
  // Declared after useTestApp's, so it runs before the app closes (after hooks run in reverse).
  afterAll(() => releaseMail());

  it('answers a known email without waiting for its lookup, token or mail, exactly as an unknown one', async () => {
    const { email } = await seedUser(t);
    const ask = (address: string) => t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: address } });
    // The mail is held until releaseMail() below: a reply that waited for it would never come, and the test's
    // timeout would end it.
    const [known, unknown] = await Promise.all([ask(email), ask('ghost@example.com')]);
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.headers['content-length']).toBe(unknown.headers['content-length']);

    releaseMail();
    await t.app.ctx.background.settle();
    expect(sent.map((m) => m.to)).toEqual([email]);
  });
});

describeDb('sign-in limits behind a proxy', () => {
  // TRUST_PROXY=true as an operator writes it: one proxy (here app.inject's 127.0.0.1) appends the address it
  // saw to whatever X-Forwarded-For the client sent.
  const behindProxy = {
    TRUST_PROXY: loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY,
    LOGIN_RATE_LIMIT: 3,
    LOGIN_ADDRESS_RATE_LIMIT: 5,
    LOGIN_GLOBAL_RATE_LIMIT: 50,
  };
  const apps: TestApp[] = [];
  async function start(): Promise<TestApp> {
    const t = await createTestApp(behindProxy);
    apps.push(t);
    return t;
  }
  afterAll(() => Promise.all(apps.map((t) => t.close())));

  const login = (t: TestApp, email: string, password: string, forwardedFor: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'x-forwarded-for': forwardedFor } });

  it('counts the address our proxy saw, not the one the client wrote', async () => {
    const t = await start();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await login(t, `target${i}@example.com`, 'Summer2024!', `10.9.${i}.1, 203.0.113.7`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    // Another client behind the same proxy is not affected.
    expect((await login(t, 'someone@example.com', 'x', '203.0.113.8')).statusCode).toBe(401);
  });

  it('stops a spray of one password over 200 emails from 200 addresses at the global ceiling', async () => {
    const t = await start();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await login(t, `user${i}@example.com`, 'Summer2024!', `198.51.${i >> 8}.${i & 255}`)).statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.indexOf(429)).toBe(50);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
  });

  it('locks an account guessed at from many addresses; its owner gets back in through the reset link', async () => {
    const t = await start();
    const { email, password } = await seedUser(t); // its sign-in is one of the 3 a minute
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(t, email, `guess-${i}`, `192.0.2.${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 429, 429, 429]);
    expect((await login(t, email, password, '203.0.113.50')).statusCode).toBe(429);

    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).statusCode).toBe(200);
    const { token } = await readResetLink(t, email);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'brand-new-pass' } });
    expect(reset.json().status).toBe('00');
    expect((await login(t, email, 'brand-new-pass', '203.0.113.50')).statusCode).toBe(200);
  });

  it('limits old-password guesses on changePassword', async () => {
    const t = await start();
    const { email, password, auth } = await seedUser(t);
    const change = (old: string) =>
      t.app.inject({ method: 'POST', url: '/api/changePassword', payload: { password: old, newPassword: 'taken-over' }, headers: auth });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await change(`guess-${i}`)).statusCode);
    expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    // The right old password waits its turn too; nothing was changed.
    expect((await change(password)).statusCode).toBe(429);
    expect((await login(t, email, password, '203.0.113.60')).statusCode).toBe(200);
  });
});

describeDb('sign-in while the platform ceiling is used up', () => {
  // Four addresses of 5 attempts each use up the ceiling of 20, as four machines of 30 use up the default 100.
  const t = useTestApp({
    TRUST_PROXY: loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY,
    LOGIN_RATE_LIMIT: 3,
    LOGIN_ADDRESS_RATE_LIMIT: 5,
    LOGIN_GLOBAL_RATE_LIMIT: 20,
  });
  const login = (email: string, password: string, forwardedFor: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': forwardedFor, ...headers },
    });
  const sha256 = (text: string) => createHash('sha256').update(text).digest();

  it('lets a known device sign in at once, and a new one after its proof of work, while a spray holds the ceiling', async () => {
    const known = await seedUser(t);
    const stranger = await seedUser(t);
    // The known user signed in from this browser before: the reply marks it as a known device of that account.
    const first = await login(known.email, known.password, '203.0.113.10');
    expect(first.statusCode).toBe(200);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^df_device=\d+\.[\w-]{43}; Path=\/api; Max-Age=7776000; HttpOnly; SameSite=Strict$/);
    const knownCookie = setCookie.split(';')[0]!;
    // A registration signs in too, and marks its browser the same way.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        fullName: 'New Comer',
        email: `newcomer-${randomUUID()}@example.com`,
        mobileNumber: '233200000000',
        password: 'secret-123',
      },
    });
    expect(registered.statusCode).toBe(200);
    expect(String(registered.headers['set-cookie'])).toMatch(/^df_device=/);

    const spray: number[] = [];
    for (let a = 0; a < 4; a++)
      for (let i = 0; i < 6; i++) spray.push((await login(`sprayed${a}-${i}@example.com`, 'Summer2024!', `192.0.2.${a + 1}`)).statusCode);
    expect(spray.filter((s) => s === 401).length).toBeLessThan(20);
    expect(spray.at(-1)).toBe(429);

    // The known device: straight in, from an address it never used, however full the ceiling.
    expect((await login(known.email, known.password, '198.51.100.1', { cookie: knownCookie })).statusCode).toBe(200);
    // Its cookie names its own account only.
    const borrowed = await login(stranger.email, stranger.password, '198.51.100.2', { cookie: knownCookie });
    expect(borrowed.statusCode).toBe(429);

    // A new browser is asked for a proof of work, not refused.
    const asked = await login(stranger.email, stranger.password, '198.51.100.3');
    expect(asked.statusCode).toBe(429);
    const { challenge, ...envelope } = asked.json();
    expect(envelope).toEqual({ status: '05', message: 'Too many attempts. Please wait a minute and try again.' });
    expect(challenge).toEqual({ token: expect.stringMatching(/^v1\./), difficulty: 16 });
    const proof = await solveSignInChallenge(challenge, sha256);
    const proved = await login(stranger.email, stranger.password, '198.51.100.3', { [SIGN_IN_PROOF_HEADER]: proof });
    expect(proved.statusCode).toBe(200);
    expect(proved.json().token).toEqual(expect.any(String));

    // A proof is worth nothing for another email, nor with another nonce.
    expect(
      (await login('someone-else@example.com', 'Summer2024!', '198.51.100.4', { [SIGN_IN_PROOF_HEADER]: proof })).json().challenge,
    ).toBeDefined();
    const [token = ''] = proof.split(':');
    let nonce = Number(proof.split(':')[1]) + 1;
    while (hasLeadingZeroBits(sha256(`${token}:${nonce}`), 16)) nonce += 1;
    const wrong = await login(stranger.email, stranger.password, '198.51.100.5', { [SIGN_IN_PROOF_HEADER]: `${token}:${nonce}` });
    expect(wrong.statusCode).toBe(429);
    // Nor once its challenge has expired (5 minutes on the server's clock).
    t.advanceClock(5 * 60_000 + 1);
    const late = await login(stranger.email, stranger.password, '198.51.100.3', { [SIGN_IN_PROOF_HEADER]: proof });
    expect(late.statusCode).toBe(429);
    expect(late.json().challenge).toBeDefined();
  });
});

describeDb('the known-device key when SIGN_IN_SECRET is unset', () => {
  const apps: TestApp[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'df-sign-in-key-'));
  const limits = {
    SIGN_IN_SECRET: undefined,
    TRUST_PROXY: loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY,
    LOGIN_ADDRESS_RATE_LIMIT: 2,
  };
  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async (DATA_DIR: string) => {
    const t = await createTestApp({ ...limits, DATA_DIR });
    apps.push(t);
    return t;
  };
  const login = (t: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': '192.0.2.77', ...headers },
    });

  it('is a key file under DATA_DIR, so a restarted (or second) process still knows the device', async () => {
    const first = await start(dataDir);
    const email = `returning-${randomUUID()}@example.com`;
    await seedUser(first, { email });
    const cookie = String((await login(first, email, 'secret-123')).headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^df_device=/);
    expect(statSync(join(dataDir, SIGN_IN_KEY_FILE)).mode & 0o777).toBe(0o600);

    // Another process on the same DATA_DIR (as after a restart): its address limit used up, the device still passes.
    const second = await start(dataDir);
    await seedUser(second, { email });
    for (let i = 0; i < 3; i++) await login(second, `sprayed-${i}@example.com`, 'guess');
    expect((await login(second, email, 'secret-123')).statusCode).toBe(429);
    expect((await login(second, email, 'secret-123', { cookie })).statusCode).toBe(200);

    // A process with its own key does not take the cookie.
    const elsewhere = await start(mkdtempSync(join(dataDir, 'other-')));
    await seedUser(elsewhere, { email });
    for (let i = 0; i < 3; i++) await login(elsewhere, `sprayed-${i}@example.com`, 'guess');
    expect((await login(elsewhere, email, 'secret-123', { cookie })).statusCode).toBe(429);
  });
});

describeRedis('sign-in limits across processes', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++)
      apps.push(
        await createTestApp({ REDIS_URL: testRedisUrl, TRUST_PROXY: loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY, LOGIN_RATE_LIMIT: 3 }),
      );
  });
  afterAll(() => Promise.all(apps.map((t) => t.close())));

  it("counts an account's attempts once for the fleet, whichever process and address they come from", async () => {
    const email = `fleet-${randomUUID()}@example.com`; // a fresh count, whatever earlier runs left in Redis
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await apps[i % 2]!.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'guess' },
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });
});
