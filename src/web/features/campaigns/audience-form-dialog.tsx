import {
  ActionIcon,
  Autocomplete,
  Button,
  Divider,
  Group,
  Modal,
  NumberInput,
  type NumberInputProps,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createAudience, updateAudience } from '../../../shared/api/campaigns.calls';
import { type Audience, type AudienceBody, type CampaignChannels, audienceBodySchema } from '../../../shared/api/campaigns.schema';
import { findContactAttributeKeys } from '../../../shared/api/contacts.calls';
import { CONSENT_CHANNELS } from '../../../shared/contact-consent';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { AudienceReachPanel } from './audience-reach-panel';
import { CampaignChannelsControl } from './campaign-channels-control';
import { AUDIENCES_KEY, CONSENT_CHANNEL_LABELS, useAccountApps, useAudienceReach } from './campaigns.api';
import { readIssues } from './campaign-issues';

interface AttributeRow {
  key: string;
  value: string;
}

interface AudienceDraft {
  name: string;
  attributes: AttributeRow[];
  consentChannel: string | null;
  consentStatus: string | null;
  seenOn: string | null;
  seenWithinDays: number | string;
  sessionAppId: string | null;
  sessionStatus: string | null;
  sessionWithinDays: number | string;
}

const CHANNEL_OPTIONS = CONSENT_CHANNELS.map((value) => ({ value, label: CONSENT_CHANNEL_LABELS[value] }));
const CONSENT_OPTIONS = [
  { value: 'in', label: 'Opted in' },
  { value: 'out', label: 'Opted out' },
  { value: 'never', label: 'Never asked' },
];
const SESSION_OPTIONS = [
  { value: 'completed', label: 'Completed' },
  { value: 'abandoned', label: 'Abandoned' },
];

function toDraft(audience: Audience | null): AudienceDraft {
  const f = audience?.filter ?? {};
  return {
    name: audience?.name ?? '',
    attributes: (f.attribute ?? []).map((a) => ({ key: a.slice(0, a.indexOf('=')), value: a.slice(a.indexOf('=') + 1) })),
    consentChannel: f.consentChannel ?? null,
    consentStatus: f.consentStatus ?? null,
    seenOn: f.seenOn ?? null,
    seenWithinDays: f.seenWithinDays ?? '',
    sessionAppId: f.session?.appId ?? null,
    sessionStatus: f.session?.status ?? null,
    sessionWithinDays: f.session?.withinDays ?? '',
  };
}

const days = (value: number | string) => (value === '' ? undefined : Number(value));

/** The filter as the calls take it (checked by audienceBodySchema before it is sent). */
function toFilter(draft: AudienceDraft, search: string | undefined): Record<string, unknown> {
  const attribute = draft.attributes.filter((a) => a.key.trim()).map((a) => `${a.key.trim()}=${a.value}`);
  return {
    ...(search ? { search } : {}),
    ...(attribute.length ? { attribute } : {}),
    ...(draft.consentChannel ? { consentChannel: draft.consentChannel } : {}),
    ...(draft.consentStatus ? { consentStatus: draft.consentStatus } : {}),
    ...(draft.seenOn ? { seenOn: draft.seenOn } : {}),
    ...(days(draft.seenWithinDays) ? { seenWithinDays: days(draft.seenWithinDays) } : {}),
    ...(draft.sessionAppId
      ? {
          session: {
            appId: draft.sessionAppId,
            status: draft.sessionStatus ?? 'completed',
            ...(days(draft.sessionWithinDays) ? { withinDays: days(draft.sessionWithinDays) } : {}),
          },
        }
      : {}),
  };
}

interface AudienceFormDialogProps {
  /** The audience edited; null for a new one. */
  audience: Audience | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (audience: Audience) => void;
}

/** New audience / Edit audience: a name and the filter, with the filter's live reach for a channel order. */
export function AudienceFormDialog({ audience, opened, onClose, onSaved }: AudienceFormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={audience ? `Edit ${audience.name}` : 'New audience'} centered size="xl">
      {opened && <AudienceForm audience={audience} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function AudienceForm({ audience, onClose, onSaved }: Omit<AudienceFormDialogProps, 'opened'>) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => toDraft(audience));
  const [channels, setChannels] = useState<CampaignChannels>('whatsapp_then_sms');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const apps = useAccountApps();
  const keys = useQuery(callQuery(findContactAttributeKeys, {}, 'The contact fields could not be loaded.'));
  const filter = toFilter(draft, audience?.filter.search);
  const reach = useAudienceReach({ filter, channels });

  const set = <K extends keyof AudienceDraft>(field: K, value: AudienceDraft[K]) => setDraft((d) => ({ ...d, [field]: value }));
  const setAttribute = (index: number, row: Partial<AttributeRow>) =>
    set(
      'attributes',
      draft.attributes.map((a, i) => (i === index ? { ...a, ...row } : a)),
    );

  async function save() {
    const parsed = audienceBodySchema.safeParse({ name: draft.name, filter });
    if (!parsed.success) {
      const issues = readIssues(parsed.error);
      setErrors(issues);
      setRefusal(Object.entries(issues).find(([path]) => path !== 'name')?.[1] ?? null);
      return;
    }
    setErrors({});
    setSaving(true);
    const body: AudienceBody = parsed.data;
    const reply = audience
      ? await call(updateAudience, { params: { audienceId: audience.audienceId }, body })
      : await call(createAudience, { body });
    setSaving(false);
    if (!isOk(reply) || !reply.data) {
      setRefusal(failureText(reply, 'The audience could not be saved.'));
      return;
    }
    showToast({ color: 'teal', title: 'Audience saved', message: `${reply.data.name} is saved.` });
    await queryClient.invalidateQueries({ queryKey: AUDIENCES_KEY });
    onSaved?.(reply.data);
    onClose();
  }

  const appOptions = (apps.data ?? []).map((a) => ({
    value: a.appId,
    label: `${a.appName} (${a.channel === 'whatsapp' ? 'WhatsApp bot' : 'USSD'})`,
  }));
  return (
    <form
      noValidate
      aria-label={audience ? 'Edit audience' : 'New audience'}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        <FormAlert message={refusal} onClose={() => setRefusal(null)} />
        <TextInput
          label="Name"
          placeholder="Gold members in Accra"
          withAsterisk
          maxLength={80}
          data-autofocus
          value={draft.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
        />
        <Stack gap={6} role="group" aria-label="Contact fields">
          <Divider label="Contact fields" labelPosition="left" />
          {draft.attributes.length === 0 && (
            <Text size="sm" c="dimmed">
              Any field. Add a condition to keep the contacts whose field has a value (tier = gold).
            </Text>
          )}
          {draft.attributes.map((row, index) => (
            <Group key={index} gap="xs" wrap="nowrap" align="flex-end">
              <Autocomplete
                label="Field"
                aria-label={`Field ${index + 1}`}
                placeholder="tier"
                data={(keys.data?.keys ?? []).map((k) => k.key)}
                value={row.key}
                onChange={(key) => setAttribute(index, { key })}
                style={{ flex: 1 }}
              />
              <TextInput
                label="equals"
                aria-label={`Value ${index + 1}`}
                placeholder="gold"
                value={row.value}
                onChange={(e) => setAttribute(index, { value: e.currentTarget.value })}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                mb={2}
                aria-label={`Remove condition ${index + 1}`}
                onClick={() =>
                  set(
                    'attributes',
                    draft.attributes.filter((_, i) => i !== index),
                  )
                }
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {draft.attributes.length < 5 && (
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => set('attributes', [...draft.attributes, { key: '', value: '' }])}
              style={{ alignSelf: 'flex-start' }}
            >
              Add a condition
            </Button>
          )}
        </Stack>
        <Divider label="Consent and activity" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Consent on"
            placeholder="Any channel"
            data={CHANNEL_OPTIONS}
            value={draft.consentChannel}
            onChange={(value) =>
              setDraft((d) => ({ ...d, consentChannel: value, consentStatus: value ? (d.consentStatus ?? 'in') : null }))
            }
            clearable
          />
          <Select
            label="Consent"
            placeholder="Any"
            data={CONSENT_OPTIONS}
            value={draft.consentStatus}
            onChange={(value) => set('consentStatus', value)}
            disabled={!draft.consentChannel}
            error={errors.consentChannel ?? errors[''] ?? undefined}
          />
          <Select
            label="Seen on"
            placeholder="Any channel"
            data={CHANNEL_OPTIONS}
            value={draft.seenOn}
            onChange={(v) => set('seenOn', v)}
            clearable
          />
          <DaysInput
            label="Seen in the last"
            value={draft.seenWithinDays}
            onChange={(v) => set('seenWithinDays', v)}
            error={errors.seenWithinDays}
          />
        </SimpleGrid>
        <Stack gap={6} role="group" aria-label="Sessions">
          <Divider label="Sessions" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Select
              label="In the app"
              placeholder="Any app"
              data={appOptions}
              value={draft.sessionAppId}
              onChange={(value) =>
                setDraft((d) => ({ ...d, sessionAppId: value, sessionStatus: value ? (d.sessionStatus ?? 'completed') : null }))
              }
              clearable
              searchable
              error={apps.error ? apps.error.message : errors['session.appId']}
            />
            <Select
              label="A session that"
              data={SESSION_OPTIONS}
              value={draft.sessionStatus}
              onChange={(v) => set('sessionStatus', v)}
              disabled={!draft.sessionAppId}
              allowDeselect={false}
            />
            <DaysInput
              label="Within the last"
              value={draft.sessionWithinDays}
              onChange={(v) => set('sessionWithinDays', v)}
              disabled={!draft.sessionAppId}
              error={errors['session.withinDays']}
            />
          </SimpleGrid>
        </Stack>
        <Stack gap={6}>
          <CampaignChannelsControl label="Channels to count the reach for" value={channels} onChange={setChannels} />
          <AudienceReachPanel reach={reach.data} isFetching={reach.isFetching} error={reach.error} />
        </Stack>
        <DialogActions submitLabel="Save audience" onCancel={onClose} isSubmitting={isSaving} />
      </Stack>
    </form>
  );
}

/** A number of days (1 to 3,650, empty for any time), as the audience filter's "in the last N days" takes it. */
function DaysInput(props: Pick<NumberInputProps, 'label' | 'value' | 'onChange' | 'disabled' | 'error'>) {
  return (
    <NumberInput
      placeholder="Any time"
      rightSection={
        <Text size="xs" c="dimmed">
          days
        </Text>
      }
      rightSectionWidth={48}
      min={1}
      max={3650}
      allowDecimal={false}
      {...props}
    />
  );
}
