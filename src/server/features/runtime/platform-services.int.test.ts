import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import {
  isMysqlReachable,
  isPostgresReachable,
  reportMissingService,
  testDatabaseUrl,
  testMysqlUrl,
} from '../../../../tests/support/services';
import { createTestApp, type SeededUser, seedUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

/**
 * The platform's own servers (DATABASE_URL's PostgreSQL, REDIS_URL) are out of reach of database and REST
 * actions, compared by resolved address and port: private addresses are allowed here, so loopback is
 * otherwise reachable, and the machine's MariaDB stays so. The servers of TEST_DATABASE_URL and TEST_MYSQL_URL
 * must run on this machine: the test reaches them by the machine's other names (localhost, [::1], 127.0.0.2).
 */
const postgres = new URL(testDatabaseUrl);
const pgPort = postgres.port || '5432';
const pgUser = decodeURIComponent(postgres.username);
const pgPassword = decodeURIComponent(postgres.password);
/** A database of the server other than the platform's. */
const pgOtherDatabase = decodeURIComponent(postgres.pathname.slice(1)) || 'postgres';
const platformDb = Object.assign(new URL(testDatabaseUrl), { pathname: '/dialflow_platform' }).toString();
const mariadb = new URL(testMysqlUrl);

const pgUp = await isPostgresReachable(testDatabaseUrl);
const mysqlUp = await isMysqlReachable(testMysqlUrl);
if (!pgUp) reportMissingService('platform services tests', `PostgreSQL not reachable at ${testDatabaseUrl}`);
if (!mysqlUp) reportMissingService('platform services tests (MariaDB)', `MariaDB not reachable at ${testMysqlUrl}`);

/** Dials a new app whose first screen runs `code` as action `q` and shows its error or first row's `who`. */
async function dial(t: TestApp, owner: SeededUser, kind: 'dbaccess' | 'restapi', code: Record<string, unknown>): Promise<string> {
  const appId = await seedApp(t, owner.auth);
  await seedMenu(t, owner.auth, appId, {
    userDefinedName: 'result',
    displayText: '{% if actions.q.error %}{{ actions.q.error }}{% else %}{{ actions.q.rows[0].who }}{% endif %}',
    isFirst: true,
    terminate: true,
    actions: [{ actionName: 'q', actionType: 'pre', inheritsPlugin: kind, code }],
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/ussd/${appId}/test`,
    payload: new URLSearchParams({
      sessionId: `PS-${randomBytes(4).toString('hex')}`,
      serviceCode: '*920*55#',
      phoneNumber: '+233241112222',
      networkCode: '62001',
      text: '',
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
}

const pgQuery = (dburl: string) => ({
  dialect: 'postgres',
  dburl,
  dbuser: pgUser,
  dbpass: pgPassword,
  dbName: pgOtherDatabase,
  query: 'select current_database() as who',
});
const restGet = (url: string) => ({ method: 'GET', url, contentType: 'application/json', payload: '', headers: [], basicAuth: null });

(pgUp ? describeDb : describeDb.skip)("the platform's own database server", () => {
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true, DATABASE_URL: platformDb });
  const owner = useUser(t);

  it.each([
    ['another database on the same server', `postgres://127.0.0.1:${pgPort}/${pgOtherDatabase}`, `127.0.0.1:${pgPort}`],
    ['localhost', `localhost:${pgPort}`, `localhost:${pgPort}`],
    ['[::1]', `[::1]:${pgPort}`, `::1:${pgPort}`],
    ['127.0.0.2 (all of 127/8 is this machine)', `127.0.0.2:${pgPort}`, `127.0.0.2:${pgPort}`],
    ['[::ffff:127.0.0.1] (IPv4-mapped)', `postgres://[::ffff:127.0.0.1]:${pgPort}/${pgOtherDatabase}`, `127.0.0.1:${pgPort}`],
    ['[::127.0.0.1] (IPv4-compatible)', `postgres://[::127.0.0.1]:${pgPort}/${pgOtherDatabase}`, `::7f00:1:${pgPort}`],
  ])('refuses a database action to %s', async (_name, dburl, where) => {
    const body = await dial(t, owner, 'dbaccess', pgQuery(dburl));
    expect(body).toMatch(
      new RegExp(`^END Refused: ${where.replace(/[.[\]]/g, '\\$&')}( \\(.*\\))? is the platform's own database server$`),
    );
  });

  it('refuses a REST call to its port too', async () => {
    expect(await dial(t, owner, 'restapi', restGet(`http://localhost:${pgPort}/`))).toMatch(
      new RegExp(`^END Refused: localhost:${pgPort} \\(.*\\) is the platform's own database server$`),
    );
  });

  (mysqlUp ? it : it.skip)('still lets a database action reach another server on this machine (MariaDB)', async () => {
    const mariadbDatabase = decodeURIComponent(mariadb.pathname.slice(1));
    const body = await dial(t, owner, 'dbaccess', {
      dialect: 'mysql',
      dburl: `127.0.0.1:${mariadb.port || '3306'}`,
      dbuser: decodeURIComponent(mariadb.username),
      dbpass: decodeURIComponent(mariadb.password),
      dbName: mariadbDatabase,
      query: 'select database() as who',
    });
    expect(body).toBe(`END ${mariadbDatabase}`);
  });
});

(pgUp ? describeDb : describeDb.skip)('what an operator can open', () => {
  it('OUTBOUND_ALLOW_HOSTS naming the database server does not open it', async () => {
    const t = await createTestApp({
      ALLOW_PRIVATE_NETWORK: false,
      OUTBOUND_ALLOW_HOSTS: [`127.0.0.1:${pgPort}`],
      DATABASE_URL: platformDb,
    });
    try {
      const owner = await seedUser(t);
      expect(await dial(t, owner, 'dbaccess', pgQuery(`127.0.0.1:${pgPort}`))).toBe(
        `END Refused: 127.0.0.1:${pgPort} is the platform's own database server`,
      );
    } finally {
      await t.close();
    }
  });

  it('ALLOW_PLATFORM_DATABASE_SERVER opens it to database actions only; REST calls to it stay refused', async () => {
    const t = await createTestApp({ ALLOW_PRIVATE_NETWORK: true, ALLOW_PLATFORM_DATABASE_SERVER: true, DATABASE_URL: platformDb });
    try {
      const owner = await seedUser(t);
      expect(await dial(t, owner, 'dbaccess', pgQuery(`127.0.0.1:${pgPort}`))).toBe(`END ${pgOtherDatabase}`);
      expect(await dial(t, owner, 'restapi', restGet(`http://127.0.0.1:${pgPort}/`))).toBe(
        `END Refused: 127.0.0.1:${pgPort} is the platform's own database server`,
      );
    } finally {
      await t.close();
    }
  });
});

describeRedis("the platform's own Redis", () => {
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true, REDIS_URL: testRedisUrl });
  const owner = useUser(t);

  it('is out of reach of REST calls and database actions, by any name', async () => {
    const { hostname, port } = new URL(testRedisUrl);
    const redisPort = port || '6379';
    expect(await dial(t, owner, 'restapi', restGet(`http://${hostname}:${redisPort}/`))).toMatch(
      /^END Refused: .* is the platform's own Redis$/,
    );
    expect(await dial(t, owner, 'restapi', restGet(`http://localhost:${redisPort}/`))).toMatch(
      /^END Refused: localhost:\d+ \(.*\) is the platform's own Redis$/,
    );
    expect(
      await dial(t, owner, 'dbaccess', {
        dialect: 'mysql',
        dburl: `localhost:${redisPort}`,
        dbuser: 'root',
        dbpass: '',
        dbName: 'test',
        query: 'select 1 as who',
      }),
    ).toMatch(/^END Refused: localhost:\d+ \(.*\) is the platform's own Redis$/);
  });
});
