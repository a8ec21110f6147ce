import { Anchor, Badge, Box, Button, Code, Group, Modal, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { IconEye, IconReceiptOff, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  MERCHANT_MESSAGES,
  TRANSACTION_AUTO_SEARCH_MS,
  TRANSACTION_RANGE_DEFAULT_DAYS,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionTotal,
} from '../../../shared/api/merchants.schema';
import { BackLink } from '../../components/back-link';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { TableExportButtons } from '../../components/table-export-buttons';
import { failureText, isOk } from '../../lib/api';
import { formatTime } from '../../lib/table-export';
import { EmptyPanel } from '../../components/list-states';
import { findTransactionTypes, searchTransactions } from '../../../shared/api/merchants.calls';
import { call, callQuery } from '../../lib/call';
import { useMerchant } from './use-merchants';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { SearchForm } from '../../components/search-form';
import { DateRangeInput } from '../../components/date-range-input';
import { getAppLinks, merchantProfilePath } from '../../lib/paths';
import { WHOLE_BADGE_STYLES } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

const STATUS_COLORS: Record<string, string> = { SUCCESS: 'teal', FAILED: 'red', PENDING: 'yellow' };

export function TransactionStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'blue'} variant="light" styles={WHOLE_BADGE_STYLES}>
      {status}
    </Badge>
  );
}

const formatAmount = (t: Pick<Transaction, 'amount' | 'currency'>) => `${t.currency} ${t.amount}`;

/**
 * Merchant Transactions: `/merchant/trxns` (the signed-in merchant user's company) and
 * `/merchant/trxns/{merchantUuid}` (admins). The range starts two days ago; the first search runs by itself
 * 3 seconds after the transaction types have loaded.
 */
export function MerchantTransactionsPage() {
  const { merchantUuid } = useParams();
  return (
    <RoleGuard audience={merchantUuid ? 'transaction.read' : 'merchant'}>
      <MerchantTransactions merchantUuid={merchantUuid ?? ''} />
    </RoleGuard>
  );
}

interface Results {
  rows: Transaction[];
  totals: TransactionTotal[];
}

function MerchantTransactions({ merchantUuid }: { merchantUuid: string }) {
  const merchant = useMerchant(merchantUuid || undefined);
  const types = useQuery({
    ...callQuery(findTransactionTypes, {}, 'Failed to fetch transaction types'),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [range, setRange] = useState<DatesRangeValue<string>>(() => [
    dayjs().subtract(TRANSACTION_RANGE_DEFAULT_DAYS, 'day').format('YYYY-MM-DD'),
    dayjs().format('YYYY-MM-DD'),
  ]);
  const [status, setStatus] = useState<string | null>(null);
  const [transactionType, setTransactionType] = useState<string | null>(null);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [results, setResults] = useState<Results | null>(null);
  const [isSearching, setSearching] = useState(false);
  const [shown, setShown] = useState<Transaction | null>(null);

  async function search() {
    const [start, end] = range;
    if (!start || !end) {
      setRangeError(MERCHANT_MESSAGES.dateRange);
      return;
    }
    setRangeError(null);
    setSearching(true);
    const reply = await call(searchTransactions, {
      body: {
        startDate: dayjs(start).startOf('day').toISOString(),
        endDate: dayjs(end).endOf('day').toISOString(),
        userUuid: merchantUuid,
        status: (status ?? '') as '',
        transactionType: transactionType ?? '',
      },
    });
    setSearching(false);
    if (!isOk(reply)) {
      setSearchError(failureText(reply, 'Failed to fetch transactions'));
      return;
    }
    setSearchError(null);
    setResults({ rows: reply.data ?? [], totals: reply.totals ?? [] });
  }

  // The screen's first search, once the types have loaded.
  const searchRef = useRef(search);
  searchRef.current = search;
  const isTypesLoaded = types.isSuccess;
  useEffect(() => {
    if (!isTypesLoaded) return;
    const timer = setTimeout(() => void searchRef.current(), TRANSACTION_AUTO_SEARCH_MS);
    return () => clearTimeout(timer);
  }, [isTypesLoaded]);

  const typeLabel = (value: string) => types.data?.find((t) => t.value === value)?.label ?? value;
  const columns: ListColumn<Transaction>[] = [
    {
      header: 'Reference',
      cellProps: { style: { minWidth: 0 } },
      render: (t) => (
        <>
          <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
            {t.reference}
          </Code>
          <Text size="xs" c="gray.7" hiddenFrom="md" mt={4}>
            {typeLabel(t.transactionType)} · {formatTime(t.createdAt)}
          </Text>
          {/* On a phone the status folds in here. */}
          <Box hiddenFrom="sm" mt={4}>
            <TransactionStatusBadge status={t.status} />
          </Box>
        </>
      ),
    },
    { header: 'Type', visibleFrom: 'md', render: (t) => <Text size="sm">{typeLabel(t.transactionType)}</Text> },
    {
      header: 'Amount',
      align: 'right',
      render: (t) => (
        <Text size="sm" ff="monospace">
          {formatAmount(t)}
        </Text>
      ),
    },
    { header: 'Status', render: (t) => <TransactionStatusBadge status={t.status} /> },
    { header: 'Date', visibleFrom: 'md', render: (t) => <Text size="sm">{formatTime(t.createdAt)}</Text> },
    {
      header: 'View',
      align: 'right',
      width: 64,
      render: (t) => <RowAction label="View" ariaLabel={`View ${t.reference}`} icon={IconEye} onClick={() => setShown(t)} />,
    },
  ];

  const companyName = merchant.data?.companyName;
  return (
    <Stack gap="xl">
      <div>
        {merchantUuid && <BackLink to={merchantProfilePath(merchantUuid)} label={companyName ?? 'Merchant'} />}
        <PageHeader
          title="Merchant Transactions"
          description={`Payments through ${companyName ?? 'the merchant'}'s apps, and its own plan and shortcode payments.`}
        />
      </div>
      {merchant.error && <LoadErrorAlert title={merchant.error.message} message="" onRetry={() => void merchant.refetch()} />}
      {types.error && (
        <LoadErrorAlert title="Transaction types not loaded" message={types.error.message} onRetry={() => void types.refetch()} />
      )}

      <SearchForm label="Search transactions" onSearch={() => void search()}>
        <Group align="flex-end" gap="md" wrap="wrap">
          <DateRangeInput
            value={range}
            onChange={(value) => {
              setRange(value);
              setRangeError(null);
            }}
            clearLabel="Clear the date range"
            error={rangeError}
            w={{ base: '100%', sm: 300 }}
          />
          <Select
            label="Status"
            placeholder="All statuses"
            clearable
            data={[...TRANSACTION_STATUSES]}
            value={status}
            onChange={setStatus}
            w={{ base: '100%', sm: 170 }}
          />
          <Select
            label="Type"
            placeholder="All types"
            clearable
            data={(types.data ?? []).map((t) => ({ value: t.value, label: t.label }))}
            value={transactionType}
            onChange={setTransactionType}
            w={{ base: '100%', sm: 190 }}
          />
          <Button type="submit" leftSection={<IconSearch size={16} />} loading={isSearching}>
            Search
          </Button>
        </Group>
      </SearchForm>

      {searchError && <LoadErrorAlert title="Transactions not loaded" message={searchError} onRetry={() => void search()} />}
      {results && results.totals.length > 0 && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" data-testid="transaction-totals">
          {results.totals.map((total) => (
            <Paper key={`${total.status}-${total.currency}`} withBorder radius="lg" p="md">
              <Group justify="space-between">
                <TransactionStatusBadge status={total.status} />
                <Text size="sm" c="gray.7">
                  {total.count} {total.count === 1 ? 'payment' : 'payments'}
                </Text>
              </Group>
              <Text fw={700} fz="xl" mt="xs" ff="monospace">
                {total.currency} {total.amount}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {results?.rows.length === 0 && (
        <EmptyPanel
          testId="transactions-empty"
          icon={<IconReceiptOff size={28} />}
          title={MERCHANT_MESSAGES.noTransactions}
          description="Nothing in this range with these filters. Widen the range or clear a filter."
        />
      )}
      {results && results.rows.length > 0 && (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {results.rows.length} {results.rows.length === 1 ? 'transaction' : 'transactions'}, newest first
            </Text>
            <TableExportButtons
              fileName="merchant-transactions"
              getTable={() => ({
                headers: ['Reference', 'Type', 'Amount', 'Currency', 'Status', 'Date'],
                rows: results.rows.map((t) => [
                  t.reference,
                  typeLabel(t.transactionType),
                  t.amount,
                  t.currency,
                  t.status,
                  formatTime(t.createdAt),
                ]),
              })}
            />
          </Group>
          <ListTable
            rows={results.rows}
            columns={columns}
            getRowKey={(t) => t.reference}
            getRowMark={(t) => t.reference}
            label="Transactions"
            testId="transactions-table"
          />
        </Stack>
      )}
      <TransactionDetailsDialog transaction={shown} typeLabel={typeLabel} onClose={() => setShown(null)} />
    </Stack>
  );
}

function TransactionDetailsDialog({
  transaction,
  typeLabel,
  onClose,
}: {
  transaction: Transaction | null;
  typeLabel: (value: string) => string;
  onClose: () => void;
}) {
  const t = transaction;
  const fields: Array<[string, ReactNode]> = t
    ? [
        ['Reference', t.reference],
        ['Type', typeLabel(t.transactionType)],
        ['Amount', formatAmount(t)],
        ['Date', formatTime(t.createdAt)],
        ...(t.shortcode ? ([['Shortcode', t.shortcode]] as Array<[string, ReactNode]>) : []),
        ...(t.appId ? ([['App', <TransactionAppName key="app" transaction={t} />]] as Array<[string, ReactNode]>) : []),
      ]
    : [];
  const hasMetadata = t !== null && Object.keys(t.metadata).length > 0;
  return (
    <Modal opened={!!t} onClose={onClose} title="Transaction Details" size="lg" centered>
      {t && (
        <Stack gap="md" data-testid="transaction-details">
          <Group>
            <TransactionStatusBadge status={t.status} />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {fields.map(([label, value]) => (
              <div key={label}>
                <Text size="xs" c="gray.7" fw={600} tt="uppercase">
                  {label}
                </Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
                  {value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          {hasMetadata && (
            <div>
              <Text size="xs" c="gray.7" fw={600} tt="uppercase" mb={4}>
                Metadata
              </Text>
              <Code
                block
                fz="xs"
                // Long values (a provider's reference) wrap inside the box rather than run past its edge on a phone.
                style={{ maxHeight: 280, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                data-testid="transaction-metadata"
              >
                {JSON.stringify(t.metadata, null, 2)}
              </Code>
            </div>
          )}
        </Stack>
      )}
    </Modal>
  );
}

/**
 * The app a transaction belongs to, by name: a link to its settings when the viewer may open it, plain text
 * when not, and 'Deleted app' once it is gone (the transaction stays, with its app id).
 */
function TransactionAppName({ transaction }: { transaction: Transaction }) {
  const { app } = transaction;
  if (!app)
    return (
      <Text size="sm" c="gray.7" fs="italic" data-testid="transaction-app" title={transaction.appId ?? undefined}>
        Deleted app
      </Text>
    );
  if (!app.canOpen)
    return (
      <Text size="sm" data-testid="transaction-app">
        {app.appName}
      </Text>
    );
  return (
    <Anchor component={Link} to={getAppLinks(app).settings} size="sm" fw={600} data-testid="transaction-app">
      {app.appName}
    </Anchor>
  );
}
