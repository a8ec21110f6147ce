/**
 * The rules of linking a WhatsApp number (docs/product.md, WhatsApp bots: Linked number status), kept apart
 * from React so they are unit-tested. Two pollers read `GET /api/chatbot/whatsapp/link-status/{linkId}`: the
 * Add Number / QR dialog for its link, and the Connected Numbers list for each number still linking.
 */
import { linkStatusSchema } from '../../../shared/api/bots.schema';
import type { LinkStatus } from '../../../shared/whatsapp';
import type { ApiReply } from '../../lib/api';

/** Both pollers ask every 10 s... */
export const LINK_POLL_INTERVAL_MS = 10_000;
/** ...and at most 15 times (the dialog's first, immediate check included). */
export const LINK_POLL_MAX_CHECKS = 15;
/** After the dialog closes the number list is read again this long after (the link may still be settling). */
export const NUMBER_LIST_RELOAD_DELAY_MS = 12_000;
/** The QR is drawn on a canvas 400 px wide with a quiet zone of 4 modules. */
export const QR_CANVAS_OPTIONS = { width: 400, margin: 4 } as const;

/** Badge colours: CONNECTED green, PENDING yellow, QR blue, FAILED and DISCONNECTED red. */
export const LINK_STATUS_COLORS: Record<LinkStatus, string> = {
  CONNECTED: 'green',
  PENDING: 'yellow',
  QR: 'blue',
  FAILED: 'red',
  DISCONNECTED: 'red',
};

/** The link status reply's top-level `linkStatus` and `qrCode`; null for a refusal or no answer. */
export function readLinkStatus(reply: ApiReply): { linkStatus: LinkStatus; qrCode: string | null } | null {
  if (reply.status !== '00') return null;
  const parsed = linkStatusSchema.safeParse({ linkStatus: reply.linkStatus, qrCode: reply.qrCode ?? null });
  return parsed.success ? parsed.data : null;
}

/** Where the dialog's polling ends: CONNECTED and FAILED close it; the rest (PENDING, QR, DISCONNECTED) keep asking. */
export function isLinkSettled(status: LinkStatus): status is 'CONNECTED' | 'FAILED' {
  return status === 'CONNECTED' || status === 'FAILED';
}

/**
 * Rows the Connected Numbers list keeps polling: PENDING (no code yet) and QR (a code waiting to be scanned, say
 * from the simulated phone in another tab). Once none is left, the list polls nothing.
 */
export const isLinking = (status: LinkStatus) => status === 'PENDING' || status === 'QR';

/** Rows with a QR button: every status but PENDING (a PENDING number has no code yet). */
export const hasQrButton = (status: LinkStatus) => status !== 'PENDING';

/** A Cloud API phone number ID: digits only (Meta's WhatsApp Business settings). */
export function isPhoneNumberId(value: string): boolean {
  return /^\d{5,30}$/.test(value.trim());
}
