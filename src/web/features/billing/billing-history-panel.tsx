import { Badge, Code, Group, Pagination, Stack, Text } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import type { PaymentHistoryRow } from '../../../shared/api/billing.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PAGE_SIZE } from '../../lib/use-paged-rows';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { formatUsd } from './billing-format';
import { usePaymentHistory } from './use-billing';
import { WHOLE_BADGE_STYLES, formatAmount, formatDateTime } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';

/** Transaction statuses as badges: SUCCESS green, PENDING yellow, FAILED red, anything else information. */
const STATUS_COLORS: Record<string, string> = { SUCCESS: 'teal', PENDING: 'yellow', FAILED: 'red' };

function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'blue'} variant="light" styles={WHOLE_BADGE_STYLES} data-testid="payment-status">
      {status}
    </Badge>
  );
}

/**
 * The USD amount (`$30`), and under it what was charged when that was another currency (`charged 450 GHS`). A
 * payment in a currency with no rate to USD (see USD_RATES) has no USD figure: it says so, never putting its
 * own currency's amount where USD is promised.
 */
function PaymentAmount({ payment }: { payment: PaymentHistoryRow }) {
  const charged = payment.currency !== 'USD' && (
    <Text size="xs" c="gray.7" data-testid="payment-charged">
      charged {formatAmount(payment.amount)} {payment.currency}
    </Text>
  );
  return (
    <div data-testid="payment-amount">
      {payment.amountUsd === null ? (
        <Text size="sm" c="gray.7" fs="italic" span>
          no USD rate
        </Text>
      ) : (
        <Text size="sm" fw={600} span>
          {formatUsd(payment.amountUsd)}
        </Text>
      )}
      {charged}
    </div>
  );
}

const COLUMNS: ListColumn<PaymentHistoryRow>[] = [
  {
    header: 'Description',
    render: (payment) => (
      <>
        <Text size="sm" fw={600}>
          {payment.description}
        </Text>
        {/* On a phone the date, amount, status and reference fold in here. */}
        <Stack gap={4} hiddenFrom="md" mt={4}>
          <Text size="xs">{formatDateTime(payment.date)}</Text>
          <Group gap="xs">
            <PaymentAmount payment={payment} />
            <PaymentStatusBadge status={payment.status} />
          </Group>
          <Code fz="xs" style={{ alignSelf: 'flex-start', overflowWrap: 'anywhere' }}>
            {payment.reference}
          </Code>
        </Stack>
      </>
    ),
  },
  {
    header: 'Date',
    visibleFrom: 'md',
    cellProps: { style: { whiteSpace: 'nowrap' } },
    render: (payment) => <Text size="sm">{formatDateTime(payment.date)}</Text>,
  },
  { header: 'Amount (USD)', visibleFrom: 'md', align: 'right', render: (payment) => <PaymentAmount payment={payment} /> },
  { header: 'Status', visibleFrom: 'md', render: (payment) => <PaymentStatusBadge status={payment.status} /> },
  { header: 'Reference', visibleFrom: 'md', render: (payment) => <Code fz="xs">{payment.reference}</Code> },
];

/** 'Payment History': every payment of the account (plans, credits, shortcodes), newest first, a page at a time. */
export function BillingHistoryPanel() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, refetch } = usePaymentHistory(page, PAGE_SIZE);
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));

  if (isPending) return <ListSkeleton label="Loading your payments" />;
  if (error)
    return <LoadErrorAlert testId="history-error" title="Payments not loaded" message={error.message} onRetry={() => void refetch()} />;
  if (data.total === 0)
    return (
      <EmptyPanel
        testId="history-empty"
        icon={<IconReceipt size={28} />}
        title="No payments yet"
        description="Your plan payments, account credits and shortcode purchases will be listed here, newest first."
      />
    );
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.7" data-testid="history-summary">
        {data.total === 1 ? '1 payment' : `${data.total.toLocaleString('en-US')} payments`}, newest first
      </Text>
      <ListTable
        rows={data.rows}
        columns={COLUMNS}
        getRowKey={(payment) => payment.reference}
        getRowMark={(payment) => payment.reference}
        label="Payment History"
        testId="history-table"
      />
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="Payment History pages" />}
    </Stack>
  );
}
