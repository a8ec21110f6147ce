/**
 * The WhatsApp connector this server uses (WHATSAPP_CONNECTOR; docs/bots.md) and the path of a message from
 * a linked number to the bot and back. One connector per process: a linked device's socket must live in one
 * place (two sockets on one set of credentials throw each other off).
 */
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { INACTIVE_BOT_TEXT, MEDIA_REPLY_TEXT, type ChatMessage, type ChatReply } from '../../../shared/whatsapp';
import { createSimulatorConnector, type SimulatorConnector } from '../../../integrations/whatsapp/simulator';
import type { ConnectorEvents, WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import type { ChatBot, ChatStart, Runtime } from '../runtime/runtime.service';
import { createSimulatorTemplateSender, NO_TEMPLATES, type TemplateSender } from './template-sender';
import { createBaileysConnector } from '../../../integrations/whatsapp/baileys';
import { createCloudApiConnector, type CloudApiConnector } from '../../../integrations/whatsapp/cloud-api';
import { applyLinkUpdate, findLinkIdByExternalId, findLinksToResume, findLinkTarget } from './bots.service';
import { createWhatsAppAuthStore } from './whatsapp-auth-store';

export interface WhatsApp {
  connector: WhatsAppConnector;
  /** The simulator's extra calls (its phone page), when it is the connector. */
  simulator: SimulatorConnector | null;
  /** The Cloud API's webhook, when it is the connector. */
  cloud: CloudApiConnector | null;
  /** The message templates a business writes first with outside the 24-hour window (template-sender.ts). */
  templates: TemplateSender;
  /** A business writing first inside the window: the entry menu goes to the user through the connector. */
  startConversation(start: ChatStart): Promise<ChatReply>;
  /** Takes up the links this connector held before a restart. */
  resumeLinks(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bot a message to a linked number goes to: the link's bot, on its deployed version. A message for a link that
 * is gone or not connected is dropped (unlinked mid-conversation); an inactive bot and a message without text get a
 * sentence, and no bot runs.
 */
async function findLinkedBot(ctx: AppContext, connector: WhatsAppConnector, message: ChatMessage): Promise<ChatBot | string | null> {
  // The same read says whether the business wrote first with a template: the user's message then enters its menu.
  const target = await findLinkTarget(ctx, message.linkId, `+${message.from}`);
  if (target?.link.status !== 'CONNECTED') {
    ctx.log.info({ linkId: message.linkId }, 'a WhatsApp message for a link that is not connected was dropped');
    return null;
  }
  if (target.botStatus === 'inactive') return INACTIVE_BOT_TEXT;
  if (message.kind === 'media' && message.text.trim() === '') return MEDIA_REPLY_TEXT;
  const bot: ChatBot = { appId: target.link.appId, environment: 'live', interactive: connector.supportsInteractive };
  if (target.entryMenuId) bot.entryMenuId = target.entryMenuId;
  return bot;
}

export function createWhatsApp(ctx: AppContext, runtime: Runtime): WhatsApp {
  // Messages being answered, so that close() lets them finish (the runtime keeps their order, per conversation).
  const answering = new Set<Promise<unknown>>();
  function answerMessage(message: ChatMessage): Promise<unknown> {
    const delivery = {
      findBot: () => findLinkedBot(ctx, connector, message),
      send: (reply: ChatReply) => connector.send(reply),
      opensWindow: true,
    };
    const run = runtime
      .handleMessage(message, delivery)
      .catch((err: unknown) => ctx.log.error({ err, linkId: message.linkId }, 'answering a WhatsApp message failed'));
    answering.add(run);
    void run.finally(() => answering.delete(run));
    return run;
  }
  const events: ConnectorEvents = {
    onLinkUpdate: (linkId, update) => applyLinkUpdate(ctx, linkId, update),
    // A webhook or socket hands a message over and goes on at once (Meta wants its 200 quickly and retries
    // otherwise); the simulator's page waits for the replies to show them.
    onMessage: async (message) => {
      const run = answerMessage(message);
      if (connector === simulator) await run;
    },
  };
  const { config } = ctx;
  let simulator: SimulatorConnector | null = null;
  let cloud: CloudApiConnector | null = null;
  let connector: WhatsAppConnector;
  switch (config.WHATSAPP_CONNECTOR) {
    case 'cloud':
      cloud = createCloudApiConnector({
        apiUrl: config.WHATSAPP_CLOUD_API_URL,
        // The config refuses to start without these three when the connector is `cloud`.
        accessToken: config.WHATSAPP_CLOUD_ACCESS_TOKEN ?? '',
        appSecret: config.WHATSAPP_CLOUD_APP_SECRET ?? '',
        verifyToken: config.WHATSAPP_CLOUD_VERIFY_TOKEN ?? '',
        events,
        findLinkId: (phoneNumberId) => findLinkIdByExternalId(ctx, 'cloud', phoneNumberId),
      });
      connector = cloud;
      break;
    case 'baileys':
      connector = createBaileysConnector({
        authStore: createWhatsAppAuthStore(ctx.db, { key: Buffer.from(config.WHATSAPP_CREDENTIALS_KEY ?? '', 'hex') }),
        events,
        log: ctx.log,
        now: () => ctx.now().getTime(),
      });
      break;
    default:
      simulator = createSimulatorConnector({ origin: getPublicOrigin(config), events, now: ctx.now });
      connector = simulator;
  }

  return {
    connector,
    simulator,
    cloud,
    templates: simulator ? createSimulatorTemplateSender(simulator) : NO_TEMPLATES,
    startConversation(start) {
      const run = runtime.startConversation(start, (reply) => connector.send(reply));
      answering.add(run);
      void run.catch(() => undefined).finally(() => answering.delete(run));
      return run;
    },
    async resumeLinks() {
      for (const link of await findLinksToResume(ctx, connector.name)) {
        if (link.status === 'CONNECTED') {
          await connector
            .startLink(link.id, { resume: true, externalId: link.externalId ?? undefined, phoneNumberId: link.externalId ?? undefined })
            .catch((err: unknown) => ctx.log.error({ err, linkId: link.id }, 'a linked WhatsApp number could not reconnect'));
        } else if (link.status === 'PENDING' || link.status === 'QR') {
          await applyLinkUpdate(ctx, link.id, {
            status: 'FAILED',
            qrCode: null,
            message: 'Linking was interrupted by a restart; link the number again',
          });
        }
      }
    },
    async close() {
      // Messages being answered finish first: their replies and records must not be cut off.
      while (answering.size > 0) await Promise.all(answering);
      await connector.close();
    },
  };
}
