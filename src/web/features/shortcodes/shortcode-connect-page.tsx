import { Alert, Anchor, Button, Card, Code, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconInfoCircle, IconPlugConnected } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { CONNECT_REDIRECT_MS, type LinkedAppEnv, type Purchase, SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import { isInAudience } from '../../../shared/roles';
import { BackLink } from '../../components/back-link';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { RadioCardGroup, type RadioCardOption } from '../../components/radio-card-group';
import { failureText, isOk } from '../../lib/api';
import { useApps } from '../apps/use-apps';
import { getPurchaseState } from './shortcode-format';
import { connectApp } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { MY_SHORTCODES_PATH } from './shortcodes.api';
import { SHORTCODES_KEY } from './use-shortcodes';
import { PurchaseNotFoundError, usePurchase } from './use-shortcodes';
import { useCurrentUser } from '../../lib/use-current-user';
import { formatDay } from '../../lib/format';

const ENVIRONMENTS: RadioCardOption<LinkedAppEnv>[] = [
  { value: 'test', title: 'Test', text: "Callers reach the app's draft, as you design it." },
  { value: 'production', title: 'Production', text: 'Callers reach the version you last deployed.' },
];

/** The caller's own apps: the app list of an admin with `tenantApp.read` holds every account's, and only one's own can be connected. */
function useOwnApps(): { apps: App[] | undefined; error: Error | null; isPending: boolean } {
  const user = useCurrentUser();
  const { data, error, isPending } = useApps();
  const readsEveryApp = !!user && !isInAudience('ownAppsOnly', user);
  const apps = readsEveryApp && user ? data?.filter((app) => app.userEmail === user.email) : data;
  return { apps, error, isPending };
}

/** 'Connect ShortCode to App' (/connect-shortcode/{uuid}): the app and environment a purchased shortcode reaches. */
export function ShortcodeConnectPage() {
  const { uuid = '' } = useParams();
  const { data: purchase, error, isPending, refetch } = usePurchase(uuid);

  return (
    <Stack gap="xl" maw={760}>
      <div>
        <BackLink to={MY_SHORTCODES_PATH} label="My USSD Extensions" />
        <Title order={1} fz={{ base: 26, sm: 32 }} mt="xs">
          Connect ShortCode to App
        </Title>
        <Text c="gray.7" mt={6}>
          Choose the app that answers when someone dials this shortcode.
        </Text>
      </div>
      {isPending && (
        <Card withBorder radius="lg" padding="xl" role="status" aria-busy="true" aria-label="Loading the shortcode">
          <Skeleton height={28} width="40%" />
          <Skeleton height={36} mt="lg" />
          <Skeleton height={60} mt="lg" />
        </Card>
      )}
      {error instanceof PurchaseNotFoundError && (
        <Alert color="orange" variant="light" icon={<IconInfoCircle size={20} />} title={SHORTCODE_MESSAGES.purchaseNotFound}>
          It does not exist or belongs to another account.{' '}
          <Anchor component={Link} to={MY_SHORTCODES_PATH}>
            Back to My USSD Extensions
          </Anchor>
        </Alert>
      )}
      {error && !(error instanceof PurchaseNotFoundError) && (
        <LoadErrorAlert testId="shortcodes-error" title="Shortcode not loaded" message={error.message} onRetry={() => void refetch()} />
      )}
      {purchase && <ConnectForm purchase={purchase} />}
    </Stack>
  );
}

function ConnectForm({ purchase }: { purchase: Purchase }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { apps, error: appsError, isPending: isAppsPending } = useOwnApps();
  const [appId, setAppId] = useState(purchase.existingConnection?.appId ?? '');
  const [environment, setEnvironment] = useState<LinkedAppEnv>(purchase.linkedAppEnv ?? 'test');
  const [appError, setAppError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  const isActive = getPurchaseState(purchase) === 'active';

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!appId) {
      setAppError(SHORTCODE_MESSAGES.selectApp);
      return;
    }
    setSubmitting(true);
    setMessage(null);
    const reply = await call(connectApp, { body: { appId, linkedAppEnv: environment, uuid: purchase.uuid } });
    if (!isOk(reply)) {
      setSubmitting(false);
      setMessage(failureText(reply, 'The app could not be connected.'));
      return;
    }
    await queryClient.invalidateQueries({ queryKey: SHORTCODES_KEY });
    setSuccessMessage(reply.message || SHORTCODE_MESSAGES.connected);
    showToast({ color: 'teal', title: 'Connected', message: `${purchase.shortCode} now reaches your app.` });
    redirectTimer.current = setTimeout(() => navigate(MY_SHORTCODES_PATH), CONNECT_REDIRECT_MS);
  }

  const appOptions = (apps ?? []).map((app) => ({ value: app.appId, label: app.appName }));

  return (
    <Card withBorder radius="lg" padding="xl" component="form" onSubmit={handleSubmit} noValidate aria-label="Connect ShortCode to App">
      <Stack gap="lg">
        <FormAlert message={message} onClose={() => setMessage(null)} title="Not connected" />
        <FormAlert message={successMessage} onClose={() => setSuccessMessage(null)} kind="success" title="Done" />

        <Group justify="space-between" align="flex-start" gap="md">
          <div>
            <Text size="sm" fw={600}>
              Shortcode
            </Text>
            <Code fz="lg" fw={700} data-testid="connect-shortcode">
              {purchase.shortCode}
            </Code>
          </div>
          <Text size="sm">
            {purchase.country} · until {formatDay(purchase.expiryDate)}
          </Text>
        </Group>

        {purchase.existingConnection ? (
          <Alert color="teal" variant="light" icon={<IconPlugConnected size={20} />} data-testid="current-connection">
            Connected to <b>{purchase.existingConnection.appName}</b> in {purchase.linkedAppEnv === 'production' ? 'production' : 'test'}.
            Connecting another app replaces it.
          </Alert>
        ) : (
          <Text size="sm">No app is connected to this shortcode yet.</Text>
        )}
        {!isActive && (
          <Alert color="orange" variant="light" icon={<IconInfoCircle size={20} />}>
            {SHORTCODE_MESSAGES.notActive}
          </Alert>
        )}

        <Select
          label="App"
          placeholder={isAppsPending ? 'Loading your apps…' : 'Select app to connect'}
          withAsterisk
          searchable
          nothingFoundMessage="No app matches"
          data={appOptions}
          value={appId || null}
          onChange={(value) => {
            setAppId(value ?? '');
            setAppError(null);
          }}
          error={appError ?? (appsError ? appsError.message : null)}
          disabled={isAppsPending}
        />
        {apps?.length === 0 && (
          <Text size="sm">
            You have no apps yet.{' '}
            <Anchor component={Link} to="/create-app">
              Create an app
            </Anchor>{' '}
            first.
          </Text>
        )}

        <RadioCardGroup label="Environment" name="linkedAppEnv" value={environment} onChange={setEnvironment} options={ENVIRONMENTS} />

        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={MY_SHORTCODES_PATH} variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={!!successMessage} leftSection={<IconPlugConnected size={18} />}>
            Connect
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
