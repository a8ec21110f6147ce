import { Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Plan } from '../../../shared/billing/plans';
import { formatUsd } from './billing-format';

const checkIcon = <IconCheck size={16} color="var(--mantine-color-teal-8)" aria-hidden="true" />;

interface PlanCardProps {
  plan: Plan;
  /** USD asked for `per`. */
  price: number;
  /** What the price pays for: `3 months`, `12 months`. */
  per: string;
  /** A line under the price: `4 × $50 for 3 months`. */
  priceNote?: string;
  isCurrent?: boolean;
  /** The card's button or link: Start Now (pricing page), Make Payment or Change Plan (billing page). */
  action?: ReactNode;
}

/** One plan of the plan table as a card: its tier and period, its price, its features and its button. */
export function PlanCard({ plan, price, per, priceNote, isCurrent = false, action }: PlanCardProps) {
  const headingId = `plan-${plan.name}`;
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="article"
      aria-labelledby={headingId}
      data-plan={plan.name}
      style={isCurrent ? { borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" gap="xs" align="flex-start">
          <Title order={3} fz="xl" id={headingId}>
            {plan.tier}{' '}
            <Text span c="gray.7" fw={500} fz="md">
              {plan.period}
            </Text>
          </Title>
          {isCurrent && (
            <Badge color="teal" variant="light">
              Current plan
            </Badge>
          )}
        </Group>
        <div>
          <Group gap={6} align="baseline">
            <Text fz={40} fw={800} lh={1} c="gray.9" style={{ letterSpacing: '-0.02em' }} data-testid="plan-price">
              {formatUsd(price)}
            </Text>
            <Text c="gray.7" size="sm">
              / {per}
            </Text>
          </Group>
          {priceNote && (
            <Text size="xs" c="gray.7" mt={6}>
              {priceNote}
            </Text>
          )}
        </div>
        <List spacing={8} size="sm" icon={checkIcon} style={{ flex: 1 }}>
          {plan.features.map((feature) => (
            <List.Item key={feature}>{feature}</List.Item>
          ))}
        </List>
        {action}
      </Stack>
    </Card>
  );
}
