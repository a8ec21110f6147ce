import { linkSimulatedNumber } from '../../../../tests/support/inbox-bot';
import { and, eq, isNotNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { makePdf, makePng, makePngBomb } from '../../../../tests/support/media-files';
import { seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { appLogs, mediaFiles } from '../../../db/schema';
import { MEDIA_MESSAGES } from '../media/media.service';
import { SIMULATED_FILE_MAX_BYTES } from '../../../shared/api/bots.schema';

/**
 * Files between a linked number and its bot (docs/media.md): a user's file is fetched through the connector and
 * stored for the bot's account before the bot reads it; a bot's uploaded file goes out with a signed link the
 * phone can open; what cannot be stored gets a sentence and runs nothing.
 */
describeDb('WhatsApp media through the store', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  const { get, post } = createApiClient(t, builder);
  const FROM = '233209999911';

  async function upload(appId: string, bytes: Buffer, fileName: string, kind: string, auth = builder.auth) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/media?kind=${kind}&appId=${appId}&fileName=${encodeURIComponent(fileName)}`,
      headers: { ...auth, 'content-type': 'application/pdf' },
      payload: bytes,
    });
    expect(res.json(), res.body).toMatchObject({ status: '00' });
    return res.json().data.mediaId as string;
  }

  /** A deployed bot on a simulator number, scanned: the simulated phone's send, for `FROM`. */
  async function linkedBot(name: string, design: (appId: string) => Promise<void>) {
    const created = (await post('/api/chatbot/app/create', { appName: name, description: 'Claims', botType: 'whatsapp' })).json();
    const appId = created.data.appId as string;
    await design(appId);
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const { linkId, secret } = await linkSimulatedNumber(t, builder, appId, '+233200000011');
    /** The phone's send as answered, refusals included. */
    const send = (body: Record<string, unknown>) => post(`/api/whatsapp-simulator/${linkId}/messages`, { secret, from: FROM, ...body }, {});
    const phone = async (body: Record<string, unknown>) => {
      const res = await send(body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.messages as Array<Record<string, unknown>>;
    };
    return { appId, phone, send };
  }

  const asFile = (bytes: Buffer, mimeType: string, fileName?: string) => ({
    kind: 'media',
    file: { data: bytes.toString('base64'), mimeType, ...(fileName ? { fileName } : {}) },
  });

  it('stores the photo a user sends for the bot, which reads it, and answers with an uploaded PDF the phone can open', async () => {
    const receipt = makePdf('Claim 42 received');
    const { appId, phone } = await linkedBot('Claims Bot', async (appId) => {
      const receiptId = await upload(appId, receipt, 'claim.pdf', 'document');
      const done = await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'done',
        displayText: 'Thank you: your {{ session.media.photo.mimeType }} of {{ session.media.photo.size }} bytes is filed.',
        terminate: true,
        attachments: [{ type: 'file', kind: 'document', source: 'upload', value: receiptId, caption: 'Your claim', fileName: '' }],
      });
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'photo',
        displayText: 'Send a photo of the damage',
        isFirst: true,
        inputKind: 'image',
        switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
      });
    });
    expect(await phone({ text: 'hi', kind: 'text' })).toEqual([{ type: 'text', text: 'Send a photo of the damage' }]);

    // Text where a photo is asked for re-shows the menu; a photo that is no photo is refused in words and stored nowhere.
    const [again] = await phone({ text: 'here it is', kind: 'text' });
    expect(again).toMatchObject({ type: 'text', text: expect.stringContaining('Send a photo of the damage') });
    expect(await phone(asFile(makePngBomb(), 'image/png'))).toEqual([
      { type: 'text', text: expect.stringMatching(/^The image is 100000 × 100000 pixels/) },
    ]);
    expect(await phone(asFile(receipt, 'image/png', 'x.png'))).toEqual([
      { type: 'text', text: MEDIA_MESSAGES.forgedType('image/png', 'application/pdf') },
    ]);
    expect(await t.db.select().from(mediaFiles).where(eq(mediaFiles.source, 'inbound'))).toEqual([]);

    const photo = makePng(4, 3);
    const reply = await phone({ ...asFile(photo, 'image/png'), text: 'the back door' });
    expect(reply).toEqual([
      {
        type: 'media',
        media: expect.objectContaining({ kind: 'document', mimeType: 'application/pdf', size: receipt.length, caption: 'Your claim' }),
      },
      { type: 'text', text: `Thank you: your image/png of ${photo.length} bytes is filed.` },
    ]);

    // The user's photo is the bot's account's, with the number it came from and its caption.
    const stored = await t.db
      .select()
      .from(mediaFiles)
      .where(and(eq(mediaFiles.appId, appId), eq(mediaFiles.source, 'inbound')));
    expect(stored).toEqual([
      expect.objectContaining({
        ownerId: builder.user.id,
        kind: 'image',
        mimeType: 'image/png',
        size: photo.length,
        caption: 'the back door',
      }),
    ]);

    // The session's input is the photo's id; the debug panel's inputs give the file itself, with a signed link.
    await t.app.runtime.flushEvents();
    const [input] = await t.db
      .select()
      .from(appLogs)
      .where(and(eq(appLogs.appId, appId), isNotNull(appLogs.inputs)));
    const inputs = (await post('/debug/userInputs', { appId, sessionId: input!.sessionId })).json().data;
    expect(inputs).toEqual([
      expect.objectContaining({
        fieldName: 'photo',
        fieldValue: stored[0]!.id,
        media: expect.objectContaining({ mediaId: stored[0]!.id, kind: 'image', url: expect.stringContaining(`/media/${stored[0]!.id}?`) }),
      }),
    ]);

    // The PDF went with a signed link that serves its bytes, and only while it is valid.
    const { url } = (reply[0] as { media: { url: string } }).media;
    const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(receipt)).toBe(true);
    const forged = new URL(url);
    forged.searchParams.set('signature', 'x'.repeat(64));
    expect((await t.app.inject({ method: 'GET', url: forged.pathname + forged.search })).statusCode).toBe(403);
  });

  it("leaves out a file the bot's account does not hold, and sends the rest", async () => {
    const strangersFile = await (async () => {
      const created = (
        await post('/api/chatbot/app/create', { appName: 'Other Bot', description: 'x', botType: 'whatsapp' }, stranger.auth)
      ).json();
      return upload(created.data.appId, makePdf('not yours'), 'theirs.pdf', 'document', stranger.auth);
    })();
    const { phone } = await linkedBot('Borrowing Bot', async (appId) => {
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'hello',
        displayText: 'Here is our price list',
        isFirst: true,
        terminate: true,
        attachments: [
          { type: 'file', kind: 'document', source: 'upload', value: strangersFile, caption: '', fileName: '' },
          { type: 'location', latitude: '5.6', longitude: '-0.2', name: 'Our shop', address: 'Osu' },
        ],
      });
    });
    expect(await phone({ text: 'hi', kind: 'text' })).toEqual([
      { type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Our shop', address: 'Osu' } },
      { type: 'text', text: 'Here is our price list' },
    ]);
  });

  it("checks the simulated phone's locations and files as the chat simulator's: off the globe, missing or too large is 400", async () => {
    const { phone, send: raw } = await linkedBot('Pins Bot', async (appId) => {
      const done = await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'done',
        displayText: 'Noted {{ session.inputs.where }}',
        terminate: true,
      });
      await seedMenu(t, builder.auth, appId, {
        userDefinedName: 'where',
        displayText: 'Where are you?',
        isFirst: true,
        inputKind: 'location',
        requestLocation: true,
        switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
      });
    });
    expect(await phone({ text: 'hi' })).toEqual([{ type: 'locationRequest', body: 'Where are you?' }]);
    const offGlobe = await raw({ kind: 'location', location: { latitude: 91, longitude: 0 } });
    expect(offGlobe.statusCode).toBe(400);
    expect(offGlobe.body).toContain('The latitude is between -90 and 90');
    const badLongitude = await raw({ kind: 'location', location: { latitude: 5, longitude: -181 } });
    expect(badLongitude.statusCode).toBe(400);
    expect(badLongitude.body).toContain('The longitude is between -180 and 180');
    expect((await raw({ kind: 'location' })).statusCode).toBe(400);
    expect((await raw({ kind: 'media' })).statusCode).toBe(400);
    const tooLarge = await raw(asFile(Buffer.alloc(SIMULATED_FILE_MAX_BYTES + 3), 'application/pdf', 'big.pdf'));
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.body).toContain('A file of at most 16 MB');

    // None of those reached the bot: the location menu still waits, and takes a place on the globe.
    expect(await phone({ kind: 'location', location: { latitude: -33.9, longitude: 18.4, name: 'Cape Town' } })).toEqual([
      { type: 'text', text: 'Noted -33.9,18.4' },
    ]);
  });
});
