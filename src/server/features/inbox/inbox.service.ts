/**
 * The inbox (docs/inbox.md): WhatsApp conversations a bot handed to a person, and what the account's agents do with
 * them. The runtime's side (`createChatHandoffs`: a message held for the agents, a conversation opened) and the
 * agents' (list, read, reply, note, assign, close) write the same two tables, and every change is told to the
 * account's open inbox screens (inbox-events.ts) once stored.
 *
 * Agents: the account's owner and the agents the owner added (users of type `agent` whose `agent_of` is the owner,
 * features/agents). Every call works on the account's conversations (`getAccountId`: an agent's owner), and an
 * assignment or a closing is written into the conversation as an `event` line naming who did it (docs/inbox.md,
 * "Agents").
 */
import { and, count, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { apps, contacts, inboxConversations, inboxMessages, whatsappLinks, whatsappMessages, whatsappWindows } from '../../../db/schema';
import {
  INBOX_MESSAGES,
  type InboxAssignBody,
  type InboxConversation,
  type InboxConversationDetail,
  type InboxConversationPage,
  type InboxListQuery,
  type InboxMessage,
  type InboxNoteBody,
  type InboxReplyBody,
} from '../../../shared/api/inbox.schema';
import { AppError, conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import type { InboxAuthor, InboxChannel, InboxStatus } from '../../../shared/inbox';
import type { ChatMessage } from '../../../shared/whatsapp';
import type { DeliveryStatus } from '../../../shared/whatsapp-status';
import type { AppContext } from '../../context';
import { type AuthUser, getAccountId } from '../../core/auth-user';
import type { ChatHandoffs, ContinueOnWhatsApp, Handoff, HandoffTarget } from '../../core/inbox-handoffs';
import { toE164 } from '../../core/msisdn';
import { toWindowState, type WindowState } from '../../core/whatsapp-windows';
import { findAgent } from './inbox-agents.service';
import type { InboxEvents } from './inbox-events';
import { checkMediaSize, findMediaById, getMediaRecord, MEDIA_MESSAGES, toMediaRef, withSignedUrl } from '../media/media.service';
import { mediaKindOf, type MediaRef } from '../../../shared/media';
import { fillContactFields } from '../bots/bot-conversations.service';
import { listLinkTemplates, readTemplateToSend } from '../bots/whatsapp-templates.service';
import { toTemplateText, type RenderedTemplate } from '../../../shared/whatsapp-templates';

type ConversationRow = typeof inboxConversations.$inferSelect;
type MessageRow = typeof inboxMessages.$inferSelect;

type SenderLink = { id: string; appId: string; connector: string };

/**
 * How an agent's reply leaves: the bots' WhatsApp connectors (features/bots/whatsapp-connectors.ts `sendText`,
 * `sendMedia`, `sendTemplate`).
 */
export interface InboxSender {
  sendText(link: SenderLink, to: string, text: string, ownerId: string): Promise<{ providerMessageId: string }[]>;
  sendMedia(link: SenderLink, to: string, media: MediaRef, caption: string, ownerId: string): Promise<{ providerMessageId: string }[]>;
  sendTemplate(link: SenderLink, to: string, template: RenderedTemplate, ownerId: string): Promise<{ providerMessageId: string }[]>;
}

/** What the agents' calls need besides the request: the live events and the sender. */
export interface InboxParts {
  events: InboxEvents;
  sender: InboxSender;
}

/** The latest messages a conversation's read shows. */
const MESSAGES_SHOWN = 200;

function toConversation(row: ConversationRow, appName: string): InboxConversation {
  return {
    conversationId: row.id,
    appId: row.appId,
    appName,
    linkId: row.linkId,
    msisdn: row.msisdn,
    channel: row.channel as InboxChannel,
    status: row.status as InboxStatus,
    assigneeId: row.assigneeId,
    reason: row.reason,
    inputs: row.inputs,
    unreadCount: row.unreadCount,
    lastMessageAt: row.lastMessageAt.toISOString(),
    lastInboundAt: row.lastInboundAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

function toMessage(row: MessageRow, deliveryStatus: string | null = null): InboxMessage {
  return {
    messageId: row.id,
    conversationId: row.conversationId,
    direction: row.direction as InboxMessage['direction'],
    author: row.author as InboxAuthor,
    authorId: row.authorId,
    authorName: row.authorName,
    text: row.text,
    mediaId: row.mediaId,
    template: row.templateName ? { name: row.templateName, language: row.templateLanguage ?? '' } : null,
    sendStatus: row.sendStatus as InboxMessage['sendStatus'],
    error: row.error,
    deliveryStatus: (deliveryStatus as DeliveryStatus | null) ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function getAppName(ctx: AppContext, appId: string): Promise<string> {
  const [row] = await ctx.db.select({ appName: apps.appName }).from(apps).where(eq(apps.id, appId));
  return row?.appName ?? '';
}

/** What a customer's message says in the inbox: its text (a file's caption), or where a shared location is. */
function describeInbound(message: ChatMessage): string {
  if (message.kind === 'location' && message.location) return `Location: ${message.location.latitude},${message.location.longitude}`;
  return message.text;
}

/** The runtime's side (core/inbox-handoffs.ts): a message held for the agents, a conversation opened. */
export function createChatHandoffs(ctx: AppContext, events: InboxEvents): ChatHandoffs {
  /**
   * A new conversation past the app's INBOX_OPEN_PER_APP open ones is refused (the caller tells the customer, as when
   * the inbox cannot take it); the contact's own open one still takes more. Counted on the open conversations'
   * partial index; handoffs at the same moment may pass it by as many as run at once.
   */
  async function checkOpenLimit(tx: Db, handoff: Handoff): Promise<void> {
    const open = and(eq(inboxConversations.appId, handoff.appId), eq(inboxConversations.status, 'open'));
    const [own] = await tx
      .select({ id: inboxConversations.id })
      .from(inboxConversations)
      .where(and(open, eq(inboxConversations.msisdn, handoff.msisdn)));
    if (own) return;
    const [counted] = await tx.select({ open: count() }).from(inboxConversations).where(open);
    if ((counted?.open ?? 0) >= ctx.config.INBOX_OPEN_PER_APP)
      throw conflict(`The app has ${ctx.config.INBOX_OPEN_PER_APP} open conversations, as many as it may have`);
  }

  return {
    async holdMessage(target: HandoffTarget, message: ChatMessage): Promise<boolean> {
      const now = ctx.now();
      // One statement decides: a close that commits first sends this message to the bot, one after it finds it here.
      const held = await ctx.db.transaction(async (tx) => {
        const [conversation] = await tx
          .update(inboxConversations)
          .set({
            unreadCount: sql`${inboxConversations.unreadCount} + 1`,
            lastMessageAt: now,
            lastInboundAt: now,
            updatedAt: now,
            linkId: target.linkId,
          })
          .where(
            and(
              eq(inboxConversations.appId, target.appId),
              eq(inboxConversations.msisdn, target.msisdn),
              eq(inboxConversations.status, 'open'),
            ),
          )
          .returning();
        if (!conversation) return null;
        const [row] = await tx
          .insert(inboxMessages)
          .values({
            conversationId: conversation.id,
            direction: 'in',
            author: 'customer',
            text: describeInbound(message),
            mediaId: message.mediaRef?.mediaId || null,
            createdAt: now,
          })
          .returning();
        return { conversation, row: row! };
      });
      if (!held) return false;
      events.publish(target.ownerId, { type: 'message_added', conversationId: held.conversation.id, message: toMessage(held.row) });
      return true;
    },

    async openConversation(handoff: Handoff): Promise<void> {
      const now = ctx.now();
      const { conversation, rows } = await ctx.db.transaction(async (tx) => {
        await checkOpenLimit(tx, handoff);
        // The partial unique index keeps one open conversation per bot and contact: a second handoff adds to it.
        const [conversation] = await tx
          .insert(inboxConversations)
          .values({
            ownerId: handoff.ownerId,
            appId: handoff.appId,
            channel: handoff.channel,
            linkId: handoff.linkId,
            msisdn: handoff.msisdn,
            reason: handoff.reason,
            inputs: handoff.inputs,
            unreadCount: handoff.customerText ? 1 : 0,
            lastInboundAt: handoff.inbound ? now : null,
            lastMessageAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [inboxConversations.appId, inboxConversations.msisdn],
            targetWhere: sql`${inboxConversations.status} = 'open'`,
            set: {
              reason: handoff.reason,
              inputs: handoff.inputs,
              linkId: handoff.linkId,
              unreadCount: sql`${inboxConversations.unreadCount} + ${handoff.customerText ? 1 : 0}`,
              lastInboundAt: handoff.inbound ? now : sql`${inboxConversations.lastInboundAt}`,
              lastMessageAt: now,
              updatedAt: now,
            },
          })
          .returning();
        const messages: (typeof inboxMessages.$inferInsert)[] = [];
        if (handoff.customerText)
          messages.push({
            conversationId: conversation!.id,
            direction: 'in',
            author: 'customer',
            text: handoff.customerText,
            createdAt: now,
          });
        messages.push({ conversationId: conversation!.id, direction: 'out', author: 'bot', text: handoff.botText, createdAt: now });
        const rows = await tx.insert(inboxMessages).values(messages).returning();
        return { conversation: conversation!, rows: rows.sort((a, b) => a.seq - b.seq) };
      });
      events.publish(handoff.ownerId, {
        type: 'conversation_opened',
        conversation: toConversation(conversation, await getAppName(ctx, handoff.appId).catch(() => '')),
      });
      for (const row of rows)
        events.publish(handoff.ownerId, { type: 'message_added', conversationId: conversation.id, message: toMessage(row) });
    },

    async findWhatsAppNumber(ownerId: string, botId: string): Promise<ContinueOnWhatsApp | null> {
      const links = await ctx.db
        .select({ linkId: whatsappLinks.id, mobileNumber: whatsappLinks.mobileNumber })
        .from(whatsappLinks)
        .innerJoin(apps, eq(apps.id, whatsappLinks.appId))
        .where(and(eq(apps.id, botId), eq(apps.userId, ownerId), eq(apps.channel, 'whatsapp'), eq(whatsappLinks.status, 'CONNECTED')))
        .orderBy(whatsappLinks.createdAt, whatsappLinks.id);
      for (const link of links) {
        const number = toE164(link.mobileNumber.startsWith('+') ? link.mobileNumber : `+${link.mobileNumber}`);
        if (number) return { linkId: link.linkId, number };
      }
      return null;
    },
  };
}

/** The account's conversation, or 404 (another account's id answers the same as one that does not exist). */
async function getOwnConversation(ctx: AppContext, user: AuthUser, conversationId: string): Promise<ConversationRow> {
  const [row] = await ctx.db
    .select()
    .from(inboxConversations)
    .where(and(eq(inboxConversations.id, conversationId), eq(inboxConversations.ownerId, getAccountId(user))));
  if (!row) throw notFound(INBOX_MESSAGES.notFound);
  return row;
}

const FILTERS: Record<InboxListQuery['filter'], (user: AuthUser) => SQL> = {
  open: () => eq(inboxConversations.status, 'open'),
  mine: (user) => and(eq(inboxConversations.status, 'open'), eq(inboxConversations.assigneeId, user.id))!,
  unassigned: () => and(eq(inboxConversations.status, 'open'), isNull(inboxConversations.assigneeId))!,
  closed: () => eq(inboxConversations.status, 'closed'),
};

/** A page's cursor: the last row's message time and id, so rows with the same time page in a fixed order. */
const writeCursor = (row: ConversationRow) => Buffer.from(`${row.lastMessageAt.toISOString()}|${row.id}`).toString('base64url');

function readCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const time = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(time.getTime()))
    throw invalid('This page cursor is not one the list gave', { field: 'cursor' });
  return { at: time, id };
}

export async function findConversations(ctx: AppContext, user: AuthUser, query: InboxListQuery): Promise<InboxConversationPage> {
  const after = query.cursor ? readCursor(query.cursor) : null;
  const rows = await ctx.db
    .select({ conversation: inboxConversations, appName: apps.appName })
    .from(inboxConversations)
    .innerJoin(apps, eq(apps.id, inboxConversations.appId))
    .where(
      and(
        eq(inboxConversations.ownerId, getAccountId(user)),
        FILTERS[query.filter](user),
        after
          ? or(
              lt(inboxConversations.lastMessageAt, after.at),
              and(eq(inboxConversations.lastMessageAt, after.at), lt(inboxConversations.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(inboxConversations.lastMessageAt), desc(inboxConversations.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const { names, latest } = await findListDetails(
    ctx,
    getAccountId(user),
    page.map((r) => r.conversation),
  );
  return {
    conversations: page.map((r) => ({
      ...toConversation(r.conversation, r.appName),
      contactName: names.get(r.conversation.msisdn) ?? null,
      lastMessage: latest.get(r.conversation.id) ?? null,
    })),
    nextCursor: rows.length > query.limit && last ? writeCursor(last.conversation) : null,
  };
}

/** How much of the latest message the list shows. */
const PREVIEW_CHARACTERS = 140;

/**
 * What a list row shows beyond the conversation: the contact's saved name (the account's contacts, by number) and
 * the latest message (the messages' index by conversation and order, one row each). Two queries for the page.
 */
async function findListDetails(ctx: AppContext, ownerId: string, rows: ConversationRow[]) {
  if (rows.length === 0)
    return { names: new Map<string, string>(), latest: new Map<string, NonNullable<InboxConversation['lastMessage']>>() };
  const named = await ctx.db
    .select({ msisdn: contacts.msisdn, name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.ownerId, ownerId), inArray(contacts.msisdn, [...new Set(rows.map((r) => r.msisdn))])));
  const newest = await ctx.db
    .selectDistinctOn([inboxMessages.conversationId], {
      conversationId: inboxMessages.conversationId,
      author: inboxMessages.author,
      text: inboxMessages.text,
      mediaId: inboxMessages.mediaId,
    })
    .from(inboxMessages)
    .where(
      inArray(
        inboxMessages.conversationId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(inboxMessages.conversationId, desc(inboxMessages.seq));
  return {
    names: new Map(named.flatMap((c) => (c.name ? [[c.msisdn, c.name] as const] : []))),
    latest: new Map(
      newest.map((m) => [
        m.conversationId,
        { author: m.author as InboxAuthor, text: m.text.slice(0, PREVIEW_CHARACTERS), hasMedia: m.mediaId !== null },
      ]),
    ),
  };
}

/** WhatsApp's window with the customer: from their last message, as the bots' records or the inbox saw it last. */
async function readWindow(ctx: AppContext, row: ConversationRow): Promise<WindowState> {
  const [window] = row.linkId
    ? await ctx.db
        .select({ lastInboundAt: whatsappWindows.lastInboundAt })
        .from(whatsappWindows)
        .where(and(eq(whatsappWindows.linkId, row.linkId), eq(whatsappWindows.msisdn, row.msisdn)))
    : [];
  const times = [window?.lastInboundAt, row.lastInboundAt].filter((t): t is Date => t instanceof Date);
  const last = times.length === 0 ? null : new Date(Math.max(...times.map((t) => t.getTime())));
  return toWindowState(last, ctx.now());
}

export async function getConversationDetail(ctx: AppContext, user: AuthUser, conversationId: string): Promise<InboxConversationDetail> {
  const row = await getOwnConversation(ctx, user, conversationId);
  const latest = await ctx.db
    .select({ message: inboxMessages, deliveryStatus: whatsappMessages.status })
    .from(inboxMessages)
    .leftJoin(
      whatsappMessages,
      and(
        eq(whatsappMessages.providerMessageId, inboxMessages.providerMessageId),
        row.linkId ? eq(whatsappMessages.linkId, row.linkId) : sql`false`,
      ),
    )
    .where(eq(inboxMessages.conversationId, row.id))
    .orderBy(desc(inboxMessages.seq))
    .limit(MESSAGES_SHOWN);
  const [contact] = await ctx.db
    .select({ contactId: contacts.id, name: contacts.name, language: contacts.language, attributes: contacts.attributes })
    .from(contacts)
    .where(and(eq(contacts.ownerId, row.ownerId), eq(contacts.msisdn, row.msisdn)));
  return {
    conversation: toConversation(row, await getAppName(ctx, row.appId)),
    contact: contact ?? null,
    messages: latest.reverse().map((r) => toMessage(r.message, r.deliveryStatus)),
    window: await readWindow(ctx, row),
    templates: await findApprovedTemplates(ctx, row),
  };
}

/** The linked number's APPROVED templates: what an agent may send in this conversation (none on USSD or unlinked). */
async function findApprovedTemplates(ctx: AppContext, row: ConversationRow) {
  if (row.channel !== 'whatsapp' || !row.linkId) return [];
  const { templates } = await listLinkTemplates(ctx, row.linkId, '');
  return templates.filter((t) => t.status === 'APPROVED');
}

/** A file of one of the conversation's messages, with a fresh signed link (none once its bytes are gone); else 404. */
export async function getConversationMedia(ctx: AppContext, user: AuthUser, conversationId: string, mediaId: string): Promise<MediaRef> {
  const conversation = await getOwnConversation(ctx, user, conversationId);
  const [message] = await ctx.db
    .select({ id: inboxMessages.id })
    .from(inboxMessages)
    .where(and(eq(inboxMessages.conversationId, conversation.id), eq(inboxMessages.mediaId, mediaId)))
    .limit(1);
  if (!message) throw notFound(MEDIA_MESSAGES.notFound);
  const row = await findMediaById(ctx, mediaId);
  return row.deletedAt ? toMediaRef(row) : withSignedUrl(ctx, toMediaRef(row));
}

export async function markConversationRead(ctx: AppContext, user: AuthUser, conversationId: string): Promise<InboxConversation> {
  await getOwnConversation(ctx, user, conversationId);
  const [row] = await ctx.db
    .update(inboxConversations)
    .set({ unreadCount: 0 })
    .where(and(eq(inboxConversations.id, conversationId), eq(inboxConversations.ownerId, getAccountId(user))))
    .returning();
  return toConversation(row!, await getAppName(ctx, row!.appId));
}

const formatWhen = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * The file an agent's reply carries: one of the account's files (another account's id is not found, 404), whose
 * bytes are still stored (410), of a type and size WhatsApp takes for its kind, the limits of a bot's files.
 */
async function findReplyMedia(ctx: AppContext, ownerId: string, mediaId: string): Promise<MediaRef> {
  const row = await getMediaRecord(ctx, mediaId, ownerId);
  if (row.deletedAt) throw new AppError('gone', MEDIA_MESSAGES.gone);
  if (mediaKindOf(row.mimeType) !== row.kind) throw invalid(MEDIA_MESSAGES.typeNotAccepted(row.mimeType), { field: 'mediaId' });
  checkMediaSize(row.size, row.kind);
  return toMediaRef(row);
}

/** Replies leave one at a time per conversation, in the order they were written (seq). */
function createSendQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
    tails.set(key, run);
    void run
      .catch(() => undefined)
      .finally(() => {
        if (tails.get(key) === run) tails.delete(key);
      });
    return run;
  };
}

/** An assignment's line: "Ama assigned this to Kofi", "Ama took this", "Ama unassigned this". */
function describeAssignment(user: AuthUser, assignee: { id: string; fullName: string } | null): string {
  if (!assignee) return `${user.fullName} unassigned this`;
  if (assignee.id === user.id) return `${user.fullName} took this`;
  return `${user.fullName} assigned this to ${assignee.fullName}`;
}

/** The agents' calls, with their parts (the events, the sender) and the per-conversation order of replies. */
export function createInbox(ctx: AppContext, parts: InboxParts) {
  const inTurn = createSendQueue();
  const publish = (ownerId: string, conversationId: string, row: MessageRow) =>
    parts.events.publish(ownerId, { type: 'message_added', conversationId, message: toMessage(row) });

  /** The approved template an agent chose, filled (a `{{contact.name}}` value takes the customer's contact's field). */
  async function readTemplateReply(conversation: ConversationRow, linkId: string, choice: NonNullable<InboxReplyBody['template']>) {
    const [contact] = await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.ownerId, conversation.ownerId), eq(contacts.msisdn, conversation.msisdn)));
    return readTemplateToSend(ctx, {
      linkId,
      name: choice.name,
      language: choice.language,
      values: contact ? fillContactFields(choice.variables, contact) : choice.variables,
    });
  }

  async function reply(user: AuthUser, conversationId: string, body: InboxReplyBody): Promise<InboxMessage> {
    const conversation = await getOwnConversation(ctx, user, conversationId);
    if (conversation.status !== 'open') throw conflict(INBOX_MESSAGES.closed);
    if (body.clientMessageId) {
      const [sent] = await ctx.db
        .select()
        .from(inboxMessages)
        .where(and(eq(inboxMessages.conversationId, conversation.id), eq(inboxMessages.clientMessageId, body.clientMessageId)));
      if (sent) return toMessage(sent);
    }
    if (conversation.channel === 'ussd') throw conflict(INBOX_MESSAGES.callbackNoReply);
    if (!conversation.linkId) throw conflict(INBOX_MESSAGES.noLink);
    const [link] = await ctx.db.select().from(whatsappLinks).where(eq(whatsappLinks.id, conversation.linkId));
    if (!link) throw conflict(INBOX_MESSAGES.noLink);
    if (link.status !== 'CONNECTED') throw conflict(INBOX_MESSAGES.linkNotConnected);
    const window = await readWindow(ctx, conversation);
    if (window.state === 'closed' && !body.template)
      throw conflict(
        `The 24-hour window with ${conversation.msisdn} closed on ${formatWhen(window.closedAt ?? ctx.now().toISOString())}: WhatsApp lets a business write freely only within 24 hours of the customer's last message; send an approved template instead.`,
      );
    const media = body.mediaId ? await findReplyMedia(ctx, conversation.ownerId, body.mediaId) : null;
    // A template is read and filled before anything is written: unknown, not approved or half filled, nothing is stored.
    const template = body.template ? await readTemplateReply(conversation, link.id, body.template) : null;
    const text = template ? toTemplateText(template) : body.text;
    // Written and sent in the conversation's turn, so two agents' replies are stored (seq) in the order the
    // phone gets them. Written before it is sent: a retry with the same client id finds it and sends nothing twice.
    const done = await inTurn(conversation.id, async () => {
      const [row] = await ctx.db
        .insert(inboxMessages)
        .values({
          conversationId: conversation.id,
          direction: 'out',
          author: 'agent',
          authorId: user.id,
          authorName: user.fullName,
          text,
          mediaId: media?.mediaId ?? null,
          templateName: template?.name ?? null,
          templateLanguage: template?.language ?? null,
          clientMessageId: body.clientMessageId ?? null,
          createdAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning();
      if (!row) {
        // The same client id, written by a request running at the same time: that one sends it.
        const [twin] = await ctx.db
          .select()
          .from(inboxMessages)
          .where(and(eq(inboxMessages.conversationId, conversation.id), eq(inboxMessages.clientMessageId, body.clientMessageId ?? '')));
        return { twin: twin! };
      }
      let providerMessageId: string | null = null;
      let error = '';
      try {
        const to = conversation.msisdn.slice(1);
        const sent = template
          ? await parts.sender.sendTemplate(link, to, template, conversation.ownerId)
          : media
            ? await parts.sender.sendMedia(link, to, media, text, conversation.ownerId)
            : await parts.sender.sendText(link, to, text, conversation.ownerId);
        providerMessageId = sent[0]?.providerMessageId ?? null;
      } catch (err) {
        error = toErrorMessage(err) || 'The provider refused the message';
      }
      const now = ctx.now();
      const [updated] = await ctx.db
        .update(inboxMessages)
        .set({ providerMessageId, sendStatus: error ? 'failed' : 'sent', error })
        .where(eq(inboxMessages.id, row.id))
        .returning();
      await ctx.db.update(inboxConversations).set({ lastMessageAt: now, updatedAt: now }).where(eq(inboxConversations.id, conversation.id));
      return { row: updated!, error };
    });
    if (done.twin) return toMessage(done.twin);
    publish(conversation.ownerId, conversation.id, done.row);
    if (done.error) throw new AppError('upstream', `WhatsApp did not take the reply (kept as failed): ${done.error}`);
    return toMessage(done.row);
  }

  async function addNote(user: AuthUser, conversationId: string, body: InboxNoteBody): Promise<InboxMessage> {
    const conversation = await getOwnConversation(ctx, user, conversationId);
    const [row] = await ctx.db
      .insert(inboxMessages)
      .values({
        conversationId: conversation.id,
        direction: 'out',
        author: 'note',
        authorId: user.id,
        authorName: user.fullName,
        text: body.text,
        createdAt: ctx.now(),
      })
      .returning();
    publish(conversation.ownerId, conversation.id, row!);
    return toMessage(row!);
  }

  /** Writes who did what into the conversation (an assignment, a closing), in the same transaction as the change. */
  async function addEventLine(tx: Pick<AppContext['db'], 'insert'>, user: AuthUser, conversationId: string, text: string) {
    const [row] = await tx
      .insert(inboxMessages)
      .values({
        conversationId,
        direction: 'out',
        author: 'event',
        authorId: user.id,
        authorName: user.fullName,
        text,
        createdAt: ctx.now(),
      })
      .returning();
    return row!;
  }

  async function assign(user: AuthUser, conversationId: string, body: InboxAssignBody): Promise<InboxConversation> {
    const conversation = await getOwnConversation(ctx, user, conversationId);
    const assignee = body.assigneeId === null ? null : await findAgent(ctx, conversation.ownerId, body.assigneeId);
    if (body.assigneeId !== null && !assignee) throw invalid(INBOX_MESSAGES.notAnAgent, { field: 'assigneeId' });
    if (conversation.assigneeId === body.assigneeId) return toConversation(conversation, await getAppName(ctx, conversation.appId));
    const { row, line } = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(inboxConversations)
        .set({ assigneeId: body.assigneeId, updatedAt: ctx.now() })
        .where(eq(inboxConversations.id, conversation.id))
        .returning();
      const line = await addEventLine(tx, user, conversation.id, describeAssignment(user, assignee));
      return { row: row!, line };
    });
    parts.events.publish(conversation.ownerId, { type: 'conversation_assigned', conversationId: row.id, assigneeId: row.assigneeId });
    publish(conversation.ownerId, conversation.id, line);
    return toConversation(row, await getAppName(ctx, row.appId));
  }

  /** Hands the customer back to the bot: their next message starts the flow again. Closing a closed one changes nothing. */
  async function close(user: AuthUser, conversationId: string): Promise<InboxConversation> {
    const conversation = await getOwnConversation(ctx, user, conversationId);
    const now = ctx.now();
    const closed = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(inboxConversations)
        .set({ status: 'closed', closedAt: now, closedBy: user.id, unreadCount: 0, updatedAt: now })
        .where(and(eq(inboxConversations.id, conversation.id), eq(inboxConversations.status, 'open')))
        .returning();
      return row ? { row, line: await addEventLine(tx, user, conversation.id, `Closed by ${user.fullName}`) } : null;
    });
    if (!closed) return toConversation(conversation, await getAppName(ctx, conversation.appId));
    parts.events.publish(conversation.ownerId, { type: 'conversation_closed', conversationId: closed.row.id });
    publish(conversation.ownerId, conversation.id, closed.line);
    return toConversation(closed.row, await getAppName(ctx, closed.row.appId));
  }

  return { reply, addNote, assign, close };
}

export type Inbox = ReturnType<typeof createInbox>;
