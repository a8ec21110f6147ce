/**
 * Files between WhatsApp and the media store (docs/media.md). A file a user sends is fetched through the link's
 * connector and stored for the bot's account before the bot reads it: the hop gets a MediaRef with a signed link,
 * never the bytes. A file a bot sends is looked up for the bot's account and given a signed link; the connector
 * reads its bytes back through {@link createMediaReader}.
 */
import type { MediaRef } from '../../../shared/media';
import { MEDIA_TYPES } from '../../../shared/media';
import { toPlainText, type ChatMessage, type ChatReply, type WhatsAppMessage } from '../../../shared/whatsapp';
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
 * A reply's files made ready to send, for the bot's account: a stored file (the designer's upload) gets its
 * record's type, size and name and a signed link; one the account does not hold (deleted, or another account's
 * id in an imported app) is left out, logged. A file known by its address only is sent as its caption and link.
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
      if (media.url) messages.push({ type: 'text', text: toPlainText(message) });
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
