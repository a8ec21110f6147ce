/**
 * Secrets kept in the database, encrypted at rest with AES-256-GCM: linked WhatsApp devices' keys
 * (WHATSAPP_CREDENTIALS_KEY) and two-factor secrets (TWO_FACTOR_KEY). A sealed value reads
 * `v1:<iv base64>:<auth tag base64>:<ciphertext base64>`. The additional data names where the value belongs
 * (a row's ids), so a value copied into another row does not open.
 * @example const stored = sealText(key, secret, `two-factor\n${userId}`); openText(key, stored, `two-factor\n${userId}`)
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export function sealText(key: Buffer, plain: string, additionalData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(additionalData));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
}

/** The plain text; throws when the key or the additional data is not the one it was sealed with, or the value is damaged. */
export function openText(key: Buffer, stored: string, additionalData: string): string {
  const [version, iv, tag, sealed] = stored.split(':');
  if (version !== VERSION || !iv || !tag || sealed === undefined) throw new Error(`unknown sealed format ${version}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64')).setAAD(Buffer.from(additionalData));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
}
