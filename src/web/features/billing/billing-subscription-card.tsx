import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import type { Subscription } from '../../../shared/api/billing.schema';
import { formatUsd, getStatusBadge } from './billing-format';
import { formatDay } from '../../lib/format';

function Detail({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** When the plan runs to, as its state says it. */
function describePeriod(subscription: Subscription): string {
  switch (subscription.state) {
    case 'trial':
      return 'No plan paid yet';
    case 'active':
      return `Until ${formatDay(subscription.periodEnd)}`;
    case 'grace':
      return `Ended ${formatDay(subscription.periodEnd)}`;
    case 'inactive':
      return `Ended ${formatDay(subscription.periodEnd)}`;
  }
}

interface BillingSubscriptionCardProps {
  subscription: Subscription;
  /** The current plan's Make Payment (a custom amount); absent when payments are not offered (billing off, inactive). */
  onMakePayment?: () => void;
}

/** The current plan and its status: the plan's title, the status badge, the period, the balance. */
export function BillingSubscriptionCard({ subscription, onMakePayment }: BillingSubscriptionCardProps) {
  const badge = getStatusBadge(subscription);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="current-plan-heading" data-testid="billing-current">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4}>
          <Text size="xs" c="gray.7" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
            Current plan
          </Text>
          <Group gap="sm">
            <Text component="h2" fz={24} fw={800} m={0} id="current-plan-heading" data-testid="current-plan">
              {subscription.title}
            </Text>
            <Badge color={badge.color} variant="filled" data-testid="subscription-status">
              {badge.label}
            </Badge>
          </Group>
        </Stack>
        {onMakePayment && (
          <Button leftSection={<IconCreditCard size={18} />} onClick={onMakePayment} aria-label="Make Payment into your balance">
            Make Payment
          </Button>
        )}
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" mt="md">
        <Detail label="Period" value={describePeriod(subscription)} testId="current-period" />
        <Detail label="Balance" value={`${formatUsd(subscription.accountBalance)} ${subscription.currency}`} testId="current-balance" />
        {subscription.periodStart && <Detail label="Started" value={formatDay(subscription.periodStart)} />}
      </SimpleGrid>
    </Card>
  );
}
