import { EventEmitter } from 'node:events';
import type { AnyMessageContent, BaileysEventMap, UserFacingSocketConfig, WAMessage } from 'baileys';
import type { BaileysSocket } from '../../src/integrations/whatsapp/baileys';

/** A close as Baileys reports it: `lastDisconnect.error` is a Boom, its code in `output.statusCode`. */
export function closedWith(statusCode: number | undefined, message = 'Connection Failure'): BaileysEventMap['connection.update'] {
  const error = Object.assign(
    new Error(message),
    statusCode === undefined ? {} : { output: { statusCode, payload: { statusCode, message } } },
  );
  return { connection: 'close', lastDisconnect: { error, date: new Date(0) } };
}

/**
 * A stand-in for Baileys' socket. This machine cannot reach WhatsApp's servers, so the connector's wiring is
 * driven through the events a real socket emits (Baileys' BaileysEventMap shapes), while the rest of Baileys
 * (its key cache, browser names, new credentials) is the real library.
 */
export class BaileysStandInSocket implements BaileysSocket {
  private readonly emitter = new EventEmitter();
  readonly ev = {
    on: <E extends keyof BaileysEventMap>(event: E, listener: (arg: BaileysEventMap[E]) => void) => {
      this.emitter.on(event, listener);
    },
  };
  user: { id: string } | undefined;
  readonly sent: Array<{ jid: string } & Record<string, unknown>> = [];
  reuploads = 0;
  logouts = 0;
  ends = 0;

  constructor(readonly config: UserFacingSocketConfig) {}

  emit<E extends keyof BaileysEventMap>(event: E, arg: BaileysEventMap[E]) {
    // As in Baileys, whose own listener (registered first) merges a creds change into `auth.creds`.
    if (event === 'creds.update' && this.config.auth) Object.assign(this.config.auth.creds, arg);
    this.emitter.emit(event, arg);
  }

  async sendMessage(jid: string, content: AnyMessageContent) {
    this.sent.push({ jid, ...content });
    const message = 'text' in content ? { conversation: content.text } : {};
    return { key: { remoteJid: jid, fromMe: true, id: `OUT${this.sent.length}` }, message };
  }

  /** The sender's phone is asked to upload a file again: it answers with `reupload`'s message, or as it was. */
  reupload?: (message: WAMessage) => WAMessage;
  async updateMediaMessage(message: WAMessage) {
    this.reuploads += 1;
    return this.reupload?.(message) ?? message;
  }

  async logout() {
    this.logouts += 1;
    this.emit('creds.update', { lastPropHash: 'after-logout' });
    this.emit('connection.update', closedWith(401, 'Intentional Logout'));
  }

  async end() {
    this.ends += 1;
  }
}
