import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingSkyscraper, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PAID_PLAN_NAMES, PLAN_NOTES, PLANS, type Plan } from '../../../shared/billing/plans';
import { PlanCard } from '../billing/billing-plan-card';
import { PublicPageHeader } from './public-page-header';
import { ShortcodePricingTabs } from './shortcode-pricing-tabs';
import classes from './public.module.css';
import { billingPlanPath } from '../../lib/paths';

/**
 * A plan's card; Start Now opens Account Billing on this plan's payment (one period, as the card prices it),
 * through sign-in when the visitor is signed out.
 */
function PricingPlanCard({ plan }: { plan: Plan }) {
  return (
    <PlanCard
      plan={plan}
      price={plan.price ?? 0}
      per={plan.period}
      action={
        <Button component={Link} to={billingPlanPath(plan.name)} color="teal.9" fullWidth aria-label={`Start Now with ${plan.title}`}>
          Start Now
        </Button>
      }
    />
  );
}

function EnterpriseCard() {
  return (
    <Card radius="lg" padding="xl" component="article" aria-labelledby="plan-ENTERPRISE" className={classes.ctaBand} mt="lg">
      <Group justify="space-between" align="center" gap="xl">
        <Group gap="md" align="flex-start" wrap="nowrap" maw={720}>
          <ThemeIcon size={48} radius="md" color="teal.3" c="dark.9" aria-hidden="true">
            <IconBuildingSkyscraper size={26} />
          </ThemeIcon>
          <Stack gap="xs">
            <Group gap="sm">
              <Title order={3} fz="xl" c="white" id="plan-ENTERPRISE">
                Enterprise
              </Title>
              <Badge color="teal.3" c="dark.9" variant="filled">
                By contact
              </Badge>
            </Group>
            <Text c="rgba(255,255,255,0.82)">For banks, telcos and large organisations with high volumes.</Text>
            <Group gap="md" mt={4}>
              {PLANS.ENTERPRISE.features.map((feature) => (
                <Group key={feature} gap={6} wrap="nowrap">
                  <IconCheck size={16} color="#63e6be" aria-hidden="true" />
                  <Text size="sm" c="white">
                    {feature}
                  </Text>
                </Group>
              ))}
            </Group>
          </Stack>
        </Group>
        <Button component={Link} to="/contact?subject=Enterprise%20plan" size="md" color="teal.3" c="dark.9">
          Contact sales
        </Button>
      </Group>
    </Card>
  );
}

export function PricingPage() {
  return (
    <>
      <title>Pricing · Dialflow</title>
      <PublicPageHeader
        eyebrow="Pricing"
        title="Simple plans. Shortcodes in your currency."
        lead="Pick a plan for designing and running your apps, then add a shared or dedicated shortcode in the country you launch in."
      />

      <Box component="section" aria-labelledby="plans-heading">
        <Container size="lg" py={{ base: 40, sm: 64 }}>
          <Title order={2} id="plans-heading" fz={{ base: 26, sm: 32 }}>
            App plans
          </Title>
          <Text c="gray.7" mt={6} mb="xl">
            Prices in US dollars, paid once for the period.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
            {PAID_PLAN_NAMES.map((name) => (
              <PricingPlanCard key={name} plan={PLANS[name]} />
            ))}
          </SimpleGrid>
          <EnterpriseCard />
          <Stack gap={6} mt="xl" component="ul" p={0} style={{ listStyle: 'none' }} aria-label="Plan notes">
            {[PLAN_NOTES.allPlans, PLAN_NOTES.support, PLAN_NOTES.designOnly].map((note) => (
              <Group key={note} component="li" gap={8} wrap="nowrap" align="flex-start">
                <IconInfoCircle size={18} color="var(--mantine-color-teal-8)" aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
                <Text size="sm" c="gray.8">
                  {note}
                </Text>
              </Group>
            ))}
          </Stack>
        </Container>
      </Box>

      <Box
        component="section"
        aria-labelledby="shortcode-pricing-heading"
        id="shortcode-pricing"
        className={classes.sectionAlt}
        style={{ scrollMarginTop: 72 }}
      >
        <Container size="lg" py={{ base: 40, sm: 64 }}>
          <Title order={2} id="shortcode-pricing-heading" fz={{ base: 26, sm: 32 }}>
            Shortcode pricing
          </Title>
          <Text c="gray.7" mt={6} mb="xl" maw={680}>
            A shortcode is what your customers dial. Prices are in the local currency of each country.
          </Text>
          <ShortcodePricingTabs />
        </Container>
      </Box>
    </>
  );
}
