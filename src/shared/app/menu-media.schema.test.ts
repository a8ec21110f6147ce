import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '../media';
import {
  defaultMediaMessage,
  defaultSizeMessage,
  formatBytes,
  hasMedia,
  MAX_ATTACHMENTS,
  MENU_MEDIA_MESSAGES,
  TEXT_ONLY_MESSAGE,
} from './menu-media.schema';
import { menuSchema, type MenuInput } from './menu.schema';
import { validateMenu, type FieldError } from './menu.validation';
import { RULE_SUBJECT_MESSAGE } from './switch-operation.schema';

const buildMenu = (overrides: Partial<MenuInput> = {}) =>
  menuSchema.parse({ uniqueId: 'm1', appId: 'a1', userDefinedName: 'photo', displayText: 'Send a photo', ...overrides });
const messagesOf = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.message}`);
const MB = 1024 * 1024;

describe('a menu with media: schema and rules', () => {
  it('reads a menu without media as a text menu, unchanged (no new field appears)', () => {
    const menu = buildMenu();
    expect(menu).not.toHaveProperty('inputKind');
    expect(menu).not.toHaveProperty('attachments');
    expect(hasMedia(menu)).toBe(false);
    expect(validateMenu(menu, [])).toEqual([]);
  });

  it('gives default messages in plain words per kind, naming the types allowed', () => {
    expect(defaultMediaMessage('image')).toBe('Please send a photo (JPEG or PNG).');
    expect(defaultMediaMessage('image', ['image/png'])).toBe('Please send a photo (PNG).');
    expect(defaultMediaMessage('document', ['application/pdf', 'application/msword'])).toBe('Please send a document (PDF or Word).');
    expect(defaultMediaMessage('audio')).toBe('Please send a voice note or audio file (AAC, AMR, MP3, MP4 or OGG).');
    expect(defaultMediaMessage('video')).toBe('Please send a video (MP4 or 3GP).');
    expect(defaultMediaMessage('location')).toBe('Please share a location: tap the attach button, then Location.');
    expect(defaultMediaMessage('text')).toBe(TEXT_ONLY_MESSAGE);
    expect(defaultSizeMessage(5 * MB)).toBe('That file is too big: please send one of at most 5 MB.');
    expect(formatBytes(1.5 * MB)).toBe('1.5 MB');
    expect(formatBytes(300 * 1024)).toBe('300 KB');
  });

  it('accepts a photo menu within WhatsApp bounds, with attachments of every kind, a link button and a location request', () => {
    const photo = buildMenu({ inputKind: 'image', mediaInput: { mimeTypes: ['image/png'], maxBytes: 2 * MB, errorMessage: 'PNG please' } });
    expect(validateMenu(photo, [])).toEqual([]);
    expect(hasMedia(photo)).toBe(true);
    const sending = buildMenu({
      inputKind: 'location',
      requestLocation: true,
      attachments: [
        { type: 'file', kind: 'document', source: 'upload', value: 'med-1' },
        { type: 'file', kind: 'image', source: 'url', value: 'https://cdn.example.com/a.png' },
        { type: 'file', kind: 'image', source: 'url', value: '{{ actions.lookup.body.url }}' },
        { type: 'file', kind: 'document', source: 'variable', value: '{{ actions.receipt.file }}' },
        { type: 'location', latitude: '5.6037', longitude: '-0.187', name: 'Shop' },
        { type: 'location', latitude: '{{ actions.shop.lat }}', longitude: '{{ actions.shop.lng }}' },
        { type: 'contact', name: 'Help desk', phones: ['+233302000000', '{{ session.mobile }}'] },
      ],
      linkButton: { text: 'Track order', url: 'https://t.example.com/{{ session.mobile }}' },
    });
    expect(validateMenu(sending, [])).toEqual([]);
  });

  it('refuses types and sizes over what WhatsApp takes for the kind, and media rules where they mean nothing', () => {
    const errors = validateMenu(
      buildMenu({ inputKind: 'image', mediaInput: { mimeTypes: ['image/gif'], maxBytes: MEDIA_TYPES.image.maxBytes + 1 } }),
      [],
    );
    expect(messagesOf(errors)).toEqual([
      `mediaInput.mimeTypes: ${MENU_MEDIA_MESSAGES.typeNotOfKind('image')}`,
      `mediaInput.maxBytes: ${MENU_MEDIA_MESSAGES.sizeOverKind('image')}`,
    ]);
    expect(MENU_MEDIA_MESSAGES.sizeOverKind('image')).toBe('WhatsApp takes a photo of at most 5 MB; choose a size up to that.');
    expect(messagesOf(validateMenu(buildMenu({ mediaInput: { maxBytes: MB } }), []))).toEqual([
      `mediaInput: ${MENU_MEDIA_MESSAGES.rulesNeedFileKind}`,
    ]);
    expect(
      messagesOf(
        validateMenu(
          buildMenu({
            inputKind: 'video',
            terminate: true,
            requestLocation: true,
            inputValidations: [{ validationMethod: 'isNumeric' }, { validationMethod: 'javascript', validationFunction: 'return true' }],
          }),
          [],
        ),
      ),
    ).toEqual([
      `inputKind: ${MENU_MEDIA_MESSAGES.terminateTakesNoInput}`,
      `inputValidations.0: ${MENU_MEDIA_MESSAGES.validationsNeedText}`,
      `requestLocation: ${MENU_MEDIA_MESSAGES.requestNeedsLocation}`,
    ]);
  });

  it('checks each attachment and the link button at its field', () => {
    const errors = validateMenu(
      buildMenu({
        attachments: [
          { type: 'file', kind: 'image', source: 'upload', value: '' },
          { type: 'file', kind: 'image', source: 'url', value: 'http://plain.example.com/a.png' },
          { type: 'file', kind: 'image', source: 'variable', value: 'not a path' },
          { type: 'location', latitude: '91', longitude: 'east' },
          { type: 'contact', name: ' ', phones: [] },
          { type: 'contact', name: 'Ama', phones: ['0241234567'] },
        ],
        linkButton: { text: '', url: 'ftp://x' },
      }),
      [],
    );
    expect(messagesOf(errors)).toEqual([
      `attachments.0.value: ${MENU_MEDIA_MESSAGES.mediaIdRequired}`,
      `attachments.1.value: ${MENU_MEDIA_MESSAGES.urlInvalid}`,
      `attachments.2.value: ${MENU_MEDIA_MESSAGES.variableInvalid}`,
      `attachments.3.latitude: ${MENU_MEDIA_MESSAGES.latitudeRequired}`,
      `attachments.3.longitude: ${MENU_MEDIA_MESSAGES.longitudeRequired}`,
      `attachments.4.name: ${MENU_MEDIA_MESSAGES.contactNameRequired}`,
      `attachments.4.phones: ${MENU_MEDIA_MESSAGES.contactPhonesRequired}`,
      `attachments.5.phones.0: ${MENU_MEDIA_MESSAGES.contactPhoneInvalid}`,
      `linkButton.text: ${MENU_MEDIA_MESSAGES.linkTextRequired}`,
      `linkButton.url: ${MENU_MEDIA_MESSAGES.linkUrlInvalid}`,
    ]);
  });

  it('refuses more than the attachments a menu may send, an unknown kind, and a rule on a field a file has not', () => {
    const file = { type: 'file', kind: 'image', source: 'upload', value: 'm' } as const;
    const many = menuSchema.safeParse({ ...buildMenu(), attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, () => file) });
    expect(many.success).toBe(false);
    expect(many.error?.issues[0]?.message).toBe(`A menu sends at most ${MAX_ATTACHMENTS} attachments.`);
    expect(menuSchema.safeParse({ ...buildMenu(), inputKind: 'sticker' }).success).toBe(false);
    expect(menuSchema.safeParse({ ...buildMenu(), attachments: [{ ...file, kind: 'sticker' }] }).success).toBe(false);
    const rule = (subject: string) => ({ subject, operator: 'eq', compareVal: 'x', action: 'Terminate' }) as const;
    expect(validateMenu(buildMenu({ switchOperations: [rule('session.media.photo.mimeType')] }), [])).toEqual([]);
    expect(
      messagesOf(validateMenu({ ...buildMenu(), switchOperations: [{ ...rule('session.media.photo.bytes'), actionParam: '' }] }, [])),
    ).toEqual([`switchOperations.0.subject: ${RULE_SUBJECT_MESSAGE}`]);
  });
});
