import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/server/config';
import { findProvidedTemplates } from './test-db';

/** A Ghanaian mobile number drawn from the session id: the same session always dials from the same number. */
export function phoneNumberOf(sessionId: string): string {
  const digits = createHash('sha256').update(sessionId).digest().readUInt32BE(0) % 100_000_000;
  return `+2332${String(digits).padStart(8, '0')}`;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  users: Array<{ auth: Record<string, string> }>;
  /** The server's database (TEST_DB=postgres: a database of its own on TEST_DATABASE_URL's server). */
  databaseName: string;
  /** False once the process has exited (a crash, or close). */
  isRunning(): boolean;
  /** What the process has written to stdout and stderr (why it crashed). */
  output(): string;
  /** A JSON API call as a signed-in user; throws unless the envelope says `00`. */
  api<T = Record<string, unknown>>(auth: Record<string, string>, method: 'GET' | 'POST', path: string, payload?: object): Promise<T>;
  /** Creates an app with one first menu through the API; returns the app's id. */
  createApp(auth: Record<string, string>, customShortCode: string, menu: Record<string, unknown>): Promise<string>;
  /** Adds a menu to an app through the API; returns its uniqueId. */
  createMenu(auth: Record<string, string>, appId: string, menu: Record<string, unknown>): Promise<string>;
  /**
   * One Africa's Talking hop on the draft (`/ussd/{appId}/test`); a server that does not answer in `timeoutMs`
   * fails it. A start hop's `serviceCode` is also its dial string (`*920*5*1*2#` replays 1 and 2).
   */
  hop(appId: string, sessionId: string, text: string, timeoutMs: number, serviceCode?: string): Promise<string>;
  /** Stops the server: SIGTERM (it closes its database), SIGKILL if it has not exited in 5 s (a frozen one cannot). */
  close(): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash or an out-of-memory kill does: nothing of it runs again. */
  kill(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./test-server-child.ts', import.meta.url));

/**
 * A whole server in its own process (test-server-child.ts), driven over real HTTP. For tests about a server
 * whose thread may be blocked: the test's own thread stays free to time requests out, so a server that
 * freezes fails the test instead of hanging it.
 */
export async function startTestServer(options: { users?: number; config?: Partial<Config> } = {}): Promise<TestServer> {
  const templates = findProvidedTemplates();
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      TEST_SERVER_USERS: String(options.users ?? 1),
      TEST_SERVER_CONFIG: JSON.stringify(options.config ?? {}),
      TEST_PGLITE_TEMPLATE_FILE: templates.pgliteTemplateFile ?? '',
      TEST_POSTGRES_TEMPLATE_NAME: templates.postgresTemplateName ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<{ port: number; users: TestServer['users']; databaseName: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^READY (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1]!));
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`test server exited with ${code} before listening:\n${output}`)));
  });
  const { port, users, databaseName } = await ready;
  const url = `http://127.0.0.1:${port}`;
  const api: TestServer['api'] = async (auth, method, path, payload) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...auth, ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const body = await res.json();
    if (body.status !== '00') throw new Error(`${method} ${path} failed (${res.status}): ${JSON.stringify(body)}`);
    return body;
  };
  return {
    url,
    users,
    databaseName,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    output: () => output,
    api,
    async createApp(auth, customShortCode, menu) {
      const app = {
        appName: 'App',
        description: 'A test app',
        country: 'ghana',
        connectionMode: 'existing-shortcode',
        customShortCode,
        useTemplateTag: false,
      };
      const appId = (await api<{ data: { appId: string } }>(auth, 'POST', '/api/createApp', app)).data.appId;
      await api(auth, 'POST', '/api/createMenu', { appId, userDefinedName: 'home', isFirst: true, ...menu });
      return appId;
    },
    async createMenu(auth, appId, menu) {
      return (await api<{ uniqueId: string }>(auth, 'POST', '/api/createMenu', { appId, ...menu })).uniqueId;
    },
    async hop(appId, sessionId, text, timeoutMs, serviceCode = '*920#') {
      const res = await fetch(`${url}/ussd/${appId}/test`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // A number of each session's own: the gateway limits allow one number a few new sessions a minute.
        body: new URLSearchParams({ sessionId, serviceCode, phoneNumber: phoneNumberOf(sessionId), networkCode: '62001', text }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return res.text();
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
