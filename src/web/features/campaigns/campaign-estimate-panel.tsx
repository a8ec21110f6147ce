import { Group, Text } from '@mantine/core';
import type { CampaignCost, CampaignEstimate } from '../../../shared/api/campaigns.schema';
import { AudienceReachPanel } from './audience-reach-panel';
import { describeSmsParts } from './campaign-sms-fields';

/** An amount in the operator's currency: "USD 0.10", "GHS 12.50". */
export function formatCost(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code', maximumFractionDigits: 4 });
    // Intl puts a no-break space after the code: a plain one reads and copies the same.
    return format.format(amount).replace(/\u00a0/g, ' ');
  } catch {
    return `${currency} ${amount}`;
  }
}

/** "USD 0.10 (WhatsApp USD 0.08, SMS USD 0.02)". */
export const describeCost = (cost: CampaignCost) =>
  `${formatCost(cost.total, cost.currency)} (WhatsApp ${formatCost(cost.whatsapp, cost.currency)}, SMS ${formatCost(cost.sms, cost.currency)})`;

/**
 * Before a campaign starts: whom it would reach per channel, the parts its SMS is sent as, and what it would cost at
 * the operator's prices (nothing is said of cost where none are set).
 */
export function CampaignEstimatePanel({ estimate }: { estimate: CampaignEstimate }) {
  return (
    <AudienceReachPanel reach={estimate.reach} isFetching={false} error={null}>
      {(estimate.smsParts || estimate.cost) && (
        <Group gap="xl" data-testid="campaign-estimate">
          {estimate.smsParts && (
            <div>
              <Text size="xs" c="dimmed">
                Each SMS
              </Text>
              <Text size="sm" data-testid="campaign-estimate-parts">
                {describeSmsParts(estimate.smsParts)}
              </Text>
            </div>
          )}
          {estimate.cost && (
            <div>
              <Text size="xs" c="dimmed">
                Estimated cost
              </Text>
              <Text size="sm" fw={600} data-testid="campaign-estimate-cost">
                {describeCost(estimate.cost)}
              </Text>
            </div>
          )}
        </Group>
      )}
    </AudienceReachPanel>
  );
}
