import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportMissingService } from '../../tests/support/services';
import { dbaccessCodeSchema, type DbaccessCode } from '../shared/app';
import { buildMssqlConfig, buildMysqlConfig, buildPgConfig, createDbaccessRunner, parseDbUrl, type DbaccessResult, type DbaccessRunner } from './dbaccess';
import { bindQueryTemplate } from './net/sql-template';
import { testInput, testScope } from './test-input';

// The machine's services (see the brief): PostgreSQL trust auth, MariaDB root without a password.
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const MY = { host: '127.0.0.1', port: 3306, user: 'root', database: 'test' };

async function isPgUp(): Promise<boolean> {
  const client = new pg.Client({ ...PG, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function isMysqlUp(): Promise<boolean> {
  try {
    const conn = await mysql.createConnection({ ...MY, connectTimeout: 1500 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
}

const pgUp = await isPgUp();
const mysqlUp = await isMysqlUp();
if (!pgUp) reportMissingService('dbaccess postgres tests', `PostgreSQL not reachable at ${PG.host}:${PG.port}/${PG.database}`);
if (!mysqlUp) reportMissingService('dbaccess mysql tests', `MariaDB/MySQL not reachable at ${MY.host}:${MY.port}/${MY.database}`);

const makeInput = (code: Partial<DbaccessCode>, inputs: Record<string, string> = {}, deadlineMs = 3_000) =>
  testInput('dbaccess', dbaccessCodeSchema.parse(code), { scope: testScope({ inputs }), actionName: 'q', actionType: 'pre', deadline: Date.now() + deadlineMs });

function rowsOf(outcome: Awaited<ReturnType<DbaccessRunner['run']>>): DbaccessResult {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome.result as DbaccessResult;
}

const HOSTILE = ["' or '1'='1", '1; drop table x; --', "x'); drop table x; --"];

describe('dbaccess: address and URL rules (no server needed)', () => {
  const runner = createDbaccessRunner({ allowPrivate: false });
  afterAll(() => runner.close());

  it('parses host, host:port, [v6]:port and URLs', () => {
    expect(parseDbUrl('db.example.com', 'postgres')).toEqual({ host: 'db.example.com', port: 5432, database: undefined });
    expect(parseDbUrl('db.example.com:6543', 'mysql')).toMatchObject({ host: 'db.example.com', port: 6543 });
    expect(parseDbUrl('[2001:db8::1]:1444', 'mssql')).toMatchObject({ host: '2001:db8::1', port: 1444 });
    expect(parseDbUrl('db.example.com', 'mssql').port).toBe(1433);
    expect(parseDbUrl('postgres://u%40x:p%3Aw@DB.example.com:5433/shop', 'postgres')).toEqual({ host: 'db.example.com', port: 5433, user: 'u@x', password: 'p:w', database: 'shop' });
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
    const outcome = await runner.run(makeInput({ dialect: 'postgres', dburl: 'db.example.com', query: "select 1 where a like '%{{ session.mobile }}%'" }));
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/inside a quoted string cannot be a bind parameter/) });
  });
});

describe('dbaccess: driver options (no server needed)', () => {
  const settings = { host: 'db.example.com', port: 1433, user: 'u', password: 'p', database: 'shop', dialect: 'mssql' as const, secure: true, address: '203.0.113.7' };
  const opts = { poolSize: 4, timeoutMs: 3_000, verifyTls: true };

  it('mysql: LOCAL INFILE and multiple statements off, dials the checked address', () => {
    const config = buildMysqlConfig({ ...settings, dialect: 'mysql', port: 3306 }, opts);
    expect(config).toMatchObject({ host: '203.0.113.7', port: 3306, multipleStatements: false, infileStreamFactory: undefined, connectTimeout: 3_000, connectionLimit: 4 });
    expect(config.flags).toEqual(expect.arrayContaining(['-LOCAL_FILES', '-MULTI_STATEMENTS']));
  });

  it('postgres: statement_timeout, checked address, TLS name kept', () => {
    const config = buildPgConfig({ ...settings, dialect: 'postgres', port: 5432 }, opts);
    expect(config).toMatchObject({ host: '203.0.113.7', statement_timeout: 4_000, max: 4, ssl: { rejectUnauthorized: true, servername: 'db.example.com' } });
  });

  // No SQL Server runs on this machine: the mssql path is covered by these option and placeholder checks only.
  it('mssql: request timeout, encryption, checked address with the certificate name kept', () => {
    const config = buildMssqlConfig(settings, opts);
    expect(config).toMatchObject({ server: '203.0.113.7', port: 1433, requestTimeout: 3_000, connectionTimeout: 3_000, pool: { max: 4 } });
    expect(config.options).toMatchObject({ encrypt: true, trustServerCertificate: false, serverName: 'db.example.com' });
  });

  it('mssql: template expressions become @p1, @p2 bind parameters', () => {
    const bound = bindQueryTemplate("select * from t where a = {{ x }} and b = N'{{ y }}' and c = '{{ y }}'", 'mssql', (s) => (s.includes('x') ? HOSTILE[0] : HOSTILE[1]));
    expect(bound.text).toBe("select * from t where a = @p1 and b = N@p2 and c = @p3");
    expect(bound.values).toEqual([HOSTILE[0], HOSTILE[1], HOSTILE[1]]);
  });
});

(pgUp ? describe : describe.skip)('dbaccess: PostgreSQL (real server)', () => {
  const table = `dialflow_dbaccess_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(PG);
  const runner = createDbaccessRunner({ allowPrivate: true, forbiddenDatabases: ['postgres://dialflow:secret@localhost:5432/dialflow_own'] });
  const base = { dialect: 'postgres' as const, dburl: '127.0.0.1:5432', dbuser: 'postgres', dbName: 'test' };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create table ${table} (id int primary key, msisdn text, name text)`);
    await admin.query(`insert into ${table} values (1, '233244000000', 'Ama'), (2, '233244000001', 'Kofi'), (3, '233244000002', 'Esi')`);
  });
  afterAll(async () => {
    await runner.close();
    await admin.query(`drop table if exists ${table}`);
    await admin.end();
  });

  it('selects with a template parameter', async () => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `select id, name from ${table} where msisdn = {{ session.mobile }}` })));
    expect(result).toEqual({ rows: [{ id: 1, name: 'Ama' }], rowCount: 1, truncated: false });
  });

  it.each(HOSTILE)('keeps the injection attempt %s as data', async (hostile) => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `select id from ${table} where name = {{ session.inputs.name }} or msisdn = '{{ session.inputs.name }}'` }, { name: hostile })));
    expect(result.rows).toEqual([]);
    const typed = await runner.run(makeInput({ ...base, query: `select id from ${table} where id = {{ session.inputs.name }}` }, { name: hostile }));
    expect(typed).toMatchObject({ ok: false, error: expect.stringMatching(/invalid input syntax for type integer/) });
    expect((await admin.query(`select count(*)::int as n from ${table}`)).rows[0].n).toBe(3);
  });

  it('runs a statement and reports the rows it changed', async () => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `update ${table} set name = {{ session.inputs.name }} where id = 3` }, { name: 'Esi A.' })));
    expect(result).toMatchObject({ rows: [], rowCount: 1 });
    expect((await admin.query(`select name from ${table} where id = 3`)).rows[0].name).toBe('Esi A.');
  });

  it('returns at most 1,000 rows and says so', async () => {
    const many = rowsOf(await runner.run(makeInput({ ...base, query: 'select n from generate_series(1, 50000) as n' })));
    expect(many.rows).toHaveLength(1_000);
    expect(many.truncated).toBe(true);
    expect(many.rows[999]).toEqual({ n: 1000 });
    const exact = rowsOf(await runner.run(makeInput({ ...base, query: 'select n from generate_series(1, 1000) as n' })));
    expect(exact).toMatchObject({ rowCount: 1_000, truncated: false });
    // The connection is still good after a capped read.
    expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 1 as one' }))).rows).toEqual([{ one: 1 }]);
  });

  it('cancels pg_sleep(60) on the server at 3 s', async () => {
    const started = Date.now();
    const outcome = await runner.run(makeInput({ ...base, query: 'select pg_sleep(60) /* dbaccess-sleep-test */' }, {}, 3_000));
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ ok: false, timedOut: true, error: 'Query on 127.0.0.1:5432 timed out after 3000 ms' });
    expect(took).toBeGreaterThanOrEqual(2_900);
    expect(took).toBeLessThan(4_500);
    await new Promise((r) => setTimeout(r, 300));
    const active = await admin.query(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%dbaccess-sleep-test%' and pid <> pg_backend_pid()`);
    expect(active.rows[0].n).toBe(0);
    expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 2 as two' }))).rows).toEqual([{ two: 2 }]);
  }, 10_000);

  it('reports a SQL error with the server message', async () => {
    expect(await runner.run(makeInput({ ...base, query: 'select * from no_such_table_here' }))).toMatchObject({ ok: false, error: expect.stringMatching(/^Query on 127\.0\.0\.1:5432 failed: relation "no_such_table_here" does not exist/) });
  });

  it("refuses the platform's own database, however the address is spelt", async () => {
    for (const dburl of ['127.0.0.1:5432', 'localhost', '0177.0.0.1:5432', 'postgres://x@[::1]:5432/dialflow_own']) {
      const outcome = await runner.run(makeInput({ ...base, dburl, dbName: 'dialflow_own', query: 'select 1' }));
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/is the platform's own database$/) });
    }
    // Another database on the same server is the builder's.
    expect((await runner.run(makeInput({ ...base, query: 'select 1' }))).ok).toBe(true);
  });

  it('keeps at most maxPools pools, closing the least recently used', async () => {
    const bounded = createDbaccessRunner({ allowPrivate: true, maxPools: 2 });
    try {
      for (const dburl of ['127.0.0.1:5432', 'localhost:5432', '127.0.0.1', 'postgres://postgres@127.0.0.1:5432/test']) {
        expect((await bounded.run(makeInput({ ...base, dburl, query: 'select 1' }))).ok).toBe(true);
        expect(bounded.poolCount).toBeLessThanOrEqual(2);
      }
    } finally {
      await bounded.close();
    }
  });

  it('refuses 127.0.0.1 when private addresses are not allowed, and allowHosts lets exactly it through', async () => {
    const strict = createDbaccessRunner({ allowPrivate: false });
    const allowed = createDbaccessRunner({ allowPrivate: false, allowHosts: ['127.0.0.1:5432'] });
    try {
      expect(await strict.run(makeInput({ ...base, query: 'select 1' }))).toMatchObject({ ok: false, error: 'Refused: 127.0.0.1 is a private address (loopback)' });
      expect(rowsOf(await allowed.run(makeInput({ ...base, query: 'select 1 as one' }))).rows).toEqual([{ one: 1 }]);
      expect(await allowed.run(makeInput({ ...base, dburl: '127.0.0.1:3306', query: 'select 1' }))).toMatchObject({ ok: false, error: expect.stringMatching(/^Refused/) });
    } finally {
      await Promise.all([strict.close(), allowed.close()]);
    }
  });
});

(mysqlUp ? describe : describe.skip)('dbaccess: MariaDB via mysql2 (real server)', () => {
  const table = `dialflow_dbaccess_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection;
  const runner = createDbaccessRunner({ allowPrivate: true });
  const base = { dialect: 'mysql' as const, dburl: '127.0.0.1:3306', dbuser: 'root', dbName: 'test' };

  beforeAll(async () => {
    admin = await mysql.createConnection(MY);
    await admin.query(`create table ${table} (id int primary key, msisdn varchar(20), name varchar(100))`);
    const values = Array.from({ length: 1_500 }, (_, i) => `(${i + 1}, '2332440${String(i).padStart(5, '0')}', 'user${i + 1}')`).join(',');
    await admin.query(`insert into ${table} values ${values}`);
  });
  afterAll(async () => {
    await runner.close();
    await admin.query(`drop table if exists ${table}`);
    await admin.end();
  });

  it('selects with a template parameter', async () => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `select id, name from ${table} where msisdn = {{ session.mobile }}` })));
    expect(result).toEqual({ rows: [{ id: 1, name: 'user1' }], rowCount: 1, truncated: false });
  });

  it.each(HOSTILE)('keeps the injection attempt %s as data', async (hostile) => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `select id from ${table} where name = {{ session.inputs.name }} or msisdn = "{{ session.inputs.name }}"` }, { name: hostile })));
    expect(result.rows).toEqual([]);
    const [rows] = await admin.query(`select count(*) as n from ${table}`);
    expect((rows as { n: number }[])[0].n).toBe(1_500);
  });

  it('refuses more than one statement', async () => {
    const outcome = await runner.run(makeInput({ ...base, query: `select 1; drop table ${table}` }));
    expect(outcome.ok).toBe(false);
    const [rows] = await admin.query(`select count(*) as n from ${table}`);
    expect((rows as { n: number }[])[0].n).toBe(1_500);
  });

  it('runs a statement and reports the rows it changed', async () => {
    const result = rowsOf(await runner.run(makeInput({ ...base, query: `update ${table} set name = {{ session.inputs.name }} where id <= 2` }, { name: 'renamed' })));
    expect(result).toMatchObject({ rows: [], rowCount: 2 });
  });

  it('returns at most 1,000 rows and says so, and the pool keeps working', async () => {
    const many = rowsOf(await runner.run(makeInput({ ...base, query: `select id from ${table} order by id` })));
    expect(many.rows).toHaveLength(1_000);
    expect(many.truncated).toBe(true);
    expect(many.rows[999]).toEqual({ id: 1000 });
    expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 1 as one' }))).rows).toEqual([{ one: 1 }]);
  });

  it('refuses LOAD DATA LOCAL INFILE', async () => {
    const outcome = await runner.run(makeInput({ ...base, query: `load data local infile '/etc/passwd' into table ${table}` }));
    expect(outcome.ok).toBe(false);
    const [rows] = await admin.query(`select count(*) as n from ${table}`);
    expect((rows as { n: number }[])[0].n).toBe(1_500);
  });

  it('kills sleep(60) on the server at 3 s', async () => {
    const started = Date.now();
    const outcome = await runner.run(makeInput({ ...base, query: 'select sleep(60) as dbaccess_sleep_test' }, {}, 3_000));
    const took = Date.now() - started;
    expect(outcome).toMatchObject({ ok: false, timedOut: true, error: 'Query on 127.0.0.1:3306 timed out after 3000 ms' });
    expect(took).toBeGreaterThanOrEqual(2_900);
    expect(took).toBeLessThan(4_500);
    await new Promise((r) => setTimeout(r, 500));
    const [rows] = await admin.query(`select count(*) as n from information_schema.processlist where info like '%dbaccess_sleep_test%' and id <> connection_id()`);
    expect(Number((rows as { n: number }[])[0].n)).toBe(0);
    expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 2 as two' }))).rows).toEqual([{ two: 2 }]);
  }, 10_000);

  it('refuses 127.0.0.1 when private addresses are not allowed', async () => {
    const strict = createDbaccessRunner({ allowPrivate: false });
    try {
      expect(await strict.run(makeInput({ ...base, query: 'select 1' }))).toMatchObject({ ok: false, error: 'Refused: 127.0.0.1 is a private address (loopback)' });
    } finally {
      await strict.close();
    }
  });
});
