import { Writable } from 'node:stream';
import pino from 'pino';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createConfig } from './config';
import { createLoggerOptions, registerRequestLog, serializeError } from './log';

it('a failed query is logged with its statement and code, never its bound values', async () => {
  // The error drizzle throws for a failed statement: the values sit in `params` and in the message.
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
    code: '23505',
    detail: 'Key (email)=(kofi@example.com) already exists.',
    constraint: 'users_email_unique',
  });
  const err = Object.assign(
    new Error(
      'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: kofi@example.com,$argon2id$v=19$secret-hash',
    ),
    {
      query: 'insert into "users" ("email", "password_hash") values ($1, $2)',
      params: ['kofi@example.com', '$argon2id$v=19$secret-hash'],
      cause,
    },
  );
  let written = '';
  const log = pino(
    { serializers: { err: serializeError } },
    new Writable({
      write: (chunk, _enc, done) => {
        written += String(chunk);
        done();
      },
    }),
  );
  log.error({ err }, 'query failed');
  expect(written).toContain('insert into \\"users\\"');
  expect(written).toContain('23505');
  expect(written).toContain('users_email_unique');
  expect(written).not.toContain('kofi@example.com');
  expect(written).not.toContain('secret-hash');
});

describe('the server log', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    return { lines, stream };
  };
  // Fastify hands `stream` to pino as its destination; so does this.
  const toPino = (options: ReturnType<typeof createLoggerOptions>) => pino(options, 'stream' in options ? options.stream : undefined);

  it('is JSON lines when piped or in production, readable lines at a terminal', async () => {
    const json = capture();
    toPino(createLoggerOptions(createConfig(), { stream: json.stream }, false)).info({ appId: 'a1' }, 'hello');
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ msg: 'hello', appId: 'a1' });

    const production = capture();
    toPino(createLoggerOptions(createConfig({ NODE_ENV: 'production' }), { stream: production.stream }, true)).info('hello');
    expect(JSON.parse(production.lines[0]!)).toMatchObject({ msg: 'hello' });

    const terminal = capture();
    toPino(createLoggerOptions(createConfig(), { stream: terminal.stream }, true)).info({ appId: 'a1' }, 'hello');
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminal.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: hello$/);
    expect(terminal.lines.join('\n')).toContain('appId: "a1"');
  });

  it('has no line per request at info; one short line per request at debug', async () => {
    for (const [level, expected] of [
      ['info', 0],
      ['debug', 2],
    ] as const) {
      const { lines, stream } = capture();
      const app = Fastify({
        logger: createLoggerOptions(createConfig(), { level, stream }, false),
        logController: new LogController({ disableRequestLogging: true }),
      });
      registerRequestLog(app);
      app.get('/ping', async () => 'pong');
      await app.inject({ method: 'GET', url: '/ping' });
      await app.inject({ method: 'GET', url: '/ping?x=1' });
      await app.close();
      const requestLines = lines
        .map((l) => JSON.parse(l))
        .filter((l) => l.msg === 'request' || /incoming request|request completed/.test(l.msg));
      expect(requestLines, level).toHaveLength(expected);
      if (expected) expect(requestLines[0]).toMatchObject({ level: 20, method: 'GET', url: '/ping', statusCode: 200 });
    }
  });
});
