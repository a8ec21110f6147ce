import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { eq } from 'drizzle-orm';
import { apps, whatsappLinks } from '../../../db/schema';
import {
  findChatSimulatorStatuses,
  findSimulatedPhoneTranscript,
  sendChatSimulatorReceipt,
  sendSimulatedPhoneReceipt,
  getSimulatedPhone,
  scanSimulatedPhone,
  sendChatSimulatorMessage,
  sendSimulatedPhoneMessage,
  setSimulatedPhoneState,
} from '../../../shared/api/bots.calls';
import { BOT_MESSAGES, SIMULATED_FILE_MAX_CHARS, type simulatedMessageBodySchema } from '../../../shared/api/bots.schema';
import { AppError, invalid, notAllowed, notFound, unauthenticated } from '../../../shared/errors';
import type { MediaRef } from '../../../shared/media';
import type { CloudApiConnector } from '../../../integrations/whatsapp/cloud-api';
import { readTemplateStatusUpdates } from '../../../integrations/whatsapp/cloud-templates';
import { readMessagingLimitUpdates } from '../../../integrations/whatsapp/cloud-limits';
import { parseJson } from '../../../integrations/payments/payment-provider';
import type { PhoneMessage, SimulatorConnector } from '../../../integrations/whatsapp/simulator';
import { toConversation, type ChatMessage, type WhatsAppMessage } from '../../../shared/whatsapp';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { ChatBot, Runtime } from '../runtime/runtime.service';
import { getUserCaller } from '../runtime/emulator-caller';
import { applyMessagingLimitUpdates, asLinkStatus, getOwnedBot } from './bots.service';
import type { WhatsApp } from './whatsapp-connectors';
import { findMessageStatuses, receiveDeliveryUpdate, toSentRows } from './whatsapp-messages';
import { applyTemplateStatusUpdates } from './whatsapp-templates.service';
import { resolveReplyMedia } from './whatsapp-media';
import { getMediaRecord, MEDIA_MESSAGES, toMediaRef, withSignedUrl } from '../media/media.service';

/**
 * WhatsApp traffic that is not the bots' settings: the console's chat simulator (the draft, like the USSD
 * emulator), and the simulated phone that the simulator connector's QR opens (docs/bots.md).
 */
export function registerWhatsAppRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime, whatsapp: WhatsApp): void {
  registerCall(app, sendChatSimulatorMessage, {
    logLevel: 'warn',
    tags: ['bots'],
    summary: "The console's chat simulator: one message to the bot's draft, answered as WhatsApp would show it",
    onRequest: guard('bot.build', 'chatbot'),
    handler: async (req) => {
      const user = getSignedInUser(req);
      const bot = await getOwnedBot(ctx, user, req.params.appId);
      const { from, text, kind, interactive, mediaId, location } = req.body;
      // The simulator stands in for a linked number of the bot's own; its sessions are the signed-in user's.
      const linkId = `console:${bot.id}`;
      const receivedAt = ctx.now().getTime();
      const message: ChatMessage = { linkId, conversation: toConversation(linkId, from), messageId: '', from, text, kind, receivedAt };
      // A file was uploaded first (POST /api/media): it is looked up for the bot's account, as a linked number's is stored for it.
      if (kind === 'media' && mediaId) message.mediaRef = await getChatSimulatorMedia(ctx, mediaId, bot.userId, text);
      if (kind === 'location' && location) message.location = location;
      let messageIds: string[] = [];
      let sentMessages: WhatsAppMessage[] | null = null;
      const caller = getUserCaller(user.id);
      const chatBot: ChatBot = { appId: bot.id, environment: 'test', interactive, caller };
      // Its messages are recorded as a linked number's are, under ids of its own, so its ticks are real statuses.
      const sentBy = { ownerId: bot.userId, appId: bot.id, environment: 'test' as const, caller };
      const reply = await runtime.handleMessage(message, {
        findBot: async () => chatBot,
        send: async (reply) => {
          // Uploaded attachments go out for the bot's account, with signed links the page opens.
          const sent = await resolveReplyMedia(ctx, reply, bot.userId);
          const ids = sent.messages.map(() => `console-${randomUUID()}`);
          const rows = toSentRows(
            sent,
            ids.map((providerMessageId, i) => ({ providerMessageId, message: sent.messages[i]! })),
            sentBy,
            ctx.now(),
          );
          runtime.recordSentMessages(rows, bot.userId);
          messageIds = ids;
          sentMessages = sent.messages;
        },
      });
      return { sessionId: reply?.sessionId ?? '', end: reply?.end ?? true, messages: sentMessages ?? reply?.messages ?? [], messageIds };
    },
  });

  registerCall(app, findChatSimulatorStatuses, {
    tags: ['bots'],
    summary: "The delivery statuses of the chat simulator's messages (its ticks)",
    onRequest: guard('bot.build', 'chatbot'),
    handler: async (req) => {
      const user = getSignedInUser(req);
      const bot = await getOwnedBot(ctx, user, req.params.appId);
      const statuses = await findMessageStatuses(ctx, `console:${bot.id}`, req.query.ids, getUserCaller(user.id));
      return ok('OK', { statuses });
    },
  });

  registerCall(app, sendChatSimulatorReceipt, {
    tags: ['bots'],
    summary: "The chat simulator's receipt for one of the bot's messages, as the customer's phone would send it",
    onRequest: guard('bot.build', 'chatbot'),
    handler: async (req) => {
      const user = getSignedInUser(req);
      const bot = await getOwnedBot(ctx, user, req.params.appId);
      const { messageId, status } = req.body;
      const update = {
        linkId: `console:${bot.id}`,
        providerMessageId: messageId,
        status,
        at: ctx.now().getTime(),
        ...(status === 'failed' ? { failureReason: 'The chat simulator made this message fail' } : {}),
      };
      const found = await receiveDeliveryUpdate(ctx, update, () => runtime.flushEvents(), getUserCaller(user.id));
      if (!found) throw notFound('No message with this id was sent in your chat simulator');
      return ok('OK', { found });
    },
  });

  if (whatsapp.cloud)
    registerCloudWebhook(app, whatsapp.cloud, async (raw) => {
      const body = parseJson(raw);
      await applyTemplateStatusUpdates(ctx, readTemplateStatusUpdates(body));
      await applyMessagingLimitUpdates(ctx, readMessagingLimitUpdates(body));
    });
  if (whatsapp.simulator) registerSimulatorRoutes(app, ctx, whatsapp.simulator);
}

/**
 * A file the chat simulator sends: one the bot's account holds (another account's id is not found, and nothing
 * runs), with a signed link; the message's text is its caption.
 */
async function getChatSimulatorMedia(ctx: AppContext, mediaId: string, ownerId: string, caption: string): Promise<MediaRef> {
  const record = await getMediaRecord(ctx, mediaId, ownerId);
  if (record.deletedAt) throw new AppError('gone', MEDIA_MESSAGES.gone);
  const ref = toMediaRef(record);
  return withSignedUrl(ctx, caption.trim() ? { ...ref, caption: caption.trim() } : ref);
}

/**
 * The Cloud API's webhook: Meta's GET handshake, then signed POSTs. The signature covers the exact bytes, so
 * this route reads its body raw (its own scope's parser) instead of parsed JSON.
 */
function registerCloudWebhook(app: FastifyInstance, cloud: CloudApiConnector, onSignedDelivery: (raw: Buffer) => Promise<unknown>): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const url = '/api/whatsapp/cloud/webhook';
    r.get(url, {
      logLevel: 'warn',
      config: { isGatewayTraffic: true },
      schema: { tags: ['bots'], summary: "Meta's webhook handshake (hub.mode, hub.verify_token, hub.challenge)" },
      handler: async (req, reply) => {
        const challenge = cloud.verifyWebhook(req.query);
        if (challenge === null) throw notAllowed('The verify token does not match WHATSAPP_CLOUD_VERIFY_TOKEN');
        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    });
    r.post(url, {
      logLevel: 'warn',
      config: { isGatewayTraffic: true },
      schema: { tags: ['bots'], summary: 'Cloud API deliveries, signed with X-Hub-Signature-256; answered 200 once read' },
      handler: async (req, reply) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : '');
        const header = req.headers['x-hub-signature-256'];
        const outcome = await cloud.handleWebhook(raw, typeof header === 'string' ? header : undefined);
        if (outcome === 'bad_signature') throw unauthenticated('The delivery is not signed with WHATSAPP_CLOUD_APP_SECRET');
        // Changes the connector does not read (message_template_status_update, phone_number_quality_update) go to
        // their own features.
        await onSignedDelivery(raw);
        return reply.code(200).send({ status: '00', message: 'OK' });
      },
    });
  });
}

/** The simulated phone's message as the simulator takes it (the schema made sure a file or a location is there). */
function toPhoneMessage(body: z.output<typeof simulatedMessageBodySchema>): PhoneMessage {
  const { kind, text, label, file, location } = body;
  if (kind === 'media' && file) {
    const { data, mimeType, fileName, kind: sentAs, voice } = file;
    const bytes = new Uint8Array(Buffer.from(data, 'base64'));
    return {
      kind,
      text,
      file: { bytes, mimeType, ...(fileName ? { fileName } : {}), ...(sentAs ? { kind: sentAs } : {}), ...(voice ? { voice } : {}) },
    };
  }
  if (kind === 'location' && location) return { kind, location };
  if (kind === 'choice') return { kind, text, ...(label ? { label } : {}) };
  return { kind: kind === 'unsupported' ? kind : 'text', text };
}

function registerSimulatorRoutes(app: FastifyInstance, ctx: AppContext, simulator: SimulatorConnector): void {
  const tags = ['bots'];

  /** The link the page's secret opens; any mismatch reads as not found, whatever the reason. */
  async function getSimulatedLink(linkId: string, secret: string) {
    const [row] = await ctx.db
      .select({ link: whatsappLinks, botName: apps.appName })
      .from(whatsappLinks)
      .innerJoin(apps, eq(apps.id, whatsappLinks.appId))
      .where(eq(whatsappLinks.id, linkId));
    const expected = Buffer.from(row?.link.externalId ?? '');
    const given = Buffer.from(secret);
    if (
      row?.link.connector !== 'simulator' ||
      expected.length === 0 ||
      expected.length !== given.length ||
      !timingSafeEqual(expected, given)
    )
      throw notFound(BOT_MESSAGES.linkNotFound);
    return row;
  }

  const toPhoneState = (row: Awaited<ReturnType<typeof getSimulatedLink>>) => ({
    linkId: row.link.id,
    status: asLinkStatus(row.link.status),
    mobileNumber: row.link.mobileNumber,
    botName: row.botName,
  });
  // The page is public (its secret is its credential): limited per address like the signed-out emulator.
  const config = { rateLimit: { max: ctx.config.EMULATOR_RATE_LIMIT * 2, timeWindow: '1 minute' } };

  registerCall(app, getSimulatedPhone, {
    tags,
    config,
    handler: async (req) => ok('OK', toPhoneState(await getSimulatedLink(req.params.linkId, req.query.secret))),
  });

  registerCall(app, scanSimulatedPhone, {
    tags,
    summary: 'The simulated phone scans the QR: the link is CONNECTED as the number typed',
    config,
    handler: async (req) => {
      const row = await getSimulatedLink(req.params.linkId, req.body.secret);
      if (row.link.status !== 'QR') throw invalid('This QR code is no longer waiting to be scanned; link the number again');
      await simulator.scan(row.link.id, `+${req.body.mobileNumber}`);
      return ok(BOT_MESSAGES.connected, toPhoneState(await getSimulatedLink(req.params.linkId, req.body.secret)));
    },
  });

  registerCall(app, sendSimulatedPhoneMessage, {
    tags,
    summary: "A customer's message to the linked number (text, a choice, a file or a location); answers with what the bot sent back",
    config,
    // A file comes base64 in the body: a third larger than the file, and room for the rest.
    bodyLimit: SIMULATED_FILE_MAX_CHARS + 64 * 1024,
    handler: async (req) => {
      const row = await getSimulatedLink(req.params.linkId, req.body.secret);
      if (row.link.status !== 'CONNECTED') throw invalid('This number is not linked: scan the QR code first');
      const messages: WhatsAppMessage[] = await simulator.receive(row.link.id, req.body.from, toPhoneMessage(req.body));
      return ok('OK', { messages });
    },
  });

  registerCall(app, findSimulatedPhoneTranscript, {
    tags,
    config,
    handler: async (req) => {
      const row = await getSimulatedLink(req.params.linkId, req.query.secret);
      return ok('OK', { transcript: simulator.getTranscript(row.link.id, req.query.from) });
    },
  });

  registerCall(app, sendSimulatedPhoneReceipt, {
    tags,
    summary: "The simulated phone's receipt for a message the bot sent it: delivered, read, or failed (for testing)",
    config,
    handler: async (req) => {
      const row = await getSimulatedLink(req.params.linkId, req.body.secret);
      await simulator.reportStatus(row.link.id, req.body.messageId, req.body.status);
      return ok('OK', { status: req.body.status });
    },
  });

  registerCall(app, setSimulatedPhoneState, {
    tags,
    summary: 'Makes the simulated link fail or log out on the phone, to try those states',
    config,
    handler: async (req) => {
      const row = await getSimulatedLink(req.params.linkId, req.body.secret);
      await simulator.setLinkState(row.link.id, req.body.status);
      return ok('OK', toPhoneState(await getSimulatedLink(req.params.linkId, req.body.secret)));
    },
  });
}
