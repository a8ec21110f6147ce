import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconHash, IconPlugConnected, IconShoppingCart } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Purchase } from '../../../shared/api/shortcodes.schema';
import { PageHeader } from '../../components/page-header';
import { formatTime, getPurchaseState } from './shortcode-format';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { ShortcodePaymentNotice } from './shortcode-payment-notice';
import { ShortcodePurchaseRenewDialog } from './shortcode-purchase-renew-dialog';
import { BUY_PATH, connectPath } from './shortcodes.api';
import { useShortcodeCheckout } from './use-shortcode-checkout';
import { usePurchases } from './use-shortcodes';
import { formatDay, WHOLE_BADGE_STYLES } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';

const STATE_BADGES: Record<Purchase['status'], { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal' },
  reserved: { label: 'Awaiting payment', color: 'yellow' },
  expired: { label: 'Expired', color: 'red' },
  lapsed: { label: 'Lapsed', color: 'gray' },
  refund_due: { label: 'Refund due', color: 'orange' },
};

function PurchaseStateBadge({ purchase }: { purchase: Purchase }) {
  const badge = STATE_BADGES[getPurchaseState(purchase)];
  return (
    <Badge color={badge.color} variant="dot" styles={WHOLE_BADGE_STYLES} data-testid="purchase-state">
      {badge.label}
    </Badge>
  );
}

/** Which app the shortcode reaches, or what it is waiting for. */
function PurchaseDetail({ purchase }: { purchase: Purchase }) {
  const state = getPurchaseState(purchase);
  if (state === 'reserved')
    return (
      <Text size="xs" mt={4}>
        {purchase.reservedUntil ? `Held for you until ${formatTime(purchase.reservedUntil)} while you pay.` : 'Waiting for the payment.'}
      </Text>
    );
  if (state === 'expired')
    return (
      <Text size="xs" mt={4}>
        Expired: calls no longer reach an app. Make a payment to renew it.
      </Text>
    );
  if (purchase.existingConnection)
    return (
      <Text size="xs" mt={4} data-testid="purchase-connection">
        Connected to {purchase.existingConnection.appName} ({purchase.linkedAppEnv === 'production' ? 'production' : 'test'})
      </Text>
    );
  return state === 'active' ? (
    <Text size="xs" mt={4}>
      Not connected to an app yet.
    </Text>
  ) : null;
}

/** 'My Shortcode Extensions' (/my-shortcodes): the account's shortcodes, connecting each to an app, renewing. */
export function ShortcodePurchaseListPage() {
  const purchasesQuery = usePurchases();
  const [renewed, setRenewed] = useState<Purchase | null>(null);
  const { payment, handleCheckout, clearPayment } = useShortcodeCheckout();

  const columns: ListColumn<Purchase>[] = [
    {
      header: 'Shortcode',
      render: (purchase) => (
        <>
          <Group gap="xs">
            <Code fz="sm" fw={600}>
              {purchase.shortCode}
            </Code>
            <PurchaseStateBadge purchase={purchase} />
          </Group>
          <PurchaseDetail purchase={purchase} />
          {/* On a phone the country and the dates fold in here. */}
          <Text size="xs" hiddenFrom="md" mt={4}>
            {purchase.country}
            {purchase.startDate && ` · ${formatDay(purchase.startDate)} to ${formatDay(purchase.expiryDate)}`}
          </Text>
        </>
      ),
    },
    { header: 'Country', visibleFrom: 'md', render: (purchase) => <Text size="sm">{purchase.country}</Text> },
    {
      header: 'Start Date',
      visibleFrom: 'md',
      cellProps: { style: { whiteSpace: 'nowrap' } },
      render: (purchase) => <Text size="sm">{formatDay(purchase.startDate)}</Text>,
    },
    {
      header: 'Expiry Date',
      visibleFrom: 'md',
      cellProps: { style: { whiteSpace: 'nowrap' } },
      render: (purchase) => <Text size="sm">{formatDay(purchase.expiryDate)}</Text>,
    },
    {
      header: 'Actions',
      align: 'right',
      render: (purchase) => {
        const isActive = getPurchaseState(purchase) === 'active';
        return (
          <Group gap="xs" justify="flex-end">
            {isActive && (
              <Button
                component={Link}
                to={connectPath(purchase.uuid)}
                size="xs"
                variant="outline"
                leftSection={<IconPlugConnected size={14} />}
                aria-label={`Connect App to ${purchase.shortCode}`}
              >
                Connect App
              </Button>
            )}
            <Button
              size="xs"
              variant={isActive ? 'default' : 'filled'}
              leftSection={<IconCreditCard size={14} />}
              onClick={() => setRenewed(purchase)}
              aria-label={`Make Payment for ${purchase.shortCode}`}
            >
              Make Payment
            </Button>
          </Group>
        );
      },
    },
  ];

  const buyLink = (
    <Button component={Link} to={BUY_PATH} leftSection={<IconShoppingCart size={18} />}>
      Buy an Extension
    </Button>
  );

  return (
    <Stack gap="xl">
      <PageHeader
        title="My Shortcode Extensions"
        description="The shortcodes you rent: connect each to an app, and renew before it expires."
        action={buyLink}
      />

      {payment && <ShortcodePaymentNotice payment={payment} onClose={clearPayment} />}

      <ListSection
        query={purchasesQuery}
        loadingLabel="Loading your shortcodes"
        errorTitle="Shortcodes not loaded"
        errorTestId="shortcodes-error"
        empty={
          <EmptyPanel
            testId="purchases-empty"
            icon={<IconHash size={28} />}
            title="You have no shortcode extensions yet"
            description="Buy an extension of a shared shortcode, then connect it to one of your apps."
          />
        }
      >
        {(purchases) => (
          <ListTable
            rows={purchases}
            columns={columns}
            getRowKey={(purchase) => purchase.uuid}
            getRowMark={(purchase) => purchase.shortCode}
            label="My Shortcode Extensions"
            testId="purchases-table"
          />
        )}
      </ListSection>

      <ShortcodePurchaseRenewDialog purchase={renewed} handleCheckout={handleCheckout} onClose={() => setRenewed(null)} />
    </Stack>
  );
}
