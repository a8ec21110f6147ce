import { Box, Button, Card, Code, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  APP_MESSAGES,
  BASE_SHORTCODES,
  resolveAppShortcode,
  type ConnectionMode,
  type CreateAppBody,
} from '../../../shared/api/apps.schema';
import { FormAlert } from '../../components/form-alert';
import { RadioCardGroup, type RadioCardOption } from '../../components/radio-card-group';
import { isNetworkFailure, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { AppCountrySelect, AppDescriptionInput, AppExistingShortcodeInput, AppNameInput } from './app-detail-fields';
import { useScrollIntoViewOn } from './use-scroll-into-view-on';
import { AppTemplateTagField, getShortcodeExamples } from './app-template-tag-field';
import { AppBuilderNotice } from './app-builder-notice';
import { createApp } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';
import { SAVE_REDIRECT_MS } from './apps.api';
import { designerPath } from '../../lib/paths';
import { useCanBuildApps } from '../../lib/use-current-user';

const BASE_OPTIONS = BASE_SHORTCODES.map((value) => ({ value, label: value === 'custom' ? 'Custom' : value }));

type CreateAppValues = Required<
  Pick<CreateAppBody, 'appName' | 'description' | 'country' | 'useTemplateTag' | 'shortCode' | 'baseShortCode' | 'customShortCode'>
> & {
  connectionMode: ConnectionMode;
};

/** The create-app checks in their order: required fields first, then the shortcode rules shared with the server. */
export function checkCreateApp(values: CreateAppValues): string | null {
  if (!values.appName.trim() || !values.description.trim() || !values.country) return APP_MESSAGES.incomplete;
  const result = resolveAppShortcode(values);
  return result.ok ? null : result.message;
}

/** What the caller will dial, as the server will store it; `isValid` false while the input is unfinished. */
function previewDialString(values: CreateAppValues): { text: string; isValid: boolean } | null {
  const result = resolveAppShortcode(values);
  if (result.ok) return { text: result.shortCode, isValid: true };
  if (values.connectionMode === 'existing-shortcode') {
    const typed = values.customShortCode.trim();
    return typed ? { text: typed, isValid: false } : null;
  }
  if (!values.baseShortCode) return null;
  const typed = values.shortCode.trim();
  if (values.baseShortCode === 'custom') return typed ? { text: typed, isValid: false } : null;
  return { text: `${values.baseShortCode}${typed.replace(/^\*/, '') || '…'}`, isValid: false };
}

const MODES: RadioCardOption<ConnectionMode>[] = [
  { value: 'new-shortcode', title: 'New shortcode extension', text: 'An extension on one of our shared shortcodes, such as *920*12#.' },
  { value: 'existing-shortcode', title: 'Existing shortcode', text: 'A shortcode you already own or lease from a provider.' },
];

export function AppCreatePage() {
  const canBuildApps = useCanBuildApps();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  const [attempt, setAttempt] = useState(0);
  const alertRef = useScrollIntoViewOn(message || successMessage ? `${attempt}:${message ?? successMessage}` : null);

  const form = useForm<CreateAppValues>({
    mode: 'controlled',
    initialValues: {
      appName: '',
      description: '',
      country: '',
      connectionMode: 'new-shortcode',
      useTemplateTag: false,
      shortCode: '',
      baseShortCode: '',
      customShortCode: '',
    },
  });
  const { values } = form;
  const preview = previewDialString(values);
  const isCustomBase = values.baseShortCode === 'custom';

  const handleSubmit = form.onSubmit(async (submitted) => {
    setAttempt((n) => n + 1);
    const problem = checkCreateApp(submitted);
    setMessage(problem);
    if (problem) return;
    setSubmitting(true);
    const reply = await call(createApp, {
      body: {
        ...submitted,
        appName: submitted.appName.trim(),
        description: submitted.description.trim(),
        // Only the chosen mode's input is sent, so a value typed in the other mode never leaks into the app.
        shortCode: submitted.connectionMode === 'new-shortcode' ? submitted.shortCode.trim() : '',
        baseShortCode: submitted.connectionMode === 'new-shortcode' ? submitted.baseShortCode : '',
        customShortCode: submitted.connectionMode === 'existing-shortcode' ? submitted.customShortCode.trim() : '',
      },
    });
    if (isOk(reply) && reply.data) {
      const created = reply.data;
      await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
      setSuccessMessage(reply.message || 'App created successfully');
      showToast({ color: 'teal', title: 'App created', message: `${submitted.appName.trim()} is ready to design.` });
      // The next step is the app's first menu: its designer, not the list.
      redirectTimer.current = setTimeout(() => navigate(designerPath(created.appId)), SAVE_REDIRECT_MS);
      return;
    }
    setSubmitting(false);
    setMessage(
      isNetworkFailure(reply)
        ? 'An error occurred while creating the app. Check your connection and try again.'
        : reply.message || 'The app could not be created.',
    );
  });

  const title = (
    <div>
      <Title order={1} fz={{ base: 26, sm: 32 }}>
        Create Ussd App
      </Title>
      <Text c="dimmed" mt={6}>
        Name the app, pick its country and choose the shortcode callers will dial. You design the menus next.
      </Text>
    </div>
  );
  // A merchant user who is not a Developer: the server would refuse the form, so it is not offered.
  if (!canBuildApps)
    return (
      <Stack gap="xl" maw={760}>
        {title}
        <AppBuilderNotice />
      </Stack>
    );

  return (
    <Stack gap="xl" maw={760}>
      {title}

      <Card withBorder radius="lg" padding="xl" component="form" onSubmit={handleSubmit} noValidate aria-label="Create Ussd App">
        <Stack gap="lg">
          {(message || successMessage) && (
            <div ref={alertRef} style={{ scrollMarginTop: 80 }}>
              <FormAlert message={message} onClose={() => setMessage(null)} title="Check the form" />
              <FormAlert message={successMessage} onClose={() => setSuccessMessage(null)} kind="success" title="Done" />
            </div>
          )}

          <Stack gap="md">
            <AppNameInput placeholder="e.g. Mensah Airtime" {...form.getInputProps('appName')} />
            <AppDescriptionInput placeholder="What callers can do with this app" {...form.getInputProps('description')} />
            <AppCountrySelect
              placeholder="Pick a country"
              {...form.getInputProps('country')}
              onChange={(value) => form.setFieldValue('country', value ?? '')}
            />
          </Stack>

          <RadioCardGroup
            label="Shortcode"
            description="How callers reach the app"
            name="connectionMode"
            value={values.connectionMode}
            onChange={(value) => form.setFieldValue('connectionMode', value)}
            options={MODES}
          />

          <AppTemplateTagField
            label="Template Formatted"
            checked={values.useTemplateTag}
            onChange={(checked) => form.setFieldValue('useTemplateTag', checked)}
          />

          {values.connectionMode === 'new-shortcode' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Select
                label="Base Shortcode"
                placeholder="Pick a base"
                withAsterisk
                data={BASE_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps('baseShortCode')}
                onChange={(value) => form.setFieldValue('baseShortCode', value ?? '')}
                name="baseShortCode"
              />
              <TextInput
                label={isCustomBase ? 'Custom Short Code' : 'Extension'}
                description={isCustomBase ? 'The whole shortcode, ending in #' : 'The digits after the base, ending in #'}
                placeholder={getShortcodeExamples(isCustomBase ? 'custom' : 'extension', values.useTemplateTag)}
                withAsterisk
                maxLength={100}
                {...form.getInputProps('shortCode')}
                name="shortCode"
              />
            </SimpleGrid>
          ) : (
            <AppExistingShortcodeInput useTemplateTag={values.useTemplateTag} {...form.getInputProps('customShortCode')} />
          )}

          <Box
            bg="gray.0"
            p="md"
            style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px dashed var(--mantine-color-gray-3)' }}
            aria-live="polite"
          >
            <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
              Callers will dial
            </Text>
            {preview ? (
              <Group gap="xs" mt={6} wrap="nowrap">
                {preview.isValid ? (
                  <IconCircleCheck size={18} color="var(--mantine-color-teal-7)" />
                ) : (
                  <IconAlertCircle size={18} color="var(--mantine-color-orange-6)" />
                )}
                <Code fz="lg" fw={700} bg="transparent" data-testid="dial-preview" style={{ overflowWrap: 'anywhere' }}>
                  {preview.text}
                </Code>
              </Group>
            ) : (
              <Text size="sm" c="dimmed" mt={6}>
                {values.connectionMode === 'new-shortcode' ? 'Pick a base shortcode and type the extension.' : 'Type the full shortcode.'}
              </Text>
            )}
          </Box>

          <Group justify="flex-end">
            <Button type="submit" size="md" loading={isSubmitting} disabled={!!successMessage}>
              Create App
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
