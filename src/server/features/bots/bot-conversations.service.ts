/**
 * A business writing first (docs/bots.md, "Writing first"): a bot starts a conversation with one of the account's
 * contacts from a linked number. Inside the 24-hour window the entry menu goes as it is (a session starts there, as
 * if the person had written); outside it an approved template goes, and the person's reply enters the flow at the
 * entry menu. Every refusal is checked before anything is written or sent; the start is recorded before it is sent,
 * so a database that cannot take it sends nothing (503) and a send the provider refuses is recorded, not lost.
 */
import { and, asc, eq } from 'drizzle-orm';
import { contacts, whatsappFirstMessages, whatsappLinks } from '../../../db/schema';
import {
  CONVERSATION_MESSAGES,
  type ConversationWindow,
  type ConversationWindowQuery,
  type StartConversationBody,
  type StartedConversation,
} from '../../../shared/api/bot-conversations.schema';
import { AppError, conflict, invalid, notFound, toErrorMessage, unavailable } from '../../../shared/errors';
import { findOwnMenu } from '../../../engine';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { checkConsent } from '../../core/consent';
import { toE164 } from '../../core/msisdn';
import { setPendingEntry, windowState, type WindowState } from '../../core/whatsapp-windows';
import { getOwnedBot } from './bots.service';
import { listLinkTemplates, readTemplateToSend } from './whatsapp-templates.service';
import type { TemplateValues } from '../../../shared/whatsapp-templates';
import type { WhatsApp } from './whatsapp-connectors';

export const CONVERSATION_REFUSALS = {
  notFound: 'Bot not found',
  notAContact: 'This number is not one of your contacts, so it has not opted in to WhatsApp messages.',
  inactive: 'This bot is inactive: switch it on in Bot Settings before starting conversations.',
  notDeployed: 'This bot has no deployed version yet: deploy it before starting conversations.',
  notConnected: 'No number of this bot is connected: link a number and wait until it is CONNECTED.',
  linkNotConnected: 'This linked number is not CONNECTED: link it again before starting conversations.',
  noMenus: 'This bot has no menus to start at.',
} as const;

/** What starting a conversation needs besides the request: the connector, its templates, and the runtime's start. */
export type ConversationParts = Pick<WhatsApp, 'connectorNamed' | 'sendTemplate' | 'startConversation'>;

/** Anything but our own refusals is what the request stands on (the database) failing: 503, nothing sent. */
async function standing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unavailable('The database did not answer: nothing was sent. Please try again in a moment.');
  }
}

const describeNumber = (msisdn: string) => msisdn;
const formatWhen = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The window in words: whether the entry menu can go as it is, or a template is needed. */
function describeWindow(msisdn: string, window: WindowState): string {
  if (window.state === 'open')
    return `The window with ${describeNumber(msisdn)} is open until ${formatWhen(window.openUntil)}: the entry menu is sent as it is.`;
  if (window.closedAt === null) return `${describeNumber(msisdn)} has never written to this number: choose an approved template.`;
  return `The window with ${describeNumber(msisdn)} closed on ${formatWhen(window.closedAt)}: choose an approved template.`;
}

/** The account's own bot (admins included: an account writes first only from its own bots), active. */
async function getStartingBot(ctx: AppContext, user: AuthUser, botId: string) {
  const bot = await getOwnedBot(ctx, user, botId);
  if (bot.userId !== user.id) throw notFound(CONVERSATION_REFUSALS.notFound);
  return bot;
}

/** The number as E.164, read in the bot's country; a value that is no phone number is refused. */
function readNumber(value: string, country: string): string {
  const msisdn = toE164(value, country || null);
  if (msisdn === null)
    throw invalid(`"${value}" is not a phone number: write it with its country code (+233241234567).`, { field: 'msisdn' });
  return msisdn;
}

/** The linked number to write from: the one named, or the bot's first CONNECTED one. */
async function getConnectedLink(ctx: AppContext, appId: string, linkId: string | undefined) {
  const rows = await ctx.db
    .select()
    .from(whatsappLinks)
    .where(linkId ? and(eq(whatsappLinks.appId, appId), eq(whatsappLinks.id, linkId)) : eq(whatsappLinks.appId, appId))
    .orderBy(asc(whatsappLinks.createdAt));
  if (linkId && rows.length === 0) throw notFound('Linked number not found');
  const link = rows.find((r) => r.status === 'CONNECTED');
  if (!link) throw conflict(linkId ? CONVERSATION_REFUSALS.linkNotConnected : CONVERSATION_REFUSALS.notConnected);
  return link;
}

export async function getConversationWindow(
  ctx: AppContext,
  user: AuthUser,
  botId: string,
  query: ConversationWindowQuery,
): Promise<ConversationWindow> {
  return standing(async () => {
    const bot = await getStartingBot(ctx, user, botId);
    const msisdn = readNumber(query.msisdn, bot.country);
    const link = await getConnectedLink(ctx, bot.id, query.linkId);
    const window = await windowState(ctx.db, link.id, msisdn, ctx.now());
    return {
      msisdn,
      linkId: link.id,
      mobileNumber: link.mobileNumber,
      window,
      needsTemplate: window.state === 'closed',
      message: describeWindow(msisdn, window),
      templates: (await listLinkTemplates(ctx, link.id, link.connector)).templates,
    };
  });
}

/** `{{contact.name}}`, `{{ contact.city }}`: a contact field inside a variable's value. */
const CONTACT_FIELD = /\{\{\s*contact\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

type ContactRow = typeof contacts.$inferSelect;

/**
 * The template's values with contact fields filled (`{{contact.name}}`, `{{contact.<attribute>}}`; a field the
 * contact does not have is empty, and renderTemplate then refuses it as having no value).
 */
export function fillContactFields(values: TemplateValues, contact: Pick<ContactRow, 'name' | 'language' | 'attributes'>): TemplateValues {
  const field = (name: string) =>
    (name === 'name' ? contact.name : name === 'language' ? contact.language : contact.attributes[name]) ?? '';
  const fill = (place: Record<string, string>) =>
    Object.fromEntries(Object.entries(place).map(([name, value]) => [name, value.replace(CONTACT_FIELD, (_, key: string) => field(key))]));
  return Object.fromEntries(Object.entries(values).map(([place, given]) => [place, fill(given ?? {})]));
}

export async function startConversation(
  ctx: AppContext,
  user: AuthUser,
  botId: string,
  body: StartConversationBody,
  parts: ConversationParts,
): Promise<{ message: string; started: StartedConversation }> {
  const plan = await standing(async () => {
    const bot = await getStartingBot(ctx, user, botId);
    if (bot.status === 'inactive') throw conflict(CONVERSATION_REFUSALS.inactive);
    const msisdn = readNumber(body.msisdn, bot.country);
    const link = await getConnectedLink(ctx, bot.id, body.linkId);
    const loaded = await ctx.versions.getLive(bot.id);
    if ('missing' in loaded) throw conflict(CONVERSATION_REFUSALS.notDeployed);
    const entryMenu = body.entryMenu ?? loaded.compiled.first?.uniqueId;
    if (entryMenu === undefined) throw conflict(CONVERSATION_REFUSALS.noMenus);
    if (!findOwnMenu(loaded.compiled, entryMenu))
      throw invalid(`"${entryMenu}" is not a menu of this bot's deployed version.`, { field: 'entryMenu' });
    const [contact] = await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.ownerId, user.id), eq(contacts.msisdn, msisdn)));
    if (!contact) throw conflict(CONVERSATION_REFUSALS.notAContact);
    const consent = checkConsent(contact, 'whatsapp');
    if (!consent.allowed) throw conflict(consent.reason);
    const window = await windowState(ctx.db, link.id, msisdn, ctx.now());
    if (window.state === 'closed' && !body.template) throw conflict(describeWindow(msisdn, window));
    const chosen =
      window.state === 'closed' && body.template
        ? await readTemplateToSend(ctx, {
            linkId: link.id,
            name: body.template.name,
            language: body.template.language,
            values: fillContactFields(body.template.variables, contact),
          })
        : null;
    // Recorded before anything is sent: a database that cannot take this sends nothing.
    const [row] = await ctx.db.transaction(async (tx) => {
      if (chosen) await setPendingEntry(tx, link.id, msisdn, entryMenu, ctx.now());
      return tx
        .insert(whatsappFirstMessages)
        .values({
          ownerId: user.id,
          appId: bot.id,
          linkId: link.id,
          msisdn,
          entryMenuId: entryMenu,
          kind: chosen ? 'template' : 'menu',
          templateName: chosen?.name ?? null,
          templateLanguage: chosen?.language ?? null,
        })
        .returning({ id: whatsappFirstMessages.id });
    });
    return { id: row!.id, link, msisdn, entryMenu, window, chosen };
  });

  const { id, link, msisdn, entryMenu, window, chosen } = plan;
  const to = msisdn.slice(1);
  let error = '';
  let providerMessageId: string | null = null;
  try {
    if (chosen) providerMessageId = (await parts.sendTemplate(link, to, chosen, user.id))[0]?.providerMessageId ?? null;
    else {
      const connector = parts.connectorNamed(link.connector);
      if (!connector) throw new Error(`The ${link.connector} connector is not offered by this installation`);
      await parts.startConversation(
        {
          bot: { appId: link.appId, environment: 'live', interactive: connector.supportsInteractive, entryMenuId: entryMenu },
          linkId: link.id,
          to,
        },
        connector,
        user.id,
      );
    }
  } catch (err) {
    error = toErrorMessage(err) || 'The provider refused the message';
  }
  await ctx.db
    .update(whatsappFirstMessages)
    .set({ status: error ? 'failed' : 'sent', error, providerMessageId, updatedAt: ctx.now() })
    .where(eq(whatsappFirstMessages.id, id))
    .catch((err: unknown) => ctx.log.error({ err, firstMessageId: id }, 'the outcome of a first message could not be recorded'));
  if (error) throw new AppError('upstream', `WhatsApp did not take the message (recorded as failed): ${error}`);
  return {
    message: chosen ? CONVERSATION_MESSAGES.templateSent : CONVERSATION_MESSAGES.started,
    started: { id, msisdn, linkId: link.id, entryMenu, kind: chosen ? 'template' : 'menu', status: 'sent', window },
  };
}
