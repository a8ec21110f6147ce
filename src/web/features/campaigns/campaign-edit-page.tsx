import { Alert, Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { createCampaign, updateCampaign } from '../../../shared/api/campaigns.calls';
import { CAMPAIGN_MESSAGES, type Campaign, type CampaignChannels, campaignBodySchema } from '../../../shared/api/campaigns.schema';
import { SMS_SENDER_MESSAGE, isSmsSender } from '../../../shared/sms-sender';
import { templateKey } from '../../../shared/whatsapp-templates';
import { BackLink } from '../../components/back-link';
import { FormAlert } from '../../components/form-alert';
import { listTimeZones } from '../../components/office-hours-card';
import { PageHeader } from '../../components/page-header';
import { PageLoading } from '../../components/page-loading';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { useLeaveGuard } from '../../lib/confirm-discard';
import { showToast } from '../../lib/toast';
import { AudienceReachPanel } from './audience-reach-panel';
import { CampaignChannelsControl } from './campaign-channels-control';
import { CampaignCsvUpload } from './campaign-csv-upload';
import { readIssues } from './campaign-issues';
import { CampaignLoadError } from './campaign-load-error';
import { CampaignSmsFields } from './campaign-sms-fields';
import { CampaignWhatsAppFields, type WhatsAppDraft, toValues } from './campaign-whatsapp-fields';
import {
  AUDIENCES_PATH,
  CAMPAIGNS_KEY,
  CAMPAIGNS_PATH,
  CHANNELS_DESCRIPTIONS,
  DEFAULT_SMS_TEXT,
  NEW_AUDIENCE_PARAM,
  campaignPath,
  useAccountApps,
  useAudienceReach,
  useAudiences,
  useCampaign,
} from './campaigns.api';

interface CampaignDraft {
  name: string;
  audienceId: string | null;
  channels: CampaignChannels;
  whatsapp: WhatsAppDraft;
  ussdAppId: string | null;
  smsText: string;
  smsSender: string;
  timeZone: string;
  hasWindow: boolean;
  windowFrom: string;
  windowTo: string;
}

const DISCARD_QUESTION = 'This campaign has changes that are not saved. Leave and lose them?';

/** The schema paths a field of the form answers for. */
const FIELD_PATHS: Partial<Record<keyof CampaignDraft, string[]>> = {
  whatsapp: ['botId', 'template', 'linkId', 'entryMenuId'],
  hasWindow: ['sendWindow'],
  windowFrom: ['sendWindow'],
  windowTo: ['sendWindow'],
};

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function toDraft(campaign: Campaign | null): CampaignDraft {
  const typed: Record<string, string> = {};
  for (const [place, values] of Object.entries(campaign?.template?.variables ?? {}))
    for (const [name, value] of Object.entries(values ?? {})) typed[`${place}:${name}`] = value;
  return {
    name: campaign?.name ?? '',
    audienceId: campaign?.audienceId ?? null,
    channels: campaign?.channels ?? 'whatsapp_then_sms',
    whatsapp: {
      botId: campaign?.botId ?? null,
      linkId: campaign?.linkId ?? null,
      templateChoice: campaign?.template ? templateKey(campaign.template) : null,
      typed,
      entryMenuId: campaign?.entryMenuId ?? null,
    },
    ussdAppId: campaign?.ussdAppId ?? null,
    smsText: campaign?.smsText ?? DEFAULT_SMS_TEXT,
    smsSender: campaign?.smsSender ?? '',
    timeZone: campaign?.timeZone ?? browserTimeZone(),
    hasWindow: !!campaign?.sendWindow,
    windowFrom: campaign?.sendWindow?.from ?? '08:00',
    windowTo: campaign?.sendWindow?.to ?? '20:00',
  };
}

/** The body the calls take: the half a channel order does not use is left out. */
function toBody(draft: CampaignDraft) {
  const usesWhatsApp = draft.channels !== 'sms';
  const usesSms = draft.channels !== 'whatsapp';
  const [name, language] = draft.whatsapp.templateChoice?.split(':') ?? [];
  return {
    name: draft.name,
    audienceId: draft.audienceId ?? '',
    channels: draft.channels,
    botId: usesWhatsApp ? draft.whatsapp.botId : null,
    linkId: usesWhatsApp ? draft.whatsapp.linkId : null,
    template: usesWhatsApp && name && language ? { name, language, variables: toValues(draft.whatsapp.typed) } : null,
    entryMenuId: usesWhatsApp ? draft.whatsapp.entryMenuId : null,
    ussdAppId: draft.ussdAppId,
    smsText: usesSms ? draft.smsText : null,
    smsSender: usesSms ? draft.smsSender : '',
    sendWindow: draft.hasWindow ? { from: draft.windowFrom, to: draft.windowTo } : null,
    timeZone: draft.timeZone,
  };
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-label={title}>
      <Stack gap="sm">
        <div>
          <Title order={2} fz="lg">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/** New campaign (/campaigns/new) and Edit campaign (/campaigns/:id/edit, a draft only). */
export function CampaignEditPage() {
  const { campaignId } = useParams();
  if (!campaignId) return <CampaignForm campaign={null} />;
  return <CampaignEditLoader campaignId={campaignId} />;
}

function CampaignEditLoader({ campaignId }: { campaignId: string }) {
  const campaign = useCampaign(campaignId);
  if (campaign.isPending) return <PageLoading />;
  if (campaign.error) return <CampaignLoadError error={campaign.error} onRetry={() => void campaign.refetch()} />;
  if (campaign.data.status !== 'draft')
    return (
      <Stack gap="md">
        <BackLink to={campaignPath(campaignId)} label={campaign.data.name} />
        <Alert color="orange" title="This campaign cannot be changed" data-testid="campaign-not-draft">
          {CAMPAIGN_MESSAGES.notDraft}
        </Alert>
      </Stack>
    );
  return <CampaignForm campaign={campaign.data} />;
}

function CampaignForm({ campaign }: { campaign: Campaign | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [initial] = useState(() => toDraft(campaign));
  const [draft, setDraft] = useState(initial);
  // The saved campaign's id: its page opens once the form no longer counts as changed.
  const [savedId, setSavedId] = useState<string | null>(null);
  useLeaveGuard(savedId === null && JSON.stringify(draft) !== JSON.stringify(initial), DISCARD_QUESTION);
  useEffect(() => {
    if (savedId) void navigate(campaignPath(savedId));
  }, [savedId, navigate]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const audiences = useAudiences();
  const apps = useAccountApps();
  const ussdApps = (apps.data ?? []).filter((a) => a.channel === 'ussd');
  // A new campaign's SMS points to the account's first USSD app.
  const ussdAppId = campaign || draft.ussdAppId ? draft.ussdAppId : (ussdApps[0]?.appId ?? null);
  const reach = useAudienceReach(draft.audienceId ? { audienceId: draft.audienceId, channels: draft.channels } : null);
  const set = <K extends keyof CampaignDraft>(field: K, value: CampaignDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    // A field's message goes once it is changed; the others stay until the next Save.
    const paths = FIELD_PATHS[field] ?? [field];
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([path]) => !paths.some((p) => path.startsWith(p)))));
  };

  async function save() {
    const body = toBody({ ...draft, ussdAppId });
    const parsed = campaignBodySchema.safeParse(body);
    const issues = parsed.success ? {} : readIssues(parsed.error);
    // The schema takes any sender of 15 characters; the SMS service refuses each message of one it cannot send from.
    if (!isSmsSender(body.smsSender)) issues.smsSender ??= SMS_SENDER_MESSAGE;
    if (!parsed.success || Object.keys(issues).length > 0) {
      setErrors(issues);
      setRefusal(null);
      return;
    }
    setErrors({});
    setRefusal(null);
    setSaving(true);
    const reply = campaign
      ? await call(updateCampaign, { params: { campaignId: campaign.campaignId }, body: parsed.data })
      : await call(createCampaign, { body: parsed.data });
    setSaving(false);
    if (!isOk(reply) || !reply.data) {
      setRefusal(failureText(reply, 'The campaign could not be saved.'));
      return;
    }
    showToast({ color: 'teal', title: 'Draft saved', message: `${reply.data.name} is saved: schedule it from its page.` });
    await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    setSavedId(reply.data.campaignId);
  }

  const usesWhatsApp = draft.channels !== 'sms';
  const usesSms = draft.channels !== 'whatsapp';
  return (
    <Stack gap="xl" maw={860}>
      <Stack gap="xs">
        <BackLink to={campaign ? campaignPath(campaign.campaignId) : CAMPAIGNS_PATH} label={campaign ? campaign.name : 'Campaigns'} />
        <PageHeader
          title={campaign ? `Edit ${campaign.name}` : 'New campaign'}
          description="A draft: who it goes to, on which channels, with which message and when it may send. Schedule it from its page once saved."
        />
      </Stack>
      <form
        noValidate
        aria-label={campaign ? 'Edit campaign' : 'New campaign'}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Stack gap="lg">
          <FormAlert
            message={refusal ?? (Object.keys(errors).length > 0 ? 'Some fields need a change: see the messages below them.' : null)}
            onClose={() => {
              setRefusal(null);
              setErrors({});
            }}
          />
          <Section title="Audience">
            <TextInput
              label="Name"
              placeholder="December offers"
              withAsterisk
              maxLength={80}
              value={draft.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              error={errors.name}
            />
            <Select
              label="Audience"
              placeholder={audiences.data?.length === 0 ? 'You have no audience yet' : 'Choose an audience'}
              withAsterisk
              data={(audiences.data ?? []).map((a) => ({ value: a.audienceId, label: a.name }))}
              value={draft.audienceId}
              onChange={(audienceId) => set('audienceId', audienceId)}
              searchable
              error={errors.audienceId ?? audiences.error?.message}
              description={
                <Group component="span" gap={6}>
                  <Anchor component={Link} to={`${AUDIENCES_PATH}?${NEW_AUDIENCE_PARAM}=1`} size="xs">
                    Make a new audience
                  </Anchor>
                  <span aria-hidden>·</span>
                  <CampaignCsvUpload
                    audiences={audiences.data ?? []}
                    onAudience={(audienceId) => set('audienceId', audienceId)}
                    onRefusal={setRefusal}
                  />
                </Group>
              }
            />
            <Stack gap={6} role="group" aria-label="Channels">
              <Text size="sm" fw={500}>
                Channels
              </Text>
              <CampaignChannelsControl label="Channels" value={draft.channels} onChange={(channels) => set('channels', channels)} />
              <Text size="xs" c="dimmed">
                {CHANNELS_DESCRIPTIONS[draft.channels]}
              </Text>
            </Stack>
            <AudienceReachPanel
              reach={draft.audienceId ? reach.data : undefined}
              isFetching={reach.isFetching}
              error={reach.error}
              idleText="Choose an audience to see how many each channel reaches."
            />
          </Section>
          {usesWhatsApp && (
            <Section title="WhatsApp message" description="Sent to the contacts who opted in to WhatsApp.">
              <CampaignWhatsAppFields draft={draft.whatsapp} onChange={(whatsapp) => set('whatsapp', whatsapp)} errors={errors} />
            </Section>
          )}
          {usesSms && (
            <Section
              title="SMS"
              description={
                draft.channels === 'sms'
                  ? 'Sent to the contacts who opted in to SMS.'
                  : 'Sent to the contacts who opted in to SMS but not to WhatsApp, and to those WhatsApp could not reach.'
              }
            >
              <CampaignSmsFields
                ussdApps={ussdApps}
                ussdAppId={ussdAppId}
                smsText={draft.smsText}
                smsSender={draft.smsSender}
                onChange={(change) => {
                  if (change.smsText !== undefined) set('smsText', change.smsText);
                  if (change.smsSender !== undefined) set('smsSender', change.smsSender);
                  set('ussdAppId', change.ussdAppId === undefined ? ussdAppId : change.ussdAppId);
                }}
                errors={errors}
              />
            </Section>
          )}
          <Section
            title="When"
            description="The start time is chosen when you schedule the campaign; the hours below hold every day it sends."
          >
            <Select
              label="Time zone"
              data={listTimeZones(draft.timeZone)}
              value={draft.timeZone}
              onChange={(zone) => set('timeZone', zone ?? browserTimeZone())}
              searchable
              allowDeselect={false}
              maw={360}
              error={errors.timeZone}
            />
            <Switch
              label="Send only between set hours"
              checked={draft.hasWindow}
              onChange={(e) => set('hasWindow', e.currentTarget.checked)}
            />
            {draft.hasWindow && (
              <SimpleGrid cols={2} spacing="sm" maw={360}>
                <TimeInput
                  label="From"
                  value={draft.windowFrom}
                  onChange={(e) => set('windowFrom', e.currentTarget.value)}
                  error={errors['sendWindow.from']}
                />
                <TimeInput
                  label="To"
                  value={draft.windowTo}
                  onChange={(e) => set('windowTo', e.currentTarget.value)}
                  error={errors['sendWindow.to']}
                />
              </SimpleGrid>
            )}
          </Section>
          <Group justify="flex-end">
            <Button type="submit" loading={isSaving} leftSection={<IconDeviceFloppy size={16} />}>
              Save draft
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
