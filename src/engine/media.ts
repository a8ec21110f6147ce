/**
 * A bot's media in a hop (docs/bots.md, "Media"): checking a file or location the user sent against what the menu
 * asks for, and rendering what a menu sends with its screen (files, pins, contact cards, a link button). Pure: the
 * runtime stores inbound files before the hop and gives outbound ones their bytes after it.
 */
import { defaultMediaMessage, defaultSizeMessage, TEXT_ONLY_MESSAGE, toMediaVariablePath, type Attachment } from '../shared/app';
import { isValidLocation, MEDIA_KINDS, MEDIA_TYPES, type InputKind, type LocationRef, type MediaRef } from '../shared/media';
import { getActionTemplate, type CompiledMenu } from './compile';
import { emitEvent, failHop, getScope, type HopContext } from './context';
import { RenderBudgetError, renderTemplate } from './render';
import type { EngineEventData, ReceivedMedia, Reply, ReplyAttachment, TemplateScope } from './types';

/** What a screen carries besides its text, once rendered. */
export type MenuMedia = Pick<Reply, 'attachments' | 'linkButton'>;
import { toErrorMessage } from '../shared/errors';

/** A stored file's reference as the engine takes one: from the runtime (a hop) or an action's result (a variable). */
export function isMediaRef(value: unknown): value is MediaRef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.mediaId === 'string' &&
    v.mediaId !== '' &&
    (MEDIA_KINDS as readonly unknown[]).includes(v.kind) &&
    typeof v.mimeType === 'string' &&
    typeof v.size === 'number' &&
    Number.isFinite(v.size) &&
    v.size >= 0 &&
    (v.caption === undefined || typeof v.caption === 'string') &&
    (v.fileName === undefined || typeof v.fileName === 'string') &&
    (v.url === undefined || typeof v.url === 'string')
  );
}

const isLocationRef = (value: unknown): value is LocationRef =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LocationRef).latitude === 'number' &&
  typeof (value as LocationRef).longitude === 'number';

/** What the hop carries instead of text, or null for text. */
export type Received = { media: MediaRef } | { location: LocationRef } | null;

/** The input kind of what arrived. */
const kindOf = (received: Received): InputKind => (received === null ? 'text' : 'media' in received ? received.media.kind : 'location');

export type MediaVerdict = { ok: true; input: string; value: ReceivedMedia | null } | { ok: false; message: string };

/**
 * Whether what arrived is what the menu asks for: a file of its kind, of an allowed type and size; a location on
 * the globe; or text on a text menu. On success, the menu's input (the media id, `latitude,longitude`, or the text)
 * and what `session.media.<identifier>` keeps. A refusal emits `media_refused` and gives the menu's message.
 */
export function checkReceived(ctx: HopContext, menu: CompiledMenu, received: Received, text: string): MediaVerdict {
  const expected = menu.inputKind;
  const rules = menu.menu.mediaInput;
  const refuse = (reason: EngineEventData['media_refused']['reason'], message: string): MediaVerdict => {
    const data: EngineEventData['media_refused'] = { expected, received: kindOf(received), reason };
    if (received && 'media' in received) {
      data.mimeType = received.media.mimeType;
      data.size = received.media.size;
    }
    emitEvent(ctx, 'media_refused', 'info', message, { menu, data });
    return { ok: false, message };
  };
  const kindMessage = () => rules?.errorMessage.trim() || defaultMediaMessage(expected, rules?.mimeTypes);

  if (expected === 'text') return received === null ? { ok: true, input: text, value: null } : refuse('kind', TEXT_ONLY_MESSAGE);
  if (expected === 'location') {
    if (received === null || !('location' in received)) return refuse('kind', kindMessage());
    const { location } = received;
    if (!isLocationRef(location) || !isValidLocation(location)) return refuse('location', kindMessage());
    const value: LocationRef = { latitude: location.latitude, longitude: location.longitude };
    if (typeof location.name === 'string' && location.name !== '') value.name = location.name.slice(0, 1000);
    if (typeof location.address === 'string' && location.address !== '') value.address = location.address.slice(0, 1000);
    return { ok: true, input: `${value.latitude},${value.longitude}`, value };
  }
  if (received === null || !('media' in received) || !isMediaRef(received.media) || received.media.kind !== expected)
    return refuse('kind', kindMessage());
  const { media } = received;
  const allowed = rules && rules.mimeTypes.length > 0 ? rules.mimeTypes : MEDIA_TYPES[expected].mimeTypes;
  const mimeType = media.mimeType.split(';')[0]!.trim().toLowerCase();
  if (!allowed.includes(mimeType)) return refuse('type', kindMessage());
  const maxBytes = Math.min(rules?.maxBytes ?? Number.POSITIVE_INFINITY, MEDIA_TYPES[expected].maxBytes);
  if (media.size === 0 || media.size > maxBytes)
    return refuse('size', media.size === 0 ? kindMessage() : rules?.sizeErrorMessage.trim() || defaultSizeMessage(maxBytes));
  return { ok: true, input: media.mediaId, value: media };
}

/** The value a dotted path names in the scope (`actions.receipt.file`), own properties only, as templates read them. */
function lookupPath(scope: TemplateScope, path: string[]): unknown {
  let value: unknown = scope;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** An attachment the hop could not send: why, for its `attachment_skipped` event. */
class SkippedAttachment extends Error {}

/**
 * Renders one field of an attachment or link button. A render fault is the attachment's, not the hop's (it is
 * skipped); running out of render time still ends the hop (RenderBudgetError is rethrown).
 */
function renderField(ctx: HopContext, scope: TemplateScope, source: string, field: string): string {
  if (source === '') return '';
  try {
    return renderTemplate(getActionTemplate(ctx.compiled, source), scope, ctx.renderTime).trim();
  } catch (err) {
    if (err instanceof RenderBudgetError) throw err;
    throw new SkippedAttachment(`Template error in ${field}: ${toErrorMessage(err)}`);
  }
}

const isHttpsUrl = (url: string) => /^https:\/\/[^\s/]+/.test(url);

function renderAttachment(ctx: HopContext, scope: TemplateScope, attachment: Attachment, at: string): ReplyAttachment {
  const render = (source: string, field: string) => renderField(ctx, scope, source, `${at}.${field}`);
  if (attachment.type === 'location') {
    const location: LocationRef = {
      latitude: Number(render(attachment.latitude, 'latitude') || Number.NaN),
      longitude: Number(render(attachment.longitude, 'longitude') || Number.NaN),
    };
    if (!isValidLocation(location))
      throw new SkippedAttachment(`The location's coordinates are not on the globe (${location.latitude}, ${location.longitude})`);
    const name = render(attachment.name, 'name');
    const address = render(attachment.address, 'address');
    if (name) location.name = name;
    if (address) location.address = address;
    return { type: 'location', location };
  }
  if (attachment.type === 'contact') {
    const name = render(attachment.name, 'name');
    const phones = attachment.phones.map((p, i) => render(p, `phones.${i}`)).filter((p) => /^\+?\d{7,15}$/.test(p));
    if (name === '' || phones.length === 0) throw new SkippedAttachment('The contact card has no name or no valid number once rendered');
    return { type: 'contact', contact: { name, phones } };
  }
  const caption = render(attachment.caption, 'caption');
  const fileName = attachment.fileName.trim();
  let media: MediaRef;
  if (attachment.source === 'variable') {
    const found = lookupPath(scope, toMediaVariablePath(attachment.value));
    if (!isMediaRef(found)) throw new SkippedAttachment(`${attachment.value.trim()} holds no file`);
    media = { mediaId: found.mediaId, kind: found.kind, mimeType: found.mimeType, size: found.size };
    if (found.fileName) media.fileName = found.fileName;
    if (found.url) media.url = found.url;
  } else if (attachment.source === 'url') {
    const url = render(attachment.value, 'value');
    if (!isHttpsUrl(url)) throw new SkippedAttachment(`The file's address is not an https:// address: ${url.slice(0, 200)}`);
    media = { mediaId: '', kind: attachment.kind, mimeType: '', size: 0, url };
  } else {
    if (attachment.value.trim() === '') throw new SkippedAttachment('No file was uploaded');
    media = { mediaId: attachment.value.trim(), kind: attachment.kind, mimeType: '', size: 0 };
  }
  if (caption) media.caption = caption;
  if (fileName) media.fileName = fileName;
  return { type: 'media', media };
}

/**
 * What a menu sends with its screen, rendered: its attachments (each one that cannot be sent skipped with an
 * `attachment_skipped` event), its link button, its location request. Null when the hop ran out of render time
 * (the hop is then over). Called once a menu's screen is rendered, on entering it.
 */
export function renderMenuMedia(ctx: HopContext, menu: CompiledMenu): MenuMedia | null {
  const { attachments = [], linkButton } = menu.menu;
  if (!menu.sendsMedia || (attachments.length === 0 && !linkButton)) return {};
  const scope = getScope(ctx);
  const out: MenuMedia = {};
  try {
    const rendered: ReplyAttachment[] = [];
    attachments.forEach((attachment, index) => {
      try {
        rendered.push(renderAttachment(ctx, scope, attachment, `attachments.${index}`));
      } catch (err) {
        if (!(err instanceof SkippedAttachment)) throw err;
        emitEvent(ctx, 'attachment_skipped', 'error', `Attachment ${index + 1} skipped: ${err.message}`, {
          menu,
          data: { index, reason: err.message },
        });
      }
    });
    if (rendered.length > 0) out.attachments = rendered;
    if (linkButton) {
      try {
        const text = renderField(ctx, scope, linkButton.text, 'linkButton.text').slice(0, 20);
        const url = renderField(ctx, scope, linkButton.url, 'linkButton.url');
        if (text === '' || !isHttpsUrl(url))
          throw new SkippedAttachment(`The link button has no text or no https:// address (${url.slice(0, 200)})`);
        out.linkButton = { text, url };
      } catch (err) {
        if (!(err instanceof SkippedAttachment)) throw err;
        emitEvent(ctx, 'attachment_skipped', 'error', `Link button skipped: ${err.message}`, {
          menu,
          data: { index: -1, reason: err.message },
        });
      }
    }
  } catch (err) {
    if (!(err instanceof RenderBudgetError)) throw err;
    failHop(ctx, `${err.message} in attachments: ${ctx.renderTime.describeOverrun()}`, { menu, data: { part: 'attachments' } });
    return null;
  }
  return out;
}
