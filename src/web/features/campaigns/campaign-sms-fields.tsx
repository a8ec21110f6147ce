import { Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import type { App } from '../../../shared/api/apps.schema';
import { countSmsParts, type SmsParts } from '../../../shared/sms-parts';
import { fillDial } from './campaigns.api';

/** The dial string an SMS names for a USSD app. */
export const dialOf = (app: Pick<App, 'shortCode' | 'customShortCode'> | undefined) => app?.shortCode || app?.customShortCode || null;

/** "2 parts, GSM-7, 180 characters"; UCS-2 names the characters that made it so. */
export function describeSmsParts(parts: SmsParts): string {
  const counted = `${parts.parts} ${parts.parts === 1 ? 'part' : 'parts'}, ${parts.encoding}, ${parts.length} ${parts.length === 1 ? 'character' : 'characters'}`;
  return parts.encoding === 'UCS-2' && parts.nonGsm.length > 0
    ? `${counted}: UCS-2 because of ${[...new Set(parts.nonGsm)].map((c) => `"${c}"`).join(', ')}`
    : counted;
}

interface CampaignSmsFieldsProps {
  ussdApps: App[];
  ussdAppId: string | null;
  smsText: string;
  onChange: (change: { ussdAppId?: string | null; smsText?: string }) => void;
  errors: Record<string, string>;
}

/**
 * The SMS half of a campaign: the USSD app it points to ({dial} in the text is its dial string) and the text, with
 * how many parts it is sent as, counted on the text as it goes out.
 */
export function CampaignSmsFields({ ussdApps, ussdAppId, smsText, onChange, errors }: CampaignSmsFieldsProps) {
  const dial = dialOf(ussdApps.find((a) => a.appId === ussdAppId));
  const sent = fillDial(smsText, dial);
  const parts = countSmsParts(sent);
  return (
    <Stack gap="sm">
      <Select
        label="USSD app"
        description="The app the SMS sends people to: {dial} in the text is its dial string, and its sessions count as dialled"
        placeholder={ussdApps.length === 0 ? 'You have no USSD app' : 'Choose the app'}
        data={ussdApps.map((a) => ({ value: a.appId, label: `${a.appName}${dialOf(a) ? ` (${dialOf(a)})` : ''}` }))}
        value={ussdAppId}
        onChange={(value) => onChange({ ussdAppId: value })}
        clearable
        searchable
      />
      <Textarea
        label="SMS text"
        withAsterisk
        autosize
        minRows={2}
        maxLength={918}
        value={smsText}
        onChange={(e) => onChange({ smsText: e.currentTarget.value })}
        error={errors.smsText}
        description={
          <span data-testid="sms-parts" aria-live="polite">
            {describeSmsParts(parts)}
          </span>
        }
        inputWrapperOrder={['label', 'input', 'description', 'error']}
      />
      {smsText.includes('{dial}') && (
        <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
          <Text size="xs" c="dimmed" mb={4}>
            What the contact reads
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="sms-preview">
            {dial ? sent : 'Choose the USSD app: {dial} becomes its dial string.'}
          </Text>
        </Paper>
      )}
    </Stack>
  );
}
