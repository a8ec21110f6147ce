import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The README's promise, as a process: start on an empty PGlite, seed, serve, shut down cleanly on SIGTERM. The server
 * runs as `npm start` runs it: built into dist/server (scripts/build-server-if-needed.mjs), its threads and files
 * found beside the bundle.
 */
describe('npm start on a fresh data folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dialflow-start-'));
  let child: ChildProcess | undefined;
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-server-if-needed.mjs'], { stdio: 'pipe' });
  }, 60_000);
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startServer(env: Record<string, string>) {
    const proc = spawn(process.execPath, ['--max-semi-space-size=32', 'dist/server/main.mjs'], {
      // Vitest sets MODE=test (Vite's mode); the server's MODE means something else.
      env: { ...process.env, MODE: 'all', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    const ready = new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = output.match(/"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/);
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        }
      }, 50);
      proc.on('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`exited with ${code} before listening:\n${output}`));
      });
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    return { proc, ready, exited, output: () => output };
  }

  it('migrates, seeds a super admin with a printed password, serves, and exits 0 on SIGTERM', async () => {
    const server = startServer({});
    child = server.proc;
    const port = await server.ready;
    const password = server.output().match(/generated password \(shown once\): (\S+)/)?.[1];
    expect(password).toBeTruthy();
    expect(server.output()).toContain('demo user: demo@dialflow.local / demo1234');

    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password }),
    });
    const admin = await login.json();
    expect(admin.data.role).toBe('super_admin');
    // Admins set up two-factor right after that first sign-in: until then the console's calls are refused. The
    // secret is sealed with a key created under DATA_DIR, readable by its owner only.
    const auth = { authorization: `Bearer ${admin.token}` };
    expect((await fetch(`http://127.0.0.1:${port}/api/admin/list`, { headers: auth })).status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/two-factor/setup`, { method: 'POST', headers: auth })).status).toBe(200);
    expect(statSync(join(dataDir, 'two-factor.key')).mode & 0o777).toBe(0o600);
    // The demo users sign in with just their passwords.
    const demo = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@dialflow.local', password: 'demo1234' }),
    });
    expect((await demo.json()).token).toBeTruthy();

    // Featured templates are seeded and run in the emulator without a sign-in.
    const templates = (await (await fetch(`http://127.0.0.1:${port}/featuredTemplates`)).json()).data as Array<{
      appId: string;
      appName: string;
    }>;
    expect(templates.map((t) => t.appName)).toContain('Community Poll');
    expect(templates).toHaveLength(6);
    const poll = templates.find((t) => t.appName === 'Community Poll')!;
    // A visitor's session is bound to the browser id the first answer sets as a cookie.
    let cookie = '';
    const emulate = async (session_mode: string, userdata: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/ussd-emulator/${poll.appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({
          session_id: '20261121120000-Vb2xZr0Hq8N1',
          userdata,
          msisdn: '233241234567',
          session_mode,
          network_id: 'MTN',
        }),
      });
      cookie ||= (res.headers.get('set-cookie') ?? '').split(';')[0]!;
      return res.json();
    };
    expect((await emulate('start', '*920*13#')).text).toMatch(/^Which project/);
    expect(await emulate('continue', '3')).toEqual({
      text: 'Thank you! Your vote for Street lights has been counted.',
      session_mode: 'end',
    });

    // The demo user's sample app is deployed: its production URL answers.
    const demoLogin = await (
      await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@dialflow.local', password: 'demo1234' }),
      })
    ).json();
    const demoApps = (
      await (await fetch(`http://127.0.0.1:${port}/api/getAllApps`, { headers: { authorization: `Bearer ${demoLogin.token}` } })).json()
    ).data;
    expect(demoApps.map((a: { appName: string }) => a.appName)).toEqual(['Mensah Airtime']);
    const live = await fetch(demoApps[0].productionUrl.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'sessionId=demo-1&serviceCode=*920*11%23&phoneNumber=233241234567&networkCode=62001&text=',
    });
    expect(await live.text()).toBe('CON Airtime Top-Up\n1. My number\n2. Another number');

    // A builder's JavaScript runs in the script pool's worker thread, started from the bundle's own file.
    const tested = await fetch(`http://127.0.0.1:${port}/api/custom-action/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demoLogin.token}` },
      body: JSON.stringify({
        code: 'return Number(session.inputs.amount) * 2;',
        sessionValues: { inputs: { amount: '21' } },
        actionResults: {},
      }),
    });
    expect(await tested.json()).toMatchObject({ message: 'Function ran', data: { output: 42, error: null } });

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
  }, 60_000);

  it('keeps the data on restart and does not seed again', async () => {
    const server = startServer({ ADMIN_PASSWORD: 'ignored-now' });
    child = server.proc;
    const port = await server.ready;
    expect(server.output()).not.toContain('Seeded an empty database');
    const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
    expect(health.data.database).toBe('up');
    server.proc.kill('SIGINT');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('backs up while serving traffic, and restores into an empty folder only, with every row', async () => {
    const server = startServer({});
    child = server.proc;
    const port = await server.ready;
    const templates = (await (await fetch(`http://127.0.0.1:${port}/featuredTemplates`)).json()).data as Array<{
      appId: string;
      appName: string;
    }>;
    const poll = templates.find((t) => t.appName === 'Community Poll')!;
    // Sessions run while the copy is taken: each a dial and a vote, each leaving its rows.
    const vote = async (i: number) => {
      const body = (session_mode: string, userdata: string) =>
        JSON.stringify({ session_id: `20261130100000-backup${i}`, userdata, msisdn: '233241234567', session_mode, network_id: 'MTN' });
      const first = await fetch(`http://127.0.0.1:${port}/ussd-emulator/${poll.appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body('start', '*920*13#'),
      });
      const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
      await fetch(`http://127.0.0.1:${port}/ussd-emulator/${poll.appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: body('continue', '1'),
      });
    };
    const { takeBackup, restoreBackup, BackupError } = await import('../../scripts/backup-restore');
    const config = { DATA_DIR: dataDir, PORT: port, DATABASE_URL: undefined };
    const underLoad = join(dataDir, 'under-load.tar');
    const load = Promise.all(Array.from({ length: 20 }, (_, i) => vote(i)));
    expect((await takeBackup(config, underLoad)).source).toBe('the running server');
    await load;
    // The process owns the folder: the copy comes from it, and the token file is its owner's only.
    expect(statSync(join(dataDir, 'backup.token')).mode & 0o777).toBe(0o600);
    expect((await fetch(`http://127.0.0.1:${port}/internal/backup`, { method: 'POST' })).status).toBe(401);
    // After the load, with its rows written: a second copy holds exactly what the server shows.
    // Nothing waiting and nothing in a write under way (a batch being written is not yet in the database).
    const unwritten = async () => {
      const { events } = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()).data;
      return events.buffered + events.writing;
    };
    await expect.poll(unwritten, { timeout: 10_000 }).toBe(0);
    const after = join(dataDir, 'after.tar');
    await takeBackup(config, after);
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // Into a folder that holds a database: refused, nothing touched.
    await expect(restoreBackup(config, after)).rejects.toThrow(BackupError);
    const target = mkdtempSync(join(tmpdir(), 'dialflow-restore-'));
    try {
      const restoredUnderLoad = await restoreBackup({ DATA_DIR: join(target, 'a'), DATABASE_URL: undefined }, underLoad);
      const restored = await restoreBackup({ DATA_DIR: join(target, 'b'), DATABASE_URL: undefined }, after);
      expect(restoredUnderLoad.apps).toBe(restored.apps);
      expect(restoredUnderLoad.session_records).toBeLessThanOrEqual(restored.session_records!);
      // Every vote's session is in the copy taken after the load, as it is in the folder itself.
      expect(restored.session_records).toBeGreaterThanOrEqual(20);
      const { openDatabase } = await import('../db/client');
      const source = await openDatabase({ dataDir: join(dataDir, 'pglite') });
      const { sql } = await import('drizzle-orm');
      for (const table of Object.keys(restored)) {
        const result = await source.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
        expect(Number((result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n), table).toBe(restored[table]);
      }
      await source.close();
      // With no server running, the script opens the folder itself.
      expect((await takeBackup(config, join(target, 'offline.tar'))).source).toBe('the data folder');
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start with a bad setting and names it', async () => {
    const server = startServer({ PORT: 'not-a-port' });
    await expect(server.ready).rejects.toThrow(/PORT/);
    expect(await server.exited).toBe(1);
  }, 30_000);
});
