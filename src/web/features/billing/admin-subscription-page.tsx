import { Button, Card, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCalendarPlus, IconRosetteDiscountCheck, IconSearch, IconUserQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminSubscription } from '../../../shared/api/billing.schema';
import { PLANS } from '../../../shared/billing/plans';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PageHeader } from '../../components/page-header';
import { BotAccessSwitch } from '../bots/bot-access-switch';
import { isInAudience } from '../../../shared/roles';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { AdminSubscriptionDialog, type SubscriptionChangeKind } from './admin-subscription-dialog';
import { BillingSubscriptionCard } from './billing-subscription-card';
import { BillingUsageCard } from './billing-usage-card';
import { useAccountSubscription } from './use-billing';
import { useCurrentUser } from '../../lib/use-current-user';
import { formatDay, formatDateTime } from '../../lib/format';
import { RoleGuard } from '../../components/role-guard';

/** Subscriptions (/admin/subscriptions, admins): find an account by email, see its plan and use, extend or activate it. */
export function AdminSubscriptionPage() {
  return (
    <RoleGuard audience="subscription.read">
      <Subscriptions />
    </RoleGuard>
  );
}

function Subscriptions() {
  const [searchParams, setSearchParams] = useSearchParams();
  const email = (searchParams.get('email') ?? '').trim().toLowerCase();
  const [typed, setTyped] = useState(email);
  const { data: account, error, isFetching, isPending, refetch } = useAccountSubscription(email);

  function find(event: React.FormEvent) {
    event.preventDefault();
    const next = typed.trim();
    setSearchParams(next ? { email: next } : {}, { replace: true });
  }

  return (
    <Stack gap="xl">
      <title>Subscriptions · Dialflow</title>
      <PageHeader
        title="Subscriptions"
        description="Find an account by its email to see its plan and this month's use, and (with the ADMIN role) extend or activate its subscription by hand. Every change is recorded with its reason."
      />
      <Card withBorder radius="lg" padding="lg" component="form" onSubmit={find} aria-label="Find an account">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Account email"
            type="email"
            autoComplete="off"
            placeholder="owner@company.com"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            style={{ flex: '1 1 240px' }}
          />
          <Button type="submit" leftSection={<IconSearch size={16} />} loading={email !== '' && isFetching}>
            Find
          </Button>
        </Group>
      </Card>

      {email !== '' && isPending && <ListSkeleton label="Loading the account" rows={4} />}
      {error && (
        <LoadErrorAlert
          testId="subscription-error"
          title="The account was not loaded"
          message={error.message}
          onRetry={() => void refetch()}
        />
      )}
      {account === null && (
        <EmptyPanel
          testId="subscription-empty"
          icon={<IconUserQuestion size={28} />}
          title="No account found"
          description={`No account has the email ${email}. Check the spelling, or ask the customer which email they signed up with.`}
        />
      )}
      {account && <AccountSubscription account={account} />}
    </Stack>
  );
}

function AccountSubscription({ account }: { account: AdminSubscription }) {
  const [dialog, setDialog] = useState<SubscriptionChangeKind | null>(null);
  const user = useCurrentUser();
  // A SUPPORT admin reads the account; changing it is money (src/shared/roles.ts).
  const canChangeSubscription = !!user && isInAudience('subscription.manage', user);
  const canChangeBotAccess = !!user && isInAudience('chatbotAccess.manage', user);
  return (
    <Stack gap="xl" data-testid="account-subscription">
      <Group justify="space-between" align="flex-end" gap="md">
        <div style={{ minWidth: 0 }}>
          <Title order={2} fz="xl" data-testid="account-name">
            {account.fullName}
          </Title>
          <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
            {account.email}
          </Text>
        </div>
        {canChangeSubscription && (
          <Group gap="sm">
            <Button variant="default" leftSection={<IconCalendarPlus size={18} />} onClick={() => setDialog('extend')}>
              Extend
            </Button>
            <Button leftSection={<IconRosetteDiscountCheck size={18} />} onClick={() => setDialog('activate')}>
              Activate plan
            </Button>
          </Group>
        )}
      </Group>
      <BillingSubscriptionCard subscription={account.subscription} />
      <BillingUsageCard subscription={account.subscription} whose="the account's" />
      <BotAccessSwitch email={account.email} isEnabled={account.chatbotAccess} canChange={canChangeBotAccess} />
      <ChangeHistory changes={account.changes} />
      {canChangeSubscription && <AdminSubscriptionDialog kind={dialog} email={account.email} onClose={() => setDialog(null)} />}
    </Stack>
  );
}

/** The changes admins made to this account by hand, newest first. */
function ChangeHistory({ changes }: { changes: AdminSubscription['changes'] }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="changes-heading">
      <Title order={2} fz="lg" id="changes-heading">
        Changes made by admins
      </Title>
      {changes.length === 0 ? (
        <Text size="sm" c="gray.7" mt={4}>
          None yet.
        </Text>
      ) : (
        <Stack gap="sm" mt="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="subscription-changes">
          {changes.map((change) => (
            <Paper component="li" withBorder radius="md" p="sm" key={`${change.createdAt}-${change.kind}`}>
              <Group justify="space-between" gap="xs" align="baseline">
                <Text size="sm" fw={600}>
                  {change.kind === 'extend' ? `Extended by ${change.days} days` : `Activated ${PLANS[change.plan].title}`} · until{' '}
                  {formatDay(change.periodEnd)}
                </Text>
                <Text size="xs" c="gray.7">
                  {formatDateTime(change.createdAt)} by {change.adminEmail}
                </Text>
              </Group>
              <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                {change.reason}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Card>
  );
}
