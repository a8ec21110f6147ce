import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, WhatsAppMessage } from '../../shared/whatsapp';
import { createSimulatorConnector } from './simulator';
import { chatReply } from './test-replies';
import { MediaDownloadError } from './whatsapp-connector';

const AT = new Date('2026-11-29T09:00:00Z');
const CUSTOMER = '233209999999';

describe('simulator connector: files and places', () => {
  let received: ChatMessage[];
  beforeEach(() => {
    received = [];
  });

  function connect(uploadsKept?: { files: number; bytes: number }, reply: WhatsAppMessage[] = []) {
    const simulator = createSimulatorConnector({
      origin: 'http://localhost',
      events: {
        onLinkUpdate: async () => {},
        onMessage: async (message) => {
          received.push(message);
          if (reply.length > 0) await simulator.send(chatReply(message.linkId, message.from, ...reply));
        },
      },
      readMedia: async () => Promise.reject(new Error('the simulator never reads files')),
      now: () => AT,
      ...(uploadsKept ? { uploadsKept } : {}),
    });
    return simulator;
  }
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => err,
    );

  it("hands the bot a phone's file by its upload id, and gives its bytes back to downloadMedia, for that link only", async () => {
    const simulator = connect();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await simulator.receive('link-1', CUSTOMER, {
      kind: 'media',
      text: ' my shoe ',
      file: { bytes, mimeType: 'image/png', fileName: 'shoe.png' },
    });
    await simulator.receive('link-1', CUSTOMER, { kind: 'media', text: '', file: { bytes, mimeType: 'audio/ogg', voice: true } });
    await simulator.receive('link-1', CUSTOMER, {
      kind: 'media',
      text: '',
      file: { bytes, mimeType: 'application/zip', fileName: 'a.zip' },
    });
    await simulator.receive('link-1', CUSTOMER, { kind: 'media', text: '', file: { bytes, mimeType: 'image/jpeg', kind: 'document' } });
    expect(received.map(({ kind, text, media }) => ({ kind, text, media }))).toEqual([
      {
        kind: 'media',
        text: 'my shoe',
        media: { kind: 'image', mimeType: 'image/png', providerId: expect.stringMatching(/^sim-.*-file$/), size: 7, fileName: 'shoe.png' },
      },
      { kind: 'media', text: '', media: { kind: 'audio', mimeType: 'audio/ogg', providerId: expect.any(String), size: 7, voice: true } },
      {
        kind: 'media',
        text: '',
        media: { kind: 'document', mimeType: 'application/zip', providerId: expect.any(String), size: 7, fileName: 'a.zip' },
      },
      { kind: 'media', text: '', media: { kind: 'document', mimeType: 'image/jpeg', providerId: expect.any(String), size: 7 } },
    ]);
    const media = received[0]!.media!;
    expect(await simulator.downloadMedia('link-1', media, 7)).toEqual(bytes);
    const tooLarge = await failure(simulator.downloadMedia('link-1', media, 6));
    expect(tooLarge).toBeInstanceOf(MediaDownloadError);
    expect(tooLarge).toMatchObject({ reason: 'too_large' });
    expect(await failure(simulator.downloadMedia('link-2', media, 100))).toMatchObject({ reason: 'gone' });
    // The chat shows the file as sent, with its caption, under its upload id.
    expect(simulator.getTranscript('link-1', CUSTOMER)[0]).toEqual({
      direction: 'in',
      at: AT.toISOString(),
      message: {
        type: 'media',
        media: { mediaId: media.providerId, kind: 'image', mimeType: 'image/png', size: 7, fileName: 'shoe.png', caption: 'my shoe' },
      },
    });
  });

  it('keeps files within its count and bytes, the oldest dropped first, and forgets a link’s files on unlink', async () => {
    const simulator = connect({ files: 2, bytes: 10 });
    const send = (size: number) =>
      simulator.receive('link-1', CUSTOMER, { kind: 'media', text: '', file: { bytes: new Uint8Array(size), mimeType: 'image/png' } });
    await send(4);
    await send(4);
    await send(4);
    const [first, second, third] = received.map((m) => m.media!);
    expect(await failure(simulator.downloadMedia('link-1', first!, 100))).toMatchObject({
      reason: 'gone',
      message: `The simulated phone's file ${first!.providerId} is no longer kept`,
    });
    expect(await simulator.downloadMedia('link-1', second!, 100)).toHaveLength(4);
    await send(8); // 4 + 4 + 8 bytes is over 10: both older files go
    expect(await failure(simulator.downloadMedia('link-1', second!, 100))).toMatchObject({ reason: 'gone' });
    expect(await failure(simulator.downloadMedia('link-1', third!, 100))).toMatchObject({ reason: 'gone' });
    const fourth = received[3]!.media!;
    expect(await simulator.downloadMedia('link-1', fourth, 100)).toHaveLength(8);
    await simulator.unlink('link-1');
    expect(await failure(simulator.downloadMedia('link-1', fourth, 100))).toMatchObject({ reason: 'gone' });
  });

  it('hands over a place, and one off the globe as unsupported; stickers as unsupported', async () => {
    const simulator = connect();
    await simulator.receive('link-1', CUSTOMER, { kind: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Osu' } });
    await simulator.receive('link-1', CUSTOMER, { kind: 'location', location: { latitude: -91, longitude: 0 } });
    await simulator.receive('link-1', CUSTOMER, { kind: 'unsupported', text: '🙂' });
    expect(received.map(({ kind, text, location, unsupportedReason }) => ({ kind, text, location, unsupportedReason }))).toEqual([
      { kind: 'location', text: '', location: { latitude: 5.6, longitude: -0.2, name: 'Osu' }, unsupportedReason: undefined },
      { kind: 'unsupported', text: '', location: undefined, unsupportedReason: 'a location off the globe (latitude -91, longitude 0)' },
      { kind: 'unsupported', text: '', location: undefined, unsupportedReason: 'a sticker' },
    ]);
    expect(simulator.getTranscript('link-1', CUSTOMER).map((e) => e.message)).toEqual([
      { type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Osu' } },
      { type: 'text', text: '' },
      { type: 'text', text: '🙂' },
    ]);
  });

  it("delivers the bot's files, places, cards, link buttons and location requests to the phone as they are", async () => {
    const bot: WhatsAppMessage[] = [
      {
        type: 'media',
        media: {
          mediaId: 'm-1',
          kind: 'document',
          mimeType: 'application/pdf',
          size: 9,
          fileName: 'receipt.pdf',
          url: 'http://localhost/api/media/m-1?sig=x',
        },
      },
      { type: 'location', location: { latitude: 5.6, longitude: -0.2, name: 'Ama Shop' } },
      { type: 'contact', contact: { name: 'Help desk', phones: ['+233302000000'] } },
      { type: 'link', body: 'Pay here', button: 'Pay now', url: 'https://pay.example/1' },
      { type: 'locationRequest', body: 'Where should we deliver?' },
    ];
    const simulator = connect(undefined, bot);
    expect([...simulator.nativeTypes].sort()).toEqual([
      'buttons',
      'contact',
      'link',
      'list',
      'location',
      'locationRequest',
      'media',
      'text',
    ]);
    expect(await simulator.receive('link-1', CUSTOMER, { kind: 'text', text: 'hi' })).toEqual(bot);
    expect(
      simulator
        .getTranscript('link-1', CUSTOMER)
        .slice(1)
        .map((e) => e.message),
    ).toEqual(bot);
  });
});
