import { Code, Modal, Stack, Table, Text } from '@mantine/core';
import { RESERVATION_MINUTES } from '../../../shared/api/shortcodes.schema';
import { formatMonthlyPrice } from './shortcode-format';
import { DialogActions } from '../../components/dialog-actions';
import { formatAmount, formatMonths } from '../../lib/format';

/** What the buyer is about to pay for. */
export interface PurchaseSummary {
  shortCode: string;
  country: string;
  price: number;
  currency: string;
  months: number;
}

interface ShortcodePurchaseConfirmDialogProps {
  /** Closed while null. */
  summary: PurchaseSummary | null;
  isSubmitting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** 'Confirm Purchase': the dial string, period and total before the payment page opens. */
export function ShortcodePurchaseConfirmDialog({ summary, isSubmitting, onConfirm, onClose }: ShortcodePurchaseConfirmDialogProps) {
  return (
    <Modal opened={summary !== null} onClose={onClose} title="Confirm Purchase" centered size="md">
      {summary && (
        <Stack gap="md">
          <Table variant="vertical" layout="fixed" withTableBorder aria-label="Purchase">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={130}>Shortcode</Table.Th>
                <Table.Td>
                  <Code fz="sm" data-testid="confirm-shortcode">
                    {summary.shortCode}
                  </Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Country</Table.Th>
                <Table.Td>{summary.country}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Price</Table.Th>
                <Table.Td>{formatMonthlyPrice(summary.price, summary.currency)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Period</Table.Th>
                <Table.Td>{formatMonths(summary.months)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Total</Table.Th>
                <Table.Td fw={700} data-testid="confirm-total">
                  {formatAmount(summary.price * summary.months)} {summary.currency}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm">
            The payment page opens in a new tab. The shortcode is held for you for {RESERVATION_MINUTES} minutes while you pay, and becomes
            active, starting today, once the payment succeeds.
          </Text>
          <DialogActions submitLabel="Confirm and Pay" onCancel={onClose} onConfirm={onConfirm} isSubmitting={isSubmitting} />
        </Stack>
      )}
    </Modal>
  );
}
