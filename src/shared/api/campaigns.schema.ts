import { isSmsSender, SMS_SENDER_MESSAGE } from '../sms-sender';
import { z } from 'zod';
import { CONSENT_CHANNELS } from '../contact-consent';
import { OFFICE_HOURS_MESSAGES, TIME, isTimeZone } from '../office-hours';
import { templateChoiceSchema } from './bot-conversations.schema';
import { CONSENT_FILTER_MESSAGE, contactFilterSchema, hasWholeConsentFilter } from './contacts.schema';

/**
 * Campaigns (docs/campaigns.md): an account's messages to many of its contacts at once, WhatsApp where the contact
 * opted in, SMS with the USSD code where not.
 * - `GET  /api/audiences` -> `data`: Audience[]; `POST /api/audiences` body {@link audienceBodySchema} -> Audience
 * - `POST /api/audiences/{audienceId}` body {@link audienceBodySchema}; `DELETE /api/audiences/{audienceId}`
 * - `POST /api/audiences/reach` body {@link reachBodySchema} -> `data`: AudienceReach (how many each channel reaches)
 * - `GET  /api/campaigns` -> `data`: Campaign[]; `POST /api/campaigns` body {@link campaignBodySchema} -> Campaign (a draft)
 * - `GET  /api/campaigns/{campaignId}`; `POST /api/campaigns/{campaignId}` body {@link campaignBodySchema} (a draft only)
 * - `POST /api/campaigns/{campaignId}/schedule` body {@link scheduleBodySchema}; `.../pause`; `.../resume`; `.../cancel`
 * - `DELETE /api/campaigns/{campaignId}` (a draft, or one that ended)
 */

export const CAMPAIGN_CHANNELS = ['whatsapp_then_sms', 'whatsapp', 'sms'] as const;
export type CampaignChannels = (typeof CAMPAIGN_CHANNELS)[number];

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'done', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A contact's message in a campaign: how far it got (docs/campaigns.md, "A campaign's messages"). */
export const CAMPAIGN_MESSAGE_STATUSES = ['queued', 'claimed', 'sending', 'sent', 'failed', 'unknown', 'skipped', 'cancelled'] as const;
export type CampaignMessageStatus = (typeof CAMPAIGN_MESSAGE_STATUSES)[number];

export const CAMPAIGN_MESSAGES = {
  tooManyStreams: 'Too many campaign screens are open for this account: close one and try again.',
  audienceNotFound: 'Audience not found',
  audienceName: 'Give the audience a name of at most 80 characters',
  audienceNameTaken: 'You already have an audience with this name',
  tooManyAudiences: 'You have as many audiences as an account keeps: delete one first',
  notFound: 'Campaign not found',
  name: 'Give the campaign a name of at most 80 characters',
  botNeeded: 'Choose the WhatsApp bot the campaign writes from',
  templateNeeded: 'Choose an approved template for WhatsApp',
  smsNeeded: 'Write the SMS text',
  smsTooLong: 'The SMS text is at most 918 characters (6 parts)',
  smsTooLongAsSent: 'With the dial string and the opt-out line the SMS is over 918 characters (6 parts): shorten the text',
  windowOrder: 'The send window must end after it starts',
  notDraft: 'Only a draft can be changed: this campaign has been scheduled',
  cannotSchedule: 'Only a draft can be scheduled',
  cannotPause: 'Only a scheduled or sending campaign can be paused',
  cannotResume: 'Only a paused campaign can be resumed',
  cannotCancel: 'This campaign has ended',
  cannotDelete: 'A scheduled, sending or paused campaign cannot be deleted: cancel it first',
  startPast: 'The start time has passed: choose a later time, or start now',
  emptyAudience: "Nobody in this audience can be reached: no contact has opted in to the campaign's channels",
  audienceTooLarge: 'This audience is larger than a campaign may send to',
  numberGone: "The WhatsApp number is no longer CONNECTED, or its bot is no longer this account's: link it again, then resume.",
  tooManyCampaigns: 'You have as many campaigns as an account keeps: delete old ones first',
  tooManyRunning: 'You have as many campaigns scheduled or sending as an account may: wait for one to end or cancel it',
} as const;

const nameSchema = z.string({ error: CAMPAIGN_MESSAGES.name }).trim().min(1, CAMPAIGN_MESSAGES.name).max(80, CAMPAIGN_MESSAGES.name);

/**
 * Which contacts an audience holds: the Contacts list's filters (docs/contacts.md), and two more: seen on any
 * channel in the last `seenWithinDays` days, and a session of an app ended `completed` or `abandoned` (in the last
 * `session.withinDays` days when given).
 */
export const audienceFilterSchema = contactFilterSchema
  .extend({
    seenWithinDays: z.coerce.number().int().min(1).max(3650).optional(),
    session: z
      .object({
        appId: z.string().trim().min(1).max(64),
        status: z.enum(['completed', 'abandoned']),
        withinDays: z.coerce.number().int().min(1).max(3650).optional(),
      })
      .optional(),
  })
  .refine(hasWholeConsentFilter, { message: CONSENT_FILTER_MESSAGE });
export type AudienceFilter = z.infer<typeof audienceFilterSchema>;

/** An audience's filter as the API answers it (the same fields, as stored). */
const audienceFilterReplySchema = z.object({
  search: z.string().optional(),
  attribute: z.array(z.string()).optional(),
  consentChannel: z.enum(CONSENT_CHANNELS).optional(),
  consentStatus: z.enum(['in', 'out', 'never']).optional(),
  seenOn: z.enum(CONSENT_CHANNELS).optional(),
  seenWithinDays: z.number().optional(),
  session: z.object({ appId: z.string(), status: z.enum(['completed', 'abandoned']), withinDays: z.number().optional() }).optional(),
});

export const audienceParamsSchema = z.object({ audienceId: z.uuid(CAMPAIGN_MESSAGES.audienceNotFound) });
export const audienceBodySchema = z.object({
  name: z
    .string({ error: CAMPAIGN_MESSAGES.audienceName })
    .trim()
    .min(1, CAMPAIGN_MESSAGES.audienceName)
    .max(80, CAMPAIGN_MESSAGES.audienceName),
  filter: audienceFilterSchema,
});
export type AudienceBody = z.infer<typeof audienceBodySchema>;

export const audienceSchema = z.object({
  audienceId: z.string(),
  name: z.string(),
  filter: audienceFilterReplySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Audience = z.infer<typeof audienceSchema>;

/** How many contacts an audience reaches with a channel order: a saved audience or a filter not saved yet. */
export const reachBodySchema = z
  .object({
    audienceId: z.uuid(CAMPAIGN_MESSAGES.audienceNotFound).optional(),
    filter: audienceFilterSchema.optional(),
    channels: z.enum(CAMPAIGN_CHANNELS).default('whatsapp_then_sms'),
  })
  .refine((b) => (b.audienceId === undefined) !== (b.filter === undefined), { message: 'Give a saved audience or a filter, not both' });
export type ReachBody = z.infer<typeof reachBodySchema>;

/**
 * An audience's contacts by what a campaign would do with them: reached on WhatsApp, reached by SMS, or not reached
 * because they opted out (of every channel the campaign uses) or never opted in to any of them.
 */
export const audienceReachSchema = z.object({
  total: z.number(),
  whatsapp: z.number(),
  sms: z.number(),
  optedOut: z.number(),
  noConsent: z.number(),
});
export type AudienceReach = z.infer<typeof audienceReachSchema>;

/** The hours a campaign sends in, in its time zone: `from` inclusive, `to` exclusive (`08:00` to `20:00`). */
export const sendWindowSchema = z
  .object({ from: z.string().regex(TIME, OFFICE_HOURS_MESSAGES.time), to: z.string().regex(TIME, OFFICE_HOURS_MESSAGES.time) })
  .refine((w) => !TIME.test(w.from) || !TIME.test(w.to) || w.from < w.to, { message: CAMPAIGN_MESSAGES.windowOrder, path: ['to'] });
export type SendWindow = z.infer<typeof sendWindowSchema>;

export type CampaignTemplate = z.infer<typeof templateChoiceSchema>;

export const campaignParamsSchema = z.object({ campaignId: z.uuid(CAMPAIGN_MESSAGES.notFound) });

export const campaignBodySchema = z
  .object({
    name: nameSchema,
    audienceId: z.uuid(CAMPAIGN_MESSAGES.audienceNotFound),
    channels: z.enum(CAMPAIGN_CHANNELS),
    /** The WhatsApp bot and its linked number (the bot's first connected one when left out). */
    botId: z.string().trim().min(1).max(64).nullish(),
    linkId: z.uuid('linkId is not a linked number').nullish(),
    template: templateChoiceSchema.nullish(),
    /** The bot's menu (its uniqueId) a reply to the template starts at; the bot's first menu when left out. */
    entryMenuId: z.string().trim().min(1).max(64).nullish(),
    /** The USSD app the SMS points to (`{dial}` in the text is its dial string) and whose sessions count as dialled. */
    ussdAppId: z.string().trim().min(1).max(64).nullish(),
    smsText: z.string().trim().max(918, CAMPAIGN_MESSAGES.smsTooLong).nullish(),
    smsSender: z.string().trim().refine(isSmsSender, SMS_SENDER_MESSAGE).default(''),
    sendWindow: sendWindowSchema.nullish(),
    timeZone: z
      .string()
      .trim()
      .min(1, OFFICE_HOURS_MESSAGES.timeZone)
      .max(64)
      .refine(isTimeZone, OFFICE_HOURS_MESSAGES.timeZone)
      .default('UTC'),
  })
  .refine((b) => b.channels === 'sms' || !!b.botId, { message: CAMPAIGN_MESSAGES.botNeeded, path: ['botId'] })
  .refine((b) => b.channels === 'sms' || !!b.template, { message: CAMPAIGN_MESSAGES.templateNeeded, path: ['template'] })
  .refine((b) => b.channels === 'whatsapp' || !!b.smsText, { message: CAMPAIGN_MESSAGES.smsNeeded, path: ['smsText'] });
export type CampaignBody = z.infer<typeof campaignBodySchema>;

/** When a draft starts: now (left out or null), or a time to come. */
export const scheduleBodySchema = z.object({ startAt: z.iso.datetime({ offset: true }).nullish() });
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

/**
 * A campaign's messages by how far they got, per channel (docs/campaigns.md, "Results"). Each count includes the
 * later steps: `sent` counts the delivered, `delivered` the read. `replied`, `dialled`, `completed` and `optedOut`
 * count what the contact did after the message, within the attribution window.
 */
export const campaignFunnelSchema = z.object({
  queued: z.number(),
  sent: z.number(),
  delivered: z.number(),
  read: z.number(),
  replied: z.number(),
  dialled: z.number(),
  completed: z.number(),
  optedOut: z.number(),
  failed: z.number(),
  unknown: z.number(),
  skipped: z.number(),
  cancelled: z.number(),
  /** WhatsApp messages that failed and went by SMS instead (counted under sms). */
  fellBack: z.number(),
});
export type CampaignFunnel = z.infer<typeof campaignFunnelSchema>;

/** A cost in the operator's currency, per channel and in all. */
export const campaignCostSchema = z.object({ currency: z.string(), whatsapp: z.number(), sms: z.number(), total: z.number() });
export type CampaignCost = z.infer<typeof campaignCostSchema>;

export const smsPartsSchema = z.object({
  encoding: z.enum(['GSM-7', 'UCS-2']),
  parts: z.number(),
  length: z.number(),
  nonGsm: z.array(z.string()),
});

export const campaignEstimateSchema = z.object({
  reach: audienceReachSchema,
  /** The SMS as a contact gets it (`{dial}` filled): its parts; null without SMS. */
  smsParts: smsPartsSchema.nullable(),
  cost: campaignCostSchema.nullable(),
});
export type CampaignEstimate = z.infer<typeof campaignEstimateSchema>;

export const campaignFailureSchema = z.object({
  channel: z.enum(['whatsapp', 'sms']).nullable(),
  status: z.enum(['failed', 'unknown', 'skipped']),
  reason: z.string(),
  count: z.number(),
});
export type CampaignFailure = z.infer<typeof campaignFailureSchema>;

/**
 * The installation's campaign settings a form needs before a campaign exists: the opt-out line every campaign SMS
 * ends with ('' for none), and whether the operator priced messages.
 */
export const campaignSettingsSchema = z.object({ smsOptOut: z.string(), priced: z.boolean() });
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;

export const campaignTimelinePointSchema = z.object({ at: z.string(), sent: z.number(), failed: z.number() });

export const campaignSchema = z.object({
  campaignId: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  audienceId: z.string().nullable(),
  filter: audienceFilterReplySchema,
  channels: z.enum(CAMPAIGN_CHANNELS),
  botId: z.string().nullable(),
  linkId: z.string().nullable(),
  template: templateChoiceSchema.nullable(),
  entryMenuId: z.string().nullable(),
  ussdAppId: z.string().nullable(),
  smsText: z.string().nullable(),
  smsSender: z.string(),
  sendWindow: sendWindowSchema.nullable(),
  timeZone: z.string(),
  startAt: z.string().nullable(),
  pausedReason: z.string().nullable(),
  audienceSize: z.number().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Per channel and in all; null for a draft or a scheduled campaign (nothing queued yet). */
  results: z
    .object({
      whatsapp: campaignFunnelSchema,
      sms: campaignFunnelSchema,
      all: campaignFunnelSchema,
      /** What the messages sent so far cost (null when the operator set no prices). */
      cost: campaignCostSchema.nullable(),
      /** Messages sent and failed per time bucket (a minute, an hour or a day, as the campaign's span asks). */
      timeline: z.array(campaignTimelinePointSchema),
      /** Why messages failed or were not sent: the most common reasons first (at most 5), with their counts. */
      failures: z.array(campaignFailureSchema),
    })
    .nullable(),
  /** Before it starts (a draft, a scheduled campaign): whom it would reach, its SMS's parts, what it would cost. */
  estimate: campaignEstimateSchema.nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** What one contact would get: the channel chosen for them (or why none), and the message as it would read. */
export const campaignPreviewQuerySchema = z.object({
  msisdn: z.string({ error: "Give a contact's number" }).trim().min(1, "Give a contact's number").max(40),
});
export const campaignPreviewSchema = z.object({
  msisdn: z.string(),
  name: z.string().nullable(),
  channel: z.enum(['whatsapp', 'sms']).nullable(),
  /** Why nothing would go (never opted in, opted out, a template variable the contact has no value for). */
  reason: z.string().nullable(),
  text: z.string().nullable(),
});
export type CampaignPreview = z.infer<typeof campaignPreviewSchema>;

/** A test send to the signed-in builder's own number: per channel the campaign uses, whether it went. */
export const campaignTestSchema = z.object({
  to: z.string(),
  sent: z.array(z.object({ channel: z.enum(['whatsapp', 'sms']), ok: z.boolean(), error: z.string().nullable() })),
});
export type CampaignTest = z.infer<typeof campaignTestSchema>;

/**
 * A live event of `GET /api/campaigns/events`: a campaign of the account changed (it started, sent, fell back, paused,
 * ended, or someone changed it); its screens read it again.
 */
export const campaignEventSchema = z.object({
  type: z.literal('campaign_changed'),
  campaignId: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
});
export type CampaignEvent = z.infer<typeof campaignEventSchema>;
