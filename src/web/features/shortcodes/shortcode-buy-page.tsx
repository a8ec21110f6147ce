import { Anchor, Button, Card, Code, Group, Radio, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconHash, IconShoppingCart } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  buildDialString,
  type Extension,
  findDigitsProblem,
  LEASE_MONTHS_MAX,
  LEASE_MONTHS_MIN,
  SHORTCODE_COUNTRY_NAMES,
  SHORTCODE_MESSAGES,
  type ShortcodeCountry,
} from '../../../shared/api/shortcodes.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PageHeader } from '../../components/page-header';
import { formatMonthlyPrice, monthOptions } from './shortcode-format';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { ShortcodePaymentNotice } from './shortcode-payment-notice';
import { type PurchaseSummary, ShortcodePurchaseConfirmDialog } from './shortcode-purchase-confirm-dialog';
import { buyShortcode } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { MY_SHORTCODES_PATH } from './shortcodes.api';
import { useShortcodeCheckout } from './use-shortcode-checkout';
import { useExtensionsOnSale } from './use-shortcodes';
import { formatAmount } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';

const DEFAULT_MONTHS = '1';

/** 'Buy ShortCode Extension' (/buy-shortcode): choose a country, an extension (and its digits), a period; pay. */
export function ShortcodeBuyPage() {
  const [country, setCountry] = useState<ShortcodeCountry>(SHORTCODE_COUNTRY_NAMES[0]);
  const { data: extensions, error, isPending, refetch } = useExtensionsOnSale(country);
  const [selectedUuid, setSelectedUuid] = useState('');
  const [digits, setDigits] = useState('');
  const [months, setMonths] = useState(DEFAULT_MONTHS);
  const [selectError, setSelectError] = useState<string | null>(null);
  const [digitsError, setDigitsError] = useState<string | null>(null);
  const [summary, setSummary] = useState<PurchaseSummary | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const { payment, handleCheckout, clearPayment } = useShortcodeCheckout();

  const selected = extensions?.find((extension) => extension.uuid === selectedUuid) ?? null;
  const dialString = selected ? buildDialString(selected.shortCode, selected.extension, selected.extLength > 0 ? digits.trim() : '') : '';

  function chooseCountry(next: string) {
    setCountry(next as ShortcodeCountry);
    setSelectedUuid('');
    setDigits('');
    setSelectError(null);
    setDigitsError(null);
  }

  function choose(uuid: string) {
    setSelectedUuid(uuid);
    setSelectError(null);
    setDigitsError(null);
  }

  /** Checkout: the spec's checks, then the Confirm Purchase dialog. */
  function handleCheckoutClick(event: React.FormEvent) {
    event.preventDefault();
    if (!selected) {
      setSelectError(SHORTCODE_MESSAGES.selectExtension);
      return;
    }
    const problem = findDigitsProblem(selected.extLength, digits.trim());
    setDigitsError(problem);
    if (problem) return;
    setSummary({ shortCode: dialString, country, price: selected.price, currency: selected.currency, months: Number(months) });
  }

  async function handleConfirm() {
    if (!selected || !summary) return;
    setSubmitting(true);
    const reply = await call(buyShortcode, {
      body: {
        extensionUuid: selected.uuid,
        leaseCount: summary.months,
        shortCode: selected.extLength > 0 ? digits.trim() : '',
      },
    });
    setSubmitting(false);
    setSummary(null);
    await handleCheckout(reply, summary.shortCode);
    if (reply.status === '01') {
      setSelectedUuid('');
      setDigits('');
    }
  }

  const columns: ListColumn<Extension>[] = [
    {
      header: 'Start Code',
      visibleFrom: 'sm',
      render: (extension) => (
        <>
          <Code fz="sm">{extension.shortCode}</Code>
          <Text size="xs" mt={4}>
            via {extension.providerName}
          </Text>
        </>
      ),
    },
    {
      header: 'Extension',
      visibleFrom: 'sm',
      render: (extension) =>
        extension.extLength > 0 ? (
          <Text size="sm">
            {extension.extension && <Code fz="sm">{extension.extension}</Code>} + {extension.extLength} digits you choose
          </Text>
        ) : (
          <Code fz="sm">{extension.extension}</Code>
        ),
    },
    {
      header: 'Example',
      render: (extension) => (
        <>
          <Code fz="sm" fw={600}>
            {extension.example}
          </Code>
          {/* On a phone the provider and the digits to choose fold in here. */}
          <Text size="xs" hiddenFrom="sm" mt={4}>
            via {extension.providerName}
            {extension.extLength > 0 && `; you choose the last ${extension.extLength} digits`}
          </Text>
        </>
      ),
    },
    { header: 'Pricing', render: (extension) => <Text size="sm">{formatMonthlyPrice(extension.price, extension.currency)}</Text> },
    {
      header: 'Select',
      align: 'center',
      width: 72,
      render: (extension) => (
        <Group justify="center">
          <Radio value={extension.uuid} aria-label={`Select ${extension.example}`} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="xl">
      <PageHeader
        title="Buy ShortCode Extension"
        description="Rent an extension of a shared shortcode, such as *920*34#, by the month, then connect it to one of your apps."
        action={
          <Anchor component={Link} to={MY_SHORTCODES_PATH} fw={600}>
            My USSD Extensions
          </Anchor>
        }
      />

      {payment && <ShortcodePaymentNotice payment={payment} onClose={clearPayment} />}

      <Stack gap={6}>
        <Text fw={600} size="sm" id="buy-country-label">
          Country
        </Text>
        <SegmentedControl
          value={country}
          onChange={chooseCountry}
          data={[...SHORTCODE_COUNTRY_NAMES]}
          aria-labelledby="buy-country-label"
          fullWidth
          maw={520}
        />
      </Stack>

      <form onSubmit={handleCheckoutClick} noValidate aria-label="Buy ShortCode Extension">
        <Stack gap="lg">
          {isPending && <ListSkeleton label={`Loading the shortcodes of ${country}`} rows={3} />}
          {error && (
            <LoadErrorAlert
              testId="shortcodes-error"
              title="Shortcodes not loaded"
              message={error.message}
              onRetry={() => void refetch()}
            />
          )}
          {extensions?.length === 0 && (
            <EmptyPanel
              testId="buy-empty"
              icon={<IconHash size={28} />}
              title={`No shortcodes on sale in ${country} right now`}
              description="Try another country, or ask us for one through the contact page."
            />
          )}
          {extensions && extensions.length > 0 && (
            <Radio.Group
              value={selectedUuid}
              onChange={choose}
              name="extension"
              label={`Shortcodes in ${country}`}
              description="Pick the one your customers will dial."
              error={selectError}
              errorProps={{ mt: 'xs' }}
            >
              <ListTable
                rows={extensions}
                columns={columns}
                getRowKey={(extension) => extension.uuid}
                getRowMark={(extension) => extension.example}
                label={`Shortcodes in ${country}`}
                testId="buy-table"
                onRowClick={(extension) => choose(extension.uuid)}
              />
            </Radio.Group>
          )}

          {extensions && extensions.length > 0 && (
            <Card withBorder radius="lg" padding="lg">
              <Stack gap="md">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {selected && selected.extLength > 0 && (
                    <TextInput
                      label="Your extension digits"
                      description={`${selected.extLength} digits that end ${selected.shortCode}${selected.extension}…#`}
                      placeholder={`e.g. ${'1234567890'.slice(0, selected.extLength)}`}
                      inputMode="numeric"
                      maxLength={selected.extLength}
                      value={digits}
                      onChange={(event) => {
                        setDigits(event.currentTarget.value);
                        setDigitsError(null);
                      }}
                      error={digitsError}
                    />
                  )}
                  <Select
                    label="Period"
                    description="Paid by the month"
                    data={monthOptions(LEASE_MONTHS_MIN, LEASE_MONTHS_MAX)}
                    value={months}
                    onChange={(value) => setMonths(value ?? DEFAULT_MONTHS)}
                    allowDeselect={false}
                  />
                </SimpleGrid>
                <Group justify="space-between" align="center" gap="md">
                  <div data-testid="buy-summary">
                    {selected ? (
                      <>
                        <Text size="sm">
                          Callers will dial <Code fz="sm">{dialString}</Code>
                        </Text>
                        <Text size="sm" fw={700} mt={4}>
                          Total {formatAmount(selected.price * Number(months))} {selected.currency}
                        </Text>
                      </>
                    ) : (
                      <Text size="sm">Select a shortcode extension above.</Text>
                    )}
                  </div>
                  <Button type="submit" leftSection={<IconShoppingCart size={18} />}>
                    Checkout
                  </Button>
                </Group>
              </Stack>
            </Card>
          )}
        </Stack>
      </form>

      <ShortcodePurchaseConfirmDialog
        summary={summary}
        isSubmitting={isSubmitting}
        onConfirm={() => void handleConfirm()}
        onClose={() => setSummary(null)}
      />
    </Stack>
  );
}
