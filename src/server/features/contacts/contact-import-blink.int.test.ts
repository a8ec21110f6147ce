/**
 * A CSV import while PostgreSQL's connections go away (a failover, a restart, a network blip): the connection of a
 * batch is ended with pg_terminate_backend, from connections of the test's own. To end it at a chosen statement,
 * the test holds row locks the import must wait for, and ends the connection that waits. Only on PostgreSQL
 * (int-postgres): PGlite has no connections to end.
 */
import { expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { contactImports, contacts } from '../../../db/schema';
import { CONTACT_IMPORT_MESSAGES } from '../../../shared/api/contact-imports.schema';
import { describeDb } from '../../../../tests/support/test-db';
import { connectToTestDatabase, terminateBlockedOn, waitForBlockedOn } from '../../../../tests/support/db-blink';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { waitForContactImports } from './contact-imports.service';

const ROWS = 3000;
/** Row 1,501 of the file (the second batch of 1,000): a contact stored before, whose lock holds that batch up. */
const HELD_NUMBER = '+233240001500';
const numberOf = (i: number) => `+23324${String(i).padStart(7, '0')}`;

describeDb('a contacts import while the database blinks', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const countContacts = async () => (await t.db.select({ n: count() }).from(contacts).where(eq(contacts.ownerId, owner.user.id)))[0]!.n;

  it('fails the import clearly, counts only the batches written whole, keeps serving, and a new import completes', async () => {
    // The lock holders and the terminator.
    const [holder, jobHolder, admin] = await Promise.all([connectToTestDatabase(t), connectToTestDatabase(t), connectToTestDatabase(t)]);
    try {
      await t.db.insert(contacts).values({ ownerId: owner.user.id, msisdn: HELD_NUMBER, name: 'Held' });
      const csv = ['phone,tier', ...Array.from({ length: ROWS }, (_, i) => `${numberOf(i)},gold`)].join('\n');

      // The second batch waits for the held contact's lock.
      await holder.query('begin');
      await holder.query('select 1 from contacts where owner_id = $1 and msisdn = $2 for update', [owner.user.id, HELD_NUMBER]);
      const started = await createApiClient(t, owner).post('/api/contacts/imports', { csv, defaultCountry: 'ghana' });
      expect(started.statusCode, started.body).toBe(200);
      const importId: string = started.json().data.importId;
      await waitForBlockedOn(admin, '%with written as%');

      // Then its job's counts wait for the job's lock: the batch is written, its counts not yet. The blink.
      await jobHolder.query('begin');
      await jobHolder.query('select 1 from contact_imports where id = $1 for update', [importId]);
      await holder.query('rollback');
      await terminateBlockedOn(admin, 'update "contact_imports"%"processed"%');
      // Its first try at recording the failure meets the blink too.
      await terminateBlockedOn(admin, 'update "contact_imports"%"failure"%');
      await jobHolder.query('rollback');
      await waitForContactImports();

      const job = (await createApiClient(t, owner).get(`/api/contacts/imports/${importId}`)).json().data;
      expect(job).toMatchObject({ status: 'failed', processed: 1000, created: 1000, updated: 0 });
      expect(job.failure).toBe(`The import stopped: ${CONTACT_IMPORT_MESSAGES.databaseAway}`);
      expect(job.finishedAt).not.toBeNull();
      // The contacts are those the job counts (the first batch) and the one stored before: none of the batch
      // that met the blink, reported or not.
      expect(await countContacts()).toBe(1000 + 1);
      const [held] = await t.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.ownerId, owner.user.id), eq(contacts.msisdn, HELD_NUMBER)));
      expect(held?.attributes).toEqual({});

      // The slot is free: the same file again completes.
      const again = await createApiClient(t, owner).post('/api/contacts/imports', { csv, defaultCountry: 'ghana' });
      expect(again.statusCode, again.body).toBe(200);
      await waitForContactImports();
      const done = (await createApiClient(t, owner).get(`/api/contacts/imports/${again.json().data.importId}`)).json().data;
      expect(done).toMatchObject({ status: 'done', processed: ROWS, created: ROWS - 1000 - 1, updated: 1000 + 1 });
      expect(await countContacts()).toBe(ROWS);
      const running = await t.db.select().from(contactImports).where(eq(contactImports.status, 'running'));
      expect(running).toEqual([]);
    } finally {
      await Promise.all([holder.end(), jobHolder.end(), admin.end()]);
    }
  });
});
