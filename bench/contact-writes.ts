/**
 * Diagnostic: what the runtime's contact write (writeContactRecords, core/contact-records.ts) costs the database per
 * contact, on a file PGlite on its own thread as `npm start` opens it: batches of 500 callers seen on USSD, new
 * numbers and then the same numbers again within the quarter hour, median CPU of the process (every thread) per
 * contact over 30 batches. bench/README.md, "Bringing it down: the seen write".
 *
 *   npx tsx bench/contact-writes.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/client';
import { users } from '../src/db/schema';
import { writeContactRecords, type ContactRecord } from '../src/server/core/contact-records';

const database = await openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'dialflow-contact-writes-')), thread: true, lowPriority: true });
await database.migrate();
const db = database.db;
const [{ id }] = await db
  .insert(users)
  .values({ fullName: 'Bench', email: 'bench@contacts.example', passwordHash: 'x' })
  .returning({ id: users.id });
const B = 500;
let n = 0;
async function round(repeat: boolean) {
  const recs: ContactRecord[] = [];
  for (let i = 0; i < B; i++) {
    const k = repeat ? i : n++;
    recs.push({ ownerId: id, msisdn: `+23324${String(k).padStart(7, '0')}`, seen: { channel: 'ussd', at: new Date().toISOString() } });
  }
  const line = recs.map((r) => JSON.stringify(r));
  const c0 = process.cpuUsage();
  await writeContactRecords(
    db,
    line.map((l) => JSON.parse(l)),
    new Date(),
  );
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / B;
}
for (const repeat of [false, true]) {
  for (let w = 0; w < 5; w++) await round(repeat);
  const xs: number[] = [];
  for (let r = 0; r < 30; r++) xs.push(await round(repeat));
  xs.sort((a, b) => a - b);
  console.log(repeat ? 'seen again' : 'new', 'contacts: µs CPU/contact, median', xs[15]!.toFixed(1));
}
await database.close();
