import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { findApps } from '../../../shared/api/apps.calls';
import { findAudiences, findCampaigns, getAudienceReach, getCampaign, getCampaignSettings } from '../../../shared/api/campaigns.calls';
import {
  type Audience,
  type AudienceFilter,
  type CampaignChannels,
  type CampaignStatus,
  campaignEventSchema,
  reachBodySchema,
} from '../../../shared/api/campaigns.schema';
import type { ConsentChannel } from '../../../shared/contact-consent';
import { readData } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import type { StreamState } from '../../lib/event-stream';
import { useLiveStream } from '../../lib/use-live-stream';

/** The campaigns area's screens (docs/campaigns.md, "The console"). */
export const CAMPAIGNS_PATH = '/campaigns';
export const AUDIENCES_PATH = '/campaigns/audiences';
export const NEW_CAMPAIGN_PATH = '/campaigns/new';
/** `?new=1` on the audiences' address opens the New audience form at once. */
export const NEW_AUDIENCE_PARAM = 'new';
export const campaignPath = (campaignId: string) => `${CAMPAIGNS_PATH}/${encodeURIComponent(campaignId)}`;
export const campaignEditPath = (campaignId: string) => `${campaignPath(campaignId)}/edit`;

/** Every campaign query sits below this key, every audience query below the next (campaigns.calls.ts). */
export const CAMPAIGNS_KEY = ['campaigns'] as const;
export const AUDIENCES_KEY = ['audiences'] as const;

export const CHANNELS_LABELS: Record<CampaignChannels, string> = {
  whatsapp_then_sms: 'WhatsApp, then SMS',
  whatsapp: 'WhatsApp only',
  sms: 'SMS only',
};

/** What each channel order does with a contact, for the segmented choice's description. */
export const CHANNELS_DESCRIPTIONS: Record<CampaignChannels, string> = {
  whatsapp_then_sms: 'WhatsApp to contacts who opted in to it; SMS to the others who opted in to SMS.',
  whatsapp: 'WhatsApp only, to contacts who opted in to it.',
  sms: 'SMS only, to contacts who opted in to it.',
};

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  running: 'Sending',
  paused: 'Paused',
  done: 'Done',
  cancelled: 'Cancelled',
};
export const STATUS_COLORS: Record<CampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  running: 'teal',
  paused: 'orange',
  done: 'green',
  cancelled: 'red',
};

export const CONSENT_CHANNEL_LABELS: Record<ConsentChannel, string> = { ussd: 'USSD', whatsapp: 'WhatsApp', sms: 'SMS' };
const CONSENT_WORDS = { in: 'opted in to', out: 'opted out of', never: 'never asked about' } as const;

/** The SMS a new campaign starts with: `{dial}` becomes the USSD app's dial string when it is sent. */
export const DEFAULT_SMS_TEXT = 'Dial {dial} to see our offers';
export const DIAL_PLACEHOLDER = '{dial}';

/** The text an SMS goes out as: `{dial}` replaced by the dial string (left as written without one). */
export const fillDial = (text: string, dial: string | null) => (dial ? text.split(DIAL_PLACEHOLDER).join(dial) : text);

/** The text a campaign SMS goes out as: the text (its dial string filled), then the installation's opt-out line, if any. */
export const withOptOut = (text: string, optOut: string) => (optOut ? `${text}\n${optOut}` : text);

/** A CSV file's name as the value of its list tag: `Spring Offers.csv` -> `spring-offers` (`csv` when nothing is left). */
export const listSlugOf = (fileName: string) =>
  fileName
    .replace(/\.csv$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'csv';

/** The tag a campaign's CSV gives each of its contacts, and the attribute its audience is: `list=spring-offers`. */
export const listTagOf = (fileName: string) => `list=${listSlugOf(fileName)}`;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * An audience's filter in words: "tier = gold; opted in to WhatsApp; seen in the last 30 days". `appNames` names
 * the apps a session filter points to (the id when the app is gone).
 */
export function describeAudienceFilter(filter: Audience['filter'], appNames: Map<string, string> = new Map()): string {
  const parts: string[] = [];
  if (filter.search) parts.push(`matching "${filter.search}"`);
  for (const attribute of filter.attribute ?? []) {
    const at = attribute.indexOf('=');
    parts.push(`${attribute.slice(0, at)} = ${attribute.slice(at + 1)}`);
  }
  if (filter.consentChannel && filter.consentStatus)
    parts.push(`${CONSENT_WORDS[filter.consentStatus]} ${CONSENT_CHANNEL_LABELS[filter.consentChannel]}`);
  if (filter.seenOn) parts.push(`seen on ${CONSENT_CHANNEL_LABELS[filter.seenOn]}`);
  if (filter.seenWithinDays) parts.push(`seen in the last ${plural(filter.seenWithinDays, 'day')}`);
  if (filter.session) {
    const app = appNames.get(filter.session.appId) ?? filter.session.appId;
    const within = filter.session.withinDays ? ` in the last ${plural(filter.session.withinDays, 'day')}` : '';
    parts.push(`${filter.session.status} a session of ${app}${within}`);
  }
  return parts.length === 0 ? 'Every contact' : parts.join('; ');
}

/** GET /api/audiences. */
export function useAudiences() {
  return useQuery(callQuery(findAudiences, {}, 'The audiences could not be loaded.'));
}

/** GET /api/campaigns/settings: the line every campaign SMS ends with, whether messages are priced. */
export function useCampaignSettings() {
  return useQuery({
    ...callQuery(getCampaignSettings, {}, 'The campaign settings could not be loaded.'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** GET /api/campaigns. */
export function useCampaigns() {
  return useQuery(callQuery(findCampaigns, {}, 'The campaigns could not be loaded.'));
}

/**
 * Replies, dials and receipts count for a campaign without an event being told: a sending campaign's page reads it
 * again this often besides the live stream.
 */
export const ATTRIBUTION_REFRESH_MS = 30_000;

/** GET /api/campaigns/{campaignId}; read again on each of its live events, and every 30 s while it sends. */
export function useCampaign(campaignId: string) {
  return useQuery({
    ...callQuery(getCampaign, { params: { campaignId } }, 'The campaign could not be loaded.'),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? ATTRIBUTION_REFRESH_MS : false),
  });
}

/**
 * A live screen reads a campaign again at most every 2 s, and the list (a funnel per campaign) every 5 s, however
 * often the dispatchers tell: each read counts the funnel over every message.
 */
export const CAMPAIGN_REFRESH_MS = 2000;
export const LIST_REFRESH_MS = 5000;

/**
 * The account's campaigns' live stream (GET /api/campaigns/events) while a campaigns screen is open: a change reads
 * the campaign it names again (at most every 2 s) and the list (at most every 5 s); each (re)connection reads them all.
 */
export function useCampaignsLive(): StreamState {
  const queryClient = useQueryClient();
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  /** Reads the query of `key` again once `ms` have passed, however many events come in between. */
  const readSoon = (key: readonly string[], ms: number) => {
    const id = key.join('/');
    if (timers.current.has(id)) return;
    timers.current.set(
      id,
      setTimeout(() => {
        timers.current.delete(id);
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
      }, ms),
    );
  };
  return useLiveStream('/api/campaigns/events', campaignEventSchema, {
    onEvent: (event) => {
      readSoon([...CAMPAIGNS_KEY, event.campaignId], CAMPAIGN_REFRESH_MS);
      readSoon(CAMPAIGNS_KEY, LIST_REFRESH_MS);
    },
    onOpen: () => void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY }),
  });
}

/** GET /api/getAllApps: the account's apps, for the session filter (any app) and the SMS's dial string (USSD apps). */
export function useAccountApps() {
  return useQuery(callQuery(findApps, {}, 'The apps could not be loaded.'));
}

export type ReachRequest = z.input<typeof reachBodySchema>;

/**
 * POST /api/audiences/reach, asked again 400 ms after the filter or the channels stop changing; nothing is asked
 * while the filter is not one the server would take (a consent channel without its status).
 */
export function useAudienceReach(
  request: { audienceId?: string; filter?: AudienceFilter | Record<string, unknown>; channels: CampaignChannels } | null,
) {
  const [debounced] = useDebouncedValue(request, 400);
  const parsed = debounced ? reachBodySchema.safeParse(debounced) : null;
  return useQuery({
    queryKey: [...AUDIENCES_KEY, 'reach', parsed?.success ? parsed.data : null],
    queryFn: async () => readData(await call(getAudienceReach, { body: parsed!.data! }), 'The reach could not be counted.'),
    enabled: !!parsed?.success,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
