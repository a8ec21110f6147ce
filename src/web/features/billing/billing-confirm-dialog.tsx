import { Modal, Stack, Table, Text } from '@mantine/core';
import { getPeriodCount, getPlanAmountUsd, getPlanMonths, PLANS, type PaidPlanName } from '../../../shared/billing/plans';
import { formatUsd } from './billing-format';
import type { PaymentRequest } from './use-billing';
import { DialogActions } from '../../components/dialog-actions';
import { formatMonths } from '../../lib/format';

/** A plan payment or plan change waiting for the user's yes. */
export type PlanRequest = Extract<PaymentRequest, { kind: 'makePayment' | 'changePlan' }>;

interface BillingConfirmDialogProps {
  /** Closed while null. */
  request: PlanRequest | null;
  /** USD in the account's balance, which a plan change spends first. */
  accountBalance: number;
  onConfirm: (request: PlanRequest) => void;
  onClose: () => void;
}

/** What a plan payment buys and costs: one period, or a year's worth with the annual toggle. */
function describePayment(plan: PaidPlanName, isAnnual: boolean) {
  const count = getPeriodCount(plan, isAnnual);
  const title = PLANS[plan].title;
  return {
    what: count > 1 ? `${count} × ${title}` : title,
    months: getPlanMonths(plan, isAnnual),
    amount: getPlanAmountUsd(plan, isAnnual),
  };
}

/** The confirm dialog before a plan payment or a plan change: the plan, its period and its price in USD. */
export function BillingConfirmDialog({ request, accountBalance, onConfirm, onClose }: BillingConfirmDialogProps) {
  const isChange = request?.kind === 'changePlan';
  const payment = request && describePayment(request.plan, request.kind === 'makePayment' ? request.isAnnual : false);
  return (
    <Modal opened={request !== null} onClose={onClose} title={isChange ? 'Change Plan' : 'Make Payment'} centered size="md">
      {request && payment && (
        <Stack gap="md">
          <Table variant="vertical" layout="fixed" withTableBorder aria-label="Payment" data-testid="billing-confirm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={120}>Plan</Table.Th>
                <Table.Td data-testid="confirm-plan">{payment.what}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Period</Table.Th>
                <Table.Td>{formatMonths(payment.months)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Amount</Table.Th>
                <Table.Td fw={700} data-testid="confirm-amount">
                  {formatUsd(payment.amount)} USD
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm">
            {isChange
              ? `The new plan starts now for the period above; days left of your current plan are not carried over. Your balance (${formatUsd(accountBalance)}) pays for it when it covers the price; otherwise the payment page opens in a new tab.`
              : 'The payment page opens in a new tab. Your plan runs for the period above from the day the payment is confirmed, or from the end of the period you have already paid for.'}
          </Text>
          <DialogActions
            submitLabel={isChange ? 'Change Plan' : 'Confirm and Pay'}
            onCancel={onClose}
            onConfirm={() => onConfirm(request)}
          />
        </Stack>
      )}
    </Modal>
  );
}
