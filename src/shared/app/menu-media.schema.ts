import { z } from 'zod';
import { INPUT_KINDS, MEDIA_KINDS, MEDIA_TYPES, type InputKind, type MediaKind } from '../media';

/**
 * What a WhatsApp bot's menu asks for and sends besides its text (docs/bots.md, "Media"): the kind of input it
 * takes (a photo, a document, a voice note, a video, a location, or typed text), the rules a file must meet, the
 * files, places and contact cards sent with its screen, and a link button or a location request in place of plain
 * text. All of it is ignored on USSD, where the lint warns that it cannot be shown.
 */

/** At most this many attachments go with one screen. */
export const MAX_ATTACHMENTS = 10;

const MB = 1024 * 1024;

/** How the default messages name each kind, and which types a builder reads in them. */
const KIND_WORDS: Record<MediaKind, { noun: string; types: string }> = {
  image: { noun: 'a photo', types: 'JPEG or PNG' },
  document: { noun: 'a document', types: 'PDF, Word, Excel, PowerPoint or text' },
  audio: { noun: 'a voice note or audio file', types: 'AAC, AMR, MP3, MP4 or OGG' },
  video: { noun: 'a video', types: 'MP4 or 3GP' },
};

/** The short file-type names a message gives for the MIME types a menu allows (`image/png` -> `PNG`). */
const TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'application/pdf': 'PDF',
  'text/plain': 'text',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-powerpoint': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
  'audio/aac': 'AAC',
  'audio/amr': 'AMR',
  'audio/mpeg': 'MP3',
  'audio/mp4': 'MP4',
  'audio/ogg': 'OGG',
  'video/mp4': 'MP4',
  'video/3gpp': '3GP',
};

const joinWords = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/** `5 MB`, `512 KB`, `1 GB`: a size as a message gives it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${Math.round((bytes / (1024 * MB)) * 10) / 10} GB`;
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The message a menu shows when what arrived is not what it asks for, unless the builder wrote one: the kind and
 * the types it allows. A text menu's (a file or a location sent where text is asked for) is TEXT_ONLY_MESSAGE.
 * @example defaultMediaMessage('image') // 'Please send a photo (JPEG or PNG).'
 */
export function defaultMediaMessage(kind: InputKind, mimeTypes: readonly string[] = []): string {
  if (kind === 'text') return TEXT_ONLY_MESSAGE;
  if (kind === 'location') return 'Please share a location: tap the attach button, then Location.';
  const names = [...new Set(mimeTypes.map((t) => TYPE_NAMES[t]).filter((n): n is string => n !== undefined))];
  return `Please send ${KIND_WORDS[kind].noun} (${names.length > 0 ? joinWords(names) : KIND_WORDS[kind].types}).`;
}

/** @example defaultSizeMessage(5 * 1024 * 1024) // 'That file is too big: please send one of at most 5 MB.' */
export const defaultSizeMessage = (maxBytes: number) => `That file is too big: please send one of at most ${formatBytes(maxBytes)}.`;

/** What a menu that asks for text says to a file or a location. */
export const TEXT_ONLY_MESSAGE = 'Please reply with text.';

/** What the designer and the API say of a menu's media fields (the media store's refusals are MEDIA_MESSAGES). */
export const MENU_MEDIA_MESSAGES = {
  typeNotOfKind: (kind: MediaKind) =>
    `Choose types WhatsApp accepts for ${KIND_WORDS[kind].noun}: ${MEDIA_TYPES[kind].mimeTypes.join(', ')}.`,
  sizeOverKind: (kind: MediaKind) =>
    `WhatsApp takes ${KIND_WORDS[kind].noun} of at most ${formatBytes(MEDIA_TYPES[kind].maxBytes)}; choose a size up to that.`,
  rulesNeedFileKind: 'File types and a size only apply to a menu that asks for a file.',
  validationsNeedText:
    'Input validations check typed text; a menu that asks for a file or a location checks it with its own media rules (use a javascript validation to check more).',
  requestNeedsLocation: 'A location request goes with a menu that asks for a location.',
  terminateTakesNoInput: 'A terminating menu takes no input: it cannot ask for a file or a location.',
  mediaIdRequired: 'Upload a file, or choose another source.',
  urlInvalid: 'Enter an https:// address (it may hold {{ variables }}).',
  variableInvalid: 'Name a variable holding a file, e.g. actions.receipt.file or session.media.photo.',
  latitudeRequired: 'Latitude is required: a number from -90 to 90, or a {{ variable }}.',
  longitudeRequired: 'Longitude is required: a number from -180 to 180, or a {{ variable }}.',
  contactNameRequired: 'A contact card needs a name.',
  contactPhonesRequired: 'A contact card needs at least one number, in international form (+233241234567).',
  contactPhoneInvalid: 'A number in international form: + then 7 to 15 digits (+233241234567), or a {{ variable }}.',
  linkTextRequired: 'The button needs a text (at most 20 characters).',
  linkUrlInvalid: 'Enter an https:// address for the button (it may hold {{ variables }}).',
} as const;

/**
 * The rules a file must meet on a menu that asks for one (`inputKind` image, document, audio or video). Empty
 * `mimeTypes` allows all the kind's; `maxBytes` null allows the kind's largest (MEDIA_TYPES). `errorMessage` (wrong
 * kind, wrong type, text or a location instead) and `sizeErrorMessage` (too big) replace defaultMediaMessage and
 * defaultSizeMessage. On a location menu only `errorMessage` applies (no location, or coordinates off the globe).
 */
export const mediaInputSchema = z.object({
  mimeTypes: z.array(z.string().max(200)).max(20).default([]),
  maxBytes: z.number().int().positive().nullable().default(null),
  errorMessage: z.string().max(500).default(''),
  sizeErrorMessage: z.string().max(500).default(''),
});
export type MediaInput = z.infer<typeof mediaInputSchema>;

/** A variable naming a file: a dotted path (`actions.receipt.file`), with or without `{{ }}` around it. */
export const MEDIA_VARIABLE_PATTERN = /^\s*(?:\{\{\s*)?[A-Za-z_][\w-]*(?:\.[A-Za-z_0-9][\w-]*){1,9}(?:\s*\}\})?\s*$/;

/** The dotted path a file attachment's `variable` names (`{{ actions.receipt.file }}` -> `['actions', 'receipt', 'file']`). */
export function toMediaVariablePath(variable: string): string[] {
  return variable
    .trim()
    .replace(/^\{\{\s*/, '')
    .replace(/\s*\}\}$/, '')
    .split('.');
}

/**
 * A file sent with the screen, from one of three sources: `upload` (a file uploaded in the designer, `value` its
 * media id in the account), `url` (an https address, a template: `value`), or `variable` (a path naming a MediaRef
 * an action or an earlier menu produced, `value` e.g. `actions.receipt.file` or `session.media.photo`). `caption` is
 * a template; `kind` says how WhatsApp shows it (a variable's file keeps its own kind).
 */
export const fileAttachmentSchema = z.object({
  type: z.literal('file'),
  kind: z.enum(MEDIA_KINDS),
  source: z.enum(['upload', 'url', 'variable']),
  value: z.string().max(2000).default(''),
  caption: z.string().max(1024).default(''),
  /** Shown for a document (the file's name on the phone). */
  fileName: z.string().max(240).default(''),
});

/** A pin sent with the screen. Each field is a template, so a place an action looked up can be sent. */
export const locationAttachmentSchema = z.object({
  type: z.literal('location'),
  latitude: z.string().max(200),
  longitude: z.string().max(200),
  name: z.string().max(1000).default(''),
  address: z.string().max(1000).default(''),
});

/** A contact card sent with the screen: a name and its numbers (templates). */
export const contactAttachmentSchema = z.object({
  type: z.literal('contact'),
  name: z.string().max(200),
  phones: z.array(z.string().max(200)).max(5).default([]),
});

export const attachmentSchema = z.discriminatedUnion('type', [fileAttachmentSchema, locationAttachmentSchema, contactAttachmentSchema]);
export type Attachment = z.infer<typeof attachmentSchema>;
export type FileAttachment = z.infer<typeof fileAttachmentSchema>;
export const ATTACHMENT_TYPES = ['file', 'location', 'contact'] as const;

/**
 * A call-to-action button under the screen that opens `url` (WhatsApp's `cta_url`); the screen is its body. Both
 * are templates. A connector that cannot show it sends the text, then `text: url`.
 */
export const linkButtonSchema = z.object({
  text: z.string().max(20),
  url: z.string().max(2000),
});
export type LinkButton = z.infer<typeof linkButtonSchema>;

/** The fields the schema gives a menu for media, each optional (a version 2 menu has none of them). */
export const menuMediaFields = {
  /** What the menu asks for; absent is text. */
  inputKind: z.enum(INPUT_KINDS).optional(),
  /** The rules what arrives must meet, for a file or location menu. */
  mediaInput: mediaInputSchema.optional(),
  /** Files, pins and contact cards sent with the screen, before it, in order. */
  attachments: z
    .array(attachmentSchema)
    .max(MAX_ATTACHMENTS, { message: `A menu sends at most ${MAX_ATTACHMENTS} attachments.` })
    .optional(),
  linkButton: linkButtonSchema.optional(),
  /** The screen asks the user to share their location (WhatsApp's location request message). */
  requestLocation: z.boolean().optional(),
};

/** The media fields of a menu, as a store keeps them together (each only when set). */
export const MENU_MEDIA_KEYS = ['inputKind', 'mediaInput', 'attachments', 'linkButton', 'requestLocation'] as const;
export type MenuMedia = { [K in (typeof MENU_MEDIA_KEYS)[number]]?: z.infer<(typeof menuMediaFields)[K]> };

/**
 * A menu's media fields, with what means nothing left out (text input, no attachments, no request), or null when
 * none is left: a text menu is stored as it was before media.
 */
export function pickMenuMedia(menu: MenuMedia): MenuMedia | null {
  const out: MenuMedia = {};
  if (menu.inputKind && menu.inputKind !== 'text') out.inputKind = menu.inputKind;
  if (menu.mediaInput && out.inputKind) out.mediaInput = menu.mediaInput;
  if (menu.attachments && menu.attachments.length > 0) out.attachments = menu.attachments;
  if (menu.linkButton) out.linkButton = menu.linkButton;
  if (menu.requestLocation) out.requestLocation = true;
  return Object.keys(out).length > 0 ? out : null;
}

/** The input kind a menu asks for (`text` when it says none). */
export const getInputKind = (menu: { inputKind?: InputKind }): InputKind => menu.inputKind ?? 'text';

/** Whether a menu asks for or sends anything only a WhatsApp bot can show. */
export function hasMedia(menu: {
  inputKind?: InputKind;
  attachments?: readonly unknown[];
  linkButton?: unknown;
  requestLocation?: boolean;
}): boolean {
  return (
    getInputKind(menu) !== 'text' || (menu.attachments?.length ?? 0) > 0 || menu.linkButton !== undefined || menu.requestLocation === true
  );
}

/** An https address, or a template that may render to one (it begins with a `{{ variable }}`). */
function isHttpsTemplate(value: string): boolean {
  const probe = value.trim().replace(/\{\{[^}]*\}\}/g, 'x');
  return /^https:\/\/\S+$/.test(probe) || (value.trim().startsWith('{{') && /^\S+$/.test(probe));
}
const PHONE_TEMPLATE = /^(\+\d{7,15}|\{\{[^}]+\}\})$/;
const isCoordinate = (value: string, max: number) =>
  /\{\{/.test(value) || (/^\s*-?\d+(\.\d+)?\s*$/.test(value) && Math.abs(Number(value)) <= max);

/** validateMenu's media rules, each at its field (`attachments.0.value`). */
export function validateMenuMedia(menu: {
  inputKind?: InputKind;
  mediaInput?: MediaInput;
  attachments?: readonly Attachment[];
  linkButton?: LinkButton;
  requestLocation?: boolean;
  terminate: boolean;
  inputValidations: ReadonlyArray<{ validationMethod: string }>;
}): Array<{ field: string; message: string }> {
  const errors: Array<{ field: string; message: string }> = [];
  const kind = getInputKind(menu);
  if (kind !== 'text' && menu.terminate) errors.push({ field: 'inputKind', message: MENU_MEDIA_MESSAGES.terminateTakesNoInput });
  const rules = menu.mediaInput;
  if (rules) {
    const isFile = kind !== 'text' && kind !== 'location';
    if (!isFile && (rules.mimeTypes.length > 0 || rules.maxBytes !== null))
      errors.push({ field: 'mediaInput', message: MENU_MEDIA_MESSAGES.rulesNeedFileKind });
    if (isFile) {
      if (rules.mimeTypes.some((t) => !MEDIA_TYPES[kind].mimeTypes.includes(t)))
        errors.push({ field: 'mediaInput.mimeTypes', message: MENU_MEDIA_MESSAGES.typeNotOfKind(kind) });
      if (rules.maxBytes !== null && rules.maxBytes > MEDIA_TYPES[kind].maxBytes)
        errors.push({ field: 'mediaInput.maxBytes', message: MENU_MEDIA_MESSAGES.sizeOverKind(kind) });
    }
  }
  if (kind !== 'text')
    menu.inputValidations.forEach((v, i) => {
      if (v.validationMethod !== 'javascript')
        errors.push({ field: `inputValidations.${i}`, message: MENU_MEDIA_MESSAGES.validationsNeedText });
    });
  if (menu.requestLocation && kind !== 'location')
    errors.push({ field: 'requestLocation', message: MENU_MEDIA_MESSAGES.requestNeedsLocation });
  (menu.attachments ?? []).forEach((a, i) => {
    const at = `attachments.${i}`;
    if (a.type === 'file') {
      const value = a.value.trim();
      if (a.source === 'upload' && value === '') errors.push({ field: `${at}.value`, message: MENU_MEDIA_MESSAGES.mediaIdRequired });
      if (a.source === 'url' && !isHttpsTemplate(value)) errors.push({ field: `${at}.value`, message: MENU_MEDIA_MESSAGES.urlInvalid });
      if (a.source === 'variable' && !MEDIA_VARIABLE_PATTERN.test(value))
        errors.push({ field: `${at}.value`, message: MENU_MEDIA_MESSAGES.variableInvalid });
    } else if (a.type === 'location') {
      if (!isCoordinate(a.latitude, 90)) errors.push({ field: `${at}.latitude`, message: MENU_MEDIA_MESSAGES.latitudeRequired });
      if (!isCoordinate(a.longitude, 180)) errors.push({ field: `${at}.longitude`, message: MENU_MEDIA_MESSAGES.longitudeRequired });
    } else {
      if (a.name.trim() === '') errors.push({ field: `${at}.name`, message: MENU_MEDIA_MESSAGES.contactNameRequired });
      if (a.phones.length === 0) errors.push({ field: `${at}.phones`, message: MENU_MEDIA_MESSAGES.contactPhonesRequired });
      a.phones.forEach((p, j) => {
        if (!PHONE_TEMPLATE.test(p.trim())) errors.push({ field: `${at}.phones.${j}`, message: MENU_MEDIA_MESSAGES.contactPhoneInvalid });
      });
    }
  });
  if (menu.linkButton) {
    const text = menu.linkButton.text.trim();
    if (text === '' || text.length > 20) errors.push({ field: 'linkButton.text', message: MENU_MEDIA_MESSAGES.linkTextRequired });
    if (!isHttpsTemplate(menu.linkButton.url)) errors.push({ field: 'linkButton.url', message: MENU_MEDIA_MESSAGES.linkUrlInvalid });
  }
  return errors;
}
