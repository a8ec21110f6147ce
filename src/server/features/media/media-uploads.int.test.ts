/**
 * The limits on uploads (docs/media.md, "Limits on uploads"): per minute per account and per address, at once per
 * account, and the bytes all uploads of the process hold. The uploads held open go over real HTTP to a listening
 * server: a body is sent in part and the upload waits, as a slow client's does.
 */
import http from 'node:http';
import { eq, like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { mediaBytes, mediaFiles } from '../../../db/schema';
import { makePng } from '../../../../tests/support/media-files';
import { seedApp } from '../../../../tests/support/seed-app';
import { seedUser, type SeededUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { MEDIA_MESSAGES } from './media.service';

const KB = 1024;

/** A text document of `size` bytes (text has no signature: any printable bytes are one). */
const makeText = (size: number) => Buffer.alloc(size, 'Order 42, total 10 GHS\n');

/** The account's stored files: records and bytes (keys `<accountId>/<mediaId>`). */
async function countStored(t: TestApp, accountId: string) {
  const files = await t.db.select({ id: mediaFiles.id }).from(mediaFiles).where(eq(mediaFiles.ownerId, accountId));
  const bytes = await t.db
    .select({ key: mediaBytes.key })
    .from(mediaBytes)
    .where(like(mediaBytes.key, `${accountId}/%`));
  return { files: files.length, bytes: bytes.length };
}

interface Answer {
  status: number;
  body: { status: string; code?: string; message: string; data?: { mediaId: string; size: number } };
}

/**
 * An upload over HTTP whose body is sent when the test says: its headers go at once (with `size` as its
 * Content-Length, or chunked when `size` is null), the body in parts or never.
 */
function startUpload(origin: string, user: SeededUser, size: number | null, query = '', contentType = 'text/plain') {
  const req = http.request(`${origin}/api/media${query}`, {
    method: 'POST',
    agent: false,
    headers: { ...user.auth, 'content-type': contentType, ...(size === null ? {} : { 'content-length': String(size) }) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return {
    answer,
    send: (bytes: Buffer) => req.write(bytes),
    finish: (bytes?: Buffer) => req.end(bytes),
    /** The client goes away mid-body. */
    abort: () => {
      answer.catch(() => {});
      req.destroy();
    },
  };
}

/** An upload whose body is never sent: its answer, which must come before the body does (a refusal). */
async function answerUnread(origin: string, user: SeededUser, size: number | null, query = '', contentType = 'text/plain') {
  const upload = startUpload(origin, user, size, query, contentType);
  const answer = await upload.answer;
  upload.abort();
  return answer;
}

/** An upload sent whole at once: its answer. */
function uploadWhole(origin: string, user: SeededUser, file: Buffer) {
  const upload = startUpload(origin, user, file.length);
  upload.finish(file);
  return upload.answer;
}

/**
 * One upload of `file` for each user, each sent a quarter of the way and held there (a slow client), once all are
 * admitted; `finish` sends the rest.
 */
async function holdUploads(t: TestApp, origin: string, users: SeededUser[], file: Buffer) {
  const quarter = Math.floor(file.length / 4);
  const before = t.app.ctx.mediaUploads.bytesInFlight();
  const held = users.map((user) => startUpload(origin, user, file.length));
  for (const upload of held) upload.send(file.subarray(0, quarter));
  await waitForBytesInFlight(t, before + users.length * file.length);
  return held.map((upload) => ({ ...upload, finish: () => upload.finish(file.subarray(quarter)) }));
}

/** A record of `size` bytes in the account's storage (its bytes are not needed to count it). */
async function fillStorage(t: TestApp, ownerId: string, size: number): Promise<void> {
  await t.db.insert(mediaFiles).values({
    ownerId,
    kind: 'video',
    mimeType: 'video/mp4',
    size,
    sha256: '0'.repeat(64),
    source: 'inbound',
    backend: 'database',
    storageKey: `${ownerId}/placeholder`,
  });
}

/** Waits until the process holds `bytes` of uploads admitted (the uploads started have passed their checks). */
async function waitForBytesInFlight(t: TestApp, bytes: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (t.app.ctx.mediaUploads.bytesInFlight() === bytes) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`uploads in flight hold ${t.app.ctx.mediaUploads.bytesInFlight()} bytes, not ${bytes}`);
}

describeDb('media uploads: per minute, per account and per address', () => {
  const t = useTestApp({ MEDIA_UPLOAD_RATE_LIMIT: 3, MEDIA_UPLOAD_ADDRESS_RATE_LIMIT: 5 });
  const [first, second, third] = [useUser(t), useUser(t), useUser(t)];
  const upload = (user: SeededUser) =>
    t.app.inject({ method: 'POST', url: '/api/media', headers: { ...user.auth, 'content-type': 'image/png' }, payload: makePng() });

  it("answers 429 past the account's uploads a minute, stores nothing, and leaves other accounts theirs; then the address's", async () => {
    for (let i = 0; i < 3; i++) expect((await upload(first)).statusCode).toBe(200);
    const refused = await upload(first);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ status: '05', message: MEDIA_MESSAGES.uploadRate(3) });
    expect(await countStored(t, first.user.id)).toEqual({ files: 3, bytes: 3 });

    // Another account from the same address: its own three (the refused upload was not counted for the address).
    expect((await upload(second)).statusCode).toBe(200);
    expect((await upload(third)).statusCode).toBe(200);
    // The address's five are spent: a third account with uploads of its own left is refused by the address.
    const byAddress = await upload(third);
    expect(byAddress.statusCode).toBe(429);
    expect(byAddress.json()).toEqual({ status: '05', message: MEDIA_MESSAGES.uploadAddressRate(5) });
    expect(await countStored(t, third.user.id)).toEqual({ files: 1, bytes: 1 });
  });

  it("answers an anonymous upload 401: the sign-in is checked first (the address's uploads are spent)", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/media', headers: { 'content-type': 'image/png' }, payload: makePng() });
    expect(res.statusCode).toBe(401);
  });
});

describeDb('media uploads in flight: per account and for the process', () => {
  // A budget of 1 MB for the test's files of a few hundred KB (the default is 256 MB).
  const t = useTestApp({ MEDIA_UPLOAD_BUFFER_BYTES: 1024 * KB });
  const owner = useUser(t);
  const other = useUser(t);
  let origin = '';

  it('listens', async () => {
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it("refuses an account's third upload at once while two are held open, and other accounts upload meanwhile", async () => {
    const file = makeText(10 * KB);
    const held = await holdUploads(t, origin, [owner, owner], file);

    // The third is answered with its body never sent: refused before anything is read.
    expect(await answerUnread(origin, owner, file.length)).toEqual({
      status: 429,
      body: { status: '05', code: 'tooManyUploads', message: MEDIA_MESSAGES.tooManyUploads(2) },
    });
    // A browser sends the whole body anyway: the same answer reaches it (the body is read and dropped).
    expect(await uploadWhole(origin, owner, makeText(600 * KB))).toMatchObject({ status: 429, body: { code: 'tooManyUploads' } });

    expect((await uploadWhole(origin, other, file)).status).toBe(200);

    for (const upload of held) upload.finish();
    const answers = await Promise.all(held.map((upload) => upload.answer));
    expect(answers.map((answer) => [answer.status, answer.body.data?.size])).toEqual([
      [200, file.length],
      [200, file.length],
    ]);
    await waitForBytesInFlight(t, 0);
    expect(await countStored(t, owner.user.id)).toEqual({ files: 2, bytes: 2 });

    // Both answered: the account's places are free again.
    expect((await uploadWhole(origin, owner, file)).status).toBe(200);
  });

  it('frees the place of an upload whose client went away mid-body, and stores nothing of it', async () => {
    const fresh = await seedUser(t);
    const file = makeText(20 * KB);
    const held = await holdUploads(t, origin, [fresh, fresh], file);
    held[0]!.abort();
    await waitForBytesInFlight(t, file.length);

    expect((await uploadWhole(origin, fresh, file)).status).toBe(200);
    held[1]!.finish();
    expect((await held[1]!.answer).status).toBe(200);
    expect(await countStored(t, fresh.user.id)).toEqual({ files: 2, bytes: 2 });
  });

  it("refuses with 503 an upload past the process's bytes in flight, before reading it; a smaller one fits", async () => {
    const [a, b, c] = [await seedUser(t), await seedUser(t), await seedUser(t)];
    const file = makeText(400 * KB);
    const held = await holdUploads(t, origin, [a, b], file);

    expect(await answerUnread(origin, c, file.length)).toEqual({
      status: 503,
      body: { status: '99', code: 'serverBusy', message: MEDIA_MESSAGES.serverBusy },
    });
    expect(await countStored(t, c.user.id)).toEqual({ files: 0, bytes: 0 });

    // 800 KB held and 100 KB more: within the 1 MB.
    expect((await uploadWhole(origin, c, makeText(100 * KB))).status).toBe(200);

    for (const upload of held) upload.finish();
    expect((await Promise.all(held.map((upload) => upload.answer))).map((answer) => answer.status)).toEqual([200, 200]);
    await waitForBytesInFlight(t, 0);
    expect((await uploadWhole(origin, c, file)).status).toBe(200);
  });

  it("refuses an upload past the account's storage before reading it", async () => {
    const trial = await seedUser(t, { plan: 'TRIAL' });
    await fillStorage(t, trial.user.id, 50 * 1024 * KB - 100 * KB);
    expect(await answerUnread(origin, trial, 200 * KB)).toMatchObject({ status: 402, body: { status: '02', code: 'quotaReached' } });
    expect((await uploadWhole(origin, trial, makeText(50 * KB))).status).toBe(200);
  });

  it("refuses a body larger than the kind asked for, for another account's app, and a body of unknown length, before reading it", async () => {
    expect(await answerUnread(origin, owner, 6 * 1024 * KB, '?kind=image', 'image/png')).toEqual({
      status: 400,
      body: { status: '02', code: 'tooLarge', message: MEDIA_MESSAGES.tooLargeForKind('image') },
    });
    expect(await answerUnread(origin, owner, 100 * 1024 * KB + 1)).toEqual({
      status: 400,
      body: { status: '02', code: 'tooLarge', message: MEDIA_MESSAGES.tooLarge },
    });
    const appId = await seedApp(t, owner.auth);
    expect(await answerUnread(origin, other, 10 * KB, `?appId=${appId}`)).toMatchObject({ status: 404, body: { status: '04' } });

    expect(await answerUnread(origin, owner, null)).toEqual({
      status: 400,
      body: { status: '02', code: 'lengthRequired', message: MEDIA_MESSAGES.lengthRequired },
    });
    await waitForBytesInFlight(t, 0);
  });
});

describeDb('media uploads that stall', () => {
  const t = useTestApp({ MEDIA_UPLOAD_IDLE_MS: 300 });
  const owner = useUser(t);

  it('cuts off an upload that stops sending, frees its place, and stores nothing of it', async () => {
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const file = makeText(50 * KB);
    const stalled = [startUpload(origin, owner, file.length), startUpload(origin, owner, file.length)];
    stalled[0]!.send(file.subarray(0, 10 * KB));
    const answers = await Promise.all(stalled.map((upload) => upload.answer));
    for (const upload of stalled) upload.abort();
    const cutOff = { status: 408, body: { status: '02', code: 'stalled', message: MEDIA_MESSAGES.stalled(300) } };
    expect(answers).toEqual([cutOff, cutOff]);
    await waitForBytesInFlight(t, 0);
    expect(await countStored(t, owner.user.id)).toEqual({ files: 0, bytes: 0 });

    expect((await uploadWhole(origin, owner, file)).status).toBe(200);
  });
});

describeDb('media uploads past the quota', () => {
  const t = useTestApp();
  const trial = useUser(t, { plan: 'TRIAL' });

  it('stores neither a record nor bytes for an upload past the quota, nor for the loser of two racing to the last place', async () => {
    const png = makePng(40, 40, { noise: true });
    // A record that leaves room for one more PNG and not two.
    await fillStorage(t, trial.user.id, 50 * 1024 * KB - png.length - 10);
    const upload = () =>
      t.app.inject({ method: 'POST', url: '/api/media', headers: { ...trial.auth, 'content-type': 'image/png' }, payload: png });
    const answers = await Promise.all([upload(), upload()]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 402]);
    expect(answers.find((answer) => answer.statusCode === 402)!.json()).toMatchObject({ status: '02', code: 'quotaReached' });
    // The placeholder's record (no bytes) and the one stored.
    expect(await countStored(t, trial.user.id)).toEqual({ files: 2, bytes: 1 });

    expect((await upload()).statusCode).toBe(402);
    expect(await countStored(t, trial.user.id)).toEqual({ files: 2, bytes: 1 });
  });
});
