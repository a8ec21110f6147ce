import { Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { USAGE_WARNING_PERCENTS, type Subscription } from '../../../shared/api/billing.schema';
import { formatBytes } from '../../../shared/app/menu-media.schema';
import { formatUsageMonth } from './billing-format';

type UsageKey = Exclude<keyof Subscription['usage'], 'month'>;

const formatCount = (value: number) => value.toLocaleString('en-US');
/** Bytes as a size: `12 MB`, none at all as `0 MB`. */
const formatSize = (bytes: number) => (bytes === 0 ? '0 MB' : formatBytes(bytes));

/** How a row reads its use against its limit (null: unlimited). */
type Describe = (used: number, limit: number | null) => string;
/** `3 of 5 apps`, `3 apps · Unlimited`. */
const counted =
  (unit: string): Describe =>
  (used, limit) =>
    limit === null ? `${formatCount(used)} ${unit} · Unlimited` : `${formatCount(used)} of ${formatCount(limit)} ${unit}`;
/** `12 MB of 50 MB`, `12 MB · Unlimited`. */
const sized: Describe = (used, limit) =>
  limit === null ? `${formatSize(used)} · Unlimited` : `${formatSize(used)} of ${formatSize(limit)}`;

/** Each limit of the plan table, as the page names it. */
const USAGE_ROWS: { key: UsageKey; label: string; describe: Describe }[] = [
  { key: 'apps', label: 'Apps', describe: counted('apps') },
  { key: 'menus', label: 'Menus in your largest app', describe: counted('menus') },
  { key: 'sessions', label: 'Live sessions this month', describe: counted('sessions') },
  { key: 'sms', label: 'SMS this month', describe: counted('SMS') },
  { key: 'mediaBytes', label: 'Files kept (photos, documents, voice notes)', describe: sized },
];

const [WARNING_PERCENT] = USAGE_WARNING_PERCENTS;

function UsageRow({ label, describe, used, limit }: { label: string; describe: Describe; used: number; limit: number | null }) {
  const percent = limit === null ? 0 : limit === 0 ? 100 : Math.min(100, (used / limit) * 100);
  const color = percent >= 100 ? 'red' : percent >= WARNING_PERCENT ? 'yellow' : 'teal';
  const text = describe(used, limit);
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" c={percent >= 100 ? 'red.8' : 'gray.7'} ta="right">
          {text}
        </Text>
      </Group>
      <Progress
        value={limit === null ? 0 : percent}
        color={color}
        size="md"
        radius="xl"
        aria-label={`${label}: ${text}`}
        bg={limit === null ? 'gray.1' : undefined}
      />
    </Stack>
  );
}

/**
 * This month's use against the plan's limits: a bar each for apps, menus, live sessions and SMS, and the files kept. `whose` names
 * the plan's owner: the signed-in account's (`your`) on Account Billing, `the account's` on Subscriptions.
 */
export function BillingUsageCard({ subscription, whose = 'your' }: { subscription: Subscription; whose?: string }) {
  const { usage } = subscription;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="usage-heading" data-testid="billing-usage">
      <Title order={2} fz="lg" id="usage-heading">
        Use in {formatUsageMonth(usage.month)}
      </Title>
      <Text size="sm" c="gray.7" mt={4} mb="md">
        Against the limits of {whose} plan ({subscription.title}). Only live traffic counts: sessions in the emulator and on an app's Test
        URL do not.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md">
        {USAGE_ROWS.map((row) => (
          <UsageRow key={row.key} label={row.label} describe={row.describe} used={usage[row.key].used} limit={usage[row.key].limit} />
        ))}
      </SimpleGrid>
    </Card>
  );
}
