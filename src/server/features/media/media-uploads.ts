import type { Readable } from 'node:stream';
import { AppError } from '../../../shared/errors';
import { MEDIA_MESSAGES, MediaRefusal } from './media.service';

/**
 * The files this process is receiving (docs/media.md, "Limits on uploads"): a body is held whole in memory while
 * it is read, checked and stored, so at most `perAccount` uploads of one account at once and at most `bufferBytes`
 * of bodies for all of them together. A file is admitted with its size before its body is read (an upload's
 * Content-Length) and released when its answer has gone, whatever it was. Refused at once, never queued: a
 * waiting upload would hold its connection and its place for nothing.
 * @example const release = uploads.admit(user.id, 4_200_000); // throws MediaRefusal('serverBusy') when full
 */
export interface MediaUploads {
  /**
   * Admits a file of `bytes` for `accountId` (null: counted in the process's budget only). Throws
   * `tooManyUploads` when the account already has `perAccount` in flight, `serverBusy` when the bytes would pass
   * the budget. Answers the release; calling it again does nothing.
   */
  admit(accountId: string | null, bytes: number): () => void;
  /** The bytes admitted and not yet released. */
  bytesInFlight(): number;
}

export function createMediaUploads(limits: { perAccount: number; bufferBytes: number }): MediaUploads {
  const byAccount = new Map<string, number>();
  let bytesInFlight = 0;
  return {
    admit(accountId, bytes) {
      const held = accountId === null ? 0 : (byAccount.get(accountId) ?? 0);
      if (held >= limits.perAccount) throw new MediaRefusal('tooManyUploads', MEDIA_MESSAGES.tooManyUploads(limits.perAccount));
      if (bytesInFlight + bytes > limits.bufferBytes) throw new MediaRefusal('serverBusy', MEDIA_MESSAGES.serverBusy);
      bytesInFlight += bytes;
      if (accountId !== null) byAccount.set(accountId, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        bytesInFlight -= bytes;
        if (accountId === null) return;
        const left = (byAccount.get(accountId) ?? 1) - 1;
        if (left > 0) byAccount.set(accountId, left);
        else byAccount.delete(accountId);
      };
    },
    bytesInFlight: () => bytesInFlight,
  };
}

/**
 * An upload's body, read into one buffer of its declared size as it arrives (Fastify's own reader keeps the chunks
 * and copies them once more at the end: twice the file at its peak). A body that sends nothing for `idleMs` is
 * cut off (`stalled`): a client trickling a byte now and then would otherwise keep its admission for ever.
 */
export function readUploadBody(payload: Readable, size: number, idleMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.allocUnsafe(size);
    let received = 0;
    const timer = setTimeout(() => finish(new MediaRefusal('stalled', MEDIA_MESSAGES.stalled(idleMs))), idleMs);
    function finish(err?: Error) {
      clearTimeout(timer);
      payload.off('data', onData).off('end', onEnd).off('error', finish);
      if (err) {
        // Nothing more of it is read; the answer goes and the connection closes.
        payload.resume();
        reject(err);
      } else resolve(body);
    }
    function onData(chunk: Buffer) {
      // HTTP/1.1 delivers no more than the Content-Length; checked all the same, the buffer is that long.
      if (received + chunk.length > size) return finish(new AppError('invalid', MEDIA_MESSAGES.lengthMismatch));
      chunk.copy(body, received);
      received += chunk.length;
      timer.refresh();
    }
    function onEnd() {
      finish(received === size ? undefined : new AppError('invalid', MEDIA_MESSAGES.lengthMismatch));
    }
    payload.on('data', onData).on('end', onEnd).on('error', finish);
  });
}
