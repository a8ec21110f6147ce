import { createHash, randomBytes } from 'node:crypto';

/** A new opaque token: 256 random bits, base64url. Only its hash is stored. */
export function createOpaqueToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
