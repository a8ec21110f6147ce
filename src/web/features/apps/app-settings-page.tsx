import { Badge, Button, Card, Divider, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconLockSquareRounded, IconWebhook } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  APP_MESSAGES,
  isValidExistingShortcode,
  isValidResumeWindow,
  RESUME_WINDOW_MINUTES,
  type App,
  type ConnectionMode,
} from '../../../shared/api/apps.schema';
import { FormAlert } from '../../components/form-alert';
import { failureText, isNetworkFailure, isOk } from '../../lib/api';
import { OfficeHoursCard } from '../../components/office-hours-card';
import { COUNTRY_TIME_ZONES, type OfficeHours } from '../../../shared/office-hours';
import { queryKeys } from '../../lib/query-keys';
import { AppCountrySelect, AppDescriptionInput, AppExistingShortcodeInput, AppNameInput, bindText } from './app-detail-fields';
import { useScrollIntoViewOn } from './use-scroll-into-view-on';
import { AppTemplateTagField } from './app-template-tag-field';
import { AppGatewayKeyField } from './app-gateway-key-field';
import { AppDialStringStatus } from './app-dial-string-status';
import { AppLanguageFields, readLanguageValues, toLanguageValues, type LanguageValues } from './app-language-fields';
import { AppGatewayFields, checkGatewayValues, readGatewayValues, toGatewayValues, type GatewayValues } from './app-gateway-fields';
import { findAppGatewayTraffic, updateApp } from '../../../shared/api/apps.calls';
import { call, callQuery } from '../../lib/call';
import { SAVE_REDIRECT_MS } from './apps.api';
import { AppNotFoundError, useApp } from './use-apps';
import { BackLink } from '../../components/back-link';
import { NameText } from '../../components/name-text';
import { APP_LIST_PATH, webhooksPath } from '../../lib/paths';
import { CopyField } from '../../components/copy-field';
import { CardSkeletons } from '../../components/card-skeletons';
import { LoadErrorPanel } from '../../components/load-error-panel';

interface SettingsValues {
  appName: string;
  description: string;
  country: string;
  useTemplateTag: boolean;
  customShortCode: string;
  resumeOnRedial: boolean;
  /** As typed: a number, or '' while the field is empty. */
  resumeWindowMinutes: number | string;
}

/** The settings checks, in order; the format rule is the create rule the server applies too. */
export function checkAppSettings(values: SettingsValues, isExisting: boolean, storedShortcode: string): string | null {
  if (!values.appName.trim() || !values.description.trim() || !values.country) return APP_MESSAGES.incomplete;
  const shortCode = isExisting ? values.customShortCode.trim() : storedShortcode;
  if (!shortCode) return APP_MESSAGES.noShortcode;
  if (!shortCode.includes('#')) return APP_MESSAGES.noHash;
  if (isExisting && !isValidExistingShortcode(shortCode, values.useTemplateTag)) return APP_MESSAGES.existingFormat;
  if (values.resumeOnRedial && !isValidResumeWindow(values.resumeWindowMinutes)) return APP_MESSAGES.resumeWindow;
  return null;
}

/** 'Application Settings' (/app-settings/{id}): gateway URLs to copy, and the app's editable fields. */
export function AppSettingsPage() {
  const { id = '' } = useParams();
  const { data: app, error, isPending, refetch } = useApp(id);

  return (
    <Stack gap="xl" maw={880}>
      <div>
        <BackLink to={APP_LIST_PATH} label="My USSD Apps" />
        <Title order={1} fz={{ base: 26, sm: 32 }} mt={6}>
          Application Settings
        </Title>
        {app && (
          <NameText c="dimmed" mt={6}>
            {app.appName}
          </NameText>
        )}
      </div>

      {isPending && <CardSkeletons label="Loading the app" heights={[150, 380]} />}
      {/* 'App not found' is AppScreenGuard's, around every screen of an app. */}
      {error && !(error instanceof AppNotFoundError) && <LoadErrorPanel message={error.message} onRetry={() => void refetch()} />}
      {app && (
        <>
          <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="gateway-urls-heading">
            <Title order={2} fz="lg" id="gateway-urls-heading">
              Gateway URLs
            </Title>
            <Text size="sm" c="dimmed" mt={4} mb="md">
              Give these to your USSD provider so it forwards callers' sessions to this app.
            </Text>
            <Stack gap="md">
              <CopyField label="Test Url" value={app.testUrl} description="Runs your latest draft, for trying changes." />
              <CopyField
                label="Production Url"
                value={app.productionUrl}
                description={
                  <Group gap={6} component="span">
                    Runs the deployed version.
                    {app.liveVersion ? (
                      <Badge size="xs" variant="light" color="teal" component="span">
                        Version {app.liveVersion} live
                      </Badge>
                    ) : (
                      <Badge size="xs" variant="light" color="gray" component="span">
                        Not deployed yet
                      </Badge>
                    )}
                  </Group>
                }
              />
              <AppGatewayKeyField app={app} />
            </Stack>
          </Card>
          <AppSettingsForm key={app.appId} app={app} />
          <AppOfficeHoursCard key={`hours-${app.updatedAt}`} app={app} />
          <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="webhooks-heading">
            <Group justify="space-between" gap="md">
              <div>
                <Title order={2} fz="lg" id="webhooks-heading">
                  Webhooks
                </Title>
                <Text size="sm" c="dimmed" mt={4} maw={560}>
                  Send signed events to your own server when a session completes or is abandoned and when a payment settles.
                </Text>
              </div>
              <Button variant="light" component={Link} to={webhooksPath(app.appId)} leftSection={<IconWebhook size={16} />}>
                Set up webhooks
              </Button>
            </Group>
          </Card>
        </>
      )}
    </Stack>
  );
}

function AppSettingsForm({ app }: { app: App }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isExisting = app.connectionMode === 'existing-shortcode';
  const [values, setValues] = useState<SettingsValues>({
    appName: app.appName,
    description: app.description,
    country: app.country,
    useTemplateTag: app.useTemplateTag,
    customShortCode: app.customShortCode || app.shortCode,
    resumeOnRedial: app.resumeOnRedial,
    resumeWindowMinutes: app.resumeWindowMinutes,
  });
  const [languages, setLanguages] = useState<LanguageValues>(() => toLanguageValues(app.languages));
  const [gateways, setGateways] = useState<GatewayValues[]>(() => toGatewayValues(app.gatewayConnections));
  const traffic = useQuery(callQuery(findAppGatewayTraffic, { params: { appId: app.appId } }, 'The gateways could not be read.'));
  const [message, setMessage] = useState<string | null>(null);
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  const [attempt, setAttempt] = useState(0);
  const alertRef = useScrollIntoViewOn(message || successMessage ? `${attempt}:${message ?? successMessage}` : null);
  const set = <K extends keyof SettingsValues>(key: K, value: SettingsValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setAttempt((n) => n + 1);
    // A connection's problem is shown at its field too (AppGatewayFields).
    const problem = checkAppSettings(values, isExisting, app.shortCode) ?? checkGatewayValues(gateways).values().next().value ?? null;
    setMessage(problem);
    if (problem) return;
    setSaving(true);
    const customShortCode = values.customShortCode.trim();
    const reply = await call(updateApp, {
      body: {
        ...app,
        // The app's own mode, sent back as it came (the server checks it against CONNECTION_MODES again).
        connectionMode: app.connectionMode as ConnectionMode,
        appName: values.appName.trim(),
        description: values.description.trim(),
        country: values.country,
        useTemplateTag: values.useTemplateTag,
        shortCode: isExisting ? customShortCode : app.shortCode,
        customShortCode: isExisting ? customShortCode : '',
        resumeOnRedial: values.resumeOnRedial,
        // Off, the window field may hold anything: the stored window is kept.
        resumeWindowMinutes: isValidResumeWindow(values.resumeWindowMinutes) ? Number(values.resumeWindowMinutes) : app.resumeWindowMinutes,
        languages: readLanguageValues(languages),
        gatewayConnections: readGatewayValues(gateways),
      },
    });
    if (isOk(reply)) {
      await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      setSuccessMessage(reply.message || 'App updated successfully');
      showToast({ color: 'teal', title: 'Settings saved', message: `${values.appName.trim()} was updated.` });
      redirectTimer.current = setTimeout(() => navigate(APP_LIST_PATH), SAVE_REDIRECT_MS);
      return;
    }
    setSaving(false);
    setMessage(
      isNetworkFailure(reply)
        ? 'An error occurred while saving the settings. Check your connection and try again.'
        : reply.message || 'The settings could not be saved.',
    );
  }

  return (
    <Card withBorder radius="lg" padding="lg" component="form" onSubmit={handleSubmit} noValidate aria-label="Application Settings">
      <Title order={2} fz="lg" mb="md">
        App details
      </Title>
      <Stack gap="md">
        {(message || successMessage) && (
          <div ref={alertRef} style={{ scrollMarginTop: 80 }}>
            <FormAlert message={message} onClose={() => setMessage(null)} title="Check the form" />
            <FormAlert message={successMessage} onClose={() => setSuccessMessage(null)} kind="success" title="Saved" />
          </div>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <AppNameInput {...bindText(values.appName, (appName) => set('appName', appName))} />
          <AppCountrySelect value={values.country || null} onChange={(value) => set('country', value ?? '')} />
        </SimpleGrid>
        <AppDescriptionInput {...bindText(values.description, (description) => set('description', description))} />
        <AppTemplateTagField
          label="Is Template Formated"
          checked={values.useTemplateTag}
          onChange={(checked) => set('useTemplateTag', checked)}
        />
        {isExisting ? (
          <AppExistingShortcodeInput
            label="Custom Short Code"
            useTemplateTag={values.useTemplateTag}
            {...bindText(values.customShortCode, (customShortCode) => set('customShortCode', customShortCode))}
          />
        ) : (
          <TextInput
            label="Short Code"
            description="Chosen when the app was created. To use a different code, create a new app."
            value={app.shortCode}
            readOnly
            variant="filled"
            leftSection={<IconLockSquareRounded size={16} />}
            name="shortCode"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        <AppDialStringStatus app={app} />
        <Divider my="xs" />
        <AppResumeFields
          isOn={values.resumeOnRedial}
          minutes={values.resumeWindowMinutes}
          isInvalid={message === APP_MESSAGES.resumeWindow}
          onToggle={(checked) => set('resumeOnRedial', checked)}
          onMinutesChange={(minutes) => set('resumeWindowMinutes', minutes)}
        />
        <Divider my="xs" />
        <AppLanguageFields values={languages} onChange={setLanguages} />
        <Divider my="xs" />
        <AppGatewayFields values={gateways} appScreenLimit={app.screenLimit} traffic={traffic.data} onChange={setGateways} />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" component={Link} to={APP_LIST_PATH}>
            Cancel
          </Button>
          <Button type="submit" loading={isSaving} disabled={!!successMessage}>
            Save
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Resume on redial (docs/runtime.md): the switch, and the window in minutes while it is on. */
function AppResumeFields(props: {
  isOn: boolean;
  minutes: number | string;
  isInvalid: boolean;
  onToggle: (checked: boolean) => void;
  onMinutesChange: (minutes: number | string) => void;
}) {
  return (
    <Stack gap="sm">
      <Switch
        label="Resume on redial"
        description="A caller whose session timed out or dropped is offered “1. Continue where you left off” or “2. Start again” when they dial again within the window. Sessions that ended normally are never offered."
        checked={props.isOn}
        onChange={(e) => props.onToggle(e.currentTarget.checked)}
        name="resumeOnRedial"
      />
      <NumberInput
        label="Resume window (minutes)"
        description={`${RESUME_WINDOW_MINUTES.min} to ${RESUME_WINDOW_MINUTES.max}, counted from the caller's last answer`}
        min={RESUME_WINDOW_MINUTES.min}
        max={RESUME_WINDOW_MINUTES.max}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        disabled={!props.isOn}
        value={props.minutes}
        onChange={props.onMinutesChange}
        // The message is in the form's alert, as for every field; the field is marked.
        error={props.isInvalid}
        name="resumeWindowMinutes"
        maw={340}
      />
    </Stack>
  );
}

/**
 * The app's office hours (docs/inbox.md, "Office hours"): saved on their own, the app object sent back as it came
 * with them (as the settings form sends it).
 */
function AppOfficeHoursCard({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const isExisting = app.connectionMode === 'existing-shortcode';
  const typed = app.customShortCode || app.shortCode;
  const save = async (officeHours: OfficeHours | null) => {
    const reply = await call(updateApp, {
      body: {
        ...app,
        connectionMode: app.connectionMode as ConnectionMode,
        shortCode: isExisting ? typed : app.shortCode,
        customShortCode: isExisting ? typed : '',
        officeHours,
      },
    });
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Office hours not saved', message: failureText(reply, 'The office hours could not be saved.') });
      return false;
    }
    showToast({ color: 'teal', title: 'Office hours saved', message: 'Callback requests are answered with these hours from now on.' });
    await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
    return true;
  };
  return (
    <OfficeHoursCard
      value={app.officeHours}
      defaultTimeZone={COUNTRY_TIME_ZONES[app.country] ?? Intl.DateTimeFormat().resolvedOptions().timeZone}
      channel="ussd"
      onSave={save}
      maw="100%"
    />
  );
}
