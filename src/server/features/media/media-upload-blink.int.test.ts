/**
 * An upload while PostgreSQL's connections go away (a failover, a restart, a network blip): the connection of one
 * step of storeMedia is ended with pg_terminate_backend, from connections of the test's own. To end it at a chosen
 * statement, the test holds a lock the step must wait for, and ends the connection that waits. Only on PostgreSQL
 * (int-postgres): PGlite has no connections to end.
 */
import { eq, like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { mediaBytes, mediaFiles } from '../../../db/schema';
import { makePng } from '../../../../tests/support/media-files';
import { connectToTestDatabase, terminateBlockedOn } from '../../../../tests/support/db-blink';
import { useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { MEDIA_MESSAGES } from './media.service';

describeDb('a media upload while the database blinks', () => {
  const t = useTestApp();
  // A plan with a quota: the record's insert locks the account's row first (media.service.ts storeMedia).
  const trial = useUser(t, { plan: 'TRIAL' });
  const upload = () =>
    t.app.inject({ method: 'POST', url: '/api/media', headers: { ...trial.auth, 'content-type': 'image/png' }, payload: makePng(4, 4) });
  const countStored = async () => ({
    files: (await t.db.select({ id: mediaFiles.id }).from(mediaFiles).where(eq(mediaFiles.ownerId, trial.user.id))).length,
    bytes: (
      await t.db
        .select({ key: mediaBytes.key })
        .from(mediaBytes)
        .where(like(mediaBytes.key, `${trial.user.id}/%`))
    ).length,
  });

  /**
   * An upload whose statement like `pattern` waits for the lock `lock` takes (in a transaction of the test's), and
   * whose connection is ended there: its answer, and the account's files before and after.
   */
  async function uploadThroughBlink(lock: string, params: unknown[], pattern: string) {
    const [holder, admin] = await Promise.all([connectToTestDatabase(t), connectToTestDatabase(t)]);
    try {
      const before = await countStored();
      await holder.query('begin');
      await holder.query(lock, params);
      const answer = upload();
      await terminateBlockedOn(admin, pattern);
      await holder.query('rollback');
      const res = await answer;
      return { res, before, after: await countStored() };
    } finally {
      await Promise.all([holder.end(), admin.end()]);
    }
  }

  /** The blink's answer, then an upload stored as if nothing had happened, readable by its reference. */
  async function expectRefusedThenStored(blink: Awaited<ReturnType<typeof uploadThroughBlink>>) {
    expect(blink.res.statusCode).toBe(503);
    expect(blink.res.json()).toEqual({ status: '99', code: 'unavailable', message: MEDIA_MESSAGES.unavailable });
    // No record, and no bytes without one: nothing of the file is left, seen or unseen.
    expect(blink.after).toEqual(blink.before);
    expect(t.app.ctx.mediaUploads.bytesInFlight()).toBe(0);

    const next = await upload();
    expect(next.statusCode, next.body).toBe(200);
    expect(await countStored()).toEqual({ files: blink.before.files + 1, bytes: blink.before.bytes + 1 });
    const file = await t.app.inject({ method: 'GET', url: `/api/media/${next.json().data.mediaId}`, headers: trial.auth });
    expect(file.statusCode).toBe(200);
  }

  it('answers 503 in the envelope when the bytes cannot be written, keeps nothing, and the next upload is stored', async () => {
    // The bytes' COPY waits for the table: then its connection is ended.
    await expectRefusedThenStored(await uploadThroughBlink('lock table media_bytes in share mode', [], 'copy "media_bytes"%'));
  });

  it('answers 503 when the record cannot be written, takes the bytes back out, and the next upload is stored', async () => {
    // The bytes are in; the record's transaction waits for the account's row: then its connection is ended.
    await expectRefusedThenStored(
      await uploadThroughBlink('select 1 from users where id = $1 for update', [trial.user.id], '%from "users"%for no key update%'),
    );
  });
});
