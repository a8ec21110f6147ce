/**
 * A linked number's message templates (docs/whatsapp-templates.md). A Cloud API number's are Meta's: synced from
 * its business account, submitted for review, deleted there, and their status moved by Meta's webhook. A simulator
 * or linked-device number's are ours alone and are APPROVED when made (the simulator's may be marked REJECTED or
 * PAUSED, to try those states). Every template belongs to its bot's account: another account's is not found.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { whatsappLinks, whatsappTemplates } from '../../../db/schema';
import {
  createCloudTemplate,
  deleteCloudTemplate,
  listCloudTemplates,
  sendCloudTemplate,
  type CloudCallOptions,
  type MetaTemplate,
  type TemplateStatusUpdate,
} from '../../../integrations/whatsapp/cloud-templates';
import { CloudApiError } from '../../../integrations/whatsapp/cloud-api';
import type { WhatsAppConnector } from '../../../integrations/whatsapp/whatsapp-connector';
import type { SentMessage } from '../../../shared/whatsapp-status';
import {
  TEMPLATE_API_MESSAGES,
  type TemplateDraftBody,
  type TemplateList,
  type WhatsAppTemplate,
} from '../../../shared/api/whatsapp-templates.schema';
import { AppError, conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import {
  readTemplateParts,
  readTemplateVariables,
  renderTemplate,
  TEMPLATE_CATEGORIES,
  TEMPLATE_MESSAGES,
  TEMPLATE_STATUSES,
  toMetaTemplate,
  toTemplateMessage,
  type RenderedTemplate,
  type TemplateCategory,
  type TemplateComponent,
  type TemplateDraft,
  type TemplateStatus,
  type TemplateValues,
} from '../../../shared/whatsapp-templates';
import { toConversation, type WhatsAppConnectorName } from '../../../shared/whatsapp';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getOwnedBot, getOwnedLink } from './bots.service';
import { cloudCredentialsFor } from './cloud-credentials';
import type { CloudCredentials } from '../../../integrations/whatsapp/cloud-templates';

type TemplateRow = typeof whatsappTemplates.$inferSelect;

/**
 * A Cloud API number's credentials for its templates, which live in its WhatsApp Business Account: its own (Embedded
 * Signup, a token pasted with the account's id) or the installation's (WHATSAPP_CLOUD_WABA_ID).
 */
async function templateCredentials(ctx: AppContext, linkId: string): Promise<CloudCredentials> {
  const credentials = await cloudCredentialsFor(ctx, linkId);
  if (credentials.wabaId === null) {
    throw invalid(
      "Templates need the number's WhatsApp Business Account ID: add the number again with its own token and account ID, or set WHATSAPP_CLOUD_WABA_ID on the server",
    );
  }
  return { ...credentials, wabaId: credentials.wabaId };
}
/** How template calls reach Meta (tests hand a fetch of their own here). */
export interface TemplateDeps {
  cloud?: CloudCallOptions;
}

const oneOf = <T extends string>(values: readonly T[], value: string, otherwise: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : otherwise;

function toTemplate(row: TemplateRow): WhatsAppTemplate {
  const parts = readTemplateParts(row.components as TemplateComponent[]);
  return {
    templateId: row.id,
    linkId: row.linkId,
    providerId: row.providerId,
    name: row.name,
    language: row.language,
    category: oneOf(TEMPLATE_CATEGORIES, row.category, 'UTILITY'),
    status: oneOf(TEMPLATE_STATUSES, row.status, 'PENDING'),
    reason: row.reason,
    header: parts.header ?? null,
    body: parts.body,
    footer: parts.footer ?? null,
    buttons: parts.buttons,
    variables: readTemplateVariables(row.components as TemplateComponent[]),
    syncedAt: row.syncedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A refusal from Meta in its own words (400); Meta unreachable or failing on its side is a 502. */
function toMetaRefusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof CloudApiError && !err.isTransient) return invalid(err.message);
  return new AppError('upstream', `Could not reach Meta; try again (${toErrorMessage(err)})`);
}

async function callMeta<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toMetaRefusal(err);
  }
}

async function getOwnedTemplate(ctx: AppContext, user: AuthUser, templateId: string) {
  const [row] = await ctx.db.select().from(whatsappTemplates).where(eq(whatsappTemplates.id, templateId));
  if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
  const link = await getOwnedLink(ctx, user, row.linkId).catch((err: unknown) => {
    throw err instanceof AppError && err.kind === 'notFound' ? notFound(TEMPLATE_MESSAGES.notFound) : err;
  });
  return { row, link };
}

/** A linked number's templates, newest first (the number is already known to be the caller's). */
export async function listLinkTemplates(ctx: AppContext, linkId: string, connector: string): Promise<TemplateList> {
  const rows = await ctx.db
    .select()
    .from(whatsappTemplates)
    .where(eq(whatsappTemplates.linkId, linkId))
    .orderBy(desc(whatsappTemplates.createdAt), whatsappTemplates.name);
  const synced = rows.map((r) => r.syncedAt?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
  return {
    connector: oneOf(['simulator', 'baileys', 'cloud'] as const, connector, 'simulator'),
    syncedAt: synced ? new Date(synced).toISOString() : null,
    templates: rows.map(toTemplate),
  };
}

export async function findTemplates(ctx: AppContext, user: AuthUser, linkId: string): Promise<TemplateList> {
  const link = await getOwnedLink(ctx, user, linkId);
  return listLinkTemplates(ctx, link.id, link.connector);
}

/** The bot's account: whose templates these are (an admin acting for it makes them the account's). */
async function findOwnerId(ctx: AppContext, user: AuthUser, appId: string): Promise<string> {
  return (await getOwnedBot(ctx, user, appId)).userId;
}

export async function createTemplate(
  ctx: AppContext,
  user: AuthUser,
  linkId: string,
  draft: TemplateDraftBody & { buttons: string[]; examples: TemplateValues },
  deps: TemplateDeps = {},
): Promise<WhatsAppTemplate> {
  const link = await getOwnedLink(ctx, user, linkId);
  const userId = await findOwnerId(ctx, user, link.appId);
  const [taken] = await ctx.db
    .select({ id: whatsappTemplates.id })
    .from(whatsappTemplates)
    .where(
      and(eq(whatsappTemplates.linkId, link.id), eq(whatsappTemplates.name, draft.name), eq(whatsappTemplates.language, draft.language)),
    );
  if (taken) throw conflict(TEMPLATE_API_MESSAGES.exists, { field: 'name' });
  const body = toMetaTemplate(draft as TemplateDraft);
  let providerId: string | null = null;
  let status: TemplateStatus = 'APPROVED';
  let category: TemplateCategory = body.category;
  if (link.connector === 'cloud') {
    const credentials = await templateCredentials(ctx, link.id);
    const made = await callMeta(() => createCloudTemplate(credentials, body, deps.cloud));
    providerId = made.id || null;
    status = oneOf(TEMPLATE_STATUSES, made.status, 'PENDING');
    category = oneOf(TEMPLATE_CATEGORIES, made.category, body.category);
  }
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(whatsappTemplates)
    .values({
      linkId: link.id,
      userId,
      providerId,
      name: body.name,
      language: body.language,
      category,
      status,
      components: body.components,
      variables: readTemplateVariables(body.components),
      syncedAt: providerId ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toTemplate(row!);
}

/**
 * Reads every template of the number's business account from Meta and makes the number's list the same: new ones
 * added, changed ones updated, ones Meta no longer has removed (a send naming one is then refused).
 */
export async function syncTemplates(ctx: AppContext, user: AuthUser, linkId: string, deps: TemplateDeps = {}): Promise<TemplateList> {
  const link = await getOwnedLink(ctx, user, linkId);
  if (link.connector !== 'cloud') throw invalid(TEMPLATE_API_MESSAGES.syncCloudOnly);
  const userId = await findOwnerId(ctx, user, link.appId);
  const credentials = await templateCredentials(ctx, link.id);
  const fromMeta = await callMeta(() => listCloudTemplates(credentials, deps.cloud));
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const stored = await tx.select().from(whatsappTemplates).where(eq(whatsappTemplates.linkId, link.id));
    const key = (t: { name: string; language: string }) => `${t.name}\u0000${t.language}`;
    const byKey = new Map(stored.map((r) => [key(r), r]));
    const seen = new Set<string>();
    for (const template of fromMeta) {
      seen.add(key(template));
      const values = toStoredTemplate(template, now);
      const existing = byKey.get(key(template));
      if (existing) await tx.update(whatsappTemplates).set(values).where(eq(whatsappTemplates.id, existing.id));
      else
        await tx
          .insert(whatsappTemplates)
          .values({ ...values, linkId: link.id, userId, name: template.name, language: template.language, createdAt: now });
    }
    const gone = stored.filter((r) => !seen.has(key(r))).map((r) => r.id);
    if (gone.length) await tx.delete(whatsappTemplates).where(inArray(whatsappTemplates.id, gone));
  });
  return listLinkTemplates(ctx, link.id, link.connector);
}

function toStoredTemplate(template: MetaTemplate, now: Date) {
  return {
    providerId: template.id,
    category: template.category,
    status: oneOf(TEMPLATE_STATUSES, template.status, 'PENDING'),
    reason: template.rejectedReason,
    components: template.components,
    variables: readTemplateVariables(template.components),
    syncedAt: now,
    updatedAt: now,
  };
}

export async function deleteTemplate(ctx: AppContext, user: AuthUser, templateId: string, deps: TemplateDeps = {}): Promise<void> {
  const { row, link } = await getOwnedTemplate(ctx, user, templateId);
  if (link.connector === 'cloud' && row.providerId) {
    const credentials = await templateCredentials(ctx, link.id);
    await callMeta(() => deleteCloudTemplate(credentials, { name: row.name, id: row.providerId }, deps.cloud));
  }
  await ctx.db.delete(whatsappTemplates).where(eq(whatsappTemplates.id, row.id));
}

/** The simulator's testing switch: its template REJECTED, PAUSED, DISABLED or APPROVED again. */
export async function setTemplateStatus(
  ctx: AppContext,
  user: AuthUser,
  templateId: string,
  status: TemplateStatus,
  reason: string,
): Promise<WhatsAppTemplate> {
  const { row, link } = await getOwnedTemplate(ctx, user, templateId);
  if (link.connector !== 'simulator') throw invalid(TEMPLATE_API_MESSAGES.statusSimulatorOnly);
  const [updated] = await ctx.db
    .update(whatsappTemplates)
    .set({ status, reason: status === 'APPROVED' || status === 'PENDING' ? '' : reason, updatedAt: ctx.now() })
    .where(eq(whatsappTemplates.id, row.id))
    .returning();
  return toTemplate(updated!);
}

/** Meta's webhook events as our statuses; `null`: the template is gone; absent: nothing to change. */
const EVENT_STATUS: Record<string, TemplateStatus | null> = {
  APPROVED: 'APPROVED',
  REINSTATED: 'APPROVED',
  REJECTED: 'REJECTED',
  PENDING: 'PENDING',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  DELETED: null,
  PENDING_DELETION: null,
};

/**
 * Meta's `message_template_status_update`s (from a webhook whose signature checked out): each template with that
 * Meta id takes the new status and reason. A template no account has is ignored; an event we do not know changes
 * nothing. Answers how many templates changed.
 */
export async function applyTemplateStatusUpdates(ctx: AppContext, updates: TemplateStatusUpdate[]): Promise<number> {
  let changed = 0;
  for (const update of updates) {
    if (!(update.event in EVENT_STATUS)) continue;
    const status = EVENT_STATUS[update.event];
    const where = eq(whatsappTemplates.providerId, update.templateId);
    const rows =
      status === null
        ? await ctx.db.delete(whatsappTemplates).where(where).returning({ id: whatsappTemplates.id })
        : await ctx.db
            .update(whatsappTemplates)
            .set({ status, reason: status === 'APPROVED' ? '' : update.reason, updatedAt: ctx.now() })
            .where(where)
            .returning({ id: whatsappTemplates.id });
    if (rows.length === 0) ctx.log.info({ templateId: update.templateId }, 'a template status update for no stored template was ignored');
    changed += rows.length;
  }
  return changed;
}

/** A template a send names: by name and language, on the number. */
export interface TemplateSend {
  linkId: string;
  to: string;
  name: string;
  language: string;
  values: TemplateValues;
}

/**
 * The approved template a send names, filled with its values: what goes out. Refused with words when the number has
 * no such template (never made, or deleted on Meta's side and synced away), when it is not APPROVED, or when its
 * variables are not all filled or a value names a variable it does not have (renderTemplate). Sends nothing.
 */
export async function readTemplateToSend(ctx: AppContext, send: Omit<TemplateSend, 'to'>): Promise<RenderedTemplate> {
  const [row] = await ctx.db
    .select()
    .from(whatsappTemplates)
    .where(
      and(eq(whatsappTemplates.linkId, send.linkId), eq(whatsappTemplates.name, send.name), eq(whatsappTemplates.language, send.language)),
    );
  if (!row) {
    throw invalid(
      `This number has no template "${send.name}" in ${send.language}: it was never made here or was deleted on Meta's side; sync the templates and pick another`,
      { field: 'template.name' },
    );
  }
  if (row.status !== 'APPROVED') {
    throw invalid(`The template "${send.name}" is ${row.status}, not APPROVED: WhatsApp sends approved templates only`, {
      field: 'template.name',
    });
  }
  return renderTemplate({ name: row.name, language: row.language, components: row.components as TemplateComponent[] }, send.values);
}

/**
 * Sends a filled template from a linked number to `to` (digits) through the number's connector: Cloud API numbers
 * send Meta's template message (its `wamid`), the simulator draws it on the phone (connector.sendTemplate), a linked
 * device sends what the phone would show as text. Resolves with the message's provider id, for its delivery statuses.
 */
export async function deliverTemplate(
  ctx: AppContext,
  connector: WhatsAppConnector,
  link: { id: string; connector: string },
  to: string,
  rendered: RenderedTemplate,
  deps: TemplateDeps = {},
): Promise<SentMessage[]> {
  if ((link.connector as WhatsAppConnectorName) === 'cloud') {
    const credentials = await templateCredentials(ctx, link.id);
    const providerMessageId = await callMeta(() => sendCloudTemplate(credentials, to, rendered, deps.cloud));
    return [{ providerMessageId, message: toTemplateMessage(rendered, true) }];
  }
  if (connector.sendTemplate) return connector.sendTemplate(link.id, to, rendered);
  const conversation = toConversation(link.id, to);
  const message = toTemplateMessage(rendered, false);
  return connector.send({ linkId: link.id, conversation, to, sessionId: '', end: true, messages: [message] });
}

/** Sends an approved template from a linked number (readTemplateToSend, then deliverTemplate). */
export async function sendTemplateMessage(
  ctx: AppContext,
  connector: WhatsAppConnector,
  send: TemplateSend,
  deps: TemplateDeps = {},
): Promise<SentMessage[]> {
  const rendered = await readTemplateToSend(ctx, send);
  const [link] = await ctx.db
    .select({ id: whatsappLinks.id, connector: whatsappLinks.connector })
    .from(whatsappLinks)
    .where(eq(whatsappLinks.id, send.linkId));
  return deliverTemplate(ctx, connector, link!, send.to, rendered, deps);
}
