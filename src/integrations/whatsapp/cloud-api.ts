// Over 400 lines: one connector written to Meta's documented formats, request and webhook side by side.
import { createHash, timingSafeEqual } from 'node:crypto';
import { toErrorMessage } from '../../shared/errors';
import type { ContactCard, MediaKind, MediaRef } from '../../shared/media';
import { toChatMessage, type ChatMessageRead, type InboundMedia, type WhatsAppMessage } from '../../shared/whatsapp';
import { isDeliveryStatus, type DeliveryUpdate, type SentMessage } from '../../shared/whatsapp-status';
import { isHexHmacValid, parseJson } from '../payments/payment-provider';
import { readAtMost, readLocation, toContactText, tooLarge } from './connector-media';
import {
  MediaDownloadError,
  WHATSAPP_MESSAGE_TYPES,
  type ConnectorEvents,
  type ReadMedia,
  type StartLinkOptions,
  type WhatsAppConnector,
} from './whatsapp-connector';

/**
 * The WhatsApp Cloud API connector (docs/whatsapp-connectors.md), written to Meta's public documentation.
 * A number is linked by its phone number id: `GET {apiUrl}/{phone-number-id}` checks it exists and our token
 * may use it. Messages arrive on one webhook for every number of the Meta app (signed with the app secret) and
 * are sent with `POST {apiUrl}/{phone-number-id}/messages`, `Authorization: Bearer <access token>`.
 */

/** One `value` of a webhook's `messages` change: what one business number received. */
export interface CloudDelivery {
  phoneNumberId: string;
  displayPhoneNumber: string;
  messages: ChatMessageRead[];
  statuses: CloudStatus[];
}

/** The fate of a message we sent (sent, delivered, read, failed), as Meta reports it later. */
export interface CloudStatus {
  /** The `wamid...` our send was answered with. */
  id: string;
  status: string;
  recipientId: string;
  /** Why it failed, e.g. a reply sent after the 24-hour window: "Re-engagement message (131047)". */
  error?: string;
  /** The failure's code (`errors[0].code`). */
  errorCode?: number;
  /** When it happened (`timestamp`, seconds since epoch, in ms). */
  at?: number;
}

export interface CloudApiOptions {
  /** `https://graph.facebook.com/v21.0`; tests point it at a local server. */
  apiUrl: string;
  accessToken: string;
  /** The Meta app's secret: signs every webhook POST. */
  appSecret: string;
  /** The word we chose when subscribing the webhook; Meta echoes it in the GET handshake. */
  verifyToken: string;
  events: ConnectorEvents;
  fetch?: typeof fetch;
  /** The link that owns a phone number id (the server's `whatsapp_links.external_id`), or null. */
  findLinkId(phoneNumberId: string): Promise<string | null>;
  timeoutMs?: number;
  /** How many message ids are remembered to drop redeliveries. */
  seenIdsLimit?: number;
  /** The clock a message's `receivedAt` is read from (ms since epoch). */
  now?: () => number;
  /** The bytes of a file a `media` message sends (uploaded to Meta first). */
  readMedia: ReadMedia;
  /** How long a file's upload or download may take (ms); 2 minutes unless set. */
  mediaTimeoutMs?: number;
  /** How many uploads are remembered to send the same file again by its Meta id (30 days at Meta). */
  uploadsLimit?: number;
}

export type CloudApiConnector = WhatsAppConnector & {
  /** The GET handshake: the challenge to answer with 200, or null (answer 403). */
  verifyWebhook(query: unknown): string | null;
  /**
   * A POST to the webhook, from its exact bytes. `bad_signature`: nothing was read (answer 401); `ok`: every
   * message was handed to `onMessage` (answer 200, also for deliveries that carried nothing of ours).
   */
  handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<'ok' | 'bad_signature'>;
};

/**
 * Checks `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under the app secret>`. The bytes must be
 * the ones received: re-serialized JSON hashes differently. False for a missing, malformed or wrong signature,
 * and always false with no app secret (an empty key would let anyone sign).
 */
export function verifyCloudSignature(rawBody: Buffer | string, header: string | undefined, appSecret: string): boolean {
  if (!appSecret || !header?.startsWith('sha256=')) return false;
  return isHexHmacValid('sha256', appSecret, rawBody, header.slice('sha256='.length));
}

/**
 * Meta's subscription handshake: `GET ?hub.mode=subscribe&hub.verify_token=<ours>&hub.challenge=<n>` is
 * answered with the challenge alone; anything else is refused (null).
 */
export function answerVerification(query: unknown, verifyToken: string): string | null {
  if (!isRecord(query) || !verifyToken) return null;
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  return isSameSecret(token, verifyToken) ? challenge : null;
}

/** Constant-time equality of two strings of any lengths (compared as SHA-256 digests). */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Reads a webhook POST's body: `{ entry: [{ changes: [{ field: 'messages', value: { metadata, contacts,
 * messages, statuses } }] }] }`, one delivery per `value`. Never throws: whatever it cannot read (another
 * field, a message without id or sender, a reaction) is left out.
 */
export function readCloudWebhook(body: unknown): CloudDelivery[] {
  const deliveries: CloudDelivery[] = [];
  for (const entry of readArray(body, 'entry')) {
    for (const change of readArray(entry, 'changes')) {
      if (!isRecord(change) || change.field !== 'messages' || !isRecord(change.value)) continue;
      const value = change.value;
      const metadata = isRecord(value.metadata) ? value.metadata : {};
      const phoneNumberId = readString(metadata, 'phone_number_id');
      if (!phoneNumberId) continue;
      const names = readContactNames(value);
      deliveries.push({
        phoneNumberId,
        displayPhoneNumber: readString(metadata, 'display_phone_number') ?? '',
        messages: readArray(value, 'messages').flatMap((m) => readCloudMessage(m, names) ?? []),
        statuses: readArray(value, 'statuses').flatMap((s) => readCloudStatus(s) ?? []),
      });
    }
  }
  return deliveries;
}

/** `contacts[{ wa_id, profile: { name } }]`: the senders' profile names by their WhatsApp id. */
function readContactNames(value: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  for (const contact of readArray(value, 'contacts')) {
    if (!isRecord(contact) || !isRecord(contact.profile)) continue;
    const id = readString(contact, 'wa_id') ?? readString(contact, 'user_id');
    const name = readString(contact.profile, 'name');
    if (id && name) names.set(id, name);
  }
  return names;
}

/**
 * Not something the user asked of the bot: a reaction to a message, a number change, a welcome request. Every other
 * type the connector does not read (a sticker, an order, Meta's `unsupported`, a type newer than this code) is
 * handed over as `unsupported`, so the user hears that the bot cannot read it.
 */
const IGNORED_TYPES = new Set(['reaction', 'system', 'request_welcome', 'ephemeral']);
/** The webhook's file messages, each with an object of its type (`image: { id, mime_type, sha256, caption }`). */
const FILE_TYPES: Record<string, MediaKind> = { image: 'image', video: 'video', document: 'document', audio: 'audio' };

function readCloudMessage(message: unknown, names: Map<string, string>): ChatMessageRead | null {
  if (!isRecord(message)) return null;
  const messageId = readString(message, 'id');
  // Users known only by a business-scoped user id (no phone number shared) come with `from_user_id`.
  const sender = readString(message, 'from') ?? readString(message, 'from_user_id');
  const from = sender?.replace(/\D/g, '');
  const type = readString(message, 'type') ?? 'unknown';
  if (!messageId || !sender || !from || IGNORED_TYPES.has(type)) return null;
  const read = readCloudContent(message, type);
  if (!read) return null;
  const inbound: ChatMessageRead = { messageId, from, ...read };
  const name = names.get(sender) ?? (names.size === 1 ? [...names.values()][0] : undefined);
  if (name) inbound.name = name;
  const seconds = Number(readString(message, 'timestamp') ?? Number.NaN);
  if (Number.isFinite(seconds) && seconds > 0) inbound.sentAt = seconds * 1000;
  return inbound;
}

/** What one webhook message carries, before its sender and time are added. */
type CloudContent = Pick<ChatMessageRead, 'text' | 'kind' | 'media' | 'location' | 'unsupportedReason'>;

const unsupported = (reason: string): CloudContent => ({ kind: 'unsupported', text: '', unsupportedReason: reason });

function readCloudContent(message: Record<string, unknown>, type: string): CloudContent | null {
  const content = message[type];
  if (type === 'text') {
    const body = isRecord(content) ? readString(content, 'body') : undefined;
    return body === undefined ? null : { kind: 'text', text: body };
  }
  if (type === 'interactive' && isRecord(content)) {
    const reply = isRecord(content.list_reply) ? content.list_reply : content.button_reply;
    const id = isRecord(reply) ? readString(reply, 'id') : undefined;
    // Other interactive replies (a WhatsApp Flow's answers, `nfm_reply`) hold nothing the bot can read as a choice.
    return id === undefined
      ? unsupported(`an interactive reply of type ${readString(content, 'type') ?? 'unknown'}`)
      : { kind: 'choice', text: id };
  }
  if (type === 'button' && isRecord(content)) {
    // A template's quick-reply button: the payload is what we set on it, the text what the user saw.
    const picked = readString(content, 'payload') || readString(content, 'text');
    return picked === undefined ? null : { kind: 'choice', text: picked };
  }
  const fileKind = FILE_TYPES[type];
  if (fileKind) return readCloudFile(content, fileKind);
  if (type === 'location') {
    const place = isRecord(content) ? content : {};
    return readLocation(place.latitude, place.longitude, place.name, place.address);
  }
  if (type === 'contacts') {
    const cards = readArray(message, 'contacts').flatMap((card) => readCloudContactCard(card) ?? []);
    return cards.length > 0 ? { kind: 'text', text: toContactText(cards) } : unsupported('a contact card with no name or number');
  }
  // A sticker is WebP, not one of WhatsApp's image types, and an expression rather than a picture of anything.
  return unsupported(type === 'sticker' ? 'a sticker' : `a message of type ${type}`);
}

/**
 * `image`, `video`, `document` (with `filename`) or `audio` (with `voice`, true for a voice note): the media id to
 * download it by, its type as WhatsApp gives it, and its caption as the message's text.
 */
function readCloudFile(file: unknown, kind: MediaKind): CloudContent {
  const id = isRecord(file) ? readString(file, 'id') : undefined;
  if (!isRecord(file) || !id) return unsupported(`a file (${kind}) without a media id`);
  const media: InboundMedia = { kind, mimeType: readString(file, 'mime_type') ?? '', providerId: id };
  const fileName = readString(file, 'filename');
  if (fileName) media.fileName = fileName;
  if (kind === 'audio' && file.voice === true) media.voice = true;
  return { kind: 'media', text: readString(file, 'caption')?.trim() ?? '', media };
}

/** `contacts[{ name: { formatted_name, first_name, ... }, phones: [{ phone, wa_id, type }] }]`: one card. */
function readCloudContactCard(card: unknown): ContactCard | null {
  if (!isRecord(card)) return null;
  const names = isRecord(card.name) ? card.name : {};
  const name =
    readString(names, 'formatted_name') ?? [readString(names, 'first_name'), readString(names, 'last_name')].filter(Boolean).join(' ');
  const phones = readArray(card, 'phones').flatMap((phone) => (isRecord(phone) ? (readString(phone, 'phone') ?? []) : []));
  return name || phones.length > 0 ? { name, phones } : null;
}

function readCloudStatus(status: unknown): CloudStatus | null {
  if (!isRecord(status)) return null;
  const id = readString(status, 'id');
  const state = readString(status, 'status');
  if (!id || !state) return null;
  const read: CloudStatus = { id, status: state, recipientId: readString(status, 'recipient_id') ?? '' };
  const [error] = readArray(status, 'errors');
  if (isRecord(error)) {
    const code = readCode(error);
    const details = isRecord(error.error_data) ? readString(error.error_data, 'details') : undefined;
    const said = describeCloudError(readString(error, 'title') ?? readString(error, 'message'), code);
    read.error = details ? `${said}. ${details}` : said;
    if (code !== undefined) read.errorCode = code;
  }
  const seconds = Number(readString(status, 'timestamp') ?? Number.NaN);
  if (Number.isFinite(seconds) && seconds > 0) read.at = seconds * 1000;
  return read;
}

/**
 * A webhook status as the server's delivery update, for the link that owns the number it came for; null for a
 * status we do not follow (Meta's `deleted`, a `warning`, or one without an id).
 */
export function toDeliveryUpdate(linkId: string, status: CloudStatus, receivedAt: number): DeliveryUpdate | null {
  if (!isDeliveryStatus(status.status)) return null;
  const update: DeliveryUpdate = { linkId, providerMessageId: status.id, status: status.status, at: status.at ?? receivedAt };
  if (status.status === 'failed') {
    update.failureReason = status.error ?? 'Unknown error';
    if (status.errorCode !== undefined) update.failureCode = status.errorCode;
  }
  return update;
}

/** What a Cloud API error code means for a bot, where it is one a bot meets (Meta's error code reference). */
const CODE_MEANINGS: Record<number, string> = {
  131047: 're-engagement: more than 24 hours have passed since the user last wrote, so only an approved template message can reach them',
  130429: 'rate limit hit: the number sent faster than its Cloud API throughput allows; try again shortly',
  131056: 'too many messages went to this one user in a short time; try again later',
  131026: 'the message could not be delivered (the number may not be on WhatsApp, or has not accepted the terms)',
  131000: 'WhatsApp failed to send it; trying again may work',
  190: 'the access token is invalid or has expired',
};

/** Why a link whose token Meta no longer accepts (190) FAILED: the rest of the link is kept, a new token mends it. */
export const EXPIRED_TOKEN_TEXT =
  "Meta no longer accepts this number's access token (expired or revoked): reconnect the number (add it again, with Embedded Signup or a new token)";

export function describeCloudError(message: string | undefined, code: number | undefined): string {
  const said = message || 'Unknown error';
  if (code === undefined) return said;
  const meaning = CODE_MEANINGS[code];
  return meaning ? `${said} (${code}): ${meaning}` : `${said} (${code})`;
}

/** A refusal from the Graph API: `{ error: { message, type, code, error_subcode?, fbtrace_id } }`. */
export class CloudApiError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    /** True when Meta could not be reached or failed on its side (5xx): the same call may work later. */
    readonly isTransient = false,
    /** The HTTP status Meta answered with, when it answered. */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'CloudApiError';
  }
}

/**
 * The body of `POST /{phone-number-id}/messages` for one message, as Meta documents each type: `{ messaging_product:
 * 'whatsapp', recipient_type: 'individual', to, type, [type]: {...} }`. Text; an interactive `list` (one section),
 * `button` (reply buttons), `cta_url` (a link button) or `location_request_message`; a file by the id its upload
 * was answered with (`uploadedId`: required for `media`; documents carry their file name, audio no caption); a
 * `location`; `contacts`. The message is sent as it is: the channel cut it to WhatsApp's bounds (WHATSAPP_LIMITS)
 * when it wrote it, and the list's button names its one section.
 * @example toCloudMessageBody('233241234567', { type: 'locationRequest', body: 'Where are you?' })
 *   -> { ..., type: 'interactive', interactive: { type: 'location_request_message', body: { text: 'Where are you?' }, action: { name: 'send_location' } } }
 */
export function toCloudMessageBody(to: string, message: WhatsAppMessage, uploadedId?: string): Record<string, unknown> {
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  const interactive = (body: Record<string, unknown>) => ({ ...envelope, type: 'interactive', interactive: body });
  switch (message.type) {
    case 'text':
      return { ...envelope, type: 'text', text: { body: message.text } };
    case 'list': {
      const rows = message.rows.map(({ id, title, description }) => ({ id, title, ...(description ? { description } : {}) }));
      return interactive({
        type: 'list',
        body: { text: message.body },
        action: { button: message.button, sections: [{ title: message.button, rows }] },
      });
    }
    case 'buttons':
      return interactive({
        type: 'button',
        body: { text: message.body },
        action: { buttons: message.buttons.map(({ id, title }) => ({ type: 'reply', reply: { id, title } })) },
      });
    case 'link':
      return interactive({
        type: 'cta_url',
        body: { text: message.body },
        action: { name: 'cta_url', parameters: { display_text: message.button, url: message.url } },
      });
    case 'locationRequest':
      return interactive({ type: 'location_request_message', body: { text: message.body }, action: { name: 'send_location' } });
    case 'location': {
      const { latitude, longitude, name, address } = message.location;
      return {
        ...envelope,
        type: 'location',
        location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
      };
    }
    case 'contact': {
      const { name, phones } = message.contact;
      const card = { name: { formatted_name: name, first_name: name }, phones: phones.map((phone) => ({ phone, type: 'CELL' })) };
      return { ...envelope, type: 'contacts', contacts: [card] };
    }
    case 'media':
      if (!uploadedId) throw new Error('A media message is sent by the id of its upload');
      return { ...envelope, type: message.media.kind, [message.media.kind]: toCloudFile(message.media, uploadedId) };
  }
}

/** `{ id, caption?, filename? }`: Meta shows no caption on audio, and a file name on documents only. */
function toCloudFile({ kind, caption, fileName }: MediaRef, id: string): Record<string, string> {
  const file: Record<string, string> = { id };
  if (caption && kind !== 'audio') file.caption = caption;
  if (fileName && kind === 'document') file.filename = fileName;
  return file;
}

/**
 * Remembers the last `limit` ids, oldest forgotten first. Meta redelivers a webhook for up to a day when it got
 * no 200, so a message id seen once is dropped the second time.
 */
function createSeenIds(limit: number) {
  const ids = new Set<string>();
  return {
    /** True the first time an id is given, false afterwards (while it is remembered). */
    isNew(id: string): boolean {
      if (ids.has(id)) return false;
      ids.add(id);
      if (ids.size > limit) {
        const [oldest] = ids;
        ids.delete(oldest);
      }
      return true;
    },
  };
}

/** A JSON call (a DELETE too), or a file upload (`form`: multipart, its boundary set by fetch) given longer (`timeoutMs`). */
export type GraphRequest =
  | { method: 'GET' }
  | { method: 'DELETE' }
  | { method: 'POST'; body: unknown }
  | { method: 'POST'; form: FormData; timeoutMs?: number };

/**
 * One Graph API call with a given token (`path` after the versioned `apiUrl`); a refusal or a network failure
 * rejects with a {@link CloudApiError} saying why in words. Shared by the connector, Embedded Signup and templates.
 */
export function createGraphApi({
  apiUrl: base,
  fetch: doFetch = fetch,
  timeoutMs = 10_000,
  userMessages = false,
}: {
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /**
   * A refusal said in Meta's words for a person (`error_user_msg`, under the heading `error_user_title`) when the
   * error carries them, rather than its developer `message` ("Invalid parameter"): template refusals come so.
   */
  userMessages?: boolean;
}) {
  const apiUrl = base.replace(/\/+$/, '');
  /** `accessToken` '' sends no Authorization header (the code exchange authenticates with the app's secret). */
  return async function callGraph(path: string, init: GraphRequest, accessToken: string): Promise<Record<string, unknown>> {
    const isJson = init.method === 'POST' && 'body' in init;
    let res: Response;
    try {
      res = await doFetch(`${apiUrl}${path}`, {
        method: init.method,
        headers: {
          ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
          accept: 'application/json',
          ...(isJson ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.method === 'POST' ? { body: 'form' in init ? init.form : JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(('timeoutMs' in init && init.timeoutMs) || timeoutMs),
      });
    } catch (err) {
      throw new CloudApiError(`Could not reach the WhatsApp Cloud API: ${toErrorMessage(err)}`, undefined, true);
    }
    const answer = parseJson(await res.text().catch(() => ''));
    const error = isRecord(answer) && isRecord(answer.error) ? answer.error : undefined;
    if (error || !res.ok) {
      const code = error ? readCode(error) : undefined;
      const userSaid = error && userMessages ? readString(error, 'error_user_msg') : undefined;
      const said = (error && (userSaid || readString(error, 'message'))) || `HTTP ${res.status}`;
      throw new CloudApiError(`WhatsApp Cloud API: ${describeCloudError(said, code)}`, code, !error && res.status >= 500, res.status);
    }
    return isRecord(answer) ? answer : {};
  };
}

export function createCloudApiConnector(options: CloudApiOptions): CloudApiConnector {
  const seen = createSeenIds(options.seenIdsLimit ?? 10_000);
  const now = options.now ?? Date.now;
  /** linkId -> its phone number id and the token its sends use (its own, or the installation's). */
  const numbers = new Map<string, CloudNumber>();

  const doFetch = options.fetch ?? fetch;
  const mediaTimeoutMs = options.mediaTimeoutMs ?? 120_000;
  const uploads = createUploads(options.uploadsLimit ?? 1000, now);
  const graph = createGraphApi({ apiUrl: options.apiUrl, fetch: doFetch, timeoutMs: options.timeoutMs });
  const callGraph = (path: string, init: GraphRequest, accessToken: string = options.accessToken) => graph(path, init, accessToken);
  /** Where a send goes and with which token, once the link is confirmed. */
  const remember = (linkId: string, phoneNumberId: string, accessToken: string | undefined) =>
    numbers.set(linkId, { phoneNumberId, accessToken: accessToken ?? options.accessToken });

  /**
   * Checks the number with Meta, then reports CONNECTED or FAILED. Resuming after a restart, a check that could
   * not be made (Meta unreachable, or failing on its side) leaves the link as it was, still sending through the
   * number it was linked with, and rejects so the caller can log it: a network blip must not unlink every bot.
   */
  async function startLink(linkId: string, { phoneNumberId, resume, accessToken }: StartLinkOptions): Promise<void> {
    if (!phoneNumberId) {
      await options.events.onLinkUpdate(linkId, { status: 'FAILED', message: 'A phone number id is required to link a Cloud API number' });
      return;
    }
    try {
      const number = await callGraph(
        `/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
        { method: 'GET' },
        accessToken ?? options.accessToken,
      );
      const mobileNumber = (readString(number, 'display_phone_number') ?? '').replace(/\D/g, '');
      if (!mobileNumber) throw new Error(`WhatsApp Cloud API: phone number id ${phoneNumberId} has no display phone number`);
      remember(linkId, phoneNumberId, accessToken);
      await options.events.onLinkUpdate(linkId, { status: 'CONNECTED', mobileNumber, qrCode: null });
    } catch (err) {
      if (resume && err instanceof CloudApiError && err.isTransient) {
        remember(linkId, phoneNumberId, accessToken);
        throw err;
      }
      numbers.delete(linkId);
      const expired = err instanceof CloudApiError && err.code === 190;
      await options.events.onLinkUpdate(linkId, { status: 'FAILED', message: expired ? EXPIRED_TOKEN_TEXT : toErrorMessage(err) });
    }
  }

  /**
   * A file's Meta media id for the number: `POST /{phone-number-id}/media` (multipart: `messaging_product`, `type`,
   * `file`) answered `{ id }`, remembered so the same file goes again without a second upload.
   */
  async function uploadMedia(number: CloudNumber, ref: MediaRef): Promise<string> {
    const key = `${number.phoneNumberId}:${ref.mediaId}`;
    const known = uploads.get(key);
    if (known) return known;
    const file = await options.readMedia(ref);
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', file.mimeType);
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.fileName ?? `${ref.kind}-${ref.mediaId}`);
    const path = `/${encodeURIComponent(number.phoneNumberId)}/media`;
    const answer = await callGraph(path, { method: 'POST', form, timeoutMs: mediaTimeoutMs }, number.accessToken);
    const id = readString(answer, 'id');
    if (!id) throw new CloudApiError('WhatsApp Cloud API: the media upload was answered without a media id', undefined);
    uploads.set(key, id);
    return id;
  }

  /**
   * A user's file: `GET /{media-id}` answers `{ url, mime_type, sha256, file_size }`, then `GET url` with the same
   * bearer token gives the bytes (the URL lives 5 minutes, the media id 7 days). The size Meta gives is checked
   * before anything is downloaded, the bytes as they come and against the SHA-256 Meta gave.
   */
  async function downloadMedia(linkId: string, media: InboundMedia, maxBytes: number): Promise<Uint8Array> {
    const number = numbers.get(linkId);
    if (!number) throw new MediaDownloadError('failed', `WhatsApp link ${linkId} is not connected to a Cloud API number`);
    const what = `The ${media.kind} ${media.providerId}`;
    let found: Record<string, unknown>;
    try {
      found = await callGraph(`/${encodeURIComponent(media.providerId)}`, { method: 'GET' }, number.accessToken);
    } catch (err) {
      throw toDownloadError(err, what);
    }
    const url = readString(found, 'url');
    if (!url) throw new MediaDownloadError('gone', `${what}: Meta answered without a download URL`);
    if (Number(readString(found, 'file_size') ?? 0) > maxBytes) throw tooLarge(what, maxBytes);
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { authorization: `Bearer ${number.accessToken}` },
        signal: AbortSignal.timeout(mediaTimeoutMs),
      });
    } catch (err) {
      throw new MediaDownloadError('failed', `${what} could not be downloaded from Meta: ${toErrorMessage(err)}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      // The URL was made a moment ago: a 404 or 410 now means Meta no longer has the file.
      const isGone = res.status === 404 || res.status === 410;
      throw new MediaDownloadError(isGone ? 'gone' : 'failed', `${what}: Meta's download answered HTTP ${res.status}`);
    }
    if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
      await res.body.cancel();
      throw tooLarge(what, maxBytes);
    }
    const bytes = await readAtMost(res.body, maxBytes, what);
    const sha256 = readString(found, 'sha256');
    if (sha256 && createHash('sha256').update(bytes).digest('hex') !== sha256.toLowerCase()) {
      throw new MediaDownloadError('failed', `${what}: the bytes downloaded do not match the SHA-256 Meta gave`);
    }
    return bytes;
  }

  return {
    name: 'cloud',
    supportsInteractive: true,
    nativeTypes: new Set(WHATSAPP_MESSAGE_TYPES),
    downloadMedia,
    startLink,
    // Meta answers a token that cannot read the number with an error (100: "does not exist, cannot be loaded due
    // to missing permissions"; 190: the token is invalid or expired); only Meta unreachable rejects.
    async canReadNumber(phoneNumberId, accessToken) {
      try {
        const number = await callGraph(`/${encodeURIComponent(phoneNumberId)}?fields=id`, { method: 'GET' }, accessToken);
        return readString(number, 'id') === phoneNumberId;
      } catch (err) {
        if (err instanceof CloudApiError && !err.isTransient && err.code !== undefined) return false;
        throw err;
      }
    },
    async unlink(linkId) {
      // Meta has nothing to log out of: the number stays registered to the business; we stop using it.
      numbers.delete(linkId);
    },
    async send({ linkId, to, messages }) {
      const sent: SentMessage[] = [];
      for (const message of messages) {
        const number = numbers.get(linkId);
        if (!number) throw new Error(`WhatsApp link ${linkId} is not connected to a Cloud API number`);
        const path = `/${encodeURIComponent(number.phoneNumberId)}/messages`;
        try {
          const uploadedId = message.type === 'media' ? await uploadMedia(number, message.media) : undefined;
          const body = toCloudMessageBody(to, message, uploadedId);
          const answer = await callGraph(path, { method: 'POST', body }, number.accessToken);
          const providerMessageId = readSentId(answer);
          if (providerMessageId) sent.push({ providerMessageId, message });
        } catch (err) {
          // A token Meta no longer accepts fails every later send too: the link says so, and is kept to reconnect.
          if (err instanceof CloudApiError && err.code === 190) {
            numbers.delete(linkId);
            await options.events.onLinkUpdate(linkId, { status: 'FAILED', message: EXPIRED_TOKEN_TEXT });
          }
          throw err;
        }
      }
      return sent;
    },
    async close() {
      // No sockets: the webhook stops with the server. Links are resumed (checked again) on the next start.
    },
    verifyWebhook: (query) => answerVerification(query, options.verifyToken),
    async handleWebhook(rawBody, signature) {
      if (!verifyCloudSignature(rawBody, signature, options.appSecret)) return 'bad_signature';
      for (const delivery of readCloudWebhook(parseJson(rawBody))) {
        if (delivery.messages.length === 0 && delivery.statuses.length === 0) continue;
        // A number no link owns (another app's, or unlinked since) is not ours to answer.
        const linkId = await options.findLinkId(delivery.phoneNumberId);
        if (!linkId) continue;
        // A webhook proves the number is the link's: replies work even when the start-up check could not run.
        if (!numbers.has(linkId)) remember(linkId, delivery.phoneNumberId, undefined);
        // In order: one user's messages must reach the bot in the order they were written. An id is marked
        // before its run, so a failure is not retried by Meta's redelivery (a half-run bot must not run twice).
        for (const message of delivery.messages) {
          if (seen.isNew(message.messageId)) await options.events.onMessage(toChatMessage(linkId, message, now()));
        }
        await reportStatuses(options.events, linkId, delivery.statuses, now());
      }
      return 'ok';
    },
  };
}

/** A linked number as the connector sends from it. */
interface CloudNumber {
  phoneNumberId: string;
  accessToken: string;
}

/**
 * A media id lookup's refusal: an id Meta does not know (error 100, "does not exist", or HTTP 404: media ids in
 * messages last 7 days) is `gone`; Meta unreachable, failing, or refusing the token is `failed`.
 */
function toDownloadError(err: unknown, what: string): MediaDownloadError {
  const isGone = err instanceof CloudApiError && !err.isTransient && (err.code === 100 || err.httpStatus === 404);
  const why = isGone ? 'Meta no longer has it (media ids in messages last 7 days)' : toErrorMessage(err);
  return new MediaDownloadError(isGone ? 'gone' : 'failed', `${what}: ${why}`);
}

/** Meta keeps an uploaded file 30 days; its id is reused for 29, then the file is uploaded again. */
const UPLOAD_REUSE_MS = 29 * 24 * 60 * 60_000;

/** The last `limit` uploads' ids, by number and stored file, oldest forgotten first. */
function createUploads(limit: number, now: () => number) {
  const ids = new Map<string, { id: string; at: number }>();
  return {
    get(key: string): string | undefined {
      const known = ids.get(key);
      if (known && now() - known.at < UPLOAD_REUSE_MS) return known.id;
      ids.delete(key);
      return undefined;
    },
    set(key: string, id: string): void {
      ids.delete(key);
      ids.set(key, { id, at: now() });
      if (ids.size > limit) ids.delete(ids.keys().next().value!);
    },
  };
}

/** The `wamid...` of a send's answer: `{ messaging_product, contacts, messages: [{ id }] }`. */
function readSentId(answer: Record<string, unknown>): string | undefined {
  const [first] = readArray(answer, 'messages');
  return isRecord(first) ? readString(first, 'id') : undefined;
}

/** A delivery's statuses, in order, to the link that owns its number (the only messages they may touch). */
async function reportStatuses(events: ConnectorEvents, linkId: string, statuses: CloudStatus[], receivedAt: number): Promise<void> {
  if (!events.onStatus) return;
  for (const status of statuses) {
    const update = toDeliveryUpdate(linkId, status, receivedAt);
    if (update) await events.onStatus(update);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readArray(value: unknown, key: string): unknown[] {
  if (!isRecord(value)) return [];
  const found = value[key];
  return Array.isArray(found) ? found : [];
}

export function readString(value: Record<string, unknown>, key: string): string | undefined {
  const found = value[key];
  return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
}

export function readCode(error: Record<string, unknown>): number | undefined {
  const { code } = error;
  const number = typeof code === 'number' ? code : typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : Number.NaN;
  return Number.isInteger(number) ? number : undefined;
}
