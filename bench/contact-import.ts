/**
 * A contacts CSV import of 100,000 rows on PostgreSQL; our bar is under a minute (docs/contacts.md, "Importing
 * a CSV"). Creates a scratch database, times the preview and the import through the real API (app.inject), the
 * import polled as the console polls it, then imports the same file again (every row an update).
 *
 *   npx tsx bench/contact-import.ts                 # 100,000 rows
 *   npx tsx bench/contact-import.ts --rows=20000 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { createUser } from '../src/server/core/accounts';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const rows = Number(args.rows ?? 100_000);
const adminUrl = args.postgres ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `dialflow_bench_import_${randomBytes(4).toString('hex')}`;

const lines = ['phone,name,language,city,tier,whatsapp_consent'];
for (let i = 0; i < rows; i++)
  lines.push(`024${String(i).padStart(7, '0')},Person ${i},en,City ${i % 50},${i % 3 === 0 ? 'gold' : 'silver'},${i % 2 ? 'yes' : 'no'}`);
const csv = lines.join('\n');

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString() });
try {
  await database.migrate();
  await createUser(database.db, { fullName: 'Bench', email: 'bench@example.com', password: 'bench-pass' });
  const app = await buildApp(createConfig({ NODE_ENV: 'test', LOGIN_RATE_LIMIT: 1000 }), { database, logger: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'bench@example.com', password: 'bench-pass' },
  });
  const auth = { authorization: `Bearer ${login.json().token}` };
  const body = { csv, defaultCountry: 'ghana', consentSource: 'Bench sign-ups' };

  let started = performance.now();
  const preview = await app.inject({ method: 'POST', url: '/api/contacts/imports/preview', headers: auth, payload: body });
  console.log(
    `preview of ${rows} rows (${(csv.length / 1e6).toFixed(1)} MB): ${Math.round(performance.now() - started)} ms, status ${preview.statusCode}`,
  );

  for (const round of ['first import (all created)', 'second import (all updated)']) {
    started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/contacts/imports', headers: auth, payload: body });
    const importId = res.json().data?.importId;
    if (!importId) throw new Error(res.body);
    let job: { status: string; created: number; updated: number; skipped: number };
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = (await app.inject({ method: 'GET', url: `/api/contacts/imports/${importId}`, headers: auth })).json().data;
    } while (job.status === 'running');
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${round}: ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s), ${job.status}, created ${job.created}, updated ${job.updated}, skipped ${job.skipped}`,
    );
  }
  await app.close();
} finally {
  await database.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
