import { afterAll, describe, expect, it } from 'vitest';
import { dbaccessCodeSchema, type DbaccessCode } from '../shared/app';
import { buildMssqlConfig, buildMysqlConfig, buildPgConfig, createDbaccessRunner, parseDbUrl } from './dbaccess';
import { createPlatformServices } from './net/address-guard';
import { bindQueryTemplate } from './net/sql-template';
import { testInput, testScope } from './test-input';

// The queries against real servers (PostgreSQL, MariaDB) are in dbaccess.services.test.ts.
const makeInput = (code: Partial<DbaccessCode>) =>
  testInput('dbaccess', dbaccessCodeSchema.parse(code), { scope: testScope(), actionName: 'q', actionType: 'pre' });

const HOSTILE = ["' or '1'='1", '1; drop table x; --', "x'); drop table x; --"];

describe('dbaccess: address and URL rules (no server needed)', () => {
  const runner = createDbaccessRunner({ allowPrivate: false });
  afterAll(() => runner.close());

  it('parses host, host:port, [v6]:port and URLs', () => {
    expect(parseDbUrl('db.example.com', 'postgres')).toEqual({ host: 'db.example.com', port: 5432, database: undefined });
    expect(parseDbUrl('db.example.com:6543', 'mysql')).toMatchObject({ host: 'db.example.com', port: 6543 });
    expect(parseDbUrl('[2001:db8::1]:1444', 'mssql')).toMatchObject({ host: '2001:db8::1', port: 1444 });
    expect(parseDbUrl('db.example.com', 'mssql').port).toBe(1433);
    expect(parseDbUrl('postgres://u%40x:p%3Aw@DB.example.com:5433/shop', 'postgres')).toEqual({
      host: 'db.example.com',
      port: 5433,
      user: 'u@x',
      password: 'p:w',
      database: 'shop',
    });
    expect(parseDbUrl('mysql://0177.0.0.1/shop', 'mysql')).toMatchObject({ host: '127.0.0.1', port: 3306 });
  });

  it.each([
    ['/var/run/postgresql', /local socket/],
    ['/tmp/.s.PGSQL.5432', /local socket/],
    ['postgres://postgres@/test', /without a host/],
    ['postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test', /local socket/],
    ['postgres://postgres@db.example.com/test?host=/var/run/postgresql', /host parameter is not allowed/],
    ['mysql://root@db.example.com/test?socketPath=/run/mysqld/mysqld.sock', /socketPath parameter is not allowed/],
  ])('refuses the socket address %s', async (dburl, message) => {
    const outcome = await runner.run(makeInput({ dialect: 'postgres', dburl, query: 'select 1' }));
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^Refused: /) });
    expect(outcome.ok === false && outcome.error).toMatch(message);
  });

  it.each(['127.0.0.1:5432', 'localhost:5432', '0177.0.0.1:5432', '2130706433', '[::1]:5432', '169.254.169.254:5432', '10.0.0.5:5432'])(
    'refuses %s when private addresses are not allowed',
    async (dburl) => {
      const outcome = await runner.run(makeInput({ dialect: 'postgres', dburl, dbuser: 'postgres', dbName: 'test', query: 'select 1' }));
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^Refused: .*(private address|metadata)/) });
    },
  );

  it('refuses a query that cannot be bound', async () => {
    const outcome = await runner.run(
      makeInput({ dialect: 'postgres', dburl: 'db.example.com', query: "select 1 where a like '%{{ session.mobile }}%'" }),
    );
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/inside a quoted string cannot be a bind parameter/) });
  });
});

describe('dbaccess: driver options (no server needed)', () => {
  const settings = {
    host: 'db.example.com',
    port: 1433,
    user: 'u',
    password: 'p',
    database: 'shop',
    dialect: 'mssql' as const,
    secure: true,
    address: '203.0.113.7',
  };
  const opts = { poolSize: 4, timeoutMs: 3_000, verifyTls: true };

  it('mysql: LOCAL INFILE and multiple statements off, dials the checked address', () => {
    const config = buildMysqlConfig({ ...settings, dialect: 'mysql', port: 3306 }, opts);
    expect(config).toMatchObject({
      host: '203.0.113.7',
      port: 3306,
      multipleStatements: false,
      infileStreamFactory: undefined,
      connectTimeout: 3_000,
      connectionLimit: 4,
    });
    expect(config.flags).toEqual(expect.arrayContaining(['-LOCAL_FILES', '-MULTI_STATEMENTS']));
  });

  it('postgres: statement_timeout, checked address, TLS name kept', () => {
    const config = buildPgConfig({ ...settings, dialect: 'postgres', port: 5432 }, opts);
    expect(config).toMatchObject({
      host: '203.0.113.7',
      statement_timeout: 4_000,
      max: 4,
      ssl: { rejectUnauthorized: true, servername: 'db.example.com' },
    });
  });

  // No tier has a SQL Server to run against (README, Tests): the mssql path is covered by these option and placeholder checks only.
  it('mssql: request timeout, encryption, checked address with the certificate name kept', () => {
    const config = buildMssqlConfig(settings, opts);
    expect(config).toMatchObject({ server: '203.0.113.7', port: 1433, requestTimeout: 3_000, connectionTimeout: 3_000, pool: { max: 4 } });
    expect(config.options).toMatchObject({ encrypt: true, trustServerCertificate: false, serverName: 'db.example.com' });
  });

  it("mssql: a server's redirect (routing answer) is checked like the first address; the checked address is dialled as is", async () => {
    const services = createPlatformServices([{ name: "the platform's own database server", host: '127.0.0.1', port: 5432 }]);
    const config = buildMssqlConfig(settings, opts, { allowPrivate: false, platformServices: services });
    const connect = config.options!.connector as unknown as (
      target: { host: string; port: number },
      lookup: unknown,
      signal: AbortSignal,
    ) => Promise<unknown>;
    const signal = new AbortController().signal;
    await expect(connect({ host: '10.0.0.7', port: 1433 }, null, signal)).rejects.toThrow(
      'Refused: 10.0.0.7 is a private address (private)',
    );
    await expect(connect({ host: 'localhost', port: 1433 }, null, signal)).rejects.toThrow(
      /^Refused: localhost resolves to a private address/,
    );
    const allowPrivate = buildMssqlConfig(settings, opts, { allowPrivate: true, platformServices: services }).options!
      .connector as unknown as typeof connect;
    await expect(allowPrivate({ host: 'localhost', port: 5432 }, null, signal)).rejects.toThrow(
      /^Refused: localhost:5432 \(.*\) is the platform's own database server$/,
    );
  });

  it('mssql: template expressions become @p1, @p2 bind parameters', () => {
    const bound = bindQueryTemplate("select * from t where a = {{ x }} and b = N'{{ y }}' and c = '{{ y }}'", 'mssql', (s) =>
      s.includes('x') ? HOSTILE[0] : HOSTILE[1],
    );
    expect(bound.text).toBe('select * from t where a = @p1 and b = N@p2 and c = @p3');
    expect(bound.values).toEqual([HOSTILE[0], HOSTILE[1], HOSTILE[1]]);
  });
});
