import { Modal, Select, Stack, Switch, Text } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { APP_MESSAGES, type App } from '../../../shared/api/apps.schema';
import { FormAlert } from '../../components/form-alert';
import { isNetworkFailure, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { AppTemplateTagField } from './app-template-tag-field';
import type { Merchant } from '../../../shared/api/merchants.schema';
import { findMerchants } from '../../../shared/api/merchants.calls';
import { cloneApp } from '../../../shared/api/apps.calls';
import { call, queryKey } from '../../lib/call';
import { AppDescriptionInput, AppNameInput, bindText } from './app-detail-fields';
import { DialogActions } from '../../components/dialog-actions';

/** What the dialog needs of the app being copied: an app from the list, or a featured template. */
export interface CloneSource {
  appId: string;
  appName: string;
  description: string;
  useTemplateTag: boolean;
}

/** Where to go after a clone: the copy's own screen (`path`), named in the success box (`to`), after the delay. */
export interface CloneRedirect {
  path: (clone: App) => string;
  /** 'its designer': the success box reads 'App cloned successfully. Taking you to its designer…'. */
  to: string;
  delayMs: number;
}

interface AppCloneDialogProps {
  /** The app to copy; the dialog is open while there is one. */
  source: CloneSource | null;
  onClose: () => void;
  /** Name the copy gets by default: the source's name for templates, '... (copy)' for own apps. */
  getDefaultName?: (source: CloneSource) => string;
  /** After a clone: stay here (toast and close), or show the success box and go there after the delay. */
  redirect?: CloneRedirect;
  /** Admins may clone into a merchant's account when the merchant list answers. */
  canCloneIntoAccount?: boolean;
  /**
   * Clone at once with the default name and description, as if Clone were pressed: the user already chose this
   * template (its Clone on the public home page) before signing in. A refusal shows in the dialog as usual.
   */
  isAutoSubmitted?: boolean;
}

function describeMerchant(merchant: Merchant): string {
  const name = merchant.companyName || merchant.fullName || merchant.uuid;
  return merchant.email ? `${name} (${merchant.email})` : name;
}

/**
 * The clone modal of the app lists and the templates page: new name, description and template tag, and for
 * admins an optional 'Clone into Different Account' picker. Clone stays disabled while that option is on and
 * no account is chosen.
 */
export function AppCloneDialog({
  source,
  onClose,
  getDefaultName = (s) => `${s.appName} (copy)`,
  redirect,
  canCloneIntoAccount = false,
  isAutoSubmitted = false,
}: AppCloneDialogProps) {
  // Keeps the content in place while the modal animates closed.
  const lastSource = useRef<CloneSource | null>(null);
  if (source) lastSource.current = source;
  const shown = source ?? lastSource.current;

  return (
    <Modal opened={!!source} onClose={onClose} title={shown ? `Clone ${shown.appName}` : 'Clone app'} size="lg" centered>
      {shown && (
        <CloneForm
          key={shown.appId}
          source={shown}
          onClose={onClose}
          defaultName={getDefaultName(shown)}
          redirect={redirect}
          canCloneIntoAccount={canCloneIntoAccount}
          isAutoSubmitted={isAutoSubmitted}
        />
      )}
    </Modal>
  );
}

interface CloneFormProps {
  source: CloneSource;
  onClose: () => void;
  defaultName: string;
  redirect?: CloneRedirect;
  canCloneIntoAccount: boolean;
  isAutoSubmitted: boolean;
}

function CloneForm({ source, onClose, defaultName, redirect, canCloneIntoAccount, isAutoSubmitted }: CloneFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [appName, setAppName] = useState(defaultName);
  const [description, setDescription] = useState(source.description);
  const [useTemplateTag, setUseTemplateTag] = useState(source.useTemplateTag);
  const [isIntoAccount, setIntoAccount] = useState(false);
  const [merchantUuid, setMerchantUuid] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  // The picker appears only when the merchant list answers '00': without it there is nobody to choose.
  const { data: merchants } = useQuery({
    // Its own key below ['merchants']: a refused list is null here (no picker), an error on the merchant screens.
    queryKey: [...queryKey(findMerchants), 'clone-picker'],
    queryFn: async () => {
      const reply = await call(findMerchants);
      return isOk(reply) && Array.isArray(reply.data) ? reply.data : null;
    },
    enabled: canCloneIntoAccount,
    staleTime: 60_000,
    retry: false,
  });
  const hasAccountPicker = canCloneIntoAccount && !!merchants;
  const isCloneDisabled = !!successMessage || (isIntoAccount && !merchantUuid);

  async function submit() {
    if (!appName.trim() || !description.trim()) {
      setMessage(APP_MESSAGES.incomplete);
      return;
    }
    setMessage(null);
    setSubmitting(true);
    const reply = await call(cloneApp, {
      body: {
        appId: source.appId,
        appName: appName.trim(),
        description: description.trim(),
        useTemplateTag,
        ...(isIntoAccount && merchantUuid ? { merchantUuid } : {}),
      },
    });
    if (!isOk(reply)) {
      setSubmitting(false);
      setMessage(
        isNetworkFailure(reply)
          ? 'An error occurred while cloning the app. Check your connection and try again.'
          : reply.message || 'The app could not be cloned.',
      );
      return;
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.apps });
    const text = reply.message || 'App cloned successfully';
    const clone = reply.data;
    if (redirect && clone) {
      setSuccessMessage(`${text}. Taking you to ${redirect.to}…`);
      redirectTimer.current = setTimeout(() => navigate(redirect.path(clone)), redirect.delayMs);
      return;
    }
    setSubmitting(false);
    showToast({
      color: 'teal',
      title: 'App cloned',
      message: `${appName.trim()} was added${isIntoAccount ? ' to the chosen account' : ' to your apps'}.`,
    });
    onClose();
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    void submit();
  }

  // Once per dialog, whatever React does with effects in development.
  const hasAutoSubmitted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, with the defaults the form opened with
  useEffect(() => {
    if (!isAutoSubmitted || hasAutoSubmitted.current) return;
    hasAutoSubmitted.current = true;
    void submit();
  }, [isAutoSubmitted]);

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Clone app">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The copy gets every menu and action of {source.appName}. Its shortcode stays the same until you change it in the settings.
        </Text>
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <FormAlert message={successMessage} onClose={() => setSuccessMessage(null)} kind="success" />
        <AppNameInput {...bindText(appName, setAppName)} data-autofocus />
        <AppDescriptionInput maxRows={5} {...bindText(description, setDescription)} />
        <AppTemplateTagField label="Is Template Formated" checked={useTemplateTag} onChange={setUseTemplateTag} />
        {hasAccountPicker && (
          <Stack gap="xs">
            <Switch
              label="Clone into Different Account"
              checked={isIntoAccount}
              onChange={(e) => {
                setIntoAccount(e.currentTarget.checked);
                if (!e.currentTarget.checked) setMerchantUuid(null);
              }}
            />
            {isIntoAccount && (
              <Select
                label="Account"
                placeholder="Search accounts"
                searchable
                clearable
                nothingFoundMessage="No account matches"
                data={merchants.map((m) => ({ value: m.uuid, label: describeMerchant(m) }))}
                value={merchantUuid}
                onChange={setMerchantUuid}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          </Stack>
        )}
        <DialogActions submitLabel="Clone" onCancel={onClose} isSubmitting={isSubmitting} isDisabled={isCloneDisabled} mt="xs" />
      </Stack>
    </form>
  );
}
