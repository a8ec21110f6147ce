/**
 * Database actions against real servers: PostgreSQL at TEST_DATABASE_URL (a database of its own, made here)
 * and MariaDB or MySQL at TEST_MYSQL_URL. The refusals need the servers at a private address (this machine
 * or a private network), as CI runs them. Runs once, in the int-services tier.
 */
import { randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  describeWithService,
  isMysqlReachable,
  isPostgresReachable,
  testDatabaseUrl,
  testMysqlUrl,
} from '../../tests/support/services';
import { dbaccessCodeSchema, type DbaccessCode } from '../shared/app';
import { createDbaccessRunner, parseDbUrl, type DbaccessResult, type DbaccessRunner } from './dbaccess';
import { testInput, testScope } from './test-input';

const makeInput = (code: Partial<DbaccessCode>, inputs: Record<string, string> = {}, deadlineMs = 3_000) =>
  testInput('dbaccess', dbaccessCodeSchema.parse(code), {
    scope: testScope({ inputs }),
    actionName: 'q',
    actionType: 'pre',
    deadline: Date.now() + deadlineMs,
  });

function rowsOf(outcome: Awaited<ReturnType<DbaccessRunner['run']>>): DbaccessResult {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome.result as DbaccessResult;
}

/** What a builder types in the action's address field for a server, and how errors name it. */
function describeServer(url: string, dialect: 'postgres' | 'mysql') {
  const { host, port, user, password, database } = parseDbUrl(url, dialect);
  const dburl = `${isIPv6(host) ? `[${host}]` : host}:${port}`;
  return {
    host,
    port,
    where: `${host}:${port}`,
    base: { dialect, dburl, dbuser: user ?? '', dbpass: password ?? '', dbName: database ?? '' },
  };
}

/** The error of a query stopped at its deadline. */
const timedOutOn = (where: string) => new RegExp(`^Query on ${where.replace(/[.[\]]/g, '\\$&')} timed out after \\d+ ms$`);

const HOSTILE = ["' or '1'='1", '1; drop table x; --', "x'); drop table x; --"];

describeWithService(
  'dbaccess: PostgreSQL (real server)',
  await isPostgresReachable(testDatabaseUrl),
  `PostgreSQL not reachable at ${testDatabaseUrl}`,
  () => {
    const table = 'subscribers';
    // The platform's own database server is refused by address and port: src/server/features/runtime/platform-services.int.test.ts.
    const runner = createDbaccessRunner({ allowPrivate: true });
    let scratch: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let admin: pg.Client;
    let server: ReturnType<typeof describeServer>;
    let base: ReturnType<typeof describeServer>['base'];

    beforeAll(async () => {
      scratch = await createPostgresDatabase('dialflow_dbaccess');
      server = describeServer(scratch.url, 'postgres');
      base = server.base;
      admin = new pg.Client({ connectionString: scratch.url });
      await admin.connect();
      await admin.query(`create table ${table} (id int primary key, msisdn text, name text)`);
      await admin.query(`insert into ${table} values (1, '233244000000', 'Ama'), (2, '233244000001', 'Kofi'), (3, '233244000002', 'Esi')`);
    });
    afterAll(async () => {
      await runner.close();
      await admin?.end();
      await scratch?.drop();
    });

    it('selects with a template parameter', async () => {
      const result = rowsOf(
        await runner.run(makeInput({ ...base, query: `select id, name from ${table} where msisdn = {{ session.mobile }}` })),
      );
      expect(result).toEqual({ rows: [{ id: 1, name: 'Ama' }], rowCount: 1, truncated: false });
    });

    it.each(HOSTILE)('keeps the injection attempt %s as data', async (hostile) => {
      const result = rowsOf(
        await runner.run(
          makeInput(
            { ...base, query: `select id from ${table} where name = {{ session.inputs.name }} or msisdn = '{{ session.inputs.name }}'` },
            { name: hostile },
          ),
        ),
      );
      expect(result.rows).toEqual([]);
      const typed = await runner.run(
        makeInput({ ...base, query: `select id from ${table} where id = {{ session.inputs.name }}` }, { name: hostile }),
      );
      expect(typed).toMatchObject({ ok: false, error: expect.stringMatching(/invalid input syntax for type integer/) });
      expect((await admin.query(`select count(*)::int as n from ${table}`)).rows[0].n).toBe(3);
    });

    it('runs a statement and reports the rows it changed', async () => {
      const result = rowsOf(
        await runner.run(
          makeInput({ ...base, query: `update ${table} set name = {{ session.inputs.name }} where id = 3` }, { name: 'Esi A.' }),
        ),
      );
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

    it('cancels pg_sleep(60) on the server at the deadline, and the pool goes on answering', async () => {
      const outcome = await runner.run(makeInput({ ...base, query: 'select pg_sleep(60) /* dbaccess-sleep-test */' }, {}, 500));
      expect(outcome).toMatchObject({ ok: false, timedOut: true, error: expect.stringMatching(timedOutOn(server.where)) });
      // The server's own backstop (statement_timeout) ends it only at 4 s: gone before then, our cancel stopped it.
      const countSleeping = async () =>
        (
          await admin.query(
            `select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%dbaccess-sleep-test%' and pid <> pg_backend_pid()`,
          )
        ).rows[0].n;
      await expect.poll(countSleeping, { timeout: 2_500, interval: 50 }).toBe(0);
      expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 2 as two' }))).rows).toEqual([{ two: 2 }]);
    });

    it("a connection the builder's server ends mid-query fails that action, never the process, and the pool goes on", async () => {
      const running = runner.run(makeInput({ ...base, query: 'select pg_sleep(5) /* dbaccess-terminate-test */' }));
      const terminate = async () =>
        (
          await admin.query(
            `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where query like '%dbaccess-terminate-test%' and state = 'active' and pid <> pg_backend_pid()`,
          )
        ).rows[0].n;
      await expect.poll(terminate, { timeout: 2_500, interval: 20 }).toBe(1);
      expect(await running).toMatchObject({ ok: false, error: expect.stringContaining(`Query on ${server.where} failed`) });
      expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 3 as three' }))).rows).toEqual([{ three: 3 }]);
    });

    it('reports a SQL error with the server message', async () => {
      expect(await runner.run(makeInput({ ...base, query: 'select * from no_such_table_here' }))).toMatchObject({
        ok: false,
        error: expect.stringContaining(`Query on ${server.where} failed: relation "no_such_table_here" does not exist`),
      });
    });

    it('keeps at most maxPools pools, closing the least recently used', async () => {
      const bounded = createDbaccessRunner({ allowPrivate: true, maxPools: 1 });
      const otherDatabase = parseDbUrl(testDatabaseUrl, 'postgres').database ?? 'postgres';
      try {
        for (const dbName of [base.dbName, otherDatabase, base.dbName]) {
          expect(rowsOf(await bounded.run(makeInput({ ...base, dbName, query: 'select current_database() as db' }))).rows).toEqual([
            { db: dbName },
          ]);
          expect(bounded.poolCount).toBe(1);
        }
      } finally {
        await bounded.close();
      }
    });

    it('refuses its private address when private addresses are not allowed, and allowHosts lets exactly it through', async () => {
      const strict = createDbaccessRunner({ allowPrivate: false });
      const allowed = createDbaccessRunner({ allowPrivate: false, allowHosts: [base.dburl] });
      try {
        expect(await strict.run(makeInput({ ...base, query: 'select 1' }))).toMatchObject({
          ok: false,
          error: expect.stringMatching(/^Refused: .*private address/),
        });
        expect(rowsOf(await allowed.run(makeInput({ ...base, query: 'select 1 as one' }))).rows).toEqual([{ one: 1 }]);
        const otherPort = base.dburl.replace(/:\d+$/, `:${server.port + 1}`);
        expect(await allowed.run(makeInput({ ...base, dburl: otherPort, query: 'select 1' }))).toMatchObject({
          ok: false,
          error: expect.stringMatching(/^Refused/),
        });
      } finally {
        await Promise.all([strict.close(), allowed.close()]);
      }
    });
  },
);

describeWithService(
  'dbaccess: MariaDB via mysql2 (real server)',
  await isMysqlReachable(testMysqlUrl),
  `MariaDB or MySQL not reachable at ${testMysqlUrl}`,
  () => {
    const table = `dialflow_dbaccess_${randomBytes(4).toString('hex')}`;
    let admin: mysql.Connection;
    const runner = createDbaccessRunner({ allowPrivate: true });
    const server = describeServer(testMysqlUrl, 'mysql');
    const base = server.base;

    beforeAll(async () => {
      admin = await mysql.createConnection(testMysqlUrl);
      await admin.query(`create table ${table} (id int primary key, msisdn varchar(20), name varchar(100))`);
      const values = Array.from({ length: 1_500 }, (_, i) => `(${i + 1}, '2332440${String(i).padStart(5, '0')}', 'user${i + 1}')`).join(
        ',',
      );
      await admin.query(`insert into ${table} values ${values}`);
    });
    afterAll(async () => {
      await runner.close();
      await admin.query(`drop table if exists ${table}`);
      await admin.end();
    });

    it('selects with a template parameter', async () => {
      const result = rowsOf(
        await runner.run(makeInput({ ...base, query: `select id, name from ${table} where msisdn = {{ session.mobile }}` })),
      );
      expect(result).toEqual({ rows: [{ id: 1, name: 'user1' }], rowCount: 1, truncated: false });
    });

    it.each(HOSTILE)('keeps the injection attempt %s as data', async (hostile) => {
      const result = rowsOf(
        await runner.run(
          makeInput(
            { ...base, query: `select id from ${table} where name = {{ session.inputs.name }} or msisdn = "{{ session.inputs.name }}"` },
            { name: hostile },
          ),
        ),
      );
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
      const result = rowsOf(
        await runner.run(
          makeInput({ ...base, query: `update ${table} set name = {{ session.inputs.name }} where id <= 2` }, { name: 'renamed' }),
        ),
      );
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

    it('kills sleep(60) on the server at the deadline, and the pool goes on answering', async () => {
      const outcome = await runner.run(makeInput({ ...base, query: 'select sleep(60) as dbaccess_sleep_test' }, {}, 500));
      expect(outcome).toMatchObject({ ok: false, timedOut: true, error: expect.stringMatching(timedOutOn(server.where)) });
      // Before the runner would drop the connection (2 s after the deadline): KILL QUERY stopped it.
      const countSleeping = async () => {
        const [rows] = await admin.query(
          `select count(*) as n from information_schema.processlist where info like '%dbaccess_sleep_test%' and id <> connection_id()`,
        );
        return Number((rows as { n: number }[])[0].n);
      };
      await expect.poll(countSleeping, { timeout: 1_500, interval: 50 }).toBe(0);
      expect(rowsOf(await runner.run(makeInput({ ...base, query: 'select 2 as two' }))).rows).toEqual([{ two: 2 }]);
    });

    it('refuses its private address when private addresses are not allowed', async () => {
      const strict = createDbaccessRunner({ allowPrivate: false });
      try {
        expect(await strict.run(makeInput({ ...base, query: 'select 1' }))).toMatchObject({
          ok: false,
          error: expect.stringMatching(/^Refused: .*private address/),
        });
      } finally {
        await strict.close();
      }
    });
  },
);
