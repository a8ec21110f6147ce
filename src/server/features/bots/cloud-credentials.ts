/**
 * Where a linked Cloud API number's calls go and with which token. For now every number uses the installation's
 * settings (WHATSAPP_CLOUD_API_URL, WHATSAPP_CLOUD_ACCESS_TOKEN, WHATSAPP_CLOUD_WABA_ID) and the link's phone
 * number id; this is the one place that builds them, so numbers with credentials of their own change only here.
 */
import { eq } from 'drizzle-orm';
import { whatsappLinks } from '../../../db/schema';
import type { CloudCredentials } from '../../../integrations/whatsapp/cloud-templates';
import { invalid, notFound } from '../../../shared/errors';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import type { AppContext } from '../../context';

export async function cloudCredentialsFor(ctx: AppContext, linkId: string): Promise<CloudCredentials> {
  const [link] = await ctx.db
    .select({ connector: whatsappLinks.connector, externalId: whatsappLinks.externalId })
    .from(whatsappLinks)
    .where(eq(whatsappLinks.id, linkId));
  if (!link) throw notFound(BOT_MESSAGES.linkNotFound);
  if (link.connector !== 'cloud' || !link.externalId) throw invalid('This number is not linked through the WhatsApp Cloud API');
  const { config } = ctx;
  if (!config.WHATSAPP_CLOUD_WABA_ID) {
    throw invalid('Templates need the WhatsApp Business Account ID: set WHATSAPP_CLOUD_WABA_ID on the server');
  }
  return {
    apiUrl: config.WHATSAPP_CLOUD_API_URL,
    phoneNumberId: link.externalId,
    wabaId: config.WHATSAPP_CLOUD_WABA_ID,
    accessToken: config.WHATSAPP_CLOUD_ACCESS_TOKEN ?? '',
  };
}
