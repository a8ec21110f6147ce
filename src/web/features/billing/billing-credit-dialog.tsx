import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { usdAmountSchema } from '../../../shared/api/billing.schema';
import { DialogActions } from '../../components/dialog-actions';

interface BillingCreditDialogProps {
  opened: boolean;
  /** The amount typed, checked by the shared rule. */
  onPay: (amount: number) => void;
  onClose: () => void;
}

/**
 * The current plan's 'Make Payment': a custom amount in USD into the account's balance, which pays for plans
 * and plan changes. Cancel, or Pay with nothing typed, does nothing.
 */
export function BillingCreditDialog({ opened, onPay, onClose }: BillingCreditDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Make Payment" centered size="sm">
      {opened && <CreditForm onPay={onPay} onClose={onClose} />}
    </Modal>
  );
}

function CreditForm({ onPay, onClose }: Omit<BillingCreditDialogProps, 'opened'>) {
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (amount.trim() === '') return;
    const parsed = usdAmountSchema.safeParse(amount);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter an amount in USD');
      return;
    }
    onPay(parsed.data);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Make Payment">
      <Stack gap="md">
        <Text size="sm">Pay any amount into your account balance. The balance pays for your plan and for plan changes.</Text>
        <TextInput
          label="Amount (USD)"
          leftSection="$"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(event) => {
            setAmount(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
        />
        <Text size="sm">The payment page opens in a new tab.</Text>
        <DialogActions submitLabel="Pay" onCancel={onClose} />
      </Stack>
    </form>
  );
}
