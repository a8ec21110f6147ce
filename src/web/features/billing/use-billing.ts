import { showToast } from '../../lib/toast';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  activateSubscription,
  changePlan,
  creditAccount,
  extendSubscription,
  findPaymentHistory,
  getAccountSubscription,
  getSubscription,
  makePayment,
} from '../../../shared/api/billing.calls';
import {
  type ActivateSubscriptionBody,
  type AdminSubscription,
  BILLING_MESSAGES,
  type ExtendSubscriptionBody,
  PROGRESS_CLOSE_MS,
  type Subscription,
} from '../../../shared/api/billing.schema';
import type { PaidPlanName, PlanName } from '../../../shared/billing/plans';
import { type ApiReply, failureText, isNetworkFailure, isNotFound, isOk, readData } from '../../lib/api';
import { call, type CallReply, callQuery, queryKey } from '../../lib/call';
import { formatDay } from '../../lib/format';

/**
 * The prefix of every billing query (billing.calls.ts): the subscription, the payment history (a shortcode
 * payment appears there too) and the accounts admins look up. A payment or a change reloads them all.
 */
export const BILLING_KEY = ['billing'];

/**
 * GET /api/subscription/current. Read again when the window regains focus: the payment is made in another tab,
 * and coming back should show the plan paid.
 */
export function useSubscription() {
  return useQuery({ ...callQuery(getSubscription, {}, 'Your subscription could not be loaded.'), refetchOnWindowFocus: true });
}

/** GET /api/subscription/paymentHistory, one page (newest first); the page shown stays while the next loads. */
export function usePaymentHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: queryKey(findPaymentHistory, { query: { page, pageSize } }),
    queryFn: async () => {
      const reply = await call(findPaymentHistory, { query: { page, pageSize } });
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

/** The three payment calls answer the payment reply; a refusal (or no server) is only the envelope. */
type PaymentAnswer = CallReply<typeof makePayment>;

function callPayment(request: PaymentRequest): Promise<PaymentAnswer> {
  switch (request.kind) {
    case 'makePayment':
      return call(makePayment, { body: { plan: request.plan, isAnnual: request.isAnnual } });
    case 'changePlan':
      return call(changePlan, { body: { plan: request.plan } });
    case 'credit':
      return call(creditAccount, { body: { plan: request.plan, amount: request.amount } });
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
    await queryClient.invalidateQueries({ queryKey: BILLING_KEY });
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
      showToast({
        color: 'teal',
        title: reply.data?.title ?? 'Plan changed',
        message: reply.message || BILLING_MESSAGES.changedFromBalance,
        autoClose: 10_000,
      });
      return;
    }
    showToast({
      color: isNetworkFailure(reply) ? 'red' : 'blue',
      title: 'Payment not started',
      message: failureText(reply, 'The payment could not be started.'),
      autoClose: 10_000,
    });
  }

  return { progress, openedPage, pay, closeProgress: () => setProgress(null), clearOpenedPage: () => setOpenedPage(null) };
}

/** GET /api/subscription/account (admins): the account with this email, or null when no account has it. */
export function useAccountSubscription(email: string) {
  return useQuery({
    queryKey: queryKey(getAccountSubscription, { query: { email } }),
    queryFn: async (): Promise<AdminSubscription | null> => {
      const reply = await call(getAccountSubscription, { query: { email } });
      if (isNotFound(reply)) return null;
      return readData(reply, 'The account could not be loaded.');
    },
    enabled: email !== '',
  });
}

/** What an admin changes by hand: days more on the period, or a plan from now. The reason is recorded. */
export type SubscriptionChange = ({ kind: 'extend' } & ExtendSubscriptionBody) | ({ kind: 'activate' } & ActivateSubscriptionBody);

/**
 * POST /api/subscription/extend or /activate (admins). On success the figures read again (the account's and,
 * when it is the admin's own, Account Billing's) and a toast says what changed; a refusal is returned for the
 * dialog to show.
 */
export function useChangeSubscription() {
  const queryClient = useQueryClient();
  return async (change: SubscriptionChange): Promise<ApiReply<Subscription>> => {
    const { email, reason } = change;
    const reply =
      change.kind === 'extend'
        ? await call(extendSubscription, { body: { email, reason, days: change.days } })
        : await call(activateSubscription, { body: { email, reason, plan: change.plan, days: change.days } });
    if (!isOk(reply)) return reply;
    await queryClient.invalidateQueries({ queryKey: BILLING_KEY });
    showToast({
      color: 'teal',
      title: reply.message || (change.kind === 'extend' ? 'Subscription extended' : 'Subscription activated'),
      message: reply.data ? `${reply.data.title}, until ${formatDay(reply.data.periodEnd)}` : '',
      autoClose: 10_000,
    });
    return reply;
  };
}
