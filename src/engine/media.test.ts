import { describe, expect, it } from 'vitest';
import { defaultMediaMessage, defaultSizeMessage, type MenuInput, TEXT_ONLY_MESSAGE } from '../shared/app';
import type { MediaRef } from '../shared/media';
import { compileApp, continueSession, lintApp, listTemplateVariables, startSession, type EngineDeps, type Hop } from './index';
import { MEDIA_ON_USSD_MESSAGE } from './lint';
import { buildTestApp } from './test-app';

const hop: Hop = { sessionId: 'wa-1', msisdn: '233200000001', network: 'WhatsApp', serviceCode: '', input: '' };
const ids = () => {
  let n = 0;
  return () => `e${++n}`;
};
const deps = (runAction: EngineDeps['runAction'] = async () => ({ ok: true, result: null })): EngineDeps => ({
  now: () => 1000,
  newId: ids(),
  runAction,
  // Liquid times renders by the real clock: a cold first render on a busy machine must not end the hop.
  limits: { renderBudgetMs: 5000 },
});

const MB = 1024 * 1024;
const photo: MediaRef = {
  mediaId: 'med-1',
  kind: 'image',
  mimeType: 'image/jpeg',
  size: 2 * MB,
  caption: 'my receipt',
  url: 'https://console.example.com/m/med-1?sig=abc',
};

const MENUS: Array<Partial<MenuInput>> = [
  {
    uniqueId: 'm1',
    userDefinedName: 'photo',
    isFirst: true,
    displayText: 'Send a photo of your receipt',
    inputKind: 'image',
    mediaInput: { maxBytes: 3 * MB },
    switchOperations: [
      {
        subject: 'session.media.photo.mimeType',
        operator: 'eq',
        compareVal: 'image/png',
        action: 'Terminate',
        actionParam: 'PNG {{ session.inputs.photo }}',
      },
      { subject: 'session.media.photo.kind', operator: 'eq', compareVal: 'image', action: 'goto', actionParam: 'm2' },
    ],
  },
  {
    uniqueId: 'm2',
    userDefinedName: 'place',
    displayText:
      'Got {{ session.media.photo.kind }} {{ session.media.photo.mimeType }} ({{ session.media.photo.size }} bytes, "{{ session.media.photo.caption }}"). Where are you?',
    inputKind: 'location',
    requestLocation: true,
    switchOperations: [
      {
        operator: 'always',
        action: 'Terminate',
        actionParam: 'At {{ session.media.place.latitude }} / {{ session.inputs.place }} {{ session.media.photo.url }}',
      },
    ],
  },
];

const bot = (menus = MENUS) => compileApp(buildTestApp(menus, { channel: 'whatsapp' }));

describe('a menu that asks for a file or a location', () => {
  it('takes a photo of its kind, keeps it in session.media for templates, rules and the next menus, then a location', async () => {
    const compiled = bot();
    const first = await startSession(compiled, hop, deps());
    expect(first.reply).toEqual({ text: 'Send a photo of your receipt', end: false });
    const second = await continueSession(compiled, first.state, { ...hop, input: 'ignored caption', media: photo }, deps());
    expect(second.reply).toEqual({
      text: 'Got image image/jpeg (2097152 bytes, "my receipt"). Where are you?',
      end: false,
      requestLocation: true,
    });
    expect(second.state.inputs.photo).toBe('med-1');
    expect(second.state.media).toEqual({ photo });
    expect(second.events.find((e) => e.type === 'input_received')?.data).toEqual({ input: '', media: photo });
    // The state handed in is not changed in place.
    expect(first.state.media).toBeUndefined();

    const third = await continueSession(
      compiled,
      second.state,
      { ...hop, location: { latitude: 5.6037, longitude: -0.187, name: 'Osu' } },
      deps(),
    );
    expect(third.reply).toEqual({ text: `At 5.6037 / 5.6037,-0.187 ${photo.url}`, end: true });
    expect(third.state.media?.place).toEqual({ latitude: 5.6037, longitude: -0.187, name: 'Osu' });
  });

  it('lets a rule test a field of the received file', async () => {
    const compiled = bot();
    const first = await startSession(compiled, hop, deps());
    const png = { ...photo, mimeType: 'image/png' };
    const second = await continueSession(compiled, first.state, { ...hop, media: png }, deps());
    expect(second.reply).toEqual({ text: 'PNG med-1', end: true });
  });

  const refusals: Array<[string, Partial<Hop>, string, string]> = [
    ['text', { input: 'here it is' }, defaultMediaMessage('image'), 'kind'],
    [
      'a file of another kind',
      { media: { ...photo, kind: 'document', mimeType: 'application/pdf' } },
      defaultMediaMessage('image'),
      'kind',
    ],
    ['a type the kind does not allow', { media: { ...photo, mimeType: 'image/gif' } }, defaultMediaMessage('image'), 'type'],
    ['a file over the menu size', { media: { ...photo, size: 4 * MB } }, defaultSizeMessage(3 * MB), 'size'],
    ['a zero-byte file', { media: { ...photo, size: 0 } }, defaultMediaMessage('image'), 'size'],
    ['a location', { location: { latitude: 5, longitude: 5 } }, defaultMediaMessage('image'), 'kind'],
  ];
  it.each(refusals)('re-shows the menu under its message for %s', async (_name, sent, message, reason) => {
    const compiled = bot();
    const first = await startSession(compiled, hop, deps());
    const next = await continueSession(compiled, first.state, { ...hop, ...sent }, deps());
    expect(next.reply).toEqual({ text: `${message}\nSend a photo of your receipt`, end: false });
    expect(next.state.currentMenuId).toBe('m1');
    expect(next.state.inputs.photo).toBeUndefined();
    expect(next.state.media).toBeUndefined();
    expect(next.events.find((e) => e.type === 'media_refused')?.data).toMatchObject({ expected: 'image', reason });
  });

  it('uses the menu own messages and allowed types, never a type over the kind', async () => {
    const menus: Array<Partial<MenuInput>> = [
      {
        ...MENUS[0],
        mediaInput: { mimeTypes: ['image/png'], maxBytes: 1 * MB, errorMessage: 'A PNG, please', sizeErrorMessage: 'Under 1 MB, please' },
      },
      MENUS[1]!,
    ];
    const compiled = bot(menus);
    const first = await startSession(compiled, hop, deps());
    const jpeg = await continueSession(compiled, first.state, { ...hop, media: photo }, deps());
    expect(jpeg.reply.text).toBe('A PNG, please\nSend a photo of your receipt');
    const big = await continueSession(compiled, first.state, { ...hop, media: { ...photo, mimeType: 'image/png', size: 2 * MB } }, deps());
    expect(big.reply.text).toBe('Under 1 MB, please\nSend a photo of your receipt');
    // A forged size over WhatsApp's own bound for images (5 MB) is refused even where the menu allows more.
    const open = bot([{ ...MENUS[0], mediaInput: undefined }, MENUS[1]!]);
    const start = await startSession(open, hop, deps());
    const huge = await continueSession(open, start.state, { ...hop, media: { ...photo, size: 6 * MB } }, deps());
    expect(huge.reply.text).toBe(`${defaultSizeMessage(5 * MB)}\nSend a photo of your receipt`);
  });

  it('refuses a location off the globe, and text, on a location menu; accepts one on it', async () => {
    const compiled = bot();
    const first = await startSession(compiled, hop, deps());
    const onPlace = await continueSession(compiled, first.state, { ...hop, media: photo }, deps());
    for (const location of [
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -180.5 },
      { latitude: Number.NaN, longitude: 0 },
    ]) {
      const next = await continueSession(compiled, onPlace.state, { ...hop, location }, deps());
      expect(next.reply.text.split('\n')[0]).toBe(defaultMediaMessage('location'));
      expect(next.reply.requestLocation).toBe(true);
      expect(next.events.find((e) => e.type === 'media_refused')?.data).toMatchObject({ reason: 'location' });
    }
    const typed = await continueSession(compiled, onPlace.state, { ...hop, input: 'Osu, Accra' }, deps());
    expect(typed.reply.text.split('\n')[0]).toBe(defaultMediaMessage('location'));
    const ok = await continueSession(compiled, onPlace.state, { ...hop, location: { latitude: -90, longitude: 180 } }, deps());
    expect(ok.reply.end).toBe(true);
  });

  it('refuses a file or a location on a text menu, and keeps Back and paging typed on a media menu', async () => {
    const compiled = bot([
      {
        uniqueId: 't',
        userDefinedName: 'name',
        isFirst: true,
        displayText: 'Your name?',
        switchOperations: [{ operator: 'always', action: 'goto', actionParam: 'm1' }],
      },
      { ...MENUS[0], allowGoBack: true, goBackInputIndicator: '0' },
      MENUS[1]!,
    ]);
    const first = await startSession(compiled, hop, deps());
    const file = await continueSession(compiled, first.state, { ...hop, media: photo }, deps());
    expect(file.reply.text).toBe(`${TEXT_ONLY_MESSAGE}\nYour name?`);
    const place = await continueSession(compiled, first.state, { ...hop, location: { latitude: 1, longitude: 1 } }, deps());
    expect(place.reply.text).toBe(`${TEXT_ONLY_MESSAGE}\nYour name?`);
    const named = await continueSession(compiled, first.state, { ...hop, input: 'Ama' }, deps());
    expect(named.reply.text).toBe('Send a photo of your receipt');
    const back = await continueSession(compiled, named.state, { ...hop, input: '0' }, deps());
    expect(back.reply.text).toBe('Your name?');
  });

  it('gives a javascript validation the received file, and forgets it when the validation fails', async () => {
    const compiled = bot([
      {
        ...MENUS[0],
        inputValidations: [
          { validationMethod: 'javascript', validationFunction: 'return session.media.photo.size < 1000000', errorMessage: 'Smaller' },
        ],
      },
      MENUS[1]!,
    ]);
    const seen: unknown[] = [];
    const run = deps(async (request) => {
      seen.push(request.scope.session.media, request.scope.inRequest.media);
      const received = request.scope.session.media?.photo as MediaRef | undefined;
      return { ok: true, result: received !== undefined && received.size < 1_000_000 };
    });
    const first = await startSession(compiled, hop, run);
    const next = await continueSession(compiled, first.state, { ...hop, media: photo }, run);
    expect(seen).toEqual([{ photo }, photo]);
    expect(next.reply.text).toBe('Smaller\nSend a photo of your receipt');
    expect(next.state.media).toBeUndefined();
  });

  it('on USSD takes typed text where a bot would ask for a file, and sends no media', async () => {
    const always = { operator: 'always', action: 'goto', actionParam: 'm2' } as const;
    const compiled = compileApp(buildTestApp([{ ...MENUS[0], switchOperations: [always] }, MENUS[1]!]));
    const first = await startSession(compiled, { ...hop, serviceCode: '*920#' }, deps());
    const next = await continueSession(compiled, first.state, { ...hop, input: 'photo?' }, deps());
    expect(next.reply.text).toContain('Where are you?');
    expect(next.reply.requestLocation).toBeUndefined();
    expect(next.state.inputs.photo).toBe('photo?');
  });
});

describe('what a menu sends with its screen', () => {
  const receipt: MediaRef = {
    mediaId: 'med-9',
    kind: 'document',
    mimeType: 'application/pdf',
    size: 1234,
    fileName: 'r.pdf',
    url: 'https://x/s',
  };
  const sending: Array<Partial<MenuInput>> = [
    {
      uniqueId: 's1',
      userDefinedName: 'start',
      isFirst: true,
      displayText: 'Your receipt',
      actions: [{ actionName: 'receipt', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' }],
      attachments: [
        {
          type: 'file',
          kind: 'document',
          source: 'variable',
          value: '{{ actions.receipt.file }}',
          caption: 'Receipt for {{ session.mobile }}',
        },
        { type: 'file', kind: 'image', source: 'url', value: 'https://cdn.example.com/{{ session.mobile }}.png' },
        { type: 'file', kind: 'image', source: 'upload', value: 'up-1', caption: 'Our shop' },
        { type: 'file', kind: 'image', source: 'variable', value: 'actions.receipt.missing' },
        { type: 'location', latitude: '5.6', longitude: '{{ actions.receipt.lng }}', name: 'Shop', address: '' },
        { type: 'location', latitude: '95', longitude: '0' },
        { type: 'contact', name: 'Help desk', phones: ['+233302000000', 'not a number'] },
      ],
      linkButton: { text: 'Track', url: 'https://t.example.com/{{ session.mobile }}' },
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: 's2' }],
    },
    {
      uniqueId: 's2',
      userDefinedName: 'bye',
      displayText: 'Bye',
      terminate: true,
      attachments: [{ type: 'contact', name: 'Ama', phones: ['+233241234567'] }],
    },
  ];
  const run = async () => ({ ok: true as const, result: { file: receipt, lng: '-0.18' } });

  it('renders attachments in order, skips what cannot be sent with an event, and keeps the link button on re-shows', async () => {
    const compiled = bot(sending);
    const first = await startSession(compiled, hop, deps(run));
    expect(first.reply.attachments).toEqual([
      { type: 'media', media: { ...receipt, caption: 'Receipt for 233200000001' } },
      { type: 'media', media: { mediaId: '', kind: 'image', mimeType: '', size: 0, url: 'https://cdn.example.com/233200000001.png' } },
      { type: 'media', media: { mediaId: 'up-1', kind: 'image', mimeType: '', size: 0, caption: 'Our shop' } },
      { type: 'location', location: { latitude: 5.6, longitude: -0.18, name: 'Shop' } },
      { type: 'contact', contact: { name: 'Help desk', phones: ['+233302000000'] } },
    ]);
    expect(first.reply.linkButton).toEqual({ text: 'Track', url: 'https://t.example.com/233200000001' });
    const skipped = first.events.filter((e) => e.type === 'attachment_skipped');
    expect(skipped.map((e) => e.data)).toEqual([
      { index: 3, reason: 'actions.receipt.missing holds no file' },
      { index: 5, reason: "The location's coordinates are not on the globe (95, 0)" },
    ]);
    expect(skipped.every((e) => e.level === 'error')).toBe(true);
    const end = await continueSession(compiled, first.state, { ...hop, input: 'x' }, deps(run));
    expect(end.reply).toEqual({
      text: 'Bye',
      end: true,
      attachments: [{ type: 'contact', contact: { name: 'Ama', phones: ['+233241234567'] } }],
    });
  });

  it('does not send attachments again when the screen is shown again', async () => {
    const compiled = bot([
      { ...sending[0], inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Digits' }], switchOperations: [] },
    ]);
    const first = await startSession(compiled, hop, deps(run));
    const again = await continueSession(compiled, first.state, { ...hop, input: 'abc' }, deps(run));
    expect(again.reply.attachments).toBeUndefined();
    expect(again.reply.linkButton).toEqual({ text: 'Track', url: 'https://t.example.com/233200000001' });
  });

  it('sends nothing but text on USSD', async () => {
    const compiled = compileApp(buildTestApp(sending));
    const first = await startSession(compiled, { ...hop, serviceCode: '*920#' }, deps(run));
    expect(first.reply).toEqual({ text: 'Your receipt', end: false });
  });
});

describe('lint and variables for media', () => {
  it('warns when a menu with media is in an app that runs on USSD, not in a bot', () => {
    const ussd = lintApp(buildTestApp(MENUS)).filter((i) => i.code === 'media_on_ussd');
    expect(ussd.map((i) => [i.menu, i.field, i.message, i.level])).toEqual([
      ['photo', 'inputKind', MEDIA_ON_USSD_MESSAGE, 'warning'],
      ['place', 'inputKind', MEDIA_ON_USSD_MESSAGE, 'warning'],
    ]);
    expect(lintApp(buildTestApp(MENUS, { channel: 'whatsapp' })).filter((i) => i.code === 'media_on_ussd')).toEqual([]);
  });

  it('knows session.media of media menus only, and flags a file variable or template that names nothing', () => {
    const menus: Array<Partial<MenuInput>> = [
      ...MENUS,
      {
        uniqueId: 'm3',
        userDefinedName: 'name',
        displayText: '{{ session.media.name.url }} {{ session.media.photo.url }}',
        attachments: [
          { type: 'file', kind: 'image', source: 'variable', value: 'actions.nothing.file' },
          { type: 'file', kind: 'image', source: 'url', value: 'https://x/{{ session.media.nope.url }}' },
        ],
      },
    ];
    const issues = lintApp(buildTestApp(menus, { channel: 'whatsapp' })).filter((i) => i.code === 'unknown_variable');
    expect(issues.map((i) => [i.field, i.message])).toEqual([
      [
        'displayText',
        '{{ session.media.name.url }} in displayText names nothing: menu "name" asks for text, not a file or a location. It shows as empty text.',
      ],
      [
        'attachments.1.value',
        '{{ session.media.nope.url }} in attachments.1.value names nothing: no menu has the identifier "nope". It shows as empty text.',
      ],
      [
        'attachments.0.value',
        'actions.nothing.file in attachments.0.value names nothing: no action is named "nothing". The file is not sent.',
      ],
    ]);
    const paths = listTemplateVariables(buildTestApp(MENUS)).map((v) => v.path);
    expect(paths).toEqual(
      expect.arrayContaining(['session.media.photo.url', 'session.media.photo.mimeType', 'session.media.place.latitude']),
    );
    expect(paths).not.toContain('session.media.place.url');
  });
});
