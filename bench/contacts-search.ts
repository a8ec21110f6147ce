/**
 * The Contacts screen's list over a million contacts of one account on PostgreSQL; our bar is an answer in under
 * 300 ms. Creates a scratch database, fills it through SQL with 1,000,000 contacts of one account (numbers
 * +23324xxxxxxx, two in three named from a list of Ghanaian first and last names, a city and a tier as attributes,
 * WhatsApp consent in or out for some) and 10,000 of each of 20 other accounts, then times each kind of query
 * (median and p95 of `--runs` runs) through listContacts, the service function GET /api/contacts calls. The
 * filters on attributes and consent are timed as the SQL condition the list adds for them
 * (`attributes @> {...}`, `consent @> {whatsapp: {status}}`) beside the same page of the list.
 *
 *   npm run bench:contacts                               # 1,000,000 contacts
 *   npm run bench:contacts -- --rows=200000 --runs=30 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { contacts, users } from '../src/db/schema';
import type { AppContext } from '../src/server/context';
import type { AuthUser } from '../src/server/core/auth-user';
import { listContacts } from '../src/server/features/contacts/contacts.service';
import { contactListQuerySchema } from '../src/shared/api/contacts.schema';
import { openScratchDatabase } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const rows = Number(args.rows ?? 1_000_000);
const runs = Number(args.runs ?? 20);
const OTHER_ACCOUNTS = 20;
const OTHERS_EACH = 10_000;

const FIRST = [
  'Kwame',
  'Ama',
  'Kofi',
  'Akosua',
  'Yaw',
  'Abena',
  'Kwabena',
  'Efua',
  'Kojo',
  'Adwoa',
  'Kwaku',
  'Esi',
  'Yaa',
  'Fiifi',
  'Afua',
];
const LAST = ['Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Appiah', 'Agyeman', 'Danso', 'Ofori', 'Darko', 'Amoah', 'Quaye', 'Tetteh'];
const CITIES = ['Accra', 'Kumasi', 'Tamale', 'Takoradi', 'Cape Coast', 'Sunyani', 'Ho', 'Koforidua', 'Wa', 'Bolgatanga'];

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'contacts');
const textArray = (values: string[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;
try {
  await database.db.execute(sql`
    insert into users (id, full_name, email, password_hash)
    select gen_random_uuid(), 'Account ' || g, 'account' || g || '@bench.example', 'x' from generate_series(0, ${OTHER_ACCOUNTS}) g`);
  const owners = await database.db.select({ id: users.id }).from(users).orderBy(asc(users.email));
  const ownerId = owners[0]!.id;

  console.log(
    `Filling ${rows.toLocaleString()} contacts of one account and ${(OTHER_ACCOUNTS * OTHERS_EACH).toLocaleString()} of ${OTHER_ACCOUNTS} others...`,
  );
  const fillStart = Date.now();
  // Row g: number +23324 then g's 7 digits spread by a multiplier (so number order is not insertion order); named
  // unless g % 3 = 0; the last name after a hash of g, so every name part is in about one named contact in 13.
  const fill = (owner: string, count: number, salt: number) =>
    database.db.execute(sql`
    insert into contacts (owner_id, msisdn, name, attributes, consent, first_seen_ussd, last_seen_ussd,
      first_seen_whatsapp, last_seen_whatsapp)
    select ${owner}::uuid, '+23324' || lpad(((g::bigint * 7919 + ${salt}) % 10000000)::text, 7, '0'),
      case when g % 3 = 0 then null
        else (${textArray(FIRST)}::text[])[1 + g % ${FIRST.length}] || ' ' || (${textArray(LAST)}::text[])[1 + (g / 7) % ${LAST.length}] end,
      jsonb_build_object('city', (${textArray(CITIES)}::text[])[1 + (g / 3) % ${CITIES.length}],
        'tier', case when g % 100 = 0 then 'gold' when g % 10 = 0 then 'silver' else 'basic' end),
      case when g % 4 = 0 then jsonb_build_object('whatsapp', jsonb_build_object('status', 'in', 'at', now(), 'how', 'keyword'))
        when g % 50 = 1 then jsonb_build_object('whatsapp', jsonb_build_object('status', 'out', 'at', now(), 'how', 'keyword'))
        else '{}'::jsonb end,
      now() - (g % 1000 || ' hours')::interval, now() - (g % 100 || ' hours')::interval,
      case when g % 500 = 7 then now() - (g % 1000 || ' hours')::interval end,
      case when g % 500 = 7 then now() - (g % 100 || ' hours')::interval end
    from generate_series(1, ${count}) g`);
  await fill(ownerId, rows, 0);
  for (const [i, other] of owners.slice(1).entries()) await fill(other.id, OTHERS_EACH, i + 1);
  await database.db.execute(sql`vacuum analyze contacts`);
  console.log(`  filled in ${((Date.now() - fillStart) / 1000).toFixed(1)} s`);

  // The service reads only the database and the user's id.
  const ctx = { db: database.db } as AppContext;
  const user = { id: ownerId } as AuthUser;
  const list = (query: object) => () => listContacts(ctx, user, contactListQuerySchema.parse(query));
  /** A page of the list with a filter's condition, as the list adds it (same order, limit and offset). */
  const filtered =
    (condition: SQL, offset = 0) =>
    () =>
      database.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, ownerId), condition))
        .orderBy(asc(contacts.msisdn))
        .limit(51)
        .offset(offset);
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['the first page', list({})],
    ['page at offset 10,000', list({ offset: 10_000 })],
    ['page at offset 100,000', list({ offset: 100_000 })],
    ['page at offset 900,000', list({ offset: 900_000 })],
    ['page after +233249000000 (keyset)', list({ after: '+233249000000' })],
    ['page after +233249999990 (keyset, last)', list({ after: '+233249999990' })],
    ['number start +23324 (all)', list({ search: '+23324' })],
    ['number start 2332412 (1 in 100)', list({ search: '2332412' })],
    ['number start +23324123456 (one)', list({ search: '+23324123456' })],
    ['number start +23350 (none)', list({ search: '+23350' })],
    ['name part "mens" (1 in 20)', list({ search: 'mens' })],
    ['name part "kofi tet" (1 in 300)', list({ search: 'kofi tet' })],
    ['name part "Kofi Tetteh", offset 1000', list({ search: 'Kofi Tetteh', offset: 1000 })],
    ['name start "k" (1 letter, 1 in 3)', list({ search: 'k' })],
    ['name start "ko" (2 letters, 1 in 8)', list({ search: 'ko' })],
    ['name start "ef" (2 letters, 1 in 15)', list({ search: 'ef' })],
    ['name start "zz" (2 letters, none)', list({ search: 'zz' })],
    ['name part "xavier" (none)', list({ search: 'xavier' })],
    ['attribute city = Tamale (1 in 10)', filtered(sql`${contacts.attributes} @> '{"city":"Tamale"}'::jsonb`)],
    ['attribute tier = gold (1 in 100)', filtered(sql`${contacts.attributes} @> '{"tier":"gold"}'::jsonb`)],
    ['attribute tier = platinum (none)', filtered(sql`${contacts.attributes} @> '{"tier":"platinum"}'::jsonb`)],
    ['consent whatsapp in (1 in 4)', filtered(sql`${contacts.consent} @> '{"whatsapp":{"status":"in"}}'::jsonb`)],
    ['consent whatsapp out (1 in 50)', filtered(sql`${contacts.consent} @> '{"whatsapp":{"status":"out"}}'::jsonb`)],
    [
      'gold and whatsapp in (1 in 100)',
      filtered(sql`${contacts.attributes} @> '{"tier":"gold"}'::jsonb and ${contacts.consent} @> '{"whatsapp":{"status":"in"}}'::jsonb`),
    ],
    ['consent whatsapp never (3 in 4)', list({ consentChannel: 'whatsapp', consentStatus: 'never' })],
    ['consent sms never (all)', list({ consentChannel: 'sms', consentStatus: 'never' })],
    ['consent whatsapp in, list', list({ consentChannel: 'whatsapp', consentStatus: 'in' })],
    ['seen on ussd (all)', list({ seenOn: 'ussd' })],
    ['seen on whatsapp (1 in 500)', list({ seenOn: 'whatsapp' })],
    ['seen on sms (none)', list({ seenOn: 'sms' })],
    ['seen on whatsapp, name start "k"', list({ seenOn: 'whatsapp', search: 'k' })],
  ];
  console.log(`\ncase                                      median ms  p95 ms  (${runs} runs)`);
  let worst = 0;
  for (const [label, query] of cases) {
    await query();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await query();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(runs / 2)]!;
    const p95 = times[Math.min(runs - 1, Math.ceil(runs * 0.95) - 1)]!;
    worst = Math.max(worst, p95);
    console.log(`${label.padEnd(40)} ${median.toFixed(1).padStart(10)}  ${p95.toFixed(1).padStart(6)}${p95 >= 300 ? '  SLOW' : ''}`);
  }
  console.log(
    `\n${worst < 300 ? 'PASS' : 'FAIL'}  slowest p95 ${worst.toFixed(0)} ms over ${rows.toLocaleString()} contacts of one account (goal < 300 ms)`,
  );
} finally {
  await close();
}
