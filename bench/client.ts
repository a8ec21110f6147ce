/**
 * The HTTP side of the multi-tenant benches (js-tenants.ts, hostile-tenant.ts): a keep-alive client for a
 * server child on 127.0.0.1 that never throws on the wire (a network error or a timeout is status 0), the
 * JSON API with its envelope, and accounts and apps made as a builder makes them.
 */
import { Agent, request } from 'node:http';

export interface Reply {
  status: number;
  body: string;
}

export interface BenchClient {
  /** Any request; `timeoutMs` defaults to 15 s. */
  send(method: string, path: string, body: string, contentType: string, options?: { auth?: string; timeoutMs?: number }): Promise<Reply>;
  /** A JSON POST (the USSD routes take JSON as well as forms). */
  postJson(path: string, payload: object, auth?: string): Promise<Reply>;
  /** A JSON POST to the API; throws unless it answers 200 with status `00`. */
  api(path: string, payload: object, auth?: string): Promise<Record<string, unknown>>;
  /** Registers a new account; returns its token. */
  registerAccount(name: string): Promise<string>;
  /**
   * Creates an app with its menus, the first one first; a menu with no rules of its own goes on to the next
   * by an Always goto. Returns the app's id.
   */
  createApp(token: string, shortCode: string, menus: Array<Record<string, unknown>>): Promise<string>;
  close(): void;
}

export function createBenchClient(port: number, maxSockets: number): BenchClient {
  const agent = new Agent({ keepAlive: true, maxSockets });

  const send: BenchClient['send'] = (method, path, body, contentType, options = {}) =>
    new Promise((resolvePromise) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: {
            'content-type': contentType,
            'content-length': Buffer.byteLength(body),
            ...(options.auth ? { authorization: `Bearer ${options.auth}` } : {}),
          },
          timeout: options.timeoutMs ?? 15_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => resolvePromise({ status: 0, body: err.message }));
      req.end(body);
    });

  const postJson: BenchClient['postJson'] = (path, payload, auth) =>
    send('POST', path, JSON.stringify(payload), 'application/json', { auth });

  const api: BenchClient['api'] = async (path, payload, auth) => {
    const res = await postJson(path, payload, auth);
    const json = JSON.parse(res.body || '{}') as Record<string, unknown>;
    if (res.status !== 200 || json.status !== '00') throw new Error(`${path} failed (${res.status}): ${res.body}`);
    return json;
  };

  return {
    send,
    postJson,
    api,
    async registerAccount(name) {
      const email = `${name}-${Date.now()}@bench.dialflow`;
      const reply = await api('/api/auth/register', {
        fullName: `Tenant ${name}`,
        email,
        mobileNumber: '233200000000',
        password: 'bench-secret-123',
      });
      return reply.token as string;
    },
    async createApp(token, shortCode, menus) {
      const app = {
        appName: `Bench ${shortCode}`,
        description: 'bench',
        country: 'ghana',
        connectionMode: 'existing-shortcode',
        customShortCode: shortCode,
        useTemplateTag: false,
      };
      const appId = ((await api('/api/createApp', app, token)).data as { appId: string }).appId;
      let next = '';
      // Last menu first, so each can name the one after it.
      for (const [i, menu] of [...menus].reverse().entries()) {
        const switchOperations = next ? [{ operator: 'always', compareVal: '', action: 'goto', actionParam: next }] : [];
        next = (await api('/api/createMenu', { appId, switchOperations, isFirst: i === menus.length - 1, ...menu }, token))
          .uniqueId as string;
      }
      return appId;
    },
    close: () => agent.destroy(),
  };
}
