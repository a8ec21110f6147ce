import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { makePdf, makePng } from '../../../../tests/support/media-files';
import { seedMenu } from '../../../../tests/support/seed-app';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { mediaFiles } from '../../../db/schema';
import { MEDIA_MESSAGES } from '../media/media.service';

/**
 * The console's chat simulator with files and locations (docs/bots.md, "The chat simulator"): the page uploads a
 * file through POST /api/media and sends its id; the route takes only a file the bot's account holds; a location
 * must be on the globe; a refusal runs nothing.
 */
describeDb('Chat simulator media', () => {
  const t = useTestApp();
  const builder = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  const { get, post } = createApiClient(t, builder);
  const FROM = '233209999921';

  async function upload(appId: string, bytes: Buffer, mimeType: string, fileName: string, kind: string, auth = builder.auth) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/media?kind=${kind}&appId=${appId}&fileName=${encodeURIComponent(fileName)}`,
      headers: { ...auth, 'content-type': mimeType },
      payload: bytes,
    });
    expect(res.json(), res.body).toMatchObject({ status: '00' });
    return res.json().data.mediaId as string;
  }

  async function createBot(name: string, auth = builder.auth) {
    const created = (await post('/api/chatbot/app/create', { appName: name, description: 'Claims', botType: 'whatsapp' }, auth)).json();
    return created.data.appId as string;
  }

  const chat = (appId: string, body: Record<string, unknown>) => post(`/whatsapp-emulator/${appId}`, { from: FROM, text: '', ...body });

  it('takes a photo and a location to the draft, answers with a PDF and an image, and refuses what is not the bot’s', async () => {
    const appId = await createBot('Claims Desk');
    const receipt = makePdf('Claim 7 received');
    const receiptId = await upload(appId, receipt, 'application/pdf', 'claim-7.pdf', 'document');
    const bannerId = await upload(appId, makePng(8, 4), 'image/png', 'banner.png', 'image');
    const done = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Filed your {{ session.media.photo.mimeType }} at {{ session.media.where.name }}.',
      terminate: true,
      attachments: [
        { type: 'file', kind: 'document', source: 'upload', value: receiptId, caption: 'Your claim', fileName: '' },
        { type: 'file', kind: 'image', source: 'upload', value: bannerId, caption: '', fileName: '' },
      ],
    });
    const where = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'where',
      displayText: 'Where did it happen?',
      inputKind: 'location',
      requestLocation: true,
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
    });
    await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'photo',
      displayText: 'Send a photo of the damage',
      isFirst: true,
      inputKind: 'image',
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: where }],
    });
    expect((await chat(appId, { text: 'hi' })).json().messages).toEqual([{ type: 'text', text: 'Send a photo of the damage' }]);

    // Another account's file is not found, and the conversation stays where it was.
    const strangersApp = await createBot('Other Desk', stranger.auth);
    const strangersPhoto = await upload(strangersApp, makePng(2, 2), 'image/png', 'theirs.png', 'image', stranger.auth);
    const refused = await chat(appId, { kind: 'media', mediaId: strangersPhoto });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: MEDIA_MESSAGES.notFound });
    expect((await chat(appId, { kind: 'media', mediaId: 'not-a-file' })).statusCode).toBe(404);
    expect((await chat(appId, { kind: 'media' })).statusCode).toBe(400);

    const photo = makePng(4, 3);
    const photoId = await upload(appId, photo, 'image/png', 'door.png', 'image');
    const asked = (await chat(appId, { kind: 'media', mediaId: photoId, text: 'the back door' })).json();
    expect(asked.messages).toEqual([{ type: 'locationRequest', body: 'Where did it happen?' }]);

    // Coordinates off the globe are refused in words, and the location menu still waits.
    const offGlobe = await chat(appId, { kind: 'location', location: { latitude: 91, longitude: 0 } });
    expect(offGlobe.statusCode).toBe(400);
    expect(offGlobe.body).toContain('The latitude is between -90 and 90');
    const badLongitude = await chat(appId, { kind: 'location', location: { latitude: 5, longitude: -181 } });
    expect(badLongitude.statusCode).toBe(400);
    expect(badLongitude.body).toContain('The longitude is between -180 and 180');
    expect((await chat(appId, { kind: 'location' })).statusCode).toBe(400);

    const answered = await chat(appId, {
      kind: 'location',
      location: { latitude: 5.6037, longitude: -0.187, name: 'Osu', address: 'Oxford St' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const { messages, end, messageIds } = answered.json();
    expect(end).toBe(true);
    expect(messageIds).toHaveLength(3);
    expect(messages).toEqual([
      {
        type: 'media',
        media: expect.objectContaining({
          mediaId: receiptId,
          kind: 'document',
          mimeType: 'application/pdf',
          size: receipt.length,
          fileName: 'claim-7.pdf',
          caption: 'Your claim',
          url: expect.stringContaining(`/media/${receiptId}?`),
        }),
      },
      {
        type: 'media',
        media: expect.objectContaining({ mediaId: bannerId, kind: 'image', mimeType: 'image/png', url: expect.any(String) }),
      },
      { type: 'text', text: 'Filed your image/png at Osu.' },
    ]);
    // The signed link serves the PDF's bytes.
    const link = new URL(messages[0].media.url);
    const served = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(receipt)).toBe(true);

    // The completed session shows the photo with a fresh signed link, and the location; the export links the photo.
    const [completed] = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(completed.inputs).toMatchObject({ photo: photoId, where: '5.6037,-0.187' });
    expect(completed.media).toEqual({
      photo: {
        mediaId: photoId,
        kind: 'image',
        mimeType: 'image/png',
        size: photo.length,
        fileName: 'door.png',
        caption: 'the back door',
        url: expect.stringContaining(`/media/${photoId}?expires=`),
      },
      where: { latitude: 5.6037, longitude: -0.187, name: 'Osu', address: 'Oxford St' },
    });
    const photoLink = new URL(completed.media.photo.url);
    const photoServed = await t.app.inject({ method: 'GET', url: photoLink.pathname + photoLink.search });
    expect(photoServed.rawPayload.equals(photo)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const flat = (await post('/dashboard/search', { appId, searchBy: 'date', startDate: today, endDate: today, flatResults: true })).json();
    expect(flat.data.rows).toEqual([
      expect.objectContaining({ photo: expect.stringContaining(`/media/${photoId}?expires=`), where: '5.6037,-0.187' }),
    ]);
    const csv = (await post('/dashboard/search/export', { appId, searchBy: 'date', startDate: today, endDate: today, format: 'csv' })).body;
    expect(csv.split(/\r?\n/)[0]).toContain('"photo","where"');
    const photoCell = csv.match(new RegExp(`http[^,\\s"]*/media/${photoId}\\?expires=\\d+&signature=[^,\\s"]+`))?.[0] ?? '';
    expect(csv).not.toContain(`"${photoId}"`);
    const expires = Number(new URL(photoCell).searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(6 * 24 * 3600 * 1000);

    // Nothing was stored for the refusals: the bot's account holds the three uploads, the stranger's file is theirs.
    const held = await t.db.select({ id: mediaFiles.id }).from(mediaFiles).where(eq(mediaFiles.ownerId, builder.user.id));
    expect(held.map((r) => r.id).sort()).toEqual([receiptId, bannerId, photoId].sort());
  });

  it('refuses a stranger the bot and its files', async () => {
    const appId = await createBot('Private Desk');
    const photoId = await upload(appId, makePng(2, 2), 'image/png', 'mine.png', 'image');
    const res = await post(`/whatsapp-emulator/${appId}`, { from: FROM, text: '', kind: 'media', mediaId: photoId }, stranger.auth);
    expect(res.statusCode).toBe(404);
  });
});
