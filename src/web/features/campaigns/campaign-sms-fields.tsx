import { Paper, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { App } from '../../../shared/api/apps.schema';
import { countSmsParts, type SmsParts } from '../../../shared/sms-parts';
import { fillDial, useCampaignSettings, withOptOut } from './campaigns.api';

/** The dial string an SMS names for a USSD app. */
export const dialOf = (app: Pick<App, 'shortCode' | 'customShortCode'> | undefined) => app?.shortCode || app?.customShortCode || null;

/** "2 parts, GSM-7, 180 characters"; UCS-2 names the characters that made it so. */
export function describeSmsParts(parts: SmsParts): string {
  const counted = `${parts.parts} ${parts.parts === 1 ? 'part' : 'parts'}, ${parts.encoding}, ${parts.length} ${parts.length === 1 ? 'character' : 'characters'}`;
  return parts.encoding === 'UCS-2' && parts.nonGsm.length > 0
    ? `${counted}: UCS-2 because of ${[...new Set(parts.nonGsm)].map((c) => `"${c}"`).join(', ')}`
    : counted;
}

interface SmsChange {
  ussdAppId?: string | null;
  smsText?: string;
  smsSender?: string;
}

interface CampaignSmsFieldsProps {
  ussdApps: App[];
  ussdAppId: string | null;
  smsText: string;
  smsSender: string;
  onChange: (change: SmsChange) => void;
  errors: Record<string, string>;
}

/** The installation's opt-out line in words under the text; nothing when it has none, a reason when it was not read. */
function OptOutNote({ optOut, error }: { optOut: string | undefined; error: Error | null }) {
  if (error)
    return (
      <Text size="xs" c="red.8" data-testid="sms-opt-out-note">
        {`${error.message} The parts are counted without the opt-out line the installation may add.`}
      </Text>
    );
  if (!optOut) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="sms-opt-out-note">
      {`Every campaign SMS ends with “${optOut}”, as the installation requires.`}
    </Text>
  );
}

/**
 * The SMS half of a campaign: the USSD app it points to ({dial} in the text is its dial string), the text and the
 * sender, with how many parts it is sent as, counted on the text as it goes out: the dial string filled and the
 * installation's opt-out line (GET /api/campaigns/settings) on a line of its own.
 */
export function CampaignSmsFields({ ussdApps, ussdAppId, smsText, smsSender, onChange, errors }: CampaignSmsFieldsProps) {
  const settings = useCampaignSettings();
  const optOut = settings.data?.smsOptOut ?? '';
  const dial = dialOf(ussdApps.find((a) => a.appId === ussdAppId));
  const filled = fillDial(smsText, dial);
  const parts = countSmsParts(withOptOut(filled, optOut));
  const needsDial = smsText.includes('{dial}') && !dial;
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
      <OptOutNote optOut={settings.data?.smsOptOut} error={settings.error} />
      {(smsText.includes('{dial}') || optOut) && (
        <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
          <Text size="xs" c="dimmed" mb={4}>
            What the contact reads
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="sms-preview">
            {needsDial ? 'Choose the USSD app: {dial} becomes its dial string.' : filled}
            {!needsDial && optOut && (
              <Text span c="dimmed" inherit data-testid="sms-preview-opt-out">
                {`\n${optOut}`}
              </Text>
            )}
          </Text>
        </Paper>
      )}
      <TextInput
        label="Sender"
        description="The name or number the SMS comes from: a name of at most 11 letters and digits, a shortcode or a number. Empty: the SMS provider's default."
        placeholder="The provider's default"
        maxLength={15}
        maw={360}
        value={smsSender}
        onChange={(e) => onChange({ smsSender: e.currentTarget.value })}
        error={errors.smsSender}
      />
    </Stack>
  );
}
