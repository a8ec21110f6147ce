import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadKeyFile } from '../../key-file';
import type { Config } from '../../config';

/**
 * Signed, time-limited links to a file's bytes (docs/media.md, Links): `/media/<id>?expires=<unix seconds>&signature=<HMAC>`.
 * The HMAC-SHA256 covers the file's id and the expiry, under MEDIA_URL_SECRET (or a key file under DATA_DIR),
 * so a link opens one file until its time and cannot be stretched or pointed at another file. Whoever holds the
 * link may fetch the file (a REST action hands it to another system); nothing else about the account is in it.
 */

export const MEDIA_KEY_FILE = 'media-url.key';

/** The key links are signed with: MEDIA_URL_SECRET, else the host's key file (created on first use). */
export function loadMediaUrlKey(config: Config): Buffer {
  return config.MEDIA_URL_SECRET
    ? Buffer.from(config.MEDIA_URL_SECRET, 'utf8')
    : loadKeyFile(config.DATA_DIR, MEDIA_KEY_FILE, 'MEDIA_URL_SECRET');
}

const signatureOf = (key: Buffer, mediaId: string, expires: number) =>
  createHmac('sha256', key).update(`media\n${mediaId}\n${expires}`).digest('base64url');

/** The path and query of a link to `mediaId` good until `expiresAt` (rounded down to the second). */
export function signMediaPath(key: Buffer, mediaId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `/media/${mediaId}?expires=${expires}&signature=${signatureOf(key, mediaId, expires)}`;
}

export type LinkCheck = 'valid' | 'expired' | 'forged';

/** Whether a link's expiry and signature check out at `now`; a forged one is reported so before its expiry is read. */
export function checkMediaLink(key: Buffer, mediaId: string, expires: number, signature: string, now: Date): LinkCheck {
  const expected = Buffer.from(signatureOf(key, mediaId, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return expires * 1000 > now.getTime() ? 'valid' : 'expired';
}
