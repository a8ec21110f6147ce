import { Code, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { LEASE_MONTHS_MAX, LEASE_MONTHS_MIN, type Purchase, RENEW_MONTHS_DEFAULT } from '../../../shared/api/shortcodes.schema';
import { formatMonthlyPrice, monthOptions } from './shortcode-format';
import { renewShortcode } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import type { useShortcodeCheckout } from './use-shortcode-checkout';
import { DialogActions } from '../../components/dialog-actions';
import { formatAmount, formatDay } from '../../lib/format';

/** The new expiry: the months are added to the later of today and the current expiry. */
function findNewExpiry(purchase: Purchase, months: number, now = new Date()): string {
  const current = purchase.expiryDate ? new Date(purchase.expiryDate) : null;
  const from = current && current > now ? current : now;
  const next = new Date(from);
  next.setMonth(next.getMonth() + months);
  return next.toISOString();
}

interface ShortcodePurchaseRenewDialogProps {
  /** Closed while null. */
  purchase: Purchase | null;
  handleCheckout: ReturnType<typeof useShortcodeCheckout>['handleCheckout'];
  onClose: () => void;
}

/** 'Make Payment' on My USSD Extensions: renew for 1 to 12 months (1 to start with), paid like a purchase. */
export function ShortcodePurchaseRenewDialog({ purchase, handleCheckout, onClose }: ShortcodePurchaseRenewDialogProps) {
  return (
    <Modal opened={purchase !== null} onClose={onClose} title="Make Payment" centered size="md">
      {purchase && <RenewForm purchase={purchase} handleCheckout={handleCheckout} onClose={onClose} />}
    </Modal>
  );
}

function RenewForm({ purchase, handleCheckout, onClose }: { purchase: Purchase } & Omit<ShortcodePurchaseRenewDialogProps, 'purchase'>) {
  const [months, setMonths] = useState(String(RENEW_MONTHS_DEFAULT));
  const [isSubmitting, setSubmitting] = useState(false);
  const count = Number(months);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setSubmitting(true);
    const reply = await call(renewShortcode, {
      body: {
        id: purchase.id,
        leaseCount: count,
        extensionUuid: purchase.extensionUuid ?? '',
        shortCode: purchase.shortCode,
      },
    });
    setSubmitting(false);
    onClose();
    await handleCheckout(reply, purchase.shortCode);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Make Payment">
      <Stack gap="md">
        <Text size="sm">
          Renew <Code fz="sm">{purchase.shortCode}</Code> at {formatMonthlyPrice(purchase.price, purchase.currency)}.
        </Text>
        <Select
          label="Months"
          data={monthOptions(LEASE_MONTHS_MIN, LEASE_MONTHS_MAX)}
          value={months}
          onChange={(value) => setMonths(value ?? String(RENEW_MONTHS_DEFAULT))}
          allowDeselect={false}
          data-autofocus
        />
        <div data-testid="renew-summary">
          <Text size="sm" fw={700}>
            Total {formatAmount(purchase.price * count)} {purchase.currency}
          </Text>
          <Text size="sm" mt={4}>
            Once paid, it runs until {formatDay(findNewExpiry(purchase, count))}.
          </Text>
        </div>
        <Text size="sm">The payment page opens in a new tab.</Text>
        <DialogActions submitLabel="Pay" onCancel={onClose} isSubmitting={isSubmitting} />
      </Stack>
    </form>
  );
}
