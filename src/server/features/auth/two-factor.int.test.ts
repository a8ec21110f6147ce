import { and, desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, twoFactorSecrets } from '../../../db/schema';
import { TWO_FACTOR_MESSAGES } from '../../../shared/api/two-factor.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from the server's clock. */
function codeAt(t: TestApp, secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.app.ctx.now().getTime() + steps * STEP_MS });
}

function createCalls(t: TestApp) {
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
  const login = (user: Pick<SeededUser, 'email' | 'password'>, extra: object = {}, url = '/api/auth/login') =>
    post(url, { email: user.email, password: user.password, ...extra });
  const secondStep = (challengeId: string, body: object) => post('/api/auth/login/two-factor', { challengeId, ...body });

  /** Enrols the user through the API; returns the secret and the recovery codes. The clock moves one step on. */
  async function enrol(user: SeededUser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await post('/api/auth/two-factor/setup', {}, user.auth);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json().data;
    const enabled = await post('/api/auth/two-factor/enable', { code: codeAt(t, secret) }, user.auth);
    expect(enabled.statusCode, enabled.body).toBe(200);
    t.advanceClock(STEP_MS);
    return { secret, recoveryCodes: enabled.json().data.recoveryCodes };
  }

  /** A password sign-in that must stop at the second step; returns its challenge id. */
  async function startChallenge(user: SeededUser, extra: object = {}, url?: string): Promise<string> {
    const res = await login(user, extra, url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: '00', twoFactorRequired: true, expiresIn: 300 });
    expect(body).not.toHaveProperty('token');
    // The right password makes the browser a known device for the sign-in limits, as a token would.
    expect(String(res.headers['set-cookie'])).toMatch(/^df_device=/);
    return body.challengeId;
  }

  return { post, get, login, secondStep, enrol, startChallenge };
}

describeDb('two-factor sign-in', () => {
  const t = useTestApp();
  const calls = createCalls(t);
  const { post, get, login, secondStep, enrol, startChallenge } = calls;

  describe('enrolment and the second step', () => {
    const user = useUser(t);

    it('enrols with a setup, a first code and ten recovery codes; the secret is stored sealed', async () => {
      const status = await get('/api/auth/two-factor', user.auth);
      expect(status.json().data).toEqual({ enabled: false, required: false, recommended: false, recoveryCodesLeft: 0 });
      const setup = await post('/api/auth/two-factor/setup', {}, user.auth);
      const data = setup.json().data;
      expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(data.otpauthUri).toBe(
        `otpauth://totp/Dialflow:${encodeURIComponent(user.email)}?issuer=Dialflow&secret=${data.secret}&algorithm=SHA1&digits=6&period=30`,
      );
      expect(data.qrDataUrl).toMatch(/^data:image\/png;base64,/);
      const [row] = await t.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.user.id));
      expect(row!.sealedSecret).toMatch(/^v1:/);
      expect(row!.sealedSecret).not.toContain(data.secret);

      // Not on yet: a password sign-in still answers the token.
      expect((await login(user)).json().token).toBeTruthy();
      const wrong = await post('/api/auth/two-factor/enable', { code: codeAt(t, data.secret, 3) }, user.auth);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);

      const enabled = await post('/api/auth/two-factor/enable', { code: codeAt(t, data.secret) }, user.auth);
      expect(enabled.statusCode, enabled.body).toBe(200);
      const codes: string[] = enabled.json().data.recoveryCodes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
      expect((await get('/api/auth/two-factor', user.auth)).json().data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
      // A second setup would replace the secret of an enrolled account.
      expect((await post('/api/auth/two-factor/setup', {}, user.auth)).statusCode).toBe(409);
      t.advanceClock(STEP_MS);

      const challengeId = await startChallenge(user);
      const done = await secondStep(challengeId, { code: codeAt(t, data.secret) });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ status: '00', data: { email: user.email } });
      expect(done.json()).not.toHaveProperty('deviceToken');
      const me = await get('/api/auth/me', { authorization: `Bearer ${done.json().token}` });
      expect(me.statusCode).toBe(200);
      // The challenge is used up.
      t.advanceClock(STEP_MS);
      const again = await secondStep(challengeId, { code: codeAt(t, data.secret) });
      expect(again.statusCode).toBe(401);
      expect(again.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
    });
  });

  it('refuses a code used once, on a new challenge too', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    const code = codeAt(t, secret);
    expect((await secondStep(await startChallenge(user), { code })).statusCode).toBe(200);
    const replay = await secondStep(await startChallenge(user), { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
  });

  it('accepts the codes of one step either side of now, and no further', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    // Well past the enrolment's step, so the step before now is one never used.
    t.advanceClock(2 * STEP_MS);
    const challengeId = await startChallenge(user);
    for (const steps of [-2, 2]) {
      const res = await secondStep(challengeId, { code: codeAt(t, secret, steps) });
      expect(res.statusCode, `${steps} steps`).toBe(401);
    }
    expect((await secondStep(challengeId, { code: codeAt(t, secret, -1) })).statusCode).toBe(200);
    // A later step is still new: the code of the next step is accepted after the previous one.
    expect((await secondStep(await startChallenge(user), { code: codeAt(t, secret, 1) })).statusCode).toBe(200);
  });

  it('refuses a challenge after five wrong codes, and an expired one', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    const challengeId = await startChallenge(user);
    for (let i = 0; i < 5; i++) expect((await secondStep(challengeId, { code: '000000' })).statusCode).toBe(401);
    const sixth = await secondStep(challengeId, { code: codeAt(t, secret) });
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json().message).toBe(TWO_FACTOR_MESSAGES.tooManyCodes);

    const stale = await startChallenge(user);
    t.advanceClock(5 * 60_000 + 1000);
    const late = await secondStep(stale, { code: codeAt(t, secret) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
  });

  it("counts an account's codes a minute across challenges (LOGIN_RATE_LIMIT), so new challenges buy no more guesses", async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    for (let round = 0; round < 2; round++) {
      const challengeId = await startChallenge(user);
      for (let i = 0; i < 5; i++) expect((await secondStep(challengeId, { code: '000000' })).statusCode).toBe(401);
    }
    const limited = await secondStep(await startChallenge(user), { code: codeAt(t, secret) });
    expect(limited.statusCode).toBe(429);
    // Another account is not held back by this one's count.
    const other = await seedUser(t);
    const otherSecret = (await enrol(other)).secret;
    expect((await secondStep(await startChallenge(other), { code: codeAt(t, otherSecret) })).statusCode).toBe(200);
  });

  it('takes each recovery code once, in any case and with or without dashes', async () => {
    const user = await seedUser(t);
    const { recoveryCodes } = await enrol(user);
    const [first, second] = recoveryCodes as [string, string];
    expect((await secondStep(await startChallenge(user), { recoveryCode: first })).statusCode).toBe(200);
    const reused = await secondStep(await startChallenge(user), { recoveryCode: first });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(TWO_FACTOR_MESSAGES.invalidRecoveryCode);
    const typed = second.replaceAll('-', ' ').toUpperCase();
    expect((await secondStep(await startChallenge(user), { recoveryCode: typed })).statusCode).toBe(200);
    expect((await get('/api/auth/two-factor', user.auth)).json().data.recoveryCodesLeft).toBe(8);
    // A code and a recovery code together, or neither, is a bad request.
    const both = await secondStep(await startChallenge(user), { code: '123456', recoveryCode: first });
    expect(both.statusCode).toBe(400);
  });

  it('regenerates recovery codes with a code: the old ones stop working', async () => {
    const user = await seedUser(t);
    const { secret, recoveryCodes } = await enrol(user);
    const refused = await post('/api/auth/two-factor/recovery-codes', { code: '000000' }, user.auth);
    expect(refused.statusCode).toBe(400);
    const fresh = await post('/api/auth/two-factor/recovery-codes', { code: codeAt(t, secret) }, user.auth);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const newCodes: string[] = fresh.json().data.recoveryCodes;
    expect(newCodes).toHaveLength(10);
    expect((await secondStep(await startChallenge(user), { recoveryCode: recoveryCodes[0]! })).statusCode).toBe(401);
    expect((await secondStep(await startChallenge(user), { recoveryCode: newCodes[0]! })).statusCode).toBe(200);
  });

  it('a remembered device skips the second step until revoked; another account cannot use it', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/two-factor',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux) Test browser' },
      payload: { challengeId: await startChallenge(user), code: codeAt(t, secret), rememberDevice: true },
    });
    const deviceToken: string = done.json().deviceToken;
    expect(deviceToken).toMatch(/^[\w-]{43}$/);

    const skipped = await login(user, { deviceToken });
    expect(skipped.json()).toMatchObject({ status: '00', token: expect.any(String), data: { email: user.email } });

    const stranger = await seedUser(t);
    await enrol(stranger);
    await startChallenge(stranger, { deviceToken });

    const devices = await get('/api/auth/two-factor/devices', user.auth);
    expect(devices.json().data).toEqual([
      expect.objectContaining({ label: 'Mozilla/5.0 (X11; Linux) Test browser', lastUsedAt: expect.any(String) }),
    ]);
    const uuid = devices.json().data[0].uuid;
    expect((await get('/api/auth/two-factor/devices', stranger.auth)).json().data).toEqual([]);
    const foreign = await post('/api/auth/two-factor/devices/revoke', { uuid }, stranger.auth);
    expect(foreign.statusCode).toBe(404);
    expect((await post('/api/auth/two-factor/devices/revoke', { uuid: 'not-a-uuid' }, user.auth)).statusCode).toBe(404);

    expect((await post('/api/auth/two-factor/devices/revoke', { uuid }, user.auth)).statusCode).toBe(200);
    await startChallenge(user, { deviceToken });
    expect((await get('/api/auth/two-factor/devices', user.auth)).json().data).toEqual([]);
  });

  it('a remembered device expires after 30 days', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    const done = await secondStep(await startChallenge(user), { code: codeAt(t, secret), rememberDevice: true });
    const { deviceToken } = done.json();
    t.advanceClock(30 * 86_400_000 + 1000);
    await startChallenge(user, { deviceToken });
  });

  it('turns off with the password and a code, and then signs in with the password alone', async () => {
    const user = await seedUser(t);
    const { secret } = await enrol(user);
    const wrongPassword = await post('/api/auth/two-factor/disable', { password: 'nope-nope', code: codeAt(t, secret) }, user.auth);
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(TWO_FACTOR_MESSAGES.wrongPassword);
    const wrongCode = await post('/api/auth/two-factor/disable', { password: user.password, code: '000000' }, user.auth);
    expect(wrongCode.statusCode).toBe(400);
    await startChallenge(user);
    const off = await post('/api/auth/two-factor/disable', { password: user.password, code: codeAt(t, secret) }, user.auth);
    expect(off.statusCode, off.body).toBe(200);
    expect((await login(user)).json().token).toBeTruthy();
  });

  it('asks merchant users for the second step at the merchant login too, and recommends it to them', async () => {
    const merchant = await seedUser(t, { userType: 'merchant', roles: ['MERCHANT'] });
    expect((await get('/api/auth/two-factor', merchant.auth)).json().data).toMatchObject({ recommended: true, required: false });
    const { secret } = await enrol(merchant);
    const challengeId = await startChallenge(merchant, {}, '/api/merchant/login');
    const done = await secondStep(challengeId, { code: codeAt(t, secret) });
    expect(done.json()).toMatchObject({ status: '00', data: { merchantUser: true } });
  });

  it('leaves the login response entity of users without two-factor as it was', async () => {
    const user = await seedUser(t);
    const body = (await login(user)).json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'status', 'token']);
  });
});

describeDb('two-factor for admins', () => {
  const t = useTestApp({ TWO_FACTOR_REQUIRED_FOR_ADMINS: true });
  const { post, get, login, secondStep, enrol, startChallenge } = createCalls(t);
  const superAdmin = useUser(t, { userType: 'internal_admin', roles: ['ADMIN', 'super_admin'] });

  it('an admin signs in with the password, then every route but enrolment answers 403 until enrolled', async () => {
    const admin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    // seedUser signed in with the password alone: the token is there (the README's first sign-in).
    const blocked = await get('/api/admin/contact-requests', admin.auth);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ status: '05', message: TWO_FACTOR_MESSAGES.enrolmentRequired });
    expect((await get('/api/getAllApps', admin.auth)).statusCode).toBe(403);
    expect((await get('/api/auth/two-factor/devices', admin.auth)).statusCode).toBe(403);
    expect((await get('/api/auth/me', admin.auth)).statusCode).toBe(200);
    expect((await get('/api/auth/two-factor', admin.auth)).json().data).toMatchObject({ enabled: false, required: true });

    const { secret } = await enrol(admin);
    expect((await get('/api/admin/contact-requests', admin.auth)).statusCode).toBe(200);
    // Required: it cannot be turned off.
    const off = await post('/api/auth/two-factor/disable', { password: admin.password, code: codeAt(t, secret) }, admin.auth);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.requiredForAdmins);
    // The next sign-in asks for the code.
    expect((await secondStep(await startChallenge(admin), { code: codeAt(t, secret, 1) })).statusCode).toBe(200);
  });

  it('other users are not held back', async () => {
    const user = await seedUser(t);
    expect((await get('/api/getAllApps', user.auth)).statusCode).toBe(200);
    expect((await get('/api/auth/two-factor', user.auth)).json().data.required).toBe(false);
  });

  it("an admin resets a user's two-factor: audited, mailed, and the user signs in with the password alone", async () => {
    await enrol(superAdmin);
    const user = await seedUser(t);
    await enrol(user);
    const reset = await post('/api/admin/two-factor/reset', { userUuid: user.user.id }, superAdmin.auth);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(user)).json().token).toBeTruthy();
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.user.id), eq(auditLog.action, 'two_factor_reset')));
    expect(entry).toMatchObject({ actorEmail: superAdmin.email, details: { email: user.email } });
    await t.app.ctx.background.settle();
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email)).orderBy(desc(mailOutbox.createdAt));
    expect(mail?.subject).toBe('Your Dialflow two-factor sign-in was reset');
    // Nothing left to reset.
    expect((await post('/api/admin/two-factor/reset', { userUuid: user.user.id }, superAdmin.auth)).statusCode).toBe(400);
  });

  it("only a super admin resets an admin's; other admin roles reset nobody; unknown users answer 404", async () => {
    const admin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    await enrol(admin);
    const support = await seedUser(t, { userType: 'internal_admin', roles: ['SUPPORT'] });
    await enrol(support);
    const user = await seedUser(t);
    await enrol(user);

    const onSuper = await post('/api/admin/two-factor/reset', { userUuid: superAdmin.user.id }, admin.auth);
    expect(onSuper.statusCode).toBe(403);
    expect(onSuper.json().message).toBe(TWO_FACTOR_MESSAGES.resetAdminNeedsSuperAdmin);
    expect((await post('/api/admin/two-factor/reset', { userUuid: user.user.id }, support.auth)).statusCode).toBe(403);
    expect((await post('/api/admin/two-factor/reset', { userUuid: admin.user.id }, admin.auth)).statusCode).toBe(400);
    expect((await post('/api/admin/two-factor/reset', { userUuid: '00000000-0000-4000-8000-000000000000' }, admin.auth)).statusCode).toBe(
      404,
    );
    expect((await post('/api/admin/two-factor/reset', { userUuid: 'nope' }, admin.auth)).statusCode).toBe(404);
    // Refusals changed nothing: the user still needs the code.
    await startChallenge(user);
    // An ADMIN may reset a user who is not an admin.
    expect((await post('/api/admin/two-factor/reset', { userUuid: user.user.id }, admin.auth)).statusCode).toBe(200);
  });
});
