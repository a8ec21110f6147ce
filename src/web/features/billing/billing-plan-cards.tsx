import { Badge, Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  getPeriodCount,
  getPlanAmountUsd,
  getPlanMonths,
  PAID_PLAN_NAMES,
  PLANS,
  type PaidPlanName,
  type PlanName,
} from '../../../shared/billing/plans';
import { formatUsd } from './billing-format';
import { PlanCard } from './billing-plan-card';
import { formatMonths } from '../../lib/format';

/** The spec's rule: a card's button reads Make Payment on the current plan, or on every card from TRIAL; else Change Plan. */
export const isMakePaymentButton = (card: PaidPlanName, current: PlanName) => card === current || current === 'TRIAL';

interface BillingPlanCardsProps {
  currentPlan: PlanName;
  isAnnual: boolean;
  onAnnualChange: (isAnnual: boolean) => void;
  /** Off with billing off: the cards show what each plan gives, without buttons. */
  canPay: boolean;
  onChoose: (plan: PaidPlanName, kind: 'makePayment' | 'changePlan') => void;
}

function BillingPlanCard({
  name,
  currentPlan,
  isAnnual,
  canPay,
  onChoose,
}: Omit<BillingPlanCardsProps, 'onAnnualChange'> & { name: PaidPlanName }) {
  const plan = PLANS[name];
  const count = getPeriodCount(name, isAnnual);
  const onePeriod = `${formatUsd(plan.price ?? 0)} for ${plan.period}`;
  const isPayment = isMakePaymentButton(name, currentPlan);
  const label = isPayment ? 'Make Payment' : 'Change Plan';
  return (
    <PlanCard
      plan={plan}
      price={getPlanAmountUsd(name, isAnnual)}
      per={formatMonths(getPlanMonths(name, isAnnual))}
      priceNote={count > 1 ? `${count} × ${onePeriod}` : onePeriod}
      isCurrent={name === currentPlan}
      action={
        canPay && (
          <Button
            variant={isPayment ? 'filled' : 'outline'}
            fullWidth
            onClick={() => onChoose(name, isPayment ? 'makePayment' : 'changePlan')}
            aria-label={`${label}: ${plan.title}`}
          >
            {label}
          </Button>
        )
      }
    />
  );
}

/** The plan cards of the shared plan table, the annual toggle above them and the Enterprise card below. */
export function BillingPlanCards({ currentPlan, isAnnual, onAnnualChange, canPay, onChoose }: BillingPlanCardsProps) {
  const enterprise = PLANS.ENTERPRISE;
  return (
    <Stack gap="lg" component="section" aria-labelledby="plans-heading">
      <Group justify="space-between" align="flex-end" gap="md">
        <div>
          <Title order={2} fz="lg" id="plans-heading">
            Plans and Pricing
          </Title>
          <Text size="sm" c="gray.7" mt={4}>
            Prices in US dollars. Plans cover designing and running your apps; a shortcode is bought apart.
          </Text>
        </div>
        {canPay && (
          <Switch
            checked={isAnnual}
            onChange={(event) => onAnnualChange(event.currentTarget.checked)}
            label="Pay annually"
            description="A year of the plan in one payment"
            color="teal"
            size="md"
          />
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {PAID_PLAN_NAMES.map((name) => (
          <BillingPlanCard key={name} name={name} currentPlan={currentPlan} isAnnual={isAnnual} canPay={canPay} onChoose={onChoose} />
        ))}
      </SimpleGrid>
      <Card withBorder radius="lg" padding="lg" component="article" aria-labelledby="billing-plan-ENTERPRISE" data-plan="ENTERPRISE">
        <Group justify="space-between" gap="md">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <IconBuildingSkyscraper size={28} color="var(--mantine-color-teal-8)" aria-hidden="true" style={{ flexShrink: 0 }} />
            <div>
              <Group gap="sm">
                <Title order={3} fz="lg" id="billing-plan-ENTERPRISE">
                  {enterprise.title}
                </Title>
                <Badge color="gray" variant="light">
                  By contact
                </Badge>
                {currentPlan === 'ENTERPRISE' && (
                  <Badge color="teal" variant="light">
                    Current plan
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="gray.7" mt={4}>
                {enterprise.features.join(' · ')}
              </Text>
            </div>
          </Group>
          <Button component={Link} to="/contact?subject=Enterprise%20plan" variant="default">
            Contact us
          </Button>
        </Group>
      </Card>
    </Stack>
  );
}
