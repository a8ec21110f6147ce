import type { ActionOf } from '../../../shared/app';
import type { ActionRunner } from '../../../actions/types';
import { createJavascriptPool, type JavascriptPool } from '../../../actions/javascript/pool';
import { createJavascriptRunner } from '../../../actions/javascript/javascript.runner';
import { DEFAULT_JAVASCRIPT_CODE } from '../../../actions/javascript/default-code';
import { createRestapiRunner } from '../../../actions/restapi';
import { createDbaccessRunner } from '../../../actions/dbaccess';
import type { AppContext } from '../../context';
import { findCustomActionCode } from '../custom-actions/custom-actions.service';
import type { ScriptTester } from '../custom-actions/custom-actions.routes';
import type { ActionRunners } from './action-runner';

/**
 * The JavaScript pool starts its workers on first use: most requests (and most test servers) never run a
 * script, and a worker takes a few hundred milliseconds to load QuickJS.
 */
function createLazyPool(): JavascriptPool & { isStarted(): boolean } {
  let pool: JavascriptPool | undefined;
  const get = () => (pool ??= createJavascriptPool());
  return {
    get limits() {
      return get().limits;
    },
    run: (job) => get().run(job),
    ready: () => get().ready(),
    stats: () => get().stats(),
    close: async () => {
      await pool?.close();
    },
    isStarted: () => pool !== undefined,
  };
}

/** A saved custom function runs like a javascript action, with the app owner's code looked up by uuid. */
function createCustomActionRunner(ctx: AppContext, javascript: ActionRunner<'javascript'>): ActionRunner<'customAction'> {
  return {
    async run(input) {
      const { uuid, actionName } = input.action.code;
      const code = await findCustomActionCode(ctx, input.ownerId, uuid);
      if (code === undefined) return { ok: false, error: `Custom function ${actionName || uuid} not found` };
      const action: ActionOf<'javascript'> = { ...input.action, inheritsPlugin: 'javascript', code };
      return javascript.run({ ...input, action });
    },
  };
}

export interface ServerRunners {
  /** Every kind but the two that need the messaging services (sendsms, paymentprompt), added by the caller. */
  runners: Omit<ActionRunners, 'sendsms' | 'paymentprompt'>;
  tester: ScriptTester;
  close(): Promise<void>;
}

/** Origins our own server answers on: actions may call them (the sandbox bank) even when private addresses are refused. */
function getOwnHosts(ctx: AppContext): string[] {
  const hosts = [`127.0.0.1:${ctx.config.PORT}`, `localhost:${ctx.config.PORT}`];
  if (ctx.config.PUBLIC_URL) {
    const url = new URL(ctx.config.PUBLIC_URL);
    hosts.push(`${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`);
  }
  return hosts;
}

export function createServerRunners(ctx: AppContext): ServerRunners {
  const pool = createLazyPool();
  const javascript = createJavascriptRunner(pool);
  const rules = { allowPrivate: ctx.config.ALLOW_PRIVATE_NETWORK, allowHosts: [...getOwnHosts(ctx), ...ctx.config.OUTBOUND_ALLOW_HOSTS] };
  const restapi = createRestapiRunner(rules);
  const dbaccess = createDbaccessRunner({ ...rules, forbiddenDatabases: ctx.config.DATABASE_URL ? [ctx.config.DATABASE_URL] : [] });
  return {
    runners: { javascript, restapi, dbaccess, customAction: createCustomActionRunner(ctx, javascript) },
    tester: {
      defaultCode: DEFAULT_JAVASCRIPT_CODE,
      async test(code, sessionValues, actionResults) {
        const session = { sessionId: 'test', network: 'MTN', serviceCode: '', vars: {}, ...sessionValues, inputs: { ...((sessionValues.inputs as object) ?? {}) } };
        const outcome = await pool.run({ code, scope: { session, input: '', actions: actionResults }, deadline: Date.now() + pool.limits.wallMs });
        const consoleMessages = outcome.logs.map((line) => ({ message: line.message, type: line.level }));
        if (!outcome.ok) consoleMessages.push({ message: outcome.error, type: 'error' });
        return { output: outcome.ok ? outcome.result : null, consoleMessages };
      },
    },
    async close() {
      await Promise.all([pool.close(), restapi.close(), dbaccess.close()]);
    },
  };
}
