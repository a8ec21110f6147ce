/**
 * Session search over a million stored sessions on PostgreSQL; our bar is an answer in under half
 * a second.
 * Creates a scratch database, fills it with generated sessions through SQL, then times the real search
 * API (`POST /dashboard/search` through app.inject) by word and by date, flat and not.
 *
 *   npm run bench:search                      # 1,000,000 sessions
 *   npm run bench:search -- --rows=200000 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import { sql } from 'drizzle-orm';
import { createUser } from '../src/server/core/accounts';
import { buildBenchApp, openScratchDatabase, signInBench } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const rows = Number(args.rows ?? 1_000_000);

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'search');
try {
  await createUser(database.db, { fullName: 'Bench', email: 'bench@example.com', password: 'bench-pass' });
  const app = await buildBenchApp(database);
  const auth = await signInBench(app, 'bench@example.com', 'bench-pass');
  const appRes = await app.inject({
    method: 'POST',
    url: '/api/createApp',
    headers: auth,
    payload: {
      appName: 'Search',
      description: 'bench',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*1#',
    },
  });
  const appId = appRes.json().data.appId as string;

  console.log(`Filling ${rows.toLocaleString()} sessions for one app (the worst case for a per-app search)...`);
  const fillStart = Date.now();
  // Names from a list of 50, amounts 1-500, 6-digit account numbers, spread over 90 days.
  await database.db.execute(sql`
    insert into session_records (app_id, session_id, environment, gateway, mobile, network, service_code, status, last_menu, inputs, hop_count, started_at, ended_at)
    select ${appId}, 's' || g, 'live', 'africastalking', '2332' || lpad((g::bigint * 7919 % 100000000)::text, 8, '0'),
      (array['MTN','TELECEL','AT'])[1 + g % 3], '*920*1#', case when g % 5 = 0 then 'abandoned' else 'completed' end, null,
      jsonb_build_object('name', (array['Kwame','Akosua','Kofi','Ama','Yaw','Esi','Kojo','Abena','Kwesi','Adwoa','Emeka','Ngozi','Chidi','Amaka','Tunde','Bisi','Wanjiru','Otieno','Achieng','Kamau','Thandiwe','Sipho','Nomvula','Bongani','Zanele','Musa','Aisha','Fatima','Ibrahim','Halima','Juma','Neema','Baraka','Imani','Zuri','Jabari','Nia','Kato','Mukasa','Nakato','Tendai','Rudo','Farai','Chipo','Tatenda','Ayo','Femi','Kemi','Segun','Lola'])[1 + g % 50],
        'amount', (1 + g % 500)::text, 'account', lpad((g % 1000000)::text, 6, '0')),
      3, now() - ((g % 129600) || ' minutes')::interval, now() - ((g % 129600) || ' minutes')::interval
    from generate_series(1, ${rows}) g`);
  await database.db.execute(sql`analyze session_records`);
  console.log(`  filled in ${((Date.now() - fillStart) / 1000).toFixed(1)} s`);

  const day = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const cases: Array<[string, object]> = [
    ['word: a rare account number', { searchBy: 'word', searchQuery: '123457' }],
    ['word: a mobile number', { searchBy: 'word', searchQuery: '23320079190' }],
    ['word: a common name (10% of rows, first 5,000 returned)', { searchBy: 'word', searchQuery: 'Wanjiru' }],
    ['date: one day', { searchBy: 'date', startDate: day, endDate: day }],
    ['date: one day, flat results', { searchBy: 'date', startDate: day, endDate: day, flatResults: true }],
  ];
  console.log('\ncase                                                     rows  best ms  median ms');
  let worst = 0;
  for (const [label, body] of cases) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/dashboard/search',
        headers: auth,
        payload: { appId, searchQuery: '', startDate: '', endDate: '', flatResults: false, ...body },
      });
      times.push(performance.now() - start);
      const data = res.json().data;
      count = Array.isArray(data) ? data.length : data.rows.length;
    }
    times.sort((a, b) => a - b);
    worst = Math.max(worst, times[2]!);
    console.log(
      `${label.padEnd(55)} ${String(count).padStart(5)}  ${times[0]!.toFixed(0).padStart(7)}  ${times[2]!.toFixed(0).padStart(9)}`,
    );
  }
  console.log(
    `\n${worst < 500 ? 'PASS' : 'FAIL'}  slowest median ${worst.toFixed(0)} ms over ${rows.toLocaleString()} sessions (goal < 500 ms)`,
  );
  await app.close();
} finally {
  await close();
}
