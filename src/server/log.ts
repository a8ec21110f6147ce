import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { levels, stdSerializers, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config';

/**
 * How errors reach the log. Drizzle's query errors carry the statement's bound parameters (in `params` and in
 * the message, "Failed query: ...\nparams: ..."), and PostgreSQL's `detail` quotes the offending values: a
 * password hash, a reset token's hash, a phone number or a payment reference would land in log files. The
 * log keeps the statement, the SQLSTATE code and the constraint, never the values.
 */
const VALUE_FIELDS = ['params', 'detail', 'where', 'parameters'] as const;

type SerializedError = ReturnType<typeof stdSerializers.err>;

export function serializeError(err: Error): SerializedError {
  const out = stdSerializers.err(err);
  if (typeof out !== 'object' || out === null) return out;
  const record = out as unknown as Record<string, unknown>;
  // The exact text drizzle put in its message (values may hold newlines, so no line-based pattern would do).
  const params = (err as Error & { params?: unknown }).params;
  const leaked = params !== undefined ? `params: ${String(params)}` : '';
  for (const key of VALUE_FIELDS) delete record[key];
  // The driver's error is the cause: its code and constraint say what failed without quoting values.
  const sqlState = findSqlState(err);
  if (sqlState) record.sqlState = sqlState;
  const constraint = (err.cause as { constraint?: unknown } | undefined)?.constraint;
  if (typeof constraint === 'string') record.constraint = constraint;
  if (leaked) {
    for (const key of ['message', 'stack'] as const) {
      if (typeof record[key] === 'string') record[key] = (record[key] as string).split(leaked).join('params: [redacted]');
    }
  }
  return out;
}

export const logSerializers = { err: serializeError };

/** The SQLSTATE of a database error, looked for on the error and its causes (drizzle wraps the driver's). */
export function findSqlState(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The server's logger. A person at a terminal gets short readable lines (pino-pretty, in-process: the log is
 * quiet, so no transport thread is worth it); a pipe, a file or production gets one JSON object a line.
 */
export function createLoggerOptions(config: Config, overrides: LoggerOverrides = {}, isTerminal = !!process.stdout.isTTY) {
  const isPretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && isTerminal && config.NODE_ENV !== 'production');
  const stream = isPretty
    ? pretty({
        colorize: isTerminal && !overrides.stream,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId',
        destination: overrides.stream ?? 1,
      })
    : overrides.stream; // undefined: pino's own fast writer to stdout
  return {
    level: overrides.level ?? config.LOG_LEVEL,
    serializers: logSerializers,
    ...(stream ? { stream } : {}),
  } satisfies FastifyServerOptions['logger'];
}

/** What a caller of buildApp may set: the level, and where lines go (tests read them). */
export interface LoggerOverrides {
  level?: string;
  stream?: DestinationStream;
}

/**
 * One line per request at debug, after the reply (Fastify's own two lines at info were most of what a
 * terminal showed: 600 KB in half an hour of clicking around the console). Gateway routes log at warn.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // A callback rather than an async hook: it runs on every hop, and a promise for nothing is most of its cost.
  app.addHook('onResponse', (request, reply, done) => {
    if ((levels.values[request.log.level] ?? Infinity) <= levels.values.debug!)
      request.log.debug(
        { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    done();
  });
}
