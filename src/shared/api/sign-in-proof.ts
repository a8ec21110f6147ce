/**
 * The sign-in proof of work (docs/operations.md, "Sign-in limits"). Past the platform's sign-in ceiling, a
 * sign-in from a browser the account has not signed in from before is answered 429 with a challenge instead of
 * a plain refusal; the console's form finds a nonce whose SHA-256, with the challenge, starts with `difficulty`
 * zero bits (about 65,000 hashes: well under a second in a browser), and sends the same sign-in again with the
 * proof in the `x-sign-in-proof` header. The ceiling then costs a sprayer CPU for every guess past it, and can
 * no longer be used up to lock everyone else out.
 *
 * @example
 *   const proof = await solveSignInChallenge(reply.challenge, sha256);   // 'v1.1767....:4711'
 *   await fetch('/api/auth/login', { headers: { [SIGN_IN_PROOF_HEADER]: proof }, ... })
 */
import { z } from 'zod';

export const SIGN_IN_PROOF_HEADER = 'x-sign-in-proof';

/** What a 429 past the ceiling carries besides the envelope's status and message. */
export const signInChallengeSchema = z.object({
  /** Signed by the server for one email, valid a few minutes. */
  token: z.string().min(1).max(300),
  /** Leading zero bits the hash must have. */
  difficulty: z.number().int().min(1).max(32),
});
export type SignInChallenge = z.infer<typeof signInChallengeSchema>;

/** The text hashed for a nonce: the challenge's token and the nonce, as the proof header carries them. */
export const toProof = (token: string, nonce: number) => `${token}:${nonce}`;

export function hasLeadingZeroBits(hash: Uint8Array, bits: number): boolean {
  const whole = Math.floor(bits / 8);
  for (let i = 0; i < whole; i++) if (hash[i] !== 0) return false;
  const rest = bits % 8;
  return rest === 0 || (hash[whole] ?? 0xff) >> (8 - rest) === 0;
}

/**
 * Finds the proof for a challenge. `sha256` may be synchronous (@noble/hashes in the browser, node:crypto in tests
 * and benches) or asynchronous (WebCrypto), so nonces are tried in batches.
 */
export async function solveSignInChallenge(
  challenge: SignInChallenge,
  sha256: (text: string) => Uint8Array | Promise<Uint8Array>,
): Promise<string> {
  const BATCH = 512;
  for (let start = 0; ; start += BATCH) {
    const nonces = Array.from({ length: BATCH }, (_, i) => start + i);
    const hashes = await Promise.all(nonces.map((nonce) => sha256(toProof(challenge.token, nonce))));
    const found = hashes.findIndex((hash) => hasLeadingZeroBits(hash, challenge.difficulty));
    if (found !== -1) return toProof(challenge.token, nonces[found]!);
  }
}
