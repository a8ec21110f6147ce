import { Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { scheduleCampaign } from '../../../shared/api/campaigns.calls';
import { CAMPAIGN_MESSAGES, type Campaign } from '../../../shared/api/campaigns.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { isoToZonedTime, zonedTimeToIso } from './campaign-time';
import { CAMPAIGNS_KEY } from './campaigns.api';

interface CampaignScheduleDialogProps {
  campaign: Campaign;
  opened: boolean;
  onClose: () => void;
}

/** Schedule: now, or at a date and time in the campaign's time zone. */
export function CampaignScheduleDialog({ campaign, opened, onClose }: CampaignScheduleDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Schedule ${campaign.name}`} centered>
      {opened && <ScheduleForm campaign={campaign} onClose={onClose} />}
    </Modal>
  );
}

function ScheduleForm({ campaign, onClose }: Omit<CampaignScheduleDialogProps, 'opened'>) {
  const queryClient = useQueryClient();
  const [when, setWhen] = useState<'now' | 'later'>('now');
  // An hour from now, on the zone's clock, to start from.
  const [at, setAt] = useState(() => isoToZonedTime(new Date(Date.now() + 3_600_000).toISOString(), campaign.timeZone));
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function schedule() {
    const startAt = when === 'now' ? null : zonedTimeToIso(at, campaign.timeZone);
    if (when === 'later' && (!startAt || new Date(startAt).getTime() <= Date.now())) {
      setError(CAMPAIGN_MESSAGES.startPast);
      return;
    }
    setError(null);
    setSaving(true);
    const reply = await call(scheduleCampaign, { params: { campaignId: campaign.campaignId }, body: { startAt } });
    setSaving(false);
    if (!isOk(reply)) {
      setRefusal(failureText(reply, 'The campaign could not be scheduled.'));
      return;
    }
    showToast({ color: 'teal', title: 'Campaign scheduled', message: reply.message || 'Campaign scheduled' });
    await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    onClose();
  }

  return (
    <form
      noValidate
      aria-label="Schedule the campaign"
      onSubmit={(event) => {
        event.preventDefault();
        void schedule();
      }}
    >
      <Stack gap="md">
        <FormAlert message={refusal} onClose={() => setRefusal(null)} />
        <Text size="sm">
          Scheduling fixes the campaign: its audience is counted when it starts and it can no longer be edited, only paused, resumed or
          cancelled.
        </Text>
        <Radio.Group label="Start" value={when} onChange={(v) => setWhen(v as 'now' | 'later')}>
          <Stack gap="xs" mt={6}>
            <Radio value="now" label="Now" />
            <Radio value="later" label="At a date and time" />
          </Stack>
        </Radio.Group>
        {when === 'later' && (
          <TextInput
            type="datetime-local"
            label="Starts at"
            description={`On the clock of ${campaign.timeZone}, the campaign's time zone`}
            value={at}
            onChange={(e) => setAt(e.currentTarget.value)}
            error={error}
          />
        )}
        <DialogActions submitLabel={when === 'now' ? 'Start now' : 'Schedule'} onCancel={onClose} isSubmitting={isSaving} />
      </Stack>
    </form>
  );
}
