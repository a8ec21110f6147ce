/**
 * Message templates on the WhatsApp Cloud API (docs/whatsapp-templates.md), written to Meta's WhatsApp Business
 * Management API documentation: a business account's (WABA's) templates are listed with
 * `GET /{waba-id}/message_templates` (paged by `paging.cursors.after`), submitted with
 * `POST /{waba-id}/message_templates`, deleted with `DELETE /{waba-id}/message_templates?name=`, and sent with
 * `POST /{phone-number-id}/messages` `type: 'template'`. Meta reports each review's outcome on the app's webhook,
 * field `message_template_status_update` ({@link readTemplateStatusUpdates}).
 */
import type { RenderedTemplate, TemplateCategory, TemplateComponent } from '../../shared/whatsapp-templates';
import { createGraphApi, type GraphRequest, isRecord, readArray, readString } from './cloud-api';

/** Where one linked Cloud API number's calls go, and with which token (src/server/features/bots/cloud-credentials.ts). */
export interface CloudCredentials {
  /** `https://graph.facebook.com/v21.0`; tests point it at a local server. */
  apiUrl: string;
  phoneNumberId: string;
  /** The WhatsApp Business Account the number belongs to: templates are the account's. */
  wabaId: string;
  accessToken: string;
}

export interface CloudCallOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** A template as Meta lists it. */
export interface MetaTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** Why it was rejected (Meta's `rejected_reason`: INVALID_FORMAT, TAG_CONTENT_MISMATCH...), '' or NONE otherwise. */
  rejectedReason: string;
  components: TemplateComponent[];
}

/** The body of a new template, as `toMetaTemplate` writes it. */
export interface MetaTemplateBody {
  name: string;
  language: string;
  category: TemplateCategory;
  parameter_format?: 'NAMED';
  components: TemplateComponent[];
}

const FIELDS = 'id,name,language,category,status,components,rejected_reason';
/** Pages read at most, so a paging loop on Meta's side cannot keep a sync running. */
const MAX_PAGES = 100;

/** One Graph API call with the number's token; Meta's refusals of a template are said in its words for a person. */
function callGraph(credentials: CloudCredentials, path: string, init: GraphRequest, options: CloudCallOptions) {
  const graph = createGraphApi({ apiUrl: credentials.apiUrl, fetch: options.fetch, timeoutMs: options.timeoutMs, userMessages: true });
  return graph(path, init, credentials.accessToken);
}

function readMetaTemplate(value: unknown): MetaTemplate | null {
  if (!isRecord(value)) return null;
  const id = readString(value, 'id');
  const name = readString(value, 'name');
  const language = readString(value, 'language');
  if (!id || !name || !language) return null;
  const reason = readString(value, 'rejected_reason') ?? '';
  return {
    id,
    name,
    language,
    category: readString(value, 'category') ?? 'UTILITY',
    status: readString(value, 'status') ?? 'PENDING',
    rejectedReason: reason === 'NONE' ? '' : reason,
    components: readArray(value, 'components').filter(isRecord) as TemplateComponent[],
  };
}

const templatesPath = (credentials: CloudCredentials) => `/${encodeURIComponent(credentials.wabaId)}/message_templates`;

/** Every template of the business account, all pages (`paging.cursors.after` while `paging.next` is there). */
export async function listCloudTemplates(credentials: CloudCredentials, options: CloudCallOptions = {}): Promise<MetaTemplate[]> {
  const templates: MetaTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ fields: FIELDS, limit: '100', ...(after ? { after } : {}) });
    const answer = await callGraph(credentials, `${templatesPath(credentials)}?${query}`, { method: 'GET' }, options);
    templates.push(...readArray(answer, 'data').flatMap((t) => readMetaTemplate(t) ?? []));
    const paging = isRecord(answer.paging) ? answer.paging : {};
    const cursors = isRecord(paging.cursors) ? paging.cursors : {};
    after = readString(cursors, 'after');
    if (!after || !readString(paging, 'next')) break;
  }
  return templates;
}

/** Submits a template for review; Meta answers `{ id, status, category }` (status PENDING, or APPROVED at once). */
export async function createCloudTemplate(
  credentials: CloudCredentials,
  body: MetaTemplateBody,
  options: CloudCallOptions = {},
): Promise<{ id: string; status: string; category: string }> {
  const answer = await callGraph(credentials, templatesPath(credentials), { method: 'POST', body }, options);
  return {
    id: readString(answer, 'id') ?? '',
    status: readString(answer, 'status') ?? 'PENDING',
    category: readString(answer, 'category') ?? body.category,
  };
}

/** Deletes one template (`hsm_id`: only that language's; without it, every language of the name). */
export async function deleteCloudTemplate(
  credentials: CloudCredentials,
  template: { name: string; id?: string | null },
  options: CloudCallOptions = {},
): Promise<void> {
  const query = new URLSearchParams({ name: template.name, ...(template.id ? { hsm_id: template.id } : {}) });
  await callGraph(credentials, `${templatesPath(credentials)}?${query}`, { method: 'DELETE' }, options);
}

/** The body of `POST /{phone-number-id}/messages` for a template message. */
export function toCloudTemplateBody(to: string, template: RenderedTemplate): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(template.parameters.length ? { components: template.parameters } : {}),
    },
  };
}

/** Sends a filled template; resolves with the message's `wamid...`. */
export async function sendCloudTemplate(
  credentials: CloudCredentials,
  to: string,
  template: RenderedTemplate,
  options: CloudCallOptions = {},
): Promise<string> {
  const path = `/${encodeURIComponent(credentials.phoneNumberId)}/messages`;
  const answer = await callGraph(credentials, path, { method: 'POST', body: toCloudTemplateBody(to, template) }, options);
  const [message] = readArray(answer, 'messages');
  return (isRecord(message) && readString(message, 'id')) || '';
}

/** One `message_template_status_update` change: a review's outcome, or a template paused or disabled later. */
export interface TemplateStatusUpdate {
  /** APPROVED, REJECTED, PENDING, PAUSED, DISABLED, FLAGGED, REINSTATED, PENDING_DELETION, DELETED... */
  event: string;
  templateId: string;
  name: string;
  language: string;
  /** Meta's reason ('' when it gave NONE or none). */
  reason: string;
}

/**
 * Reads a webhook body's `message_template_status_update` changes (`{ entry: [{ id: <waba id>, changes: [{ field,
 * value: { event, message_template_id, message_template_name, message_template_language, reason } }] }] }`).
 * Never throws; what it cannot read is left out. The signature is checked before (the connector's handleWebhook).
 */
export function readTemplateStatusUpdates(body: unknown): TemplateStatusUpdate[] {
  const updates: TemplateStatusUpdate[] = [];
  for (const entry of readArray(body, 'entry')) {
    for (const change of readArray(entry, 'changes')) {
      if (!isRecord(change) || change.field !== 'message_template_status_update' || !isRecord(change.value)) continue;
      const value = change.value;
      const event = readString(value, 'event');
      const templateId = readString(value, 'message_template_id');
      if (!event || !templateId) continue;
      const reason = readString(value, 'reason') ?? '';
      updates.push({
        event,
        templateId,
        name: readString(value, 'message_template_name') ?? '',
        language: readString(value, 'message_template_language') ?? '',
        reason: reason === 'NONE' ? '' : reason,
      });
    }
  }
  return updates;
}
