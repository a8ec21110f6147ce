/**
 * A merchant's transaction search over a million stored transactions on PostgreSQL; our bar is an answer in
 * under 300 ms. Creates a scratch database, fills it through SQL with the payments of 1,000 accounts' apps, one
 * of them a merchant's (every 20th row: the merchant holds 50,000), then times the real call
 * (`POST /api/merchant/transactions` through app.inject, as the merchant's user) over the screen's default two
 * days, a month, and a month with a status filter.
 *
 *   npm run bench:merchant-search                      # 1,000,000 transactions
 *   npm run bench:merchant-search -- --rows=200000 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import { sql } from 'drizzle-orm';
import { merchants } from '../src/db/schema';
import { createUser } from '../src/server/core/accounts';
import { buildBenchApp, openScratchDatabase, signInBench } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const rows = Number(args.rows ?? 1_000_000);
const ACCOUNTS = 1000;

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'merchant');
try {
  const [merchant] = await database.db
    .insert(merchants)
    .values({ fullName: 'Bench', email: 'bench@merchant.example', mobileNumber: '1', companyName: 'Bench Ltd', businessCategory: 'retail' })
    .returning();
  const merchantUser = await createUser(database.db, {
    fullName: 'Bench Merchant',
    email: 'user@merchant.example',
    password: 'bench-pass',
    userType: 'merchant',
    roles: ['MERCHANT'],
    merchantId: merchant!.id,
  });
  // Account 0 is the merchant's user; accounts 1..999 are others, each with one app.
  await database.db.execute(sql`
    insert into users (id, full_name, email, password_hash)
    select gen_random_uuid(), 'Other ' || g, 'other' || g || '@bench.example', 'x' from generate_series(1, ${ACCOUNTS - 1}) g`);
  await database.db.execute(sql`
    insert into apps (id, user_id, app_name, country, short_code, connection_mode)
    select md5(u.id::text), u.id, 'App', 'ghana', '*920*1#', 'existing-shortcode' from users u`);
  const app = await buildBenchApp(database);
  const auth = await signInBench(app, merchantUser.email, 'bench-pass', '/api/merchant/login');

  console.log(`Filling ${rows.toLocaleString()} transactions of ${ACCOUNTS} accounts' apps over 90 days...`);
  const fillStart = Date.now();
  await database.db.execute(sql`
    with owners as (select id, md5(id::text) as app_id, row_number() over (order by (id = ${merchantUser.id}) desc, id) - 1 as n from users)
    insert into transactions (reference, transaction_type, amount, status, user_id, app_id, metadata, created_at, updated_at)
    select 'B-' || g, 'paymentprompt', (1 + g % 500)::numeric, (array['SUCCESS','SUCCESS','FAILED','PENDING'])[1 + (g / 20) % 4],
      o.id, o.app_id, '{}'::jsonb, now() - ((g % 129600) || ' minutes')::interval, now()
    from generate_series(1, ${rows}) g
    join owners o on o.n = case when g % 20 = 0 then 0 else 1 + g % ${ACCOUNTS - 1} end`);
  await database.db.execute(sql`analyze transactions`);
  console.log(`  filled in ${((Date.now() - fillStart) / 1000).toFixed(1)} s`);

  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const now = new Date().toISOString();
  const cases: Array<[string, object]> = [
    ['the default range: two days', { startDate: daysAgo(2), endDate: now }],
    ['a month', { startDate: daysAgo(30), endDate: now }],
    ['a month, FAILED only', { startDate: daysAgo(30), endDate: now, status: 'FAILED' }],
    ['90 days', { startDate: daysAgo(90), endDate: now }],
  ];
  console.log('\ncase                                   rows  matched  best ms  median ms');
  let worst = 0;
  for (const [label, body] of cases) {
    const times: number[] = [];
    let shown = 0;
    let matched = 0;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/merchant/transactions', headers: auth, payload: body });
      times.push(performance.now() - start);
      const reply = res.json() as { data: unknown[]; totals: Array<{ count: number }> };
      shown = reply.data.length;
      matched = reply.totals.reduce((sum, t) => sum + t.count, 0);
    }
    times.sort((a, b) => a - b);
    worst = Math.max(worst, times[2]!);
    console.log(
      `${label.padEnd(36)} ${String(shown).padStart(5)}  ${String(matched).padStart(7)}  ${times[0]!.toFixed(0).padStart(7)}  ${times[2]!.toFixed(0).padStart(9)}`,
    );
  }
  console.log(
    `\n${worst < 300 ? 'PASS' : 'FAIL'}  slowest median ${worst.toFixed(0)} ms over ${rows.toLocaleString()} transactions (goal < 300 ms)`,
  );
  await app.close();
} finally {
  await close();
}
