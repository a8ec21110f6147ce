import type { LoginBody, LoginReply } from '../../../shared/api/auth.schema';
import type { loginMerchant, loginUser } from '../../../shared/api/auth.calls';
import { SIGN_IN_PROOF_HEADER, type SignInChallenge, signInChallengeSchema, solveSignInChallenge } from '../../../shared/api/sign-in-proof';
// @noble/hashes: WebCrypto exists only in secure contexts, and a console served over plain HTTP on a LAN address
// has none; synchronous, so the proof's tens of thousands of short hashes take no await each.
import { sha256 } from '@noble/hashes/sha2.js';
import type { ApiReply } from '../../lib/api';
import { call, type CallReply } from '../../lib/call';

/** A sign-in's reply as it arrives: `token` at the top level, the user in `data` (or the second step's challenge). */
export type LoginResult = ApiReply<LoginReply['data']> & { token?: string };

export function isLoginReply(reply: LoginResult): reply is LoginResult & Pick<LoginReply, 'token' | 'data'> {
  return reply.status === '00' && typeof reply.token === 'string' && !!reply.data;
}

/** A sign-in's reply past the platform's ceiling: a challenge to solve (sign-in-proof.ts) before trying again. */
export type LoginChallengeReply = LoginResult & { challenge: SignInChallenge };

export function isLoginChallenge(reply: LoginResult): reply is LoginChallengeReply {
  return signInChallengeSchema.safeParse((reply as { challenge?: unknown }).challenge).success;
}

/**
 * Sends a password sign-in (`loginUser` or `loginMerchant`); past the platform's ceiling the server asks for a
 * proof of work, which is solved here (under a second) and the same sign-in sent once more with it.
 */
export async function signIn(declaration: typeof loginUser | typeof loginMerchant, body: LoginBody): Promise<CallReply<typeof loginUser>> {
  const reply = await call(declaration, { body });
  if (!isLoginChallenge(reply)) return reply;
  const encoder = new TextEncoder();
  const proof = await solveSignInChallenge(reply.challenge, (text) => sha256(encoder.encode(text)));
  return call(declaration, { body, headers: { [SIGN_IN_PROOF_HEADER]: proof } });
}
