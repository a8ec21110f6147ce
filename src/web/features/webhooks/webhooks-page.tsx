import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { BackLink } from '../../components/back-link';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { useApp } from '../apps/use-apps';
import { WebhookDeliveryList } from './webhook-delivery-list';
import { WebhookSecretCard } from './webhook-secret-card';
import { WebhookSettingsForm } from './webhook-settings-form';
import { useWebhook } from './use-webhooks';
import { settingsPath } from '../../lib/paths';
import { CardSkeletons } from '../../components/card-skeletons';

/** 'Webhooks' (/app-webhooks/{appId}): the app's endpoint, its signing secret, and what was sent to it. */
export function WebhooksPage() {
  const { appId = '' } = useParams();
  const { data: app } = useApp(appId);
  const { data: webhook, error, isPending, refetch } = useWebhook(appId);

  return (
    <Stack gap="xl" maw={1040}>
      <div>
        <BackLink to={settingsPath(appId)} label="Application Settings" />
        <Title order={1} fz={{ base: 26, sm: 32 }} mt={6}>
          Webhooks
        </Title>
        <Text c="dimmed" mt={6} maw={680}>
          {app ? `${app.appName}: ` : ''}tell your own systems when a session completes or is abandoned and when a payment settles.
        </Text>
      </div>
      {isPending && <CardSkeletons label="Loading the webhook" heights={[300, 160]} />}
      {error && <LoadErrorAlert title="Webhook not loaded" message={error.message} onRetry={() => void refetch()} />}
      {webhook && (
        <>
          <WebhookSettingsForm key={webhook.appId} webhook={webhook} />
          {webhook.secret && <WebhookSecretCard webhook={webhook} />}
          <WebhookDeliveryList webhook={webhook} />
        </>
      )}
    </Stack>
  );
}
