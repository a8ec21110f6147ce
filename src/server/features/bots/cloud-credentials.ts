/**
 * A Cloud API number's own credentials (docs/whatsapp-connectors.md, "A number's own credentials"): its phone
 * number id, WhatsApp Business Account id and access token, kept in `whatsapp_cloud_credentials` with the token
 * sealed under WHATSAPP_CREDENTIALS_KEY (server/sealed-text.ts, the link id as additional data, like linked
 * devices' keys). {@link cloudCredentialsFor} is the one way other features (sends, checks, templates) read them.
 */
import { and, eq } from 'drizzle-orm';
import { whatsappCloudCredentials, whatsappLinks } from '../../../db/schema';
import type { CloudCredentials as WabaCredentials } from '../../../integrations/whatsapp/cloud-templates';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import { AppError, invalid, notFound } from '../../../shared/errors';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { openText, sealText } from '../../sealed-text';

/**
 * A number's Graph API credentials as the server knows them: `apiUrl` is WHATSAPP_CLOUD_API_URL, `accessToken` the
 * number's own or, for numbers linked the old way, the installation's (WHATSAPP_CLOUD_ACCESS_TOKEN).
 */
export interface CloudCredentials extends Omit<WabaCredentials, 'wabaId'> {
  /**
   * The number's WhatsApp Business Account; for numbers linked with the installation's token, the installation's
   * (WHATSAPP_CLOUD_WABA_ID), null when unset.
   */
  wabaId: string | null;
}

/** What a number linked with a token of its own keeps. */
export interface OwnCloudCredentials {
  phoneNumberId: string;
  wabaId: string | null;
  accessToken: string;
  /** Embedded Signup's registration pin (two-step verification), kept to register the number again. */
  registrationPin?: string;
}

const toAad = (linkId: string, field: string) => `whatsapp-cloud\n${linkId}\n${field}`;

/** The 32-byte key a token is sealed with; an installation without WHATSAPP_CREDENTIALS_KEY keeps no tokens. */
export function getCredentialsKey(config: Pick<Config, 'WHATSAPP_CREDENTIALS_KEY'>): Buffer {
  if (!config.WHATSAPP_CREDENTIALS_KEY) throw invalid(BOT_MESSAGES.noCredentialsKey, { field: 'accessToken' });
  return Buffer.from(config.WHATSAPP_CREDENTIALS_KEY, 'hex');
}

/** Keeps a link's own credentials, the token (and pin) sealed; replaces what the link kept before. */
export async function storeCloudCredentials(ctx: AppContext, linkId: string, credentials: OwnCloudCredentials): Promise<void> {
  const key = getCredentialsKey(ctx.config);
  const row = {
    linkId,
    phoneNumberId: credentials.phoneNumberId,
    wabaId: credentials.wabaId,
    accessToken: sealText(key, credentials.accessToken, toAad(linkId, 'access_token')),
    registrationPin: credentials.registrationPin ? sealText(key, credentials.registrationPin, toAad(linkId, 'pin')) : null,
    createdAt: ctx.now(),
  };
  await ctx.db.insert(whatsappCloudCredentials).values(row).onConflictDoUpdate({ target: whatsappCloudCredentials.linkId, set: row });
}

export async function deleteCloudCredentials(ctx: AppContext, linkId: string): Promise<void> {
  await ctx.db.delete(whatsappCloudCredentials).where(eq(whatsappCloudCredentials.linkId, linkId));
}

/**
 * The credentials a Cloud API link is used with: its own when it has them, else the installation's token.
 * Not found for a link that is not a Cloud API number with a phone number id; a token that cannot be decrypted
 * (another WHATSAPP_CREDENTIALS_KEY) or no token at all throws, saying which.
 * @example const { apiUrl, wabaId, accessToken } = await cloudCredentialsFor(ctx, linkId);
 */
export async function cloudCredentialsFor(ctx: AppContext, linkId: string): Promise<CloudCredentials> {
  const [row] = await ctx.db
    .select({ phoneNumberId: whatsappLinks.externalId, own: whatsappCloudCredentials })
    .from(whatsappLinks)
    .leftJoin(whatsappCloudCredentials, eq(whatsappCloudCredentials.linkId, whatsappLinks.id))
    .where(and(eq(whatsappLinks.id, linkId), eq(whatsappLinks.connector, 'cloud')));
  if (!row?.phoneNumberId) throw notFound(BOT_MESSAGES.linkNotFound);
  const apiUrl = ctx.config.WHATSAPP_CLOUD_API_URL.replace(/\/+$/, '');
  if (row.own) {
    let accessToken: string;
    try {
      accessToken = openText(getCredentialsKey(ctx.config), row.own.accessToken, toAad(linkId, 'access_token'));
    } catch {
      throw new AppError('internal', BOT_MESSAGES.credentialsUnreadable);
    }
    return { apiUrl, phoneNumberId: row.phoneNumberId, wabaId: row.own.wabaId, accessToken };
  }
  const installationToken = ctx.config.WHATSAPP_CLOUD_ACCESS_TOKEN;
  if (!installationToken) throw new AppError('internal', BOT_MESSAGES.noAccessToken);
  // Numbers linked with the installation's token use the installation's business account for templates, when set.
  return { apiUrl, phoneNumberId: row.phoneNumberId, wabaId: ctx.config.WHATSAPP_CLOUD_WABA_ID ?? null, accessToken: installationToken };
}
