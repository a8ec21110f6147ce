import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context';

/**
 * The origin of the gateway URLs an app's settings show: PUBLIC_URL when set, else the address the browser
 * used. The answer goes only back to the caller, is never stored or mailed, and so a forged Host header can
 * only mislead its own sender. Anything stored or mailed uses getPublicOrigin (config.ts) instead.
 */
export function getOrigin(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(cookieHeader: string | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=');
    if (separator >= 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

/** `; Secure` for a request that came over HTTPS (directly, or through a proxy TRUST_PROXY believes). */
export const secureAttribute = (request: FastifyRequest) => (request.protocol === 'https' ? '; Secure' : '');

export const ok = <T>(message: string, data: T) => ({ status: '00' as const, message, data });

/** A call that worked and returns nothing but its message ('Menu deleted'). */
export const done = (message: string) => ({ status: '00' as const, message });

/**
 * Streams a generated file; its first chunk runs the access and input checks, so a refusal is still an ordinary
 * error reply.
 */
export async function sendCsv(reply: FastifyReply, chunks: AsyncGenerator<string>, fileName: string) {
  return sendGeneratedFile(reply, chunks, fileName, 'text/csv; charset=utf-8');
}

/** The same for a generated JSON file (a number's subscriber data). */
export async function sendJsonFile(reply: FastifyReply, chunks: AsyncGenerator<string>, fileName: string) {
  return sendGeneratedFile(reply, chunks, fileName, 'application/json; charset=utf-8');
}

async function sendGeneratedFile(reply: FastifyReply, chunks: AsyncGenerator<string>, fileName: string, type: string) {
  const first = await chunks.next();
  const stream = Readable.from(
    (async function* () {
      if (!first.done) yield first.value;
      yield* chunks;
    })(),
  );
  return reply.type(type).header('content-disposition', `attachment; filename="${fileName}"`).send(stream);
}
