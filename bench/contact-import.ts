/**
 * A contacts CSV import of 100,000 rows on PostgreSQL; our bar is under a minute (docs/contacts.md, "Importing
 * a CSV"). Creates a scratch database, times the preview and the import through the real API (app.inject), the
 * import polled as the console polls it, then imports the same file again (every row an update).
 *
 *   npx tsx bench/contact-import.ts                 # 100,000 rows
 *   npx tsx bench/contact-import.ts --rows=20000 --postgres=postgres://postgres@127.0.0.1:5432/postgres
 */
import { createUser } from '../src/server/core/accounts';
import { buildBenchApp, openScratchDatabase, signInBench } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const rows = Number(args.rows ?? 100_000);

const lines = ['phone,name,language,city,tier,whatsapp_consent'];
for (let i = 0; i < rows; i++)
  lines.push(`024${String(i).padStart(7, '0')},Person ${i},en,City ${i % 50},${i % 3 === 0 ? 'gold' : 'silver'},${i % 2 ? 'yes' : 'no'}`);
const csv = lines.join('\n');

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'import');
try {
  await createUser(database.db, { fullName: 'Bench', email: 'bench@example.com', password: 'bench-pass' });
  const app = await buildBenchApp(database);
  const auth = await signInBench(app, 'bench@example.com', 'bench-pass');
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
  await close();
}
