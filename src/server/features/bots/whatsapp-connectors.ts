/**
 * The WhatsApp connectors this server offers (WHATSAPP_CONNECTORS; docs/whatsapp-connectors.md), one instance of
 * each, and the path of a message from a linked number to the bot and back through the link's own connector.
 * Baileys runs in one process only: a linked device's socket must live in one place (two sockets on one set of
 * credentials throw each other off).
 */
import { getOfferedConnectors, getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { toErrorMessage } from '../../../shared/errors';
import {
  INACTIVE_BOT_TEXT,
  MEDIA_REPLY_TEXT,
  type ChatMessage,
  type ChatReply,
  toConversation,
  type WhatsAppConnectorName,
  type WhatsAppMessage,
} from '../../../shared/whatsapp';
import { createSimulatorConnector, type SimulatorConnector } from '../../../integrations/whatsapp/simulator';
import type { ConnectorEvents, WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import type { ChatBot, ChatStart, Runtime } from '../runtime/runtime.service';
import { createBaileysConnector } from '../../../integrations/whatsapp/baileys';
import { createCloudApiConnector, type CloudApiConnector } from '../../../integrations/whatsapp/cloud-api';
import { applyLinkUpdate, findLinkIdByExternalId, findLinksToResume, findLinkTarget, type WhatsAppConnectors } from './bots.service';
import { cloudCredentialsFor } from './cloud-credentials';
import { createWhatsAppAuthStore } from './whatsapp-auth-store';
import { receiveDeliveryUpdate, toSentRows, type SentBy } from './whatsapp-messages';
import { deliverTemplate } from './whatsapp-templates.service';
import { createMediaReader, resolveReplyMedia, storeChatMedia } from './whatsapp-media';
import type { RenderedTemplate } from '../../../shared/whatsapp-templates';
import type { SentMessage } from '../../../shared/whatsapp-status';
import type { MediaRef } from '../../../shared/media';
import type { ChatHandoffs } from '../../core/inbox-handoffs';

/** The linked number a template goes from. */
export interface TemplateLink {
  id: string;
  appId: string;
  connector: string;
}

export interface WhatsApp extends WhatsAppConnectors {
  /** The simulator's extra calls (its phone page), when it is offered. */
  simulator: SimulatorConnector | null;
  /** The Cloud API's webhook, when it is offered. */
  cloud: CloudApiConnector | null;
  /**
   * A business writing first outside the window: the filled template goes to the user through the link's connector
   * (docs/whatsapp-templates.md) and is recorded, as the bot's (`ownerId` its account), for its delivery statuses.
   */
  sendTemplate(link: TemplateLink, to: string, template: RenderedTemplate, ownerId: string): Promise<SentMessage[]>;
  /**
   * An agent's reply from the inbox (docs/inbox.md): the text goes to the user through the link's connector and is
   * recorded, as the bot's (`ownerId` its account), for its delivery statuses. Rejects with the connector's error.
   */
  sendText(link: TemplateLink, to: string, text: string, ownerId: string): Promise<SentMessage[]>;
  /**
   * An agent's file from the inbox: one of the account's files (`ownerId`), with `caption` when not empty, goes as
   * a bot's file does (its bytes read from the media store by the connector) and is recorded for its delivery
   * statuses. Rejects with the connector's error, or when the account no longer holds the file.
   */
  sendMedia(link: TemplateLink, to: string, media: MediaRef, caption: string, ownerId: string): Promise<SentMessage[]>;
  /**
   * A business writing first inside the window: the entry menu goes to the user through the link's connector; the
   * messages sent are recorded for their delivery statuses, as the bot's (`ownerId` its account).
   */
  startConversation(start: ChatStart, connector: WhatsAppConnector, ownerId: string): Promise<ChatReply>;
  /** Takes up the links each connector held before a restart. */
  resumeLinks(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bot a message to a linked number goes to: the link's bot, on its deployed version. A message for a link that
 * is gone or not connected is dropped (unlinked mid-conversation); an inactive bot and a message without text get a
 * sentence, and no bot runs.
 */
async function findLinkedBot(
  ctx: AppContext,
  connector: WhatsAppConnector,
  message: ChatMessage,
  onFound: (by: SentBy) => void,
): Promise<ChatBot | string | null> {
  // The same read says whether the business wrote first with a template: the user's message then enters its menu.
  const target = await findLinkTarget(ctx, message.linkId, `+${message.from}`);
  if (target?.link.status !== 'CONNECTED') {
    ctx.log.info({ linkId: message.linkId }, 'a WhatsApp message for a link that is not connected was dropped');
    return null;
  }
  onFound({ ownerId: target.ownerId, appId: target.link.appId, environment: 'live' });
  if (target.botStatus === 'inactive') return INACTIVE_BOT_TEXT;
  if (message.kind === 'unsupported') {
    ctx.log.info(
      { linkId: message.linkId, messageId: message.messageId, what: message.unsupportedReason },
      'a WhatsApp message no bot reads was answered with a sentence',
    );
    return MEDIA_REPLY_TEXT;
  }
  // A file is stored for the bot's account before the bot reads it; one that cannot be gets a sentence instead.
  if (message.kind === 'media') {
    const stored = await storeChatMedia(ctx, connector, message, { ownerId: target.ownerId, appId: target.link.appId });
    if (typeof stored === 'string') return stored;
    message.mediaRef = stored;
  }
  const bot: ChatBot = { appId: target.link.appId, environment: 'live', interactive: connector.supportsInteractive };
  if (target.entryMenuId) bot.entryMenuId = target.entryMenuId;
  return bot;
}

/**
 * `handoffs`: the inbox (core/inbox-handoffs.ts), given with each linked number's message, so a conversation handed
 * to a person takes the contact's messages; without it (tests of the bots alone) no message is handed over.
 */
export function createWhatsApp(ctx: AppContext, runtime: Runtime, handoffs?: ChatHandoffs): WhatsApp {
  // Messages being answered, so that close() lets them finish (the runtime keeps their order, per conversation).
  const answering = new Set<Promise<unknown>>();
  function answerMessage(connector: WhatsAppConnector, message: ChatMessage): Promise<unknown> {
    // The message came through the link's own connector: its replies go back the same way. Whose the replies are is
    // found with the bot; every message sent is recorded for its delivery statuses.
    let sentBy: SentBy | null = null;
    const delivery = {
      findBot: () => findLinkedBot(ctx, connector, message, (by) => (sentBy = by)),
      send: async (reply: ChatReply) => {
        if (!sentBy) throw new Error('a reply before its bot was found');
        const ready = await resolveReplyMedia(ctx, reply, sentBy.ownerId);
        const sent = await connector.send(ready);
        runtime.recordSentMessages(toSentRows(ready, sent, sentBy, ctx.now()), sentBy.ownerId);
      },
      opensWindow: true,
      handoffs,
    };
    const run = runtime
      .handleMessage(message, delivery)
      .catch((err: unknown) => ctx.log.error({ err, linkId: message.linkId }, 'answering a WhatsApp message failed'));
    answering.add(run);
    void run.finally(() => answering.delete(run));
    return run;
  }
  /** What one connector reports; `connector()` is that connector, made once these events exist. */
  const eventsOf = (connector: () => WhatsAppConnector, waitsForReplies: boolean): ConnectorEvents => ({
    onLinkUpdate: (linkId, update) => applyLinkUpdate(ctx, linkId, update),
    onStatus: async (update) => {
      await receiveDeliveryUpdate(ctx, update, () => runtime.flushEvents());
    },
    // A webhook or socket hands a message over and goes on at once (Meta wants its 200 quickly and retries
    // otherwise); the simulator's page waits for the replies to show them.
    onMessage: async (message) => {
      const run = answerMessage(connector(), message);
      if (waitsForReplies) await run;
    },
  });
  const { config } = ctx;
  // The bytes of a file a bot sends, from the media store.
  const readMedia = createMediaReader(ctx);
  const offered = getOfferedConnectors(config);
  const connectors = new Map<WhatsAppConnectorName, WhatsAppConnector>();
  let simulator: SimulatorConnector | null = null;
  let cloud: CloudApiConnector | null = null;
  if (offered.includes('cloud')) {
    cloud = createCloudApiConnector({
      apiUrl: config.WHATSAPP_CLOUD_API_URL,
      // The config refuses to start without these three when the Cloud API is offered.
      accessToken: config.WHATSAPP_CLOUD_ACCESS_TOKEN ?? '',
      appSecret: config.WHATSAPP_CLOUD_APP_SECRET ?? '',
      verifyToken: config.WHATSAPP_CLOUD_VERIFY_TOKEN ?? '',
      events: eventsOf(() => cloud!, false),
      readMedia,
      findLinkId: async (phoneNumberId) => {
        const linkId = await findLinkIdByExternalId(ctx, 'cloud', phoneNumberId);
        // Every number of the app delivers to one webhook: one no account has linked is nobody's to see.
        if (!linkId) ctx.log.info({ phoneNumberId }, 'a Cloud API delivery for a number no link owns was ignored');
        return linkId;
      },
    });
    connectors.set('cloud', cloud);
  }
  if (offered.includes('baileys')) {
    // One process only (docs/whatsapp-connectors.md): a linked device's keys are used by one socket at a time.
    const baileys: WhatsAppConnector = createBaileysConnector({
      authStore: createWhatsAppAuthStore(ctx.db, { key: Buffer.from(config.WHATSAPP_CREDENTIALS_KEY ?? '', 'hex') }),
      events: eventsOf(() => baileys, false),
      readMedia,
      log: ctx.log,
      now: () => ctx.now().getTime(),
    });
    connectors.set('baileys', baileys);
  }
  if (offered.includes('simulator')) {
    simulator = createSimulatorConnector({
      origin: getPublicOrigin(config),
      events: eventsOf(() => simulator!, true),
      readMedia,
      now: ctx.now,
    });
    connectors.set('simulator', simulator);
  }

  /** A CONNECTED link reconnects (a Cloud API number with its own token, when it has one). */
  async function resumeLink(connector: WhatsAppConnector, link: { id: string; externalId: string | null }): Promise<void> {
    const externalId = link.externalId ?? undefined;
    let accessToken: string | undefined;
    if (connector.name === 'cloud' && externalId) {
      try {
        accessToken = (await cloudCredentialsFor(ctx, link.id)).accessToken;
      } catch (err) {
        await applyLinkUpdate(ctx, link.id, { status: 'FAILED', qrCode: null, message: toErrorMessage(err) });
        return;
      }
    }
    await connector.startLink(link.id, { resume: true, externalId, phoneNumberId: externalId, accessToken });
  }

  /**
   * An agent's message (docs/inbox.md): through the link's connector, a file looked up again for the account and
   * given a fresh link as a bot's is, recorded as the bot's for its delivery statuses.
   */
  async function sendAsAgent(link: TemplateLink, to: string, message: WhatsAppMessage, ownerId: string): Promise<SentMessage[]> {
    const connector = connectors.get(link.connector as WhatsAppConnectorName);
    if (!connector) throw new Error(`The ${link.connector} connector is not offered by this installation`);
    const reply: ChatReply = {
      linkId: link.id,
      conversation: toConversation(link.id, to),
      to,
      sessionId: '',
      end: false,
      messages: [message],
    };
    // A file the account no longer holds is left out by resolveReplyMedia: nothing would go.
    const ready = await resolveReplyMedia(ctx, reply, ownerId);
    if (ready.messages.length === 0) throw new Error('This account no longer holds the file');
    const sent = await connector.send(ready);
    runtime.recordSentMessages(toSentRows(ready, sent, { ownerId, appId: link.appId, environment: 'live' }, ctx.now()), ownerId);
    return sent;
  }

  return {
    offered: [...offered],
    connectorNamed: (name) => connectors.get(name as WhatsAppConnectorName) ?? null,
    simulator,
    cloud,
    async sendTemplate(link, to, template, ownerId) {
      const connector = connectors.get(link.connector as WhatsAppConnectorName);
      if (!connector) throw new Error(`The ${link.connector} connector is not offered by this installation`);
      const sent = await deliverTemplate(ctx, connector, link, to, template);
      const by: SentBy = { ownerId, appId: link.appId, environment: 'live' };
      const reply: ChatReply = { linkId: link.id, conversation: toConversation(link.id, to), to, sessionId: '', end: false, messages: [] };
      runtime.recordSentMessages(
        toSentRows(reply, sent, by, ctx.now()).map((row) => ({ ...row, kind: 'template' })),
        ownerId,
      );
      return sent;
    },
    sendText: (link, to, text, ownerId) => sendAsAgent(link, to, { type: 'text', text }, ownerId),
    sendMedia(link, to, media, caption, ownerId) {
      const { caption: _stored, url: _url, ...file } = media;
      return sendAsAgent(link, to, { type: 'media', media: caption ? { ...file, caption } : file }, ownerId);
    },
    startConversation(start, connector, ownerId) {
      const by: SentBy = { ownerId, appId: start.bot.appId, environment: 'live' };
      const run = runtime.startConversation(start, async (reply) => {
        const ready = await resolveReplyMedia(ctx, reply, ownerId);
        const sent = await connector.send(ready);
        runtime.recordSentMessages(toSentRows(ready, sent, by, ctx.now()), ownerId);
      });
      answering.add(run);
      void run.catch(() => undefined).finally(() => answering.delete(run));
      return run;
    },
    async resumeLinks() {
      for (const connector of connectors.values()) {
        for (const link of await findLinksToResume(ctx, connector.name)) {
          if (link.status === 'CONNECTED') {
            await resumeLink(connector, link).catch((err: unknown) =>
              ctx.log.error({ err, linkId: link.id }, 'a linked WhatsApp number could not reconnect'),
            );
          } else if (link.status === 'PENDING' || link.status === 'QR') {
            await applyLinkUpdate(ctx, link.id, {
              status: 'FAILED',
              qrCode: null,
              message: 'Linking was interrupted by a restart; link the number again',
            });
          }
        }
      }
    },
    async close() {
      // Messages being answered finish first: their replies and records must not be cut off.
      while (answering.size > 0) await Promise.all(answering);
      for (const connector of connectors.values()) await connector.close();
    },
  };
}
