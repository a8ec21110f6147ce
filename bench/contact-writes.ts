/**
 * Diagnostic: what the runtime's contact write (writeContactRecords, core/contact-records.ts) costs the database per
 * contact, on a file PGlite on its own thread as `npm start` opens it: batches of 500 callers seen on USSD, new
 * numbers and then the same numbers again within the quarter hour, then the same with an attribute saved (the same
 * value again, or another); median CPU of the process (every thread) per contact over 30 batches. bench/README.md,
 * "Bringing it down: the seen write" and "A session's contact written once".
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
/**
 * One batch: new numbers, or the batch's first 500 again; `amount`, when given, an attribute saved with the seen
 * (a session of HOPS_CONTACT=1's shop: one record a session, written when it ends).
 */
async function round(repeat: boolean, amount?: (k: number) => string) {
  const recs: ContactRecord[] = [];
  const first = n;
  for (let i = 0; i < B; i++) {
    const k = repeat ? first - B + i : n++;
    recs.push({
      ownerId: id,
      msisdn: `+23324${String(k).padStart(7, '0')}`,
      seen: { channel: 'ussd', at: new Date().toISOString() },
      ...(amount ? { attributes: { amount: amount(k) } } : {}),
    });
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
let salt = 0;
const cases: [string, () => Promise<number>][] = [
  ['new contacts, seen', () => round(false)],
  ['seen again (within 15 minutes)', () => round(true)],
  ['new contacts, seen and an attribute saved', () => round(false, (k) => String(k % 100))],
  ['seen again, the same attribute saved', () => round(true, (k) => String(k % 100))],
  ['seen again, the attribute changed', () => round(true, (k) => `${k % 100}-${salt++}`)],
];
for (const [label, run] of cases) {
  const xs: number[] = [];
  // Each "again" case repeats the batch written just before it, so each of its batches follows one of the case before.
  for (let r = 0; r < 35; r++) {
    if (label.startsWith('seen again')) await cases[label.includes('attribute') ? 2 : 0]![1]();
    const x = await run();
    if (r >= 5) xs.push(x);
  }
  xs.sort((a, b) => a - b);
  console.log(`${label}: µs CPU/contact, median`, xs[15]!.toFixed(1));
}
await database.close();
