import { randomBytes, randomUUID } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, mediaBytes, mediaFiles } from '../../../db/schema';
import { makeJpeg, makePdf, makePng, makePngBomb } from '../../../../tests/support/media-files';
import { startS3Server, type TestS3Server } from '../../../../tests/support/s3-server';
import { seedApp } from '../../../../tests/support/seed-app';
import { createTestApp, seedUser, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { createS3MediaStore, MEDIA_CHUNK_BYTES } from './media-store';
import {
  MEDIA_MESSAGES,
  MediaRefusal,
  readMedia,
  storeMedia,
  sweepExpiredMedia,
  withSignedUrl,
  type StoreMediaInput,
} from './media.service';

const MB = 1024 * 1024;

/** POST /api/media with the file as the body. */
function upload(t: TestApp, auth: Record<string, string>, bytes: Buffer, contentType: string, query = '') {
  return t.app.inject({ method: 'POST', url: `/api/media${query}`, headers: { ...auth, 'content-type': contentType }, payload: bytes });
}

/** The path and query of a signed link (the link itself names PUBLIC_URL's origin). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** The refusal storeMedia throws for `input`, or fails the test when it stores the file. */
async function refusalOf(t: TestApp, input: StoreMediaInput): Promise<MediaRefusal> {
  try {
    await storeMedia(t.app.ctx, input);
  } catch (err) {
    if (err instanceof MediaRefusal) return err;
    throw err;
  }
  throw new Error('the file was stored');
}

const countFiles = async (t: TestApp, ownerId: string) =>
  (await t.db.select({ id: mediaFiles.id }).from(mediaFiles).where(eq(mediaFiles.ownerId, ownerId))).length;

describeDb('media files: storing, refusing, reading', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const other = useUser(t);
  const base = () => ({ accountId: owner.user.id, source: 'inbound' as const });

  it('stores an uploaded PNG and serves it by its signed link, with the sniffed type and safe headers', async () => {
    const png = makePng(3, 2);
    const res = await upload(t, owner.auth, png, 'image/png', '?caption=Receipt');
    expect(res.statusCode).toBe(200);
    const ref = res.json().data;
    expect(ref).toMatchObject({ kind: 'image', mimeType: 'image/png', size: png.length, caption: 'Receipt' });
    expect(ref.url).toMatch(new RegExp(`/media/${ref.mediaId}\\?expires=\\d+&signature=[\\w-]+$`));

    const file = await t.app.inject({ method: 'GET', url: pathOf(ref.url) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toMatch(/^private/);
    expect(file.headers['content-disposition']).toBe('inline');
    expect(file.headers['content-security-policy']).toContain('sandbox');

    const [row] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, ref.mediaId));
    expect(row).toMatchObject({ ownerId: owner.user.id, source: 'upload', backend: 'database', size: png.length });
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves a document as an attachment, its file name encoded', async () => {
    const res = await upload(t, owner.auth, makePdf(), 'application/pdf', `?fileName=${encodeURIComponent('reçu "mai".pdf')}`);
    expect(res.statusCode).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: pathOf(res.json().data.url) });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="re_u _mai_.pdf"; filename*=UTF-8''re%C3%A7u%20%22mai%22.pdf`);
  });

  it('takes text without a signature as text/plain, and refuses other bytes without one', async () => {
    const text = await storeMedia(t.app.ctx, { ...base(), bytes: Buffer.from('Order 42\nTotal: 10 GHS\n'), claimedMimeType: 'text/plain' });
    expect(text).toMatchObject({ kind: 'document', mimeType: 'text/plain' });
    const binary = await refusalOf(t, { ...base(), bytes: Buffer.from([0, 1, 2, 3, 250, 251]), claimedMimeType: 'text/plain' });
    expect(binary.code).toBe('unknownType');
  });

  it('refuses an empty file', async () => {
    const refusal = await refusalOf(t, { ...base(), bytes: Buffer.alloc(0) });
    expect(refusal).toMatchObject({ code: 'empty', message: 'The file is empty.' });
    const res = await upload(t, owner.auth, Buffer.alloc(0), 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', code: 'empty' });
  });

  it("refuses a file over its kind's limit, and over a menu's smaller limit", async () => {
    const large = makePng(1400, 1400, { noise: true });
    expect(large.length).toBeGreaterThan(5 * MB);
    const res = await upload(t, owner.auth, large, 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'tooLarge', message: 'The file is larger than 5 MB, the most an image may be.' });

    const refusal = await refusalOf(t, { ...base(), bytes: makePng(40, 40, { noise: true }), maxBytes: 1024 });
    expect(refusal).toMatchObject({ code: 'tooLarge', message: 'The file is larger than 1 KB, the most accepted here.' });
  });

  it('refuses a type WhatsApp does not take, and a kind other than the one asked for', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from(';')]);
    const notTaken = await refusalOf(t, { ...base(), bytes: gif, claimedMimeType: 'image/gif' });
    expect(notTaken.code).toBe('typeNotAllowed');
    expect(notTaken.message).toMatch(/^Files of type image\/gif are not accepted/);

    const wrongKind = await refusalOf(t, { ...base(), bytes: makePdf(), expectedKind: 'image' });
    expect(wrongKind).toMatchObject({
      code: 'typeNotAllowed',
      message: 'The file is a document (application/pdf); an image is asked for (JPEG or PNG).',
    });
    expect(
      await storeMedia(t.app.ctx, { ...base(), bytes: makeJpeg(), expectedKind: 'image', claimedMimeType: 'image/jpg' }),
    ).toMatchObject({
      mimeType: 'image/jpeg',
    });
  });

  it('refuses a file whose bytes contradict the type it is sent as', async () => {
    const res = await upload(t, owner.auth, makePng(), 'application/pdf');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'forgedType',
      message: 'The file is sent as application/pdf but its contents are image/png.',
    });
  });

  it('refuses an image whose header claims more pixels than allowed, before decoding it', async () => {
    const bomb = makePngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(1024);
    const refusal = await refusalOf(t, { ...base(), bytes: bomb, claimedMimeType: 'image/png' });
    expect(refusal).toMatchObject({
      code: 'imageTooLarge',
      message: 'The image is 100000 × 100000 pixels; the most accepted is 40 megapixels.',
    });
  });

  it('refuses nothing half: no record is left by any refusal', async () => {
    const fresh = await seedUser(t);
    await refusalOf(t, { accountId: fresh.user.id, source: 'upload', bytes: makePngBomb() });
    await refusalOf(t, { accountId: fresh.user.id, source: 'upload', bytes: makePng(), claimedMimeType: 'video/mp4' });
    expect(await countFiles(t, fresh.user.id)).toBe(0);
  });

  it("answers not found for another account's file, by the console and by readMedia", async () => {
    const ref = await storeMedia(t.app.ctx, { ...base(), bytes: makePng() });
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${ref.mediaId}`, headers: other.auth })).statusCode).toBe(404);
    await expect(readMedia(t.app.ctx, ref.mediaId, other.user.id)).rejects.toMatchObject({ kind: 'notFound' });

    const own = await t.app.inject({ method: 'GET', url: `/api/media/${ref.mediaId}`, headers: owner.auth });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ mediaId: ref.mediaId, kind: 'image' });
    const read = await readMedia(t.app.ctx, ref.mediaId, owner.user.id);
    expect(read.bytes.equals(makePng())).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${ref.mediaId}` })).statusCode).toBe(401);
  });

  it("counts an app's upload against the app owner's account, and refuses another account's app", async () => {
    const appId = await seedApp(t, owner.auth);
    const res = await upload(t, owner.auth, makePng(), 'image/png', `?appId=${appId}`);
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, res.json().data.mediaId));
    expect(row).toMatchObject({ ownerId: owner.user.id, appId });
    expect((await upload(t, other.auth, makePng(), 'image/png', `?appId=${appId}`)).statusCode).toBe(404);
  });

  it('refuses a link that was tampered with or has expired', async () => {
    const ref = await storeMedia(t.app.ctx, { ...base(), bytes: makePng() });
    const other = await storeMedia(t.app.ctx, { ...base(), bytes: makePng() });
    const res = await t.app.inject({ method: 'GET', url: `/api/media/${ref.mediaId}`, headers: owner.auth });
    const url = new URL(res.json().data.url);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    const later = new URL(url);
    later.searchParams.set('expires', String(expires + 86_400));
    const elsewhere = new URL(url);
    elsewhere.pathname = `/media/${other.mediaId}`;
    const badSignature = new URL(url);
    badSignature.searchParams.set('signature', 'A'.repeat(43));
    for (const forged of [later, elsewhere, badSignature]) {
      const answer = await t.app.inject({ method: 'GET', url: forged.pathname + forged.search });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ status: '05', message: 'This link to a file is not valid.' });
    }
    expect((await t.app.inject({ method: 'GET', url: `/media/${ref.mediaId}` })).statusCode).toBe(400);

    t.advanceClock(15 * 60_000 + 1000);
    const expired = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe('This link to a file has expired: ask for a new one.');
  });

  it("erases the files a number sent when its contact is deleted, and keeps other numbers' files", async () => {
    const erased = await storeMedia(t.app.ctx, {
      ...base(),
      bytes: makePng(),
      phone: '233241000077@s.whatsapp.net',
      caption: 'my id card',
    });
    const kept = await storeMedia(t.app.ctx, { ...base(), bytes: makePng(), phone: '+233241000078' });
    const [contact] = await t.db.insert(contacts).values({ ownerId: owner.user.id, msisdn: '+233241000077' }).returning();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/contacts/${contact!.id}`, headers: owner.auth });
    expect(res.statusCode).toBe(200);

    const [row] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, erased.mediaId));
    expect(row).toMatchObject({ msisdn: null, caption: null });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(mediaBytes).where(eq(mediaBytes.key, row!.storageKey))).toEqual([]);
    await expect(readMedia(t.app.ctx, erased.mediaId, owner.user.id)).rejects.toMatchObject({ kind: 'gone' });
    expect((await readMedia(t.app.ctx, kept.mediaId, owner.user.id)).ref.mediaId).toBe(kept.mediaId);
  });
});

describeDb('media links: byte ranges, over real HTTP', () => {
  const t = useTestApp();
  const owner = useUser(t);
  // Printable and random (base64 of random bytes): a text document of three chunks and a part, in which a
  // range shifted by a byte shows.
  const text = Buffer.from(randomBytes(Math.ceil((3 * MEDIA_CHUNK_BYTES + 1000) * 0.75)).toString('base64'));
  const size = text.length;
  let link = '';
  let etag = '';
  let mediaId = '';
  const get = (headers: Record<string, string> = {}) => fetch(link, { headers });
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('serves the whole file by its link, saying that it takes ranges', async () => {
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ref = await storeMedia(t.app.ctx, { accountId: owner.user.id, source: 'upload', bytes: text, claimedMimeType: 'text/plain' });
    mediaId = ref.mediaId;
    link = origin + pathOf(withSignedUrl(t.app.ctx, ref).url!);
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(size));
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await bytesOf(res)).equals(text)).toBe(true);
  });

  it('answers 206 with the bytes of one range: the first byte, the last ones, across chunks, to the end', async () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-0', 0, 0],
      [`bytes=${MEDIA_CHUNK_BYTES - 2}-${MEDIA_CHUNK_BYTES + 1}`, MEDIA_CHUNK_BYTES - 2, MEDIA_CHUNK_BYTES + 1],
      [`bytes=10-${2 * MEDIA_CHUNK_BYTES + 10}`, 10, 2 * MEDIA_CHUNK_BYTES + 10],
      [`bytes=${size - 100}-`, size - 100, size - 1],
      ['bytes=-1', size - 1, size - 1],
      [`bytes=${size - 5}-${size + 1000}`, size - 5, size - 1], // an end past the file is cut to it
      [`bytes=-${size + 10}`, 0, size - 1], // the last N bytes, N more than the file: the whole file
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(res.headers.get('content-type'), range).toBe('text/plain');
      expect(res.headers.get('x-content-type-options'), range).toBe('nosniff');
      expect((await bytesOf(res)).equals(text.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers HEAD with the headers alone, of the file or of a range', async () => {
    const whole = await fetch(link, { method: 'HEAD' });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect((await bytesOf(whole)).length).toBe(0);
    const part = await fetch(link, { method: 'HEAD', headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${size}`);
    expect(part.headers.get('content-length')).toBe('10');
  });

  it('answers 416 for a range that starts past the end, with the size', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const res = await get({ range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe(`bytes */${size}`);
      await res.body?.cancel();
    }
  });

  it('serves the whole file for several ranges, a range it does not read, or an If-Range that is not its ETag', async () => {
    const wholeFileHeaders: Array<Record<string, string>> = [
      { range: 'bytes=0-1, 5-6' },
      { range: 'items=0-1' },
      { range: 'bytes=9-3' },
      { range: 'bytes=0-1', 'if-range': '"another"' },
    ];
    for (const headers of wholeFileHeaders) {
      const res = await get(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect((await bytesOf(res)).equals(text), JSON.stringify(headers)).toBe(true);
    }
    const resumed = await get({ range: 'bytes=0-1', 'if-range': etag });
    expect(resumed.status).toBe(206);
    expect((await bytesOf(resumed)).toString()).toBe(text.subarray(0, 2).toString());
  });

  it("answers 410 in the envelope, without the file's headers, for bytes gone from under the record", async () => {
    // Removed by hand, the record left live: the store answers nothing, before any of the file's headers is set.
    await t.db.delete(mediaBytes).where(eq(mediaBytes.key, `${owner.user.id}/${mediaId}`));
    for (const headers of [{}, { range: 'bytes=0-9' }] as Array<Record<string, string>>) {
      const res = await get(headers);
      expect(res.status, JSON.stringify(headers)).toBe(410);
      expect(res.headers.get('content-type'), JSON.stringify(headers)).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition'), JSON.stringify(headers)).toBeNull();
      expect(((await res.json()) as { message: string }).message).toBe(MEDIA_MESSAGES.gone);
    }
  });
});

describeDb('media quota', () => {
  const t = useTestApp();
  const trial = useUser(t, { plan: 'TRIAL' });

  it("refuses a file past the plan's storage, and counts only files not yet deleted", async () => {
    // A record of 50 MB less a few bytes already stored (its bytes are not needed to count it).
    const [big] = await t.db
      .insert(mediaFiles)
      .values({
        ownerId: trial.user.id,
        kind: 'video',
        mimeType: 'video/mp4',
        size: 50 * MB - 10,
        sha256: '0'.repeat(64),
        source: 'inbound',
        backend: 'database',
        storageKey: `${trial.user.id}/placeholder`,
      })
      .returning();
    const res = await upload(t, trial.auth, makePng(), 'image/png');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      status: '02',
      code: 'quotaReached',
      message:
        "The account's storage for files is full (50 MB on the Trial plan): older files free their space after the retention period, or upgrade the plan.",
    });
    expect(await countFiles(t, trial.user.id)).toBe(1);

    await t.db.update(mediaFiles).set({ deletedAt: new Date() }).where(eq(mediaFiles.id, big!.id));
    expect((await upload(t, trial.auth, makePng(), 'image/png')).statusCode).toBe(200);
  });
});

describeDb('media retention', () => {
  const t = useTestApp({ MEDIA_RETENTION_DAYS: 90 });
  const owner = useUser(t);

  it('deletes the bytes of files older than the retention period, keeps their record, and answers 410 for them', async () => {
    const old = await storeMedia(t.app.ctx, { accountId: owner.user.id, source: 'inbound', bytes: makePng() });
    t.advanceClock(89 * 86_400_000);
    const recent = await storeMedia(t.app.ctx, { accountId: owner.user.id, source: 'inbound', bytes: makePng() });
    t.advanceClock(2 * 86_400_000);

    expect(await sweepExpiredMedia(t.app.ctx)).toBe(1);
    expect(await sweepExpiredMedia(t.app.ctx)).toBe(0);
    const [row] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, old.mediaId));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(mediaBytes).where(eq(mediaBytes.key, row!.storageKey))).toEqual([]);

    // The sign-in token ran out with the clock moved: sign in again.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password: owner.password } });
    const auth = { authorization: `Bearer ${login.json().token}` };
    const record = await t.app.inject({ method: 'GET', url: `/api/media/${old.mediaId}`, headers: auth });
    expect(record.statusCode).toBe(200);
    expect(record.json().data).toEqual({ mediaId: old.mediaId, kind: 'image', mimeType: 'image/png', size: makePng().length });
    // A fresh link to a file whose bytes are gone: 410.
    const gone = await t.app.inject({ method: 'GET', url: pathOf(withSignedUrl(t.app.ctx, old).url!) });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ status: '04', message: expect.stringMatching(/deleted after the retention period/) });
    expect((await readMedia(t.app.ctx, recent.mediaId, owner.user.id)).bytes.length).toBeGreaterThan(0);
  });
});

describeDb('media on the S3 back end (s3rver)', () => {
  let s3: TestS3Server;
  let t: TestApp;
  let auth: Record<string, string>;
  let accountId: string;
  beforeAll(async () => {
    s3 = await startS3Server();
    const { settings } = s3;
    t = await createTestApp({
      MEDIA_STORE: 's3',
      MEDIA_S3_ENDPOINT: settings.endpoint,
      MEDIA_S3_BUCKET: settings.bucket,
      MEDIA_S3_REGION: settings.region,
      MEDIA_S3_ACCESS_KEY_ID: settings.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    });
    const user = await seedUser(t);
    auth = user.auth;
    accountId = user.user.id;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** The keys the bucket holds under a prefix. */
  async function listKeys(prefix: string): Promise<string[]> {
    const client = new AwsClient({ accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey, service: 's3' });
    const res = await client.fetch(`${s3.settings.endpoint}/${s3.settings.bucket}?prefix=${encodeURIComponent(prefix)}`);
    return [...(await res.text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
  }

  it('stores the bytes in the bucket and serves them by signed link', async () => {
    const pdf = makePdf('S3');
    const res = await upload(t, auth, pdf, 'application/pdf');
    expect(res.statusCode).toBe(200);
    const ref = res.json().data;
    expect(await listKeys(`${accountId}/`)).toContain(`${accountId}/${ref.mediaId}`);
    const [row] = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, ref.mediaId));
    expect(row).toMatchObject({ backend: 's3', storageKey: `${accountId}/${ref.mediaId}` });
    const file = await t.app.inject({ method: 'GET', url: pathOf(ref.url) });
    expect(file.rawPayload.equals(pdf)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url: pathOf(ref.url), headers: { range: 'bytes=1-4' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-4/${pdf.length}`);
    expect(part.rawPayload.equals(pdf.subarray(1, 5))).toBe(true);
  });

  it('takes the bytes back out of the bucket when the record cannot be written', async () => {
    // An account that does not exist: the bytes go in, the record's insert fails on its owner.
    const ghost = randomUUID();
    const refusal = await refusalOf(t, { accountId: ghost, source: 'action', bytes: makePng() });
    expect(refusal.code).toBe('unavailable');
    expect(await listKeys(`${ghost}/`)).toEqual([]);
    expect(await countFiles(t, ghost)).toBe(0);
  });

  it('refuses a file clearly, and stores no record, when the bucket is down', async () => {
    const ctx = t.app.ctx;
    const store = ctx.mediaStore;
    ctx.mediaStore = createS3MediaStore({ ...s3.settings, endpoint: 'http://127.0.0.1:1' });
    try {
      const res = await upload(t, auth, makePng(), 'image/png');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: '99',
        code: 'unavailable',
        message: 'The file could not be stored right now. Please try again in a few minutes.',
      });
      const before = await countFiles(t, accountId);
      await refusalOf(t, { accountId, source: 'inbound', bytes: makePng() });
      expect(await countFiles(t, accountId)).toBe(before);
      expect(
        await t.db
          .select()
          .from(mediaFiles)
          .where(and(eq(mediaFiles.ownerId, accountId), eq(mediaFiles.source, 'inbound'))),
      ).toEqual([]);
    } finally {
      ctx.mediaStore = store;
    }
  });
});

describe('MediaRefusal', () => {
  it('is an AppError with its code in the envelope', () => {
    const refusal = new MediaRefusal('quotaReached', 'Full.');
    expect(refusal).toMatchObject({ code: 'quotaReached', kind: 'limitReached', httpStatus: 402, extra: { code: 'quotaReached' } });
  });
});
