/**
 * Before sending (docs/campaigns.md, "Preview and test"): what one contact would get and by which channel, and a
 * test send of the campaign's messages to the signed-in user's own number, consent aside (it is their own).
 */
import { and, eq } from 'drizzle-orm';
import { contacts, users } from '../../../db/schema';
import type { CampaignChannels, CampaignPreview, CampaignTest } from '../../../shared/api/campaigns.schema';
import { conflict, notFound, toErrorMessage } from '../../../shared/errors';
import { toTemplateText } from '../../../shared/whatsapp-templates';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { checkConsent } from '../../core/consent';
import { toE164 } from '../../core/msisdn';
import { fillContactFields } from '../bots/bot-conversations.service';
import { readTemplateToSend } from '../bots/whatsapp-templates.service';
import { queueSms } from '../sms/sms.service';
import { campaignChannelList } from './audiences.service';
import type { CampaignParts } from './campaign-dispatcher';
import { readDial, toSmsText } from './campaign-results';
import type { CampaignRow } from './campaign-rows';
import { findCampaignLink, getOwnedCampaign } from './campaigns.service';

type ContactRow = typeof contacts.$inferSelect;

/** The template as this contact would read it, filled from their fields; refused in renderTemplate's words. */
async function renderTemplateFor(ctx: AppContext, row: CampaignRow, contact: Pick<ContactRow, 'name' | 'language' | 'attributes'>) {
  const link = await findCampaignLink(ctx, row);
  if (!link) throw conflict('No number of this bot is connected: link a number and wait until it is CONNECTED.');
  const template = row.template!;
  const rendered = await readTemplateToSend(ctx, {
    linkId: link.id,
    name: template.name,
    language: template.language,
    values: fillContactFields(template.variables, contact),
  });
  return { link, rendered };
}

export async function previewCampaign(ctx: AppContext, user: AuthUser, campaignId: string, number: string): Promise<CampaignPreview> {
  const row = await getOwnedCampaign(ctx, user, campaignId);
  const msisdn = toE164(number, null) ?? number;
  const [contact] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.ownerId, user.id), eq(contacts.msisdn, msisdn)));
  if (!contact) throw notFound('Contact not found');
  const refusals: string[] = [];
  for (const channel of campaignChannelList(row.channels as CampaignChannels)) {
    const consent = checkConsent(contact, channel);
    if (!consent.allowed) {
      refusals.push(consent.reason);
      continue;
    }
    const base = { msisdn, name: contact.name, channel, reason: null };
    if (channel === 'sms') return { ...base, text: toSmsText(ctx, row.smsText ?? '', await readDial(ctx, row)) };
    try {
      const { rendered } = await renderTemplateFor(ctx, row, contact);
      return { ...base, text: toTemplateText(rendered) };
    } catch (err) {
      return { ...base, channel: null, reason: toErrorMessage(err), text: null };
    }
  }
  return { msisdn, name: contact.name, channel: null, reason: refusals.join('; '), text: null };
}

/**
 * Sends the campaign's messages to the signed-in user's own mobile number, on each channel the campaign uses: the
 * template filled from their own contact (or their name), the SMS through the outbox. Each channel's outcome is
 * answered; nothing is recorded on the campaign.
 */
export async function testCampaign(ctx: AppContext, user: AuthUser, campaignId: string, parts: CampaignParts): Promise<CampaignTest> {
  const row = await getOwnedCampaign(ctx, user, campaignId);
  const [me] = await ctx.db.select({ mobileNumber: users.mobileNumber, fullName: users.fullName }).from(users).where(eq(users.id, user.id));
  const to = toE164(me?.mobileNumber ?? '', null);
  if (!to) throw conflict('Your profile has no mobile number with its country code: add it on your profile first.');
  const [own] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.ownerId, user.id), eq(contacts.msisdn, to)));
  const fields = own ?? { name: me?.fullName ?? null, language: null, attributes: {} };
  const sent: CampaignTest['sent'] = [];
  for (const channel of campaignChannelList(row.channels as CampaignChannels)) {
    try {
      if (channel === 'whatsapp') {
        const { link, rendered } = await renderTemplateFor(ctx, row, fields);
        await parts.sendTemplate(link, to.slice(1), rendered, user.id);
      } else {
        const message = toSmsText(ctx, row.smsText ?? '', await readDial(ctx, row));
        await queueSms(ctx, {
          appId: row.ussdAppId,
          ownerId: user.id,
          sessionId: `campaign-test:${row.id}`,
          sender: row.smsSender,
          recipient: to,
          message,
        });
      }
      sent.push({ channel, ok: true, error: null });
    } catch (err) {
      sent.push({ channel, ok: false, error: toErrorMessage(err) });
    }
  }
  return { to, sent };
}
