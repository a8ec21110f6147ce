/**
 * Files between WhatsApp and the media store (docs/media.md). A file a user sends is fetched through the link's
 * connector and stored for the bot's account before the bot reads it: the hop gets a MediaRef with a signed link,
 * never the bytes. A file a bot sends is looked up for the bot's account (or, known by its address, fetched and
 * stored for it) and given a signed link; the connector reads its bytes back through {@link createMediaReader}.
 */
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { mediaFiles } from '../../../db/schema';
import { MEDIA_TYPES, type MediaKind, type MediaRef } from '../../../shared/media';
import type { ChatMessage, ChatReply, WhatsAppMessage } from '../../../shared/whatsapp';
import type { AppContext } from '../../context';
import {
  MediaDownloadError,
  type MediaDownloadFailure,
  type ReadMedia,
  type WhatsAppConnector,
} from '../../../integrations/whatsapp/whatsapp-connector';
import {
  findMediaById,
  getMediaRecord,
  MediaRefusal,
  readStoredBytes,
  storeMedia,
  toMediaRef,
  withSignedUrl,
} from '../media/media.service';

/** What the user is told when their file could not be fetched from WhatsApp (no bot runs). */
export const MEDIA_DOWNLOAD_TEXT: Record<MediaDownloadFailure, string> = {
  gone: 'That file could not be fetched from WhatsApp. Please send it again.',
  too_large: 'That file is too big to receive here. Please send a smaller one.',
  failed: 'That file could not be received right now. Please try again in a few minutes.',
};

/** Refusals that are the business's matter, not the sender's: the sender is told to try later, the log says why. */
const NOT_THE_SENDERS = new Set(['quotaReached', 'unavailable']);

/** The bot a file goes to: its account owns the stored file. */
export interface MediaOwner {
  ownerId: string;
  appId: string;
}

/**
 * Stores the file a user sent with `message` for the bot's account: its reference, with a signed link, or the
 * sentence the user gets instead when it cannot be fetched or stored (too big, a type WhatsApp does not send as
 * that kind, the account's storage full, the store down); nothing is stored half.
 */
export async function storeChatMedia(
  ctx: AppContext,
  connector: WhatsAppConnector,
  message: ChatMessage,
  owner: MediaOwner,
): Promise<MediaRef | string> {
  const media = message.media;
  if (!media) throw new Error('a media message without its file');
  const where = { linkId: message.linkId, messageId: message.messageId, kind: media.kind };
  try {
    const bytes = await connector.downloadMedia(message.linkId, media, MEDIA_TYPES[media.kind].maxBytes);
    const ref = await storeMedia(ctx, {
      accountId: owner.ownerId,
      appId: owner.appId,
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      claimedMimeType: media.mimeType,
      ...(media.fileName ? { fileName: media.fileName } : {}),
      ...(message.text.trim() ? { caption: message.text.trim() } : {}),
      expectedKind: media.kind,
      source: 'inbound',
      phone: message.from,
    });
    return withSignedUrl(ctx, ref);
  } catch (err) {
    if (err instanceof MediaDownloadError) {
      ctx.log.info({ ...where, reason: err.reason, err: err.message }, 'a file sent to a bot could not be fetched');
      return MEDIA_DOWNLOAD_TEXT[err.reason];
    }
    if (err instanceof MediaRefusal) {
      ctx.log.info({ ...where, code: err.code, err: err.message }, 'a file sent to a bot was refused');
      return NOT_THE_SENDERS.has(err.code) ? MEDIA_DOWNLOAD_TEXT.failed : err.message;
    }
    throw err;
  }
}

/**
 * A reply's files made ready to send, for the bot's account: a stored file (the designer's upload, an action's
 * file) gets its record's type, size and name and a signed link; a file known by its https address is fetched and
 * stored for the account ({@link getUrlFile}). One the account does not hold (deleted, or another account's id in an
 * imported app), or an address that cannot be fetched or whose file is refused, is left out with a log line saying
 * why; the rest of the reply goes.
 */
export async function resolveReplyMedia(ctx: AppContext, reply: ChatReply, ownerId: string): Promise<ChatReply> {
  if (!reply.messages.some((message) => message.type === 'media')) return reply;
  const messages: WhatsAppMessage[] = [];
  for (const message of reply.messages) {
    if (message.type !== 'media') {
      messages.push(message);
      continue;
    }
    const { media } = message;
    if (!media.mediaId) {
      if (!media.url) continue;
      try {
        const ref = await getUrlFile(ctx, ownerId, media.url, media.kind, media.fileName);
        messages.push({ type: 'media', media: withSignedUrl(ctx, media.caption ? { ...ref, caption: media.caption } : ref) });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        ctx.log.warn({ reason, url: describeAddress(media.url), linkId: reply.linkId }, 'a file a bot sends by address was left out');
      }
      continue;
    }
    try {
      const record = await getMediaRecord(ctx, media.mediaId, ownerId);
      if (record.deletedAt) throw new Error('the file was deleted after the retention period');
      const ref = toMediaRef(record);
      messages.push({ type: 'media', media: withSignedUrl(ctx, media.caption ? { ...ref, caption: media.caption } : ref) });
    } catch (err) {
      ctx.log.warn({ err, mediaId: media.mediaId, linkId: reply.linkId }, 'a file a bot sends was left out: its account does not hold it');
    }
  }
  return { ...reply, messages };
}

/** How long a file fetched from an address is sent again rather than fetched again. */
export const URL_FILE_REUSE_MS = 60 * 60 * 1000;
/** How long fetching one file by address may take. */
const URL_FILE_TIMEOUT_MS = 10_000;

/** Fetches in flight in this process, by account and address: a burst of replies fetches an address once. */
const fetching = new Map<string, Promise<MediaRef>>();

/**
 * The account's file for an https address: the one fetched from it within {@link URL_FILE_REUSE_MS} (a record in
 * `media_files`, so every process of a fleet finds it), else fetched now through the REST action's guarded path
 * (private addresses refused unless allowed, redirects re-checked, at most the kind's size + 1 read) and stored
 * like any file (type read from the bytes, size, image bomb; source `url`). Throws with the reason.
 */
export async function getUrlFile(ctx: AppContext, ownerId: string, url: string, kind: MediaKind, fileName?: string): Promise<MediaRef> {
  const since = new Date(ctx.now().getTime() - URL_FILE_REUSE_MS);
  const [recent] = await ctx.db
    .select()
    .from(mediaFiles)
    .where(
      and(
        eq(mediaFiles.ownerId, ownerId),
        eq(mediaFiles.sourceUrl, url),
        eq(mediaFiles.kind, kind),
        isNull(mediaFiles.deletedAt),
        gt(mediaFiles.createdAt, since),
      ),
    )
    .orderBy(desc(mediaFiles.createdAt))
    .limit(1);
  if (recent) return toMediaRef(recent);
  const key = `${ownerId} ${url}`;
  let pending = fetching.get(key);
  if (!pending) {
    pending = fetchUrlFile(ctx, ownerId, url, kind, fileName).finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  return pending;
}

async function fetchUrlFile(ctx: AppContext, ownerId: string, url: string, kind: MediaKind, fileName?: string): Promise<MediaRef> {
  const file = await ctx.fetchFile(url, { maxBytes: MEDIA_TYPES[kind].maxBytes, timeoutMs: URL_FILE_TIMEOUT_MS });
  const name = fileName ?? file.fileName;
  return storeMedia(ctx, {
    accountId: ownerId,
    bytes: file.bytes,
    claimedMimeType: file.mimeType,
    ...(name ? { fileName: name } : {}),
    expectedKind: kind,
    source: 'url',
    sourceUrl: url,
  });
}

/** An address as logs show it: without its query string, which often carries keys. */
function describeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

/**
 * The bytes of a file a connector sends. Every reference reaching a connector was resolved for the bot's account
 * by {@link resolveReplyMedia}, so the file is read by its id.
 */
export function createMediaReader(ctx: AppContext): ReadMedia {
  return async (ref) => {
    const { bytes, ref: stored } = await readStoredBytes(ctx, await findMediaById(ctx, ref.mediaId));
    return { bytes, mimeType: stored.mimeType, ...(stored.fileName ? { fileName: stored.fileName } : {}) };
  };
}
