import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BILLING_MESSAGES, PROGRESS_CLOSE_MS, type Subscription } from '../../../shared/api/billing.schema';
import type { PaidPlanName, PlanName } from '../../../shared/billing/plans';
import { failureText, isNetworkFailure, isOk, readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { changePlan, creditAccount, findPaymentHistory, getSubscription, makePayment, type PaymentAnswer } from './billing.api';

/**
 * GET /api/subscription/current. Read again when the window regains focus: the payment is made in another tab,
 * and coming back should show the plan paid.
 */
export function useSubscription() {
  return useQuery({
    queryKey: queryKeys.subscription,
    queryFn: async (): Promise<Subscription> => readData(await getSubscription(), 'Your subscription could not be loaded.'),
    refetchOnWindowFocus: true,
  });
}

/** GET /api/subscription/paymentHistory, one page (newest first); the page shown stays while the next loads. */
export function usePaymentHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: queryKeys.paymentHistory(page),
    queryFn: async () => {
      const reply = await findPaymentHistory(page, pageSize);
      return { rows: readData(reply, 'Your payments could not be loaded.'), total: reply.total ?? 0 };
    },
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: true,
  });
}

/**
 * What the page asks the server to start, after its dialog: `makePayment` pays for a plan (a card's Make Payment,
 * and the Deactivated warning's retry), `changePlan` moves to another plan, `credit` pays a custom amount into
 * the balance (the current plan's Make Payment).
 */
export type PaymentRequest =
  | { kind: 'makePayment'; plan: PaidPlanName; isAnnual: boolean }
  | { kind: 'changePlan'; plan: PaidPlanName }
  | { kind: 'credit'; plan: PlanName; amount: number };

/** The progress dialog: waiting for the server, then the payment page opened in a new tab. */
export type PaymentProgress = { phase: 'starting' } | { phase: 'opened'; redirectUrl: string; message: string };

function callPayment(request: PaymentRequest): Promise<PaymentAnswer> {
  switch (request.kind) {
    case 'makePayment':
      return makePayment({ plan: request.plan, isAnnual: request.isAnnual });
    case 'changePlan':
      return changePlan({ plan: request.plan });
    case 'credit':
      return creditAccount({ plan: request.plan, amount: request.amount });
  }
}

/**
 * The payment calls' outcomes, handled the same way for all three: '01' opens `redirectUrl` (the payment page)
 * in a new tab and closes the progress dialog PROGRESS_CLOSE_MS later; '00' (a plan change paid from the
 * balance) closes it and says so; anything else closes it and shows the server's message. The subscription and
 * the history reload either way.
 */
export function useBillingPayment() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<PaymentProgress | null>(null);
  /** The last payment page opened, kept on the page after the dialog closes (in case the browser blocked the tab). */
  const [openedPage, setOpenedPage] = useState<{ redirectUrl: string; message: string } | null>(null);

  const isOpened = progress?.phase === 'opened';
  useEffect(() => {
    if (!isOpened) return;
    const timer = setTimeout(() => setProgress(null), PROGRESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [isOpened]);

  async function pay(request: PaymentRequest): Promise<void> {
    setOpenedPage(null);
    setProgress({ phase: 'starting' });
    const reply = await callPayment(request);
    await queryClient.invalidateQueries({ queryKey: queryKeys.billing });
    if (reply.status === '01' && reply.redirectUrl) {
      const tab = window.open(reply.redirectUrl, '_blank');
      // The payment page never needs to reach back into the console.
      if (tab) tab.opener = null;
      const message = reply.message || (request.kind === 'credit' ? BILLING_MESSAGES.creditCheckout : BILLING_MESSAGES.checkout);
      setProgress({ phase: 'opened', redirectUrl: reply.redirectUrl, message });
      setOpenedPage({ redirectUrl: reply.redirectUrl, message });
      return;
    }
    setProgress(null);
    if (isOk(reply)) {
      notifications.show({
        color: 'teal',
        title: reply.data?.title ?? 'Plan changed',
        message: reply.message || BILLING_MESSAGES.changedFromBalance,
        autoClose: 10_000,
      });
      return;
    }
    notifications.show({
      color: isNetworkFailure(reply) ? 'red' : 'blue',
      title: 'Payment not started',
      message: failureText(reply, 'The payment could not be started.'),
      autoClose: 10_000,
    });
  }

  return { progress, openedPage, pay, closeProgress: () => setProgress(null), clearOpenedPage: () => setOpenedPage(null) };
}
