import { Alert, Button, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockExclamation, IconCreditCard, IconInfoCircle, IconReceipt } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { BILLING_MESSAGES, type Subscription } from '../../../shared/api/billing.schema';
import { BASIC_PLAN, isPaidPlanName, type PaidPlanName } from '../../../shared/billing/plans';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PageHeader } from '../../components/page-header';
import { PaymentPageNotice } from '../../components/payment-page-notice';
import { ListSkeleton } from '../../components/list-states';
import { BillingConfirmDialog, type PlanRequest } from './billing-confirm-dialog';
import { BillingCreditDialog } from './billing-credit-dialog';
import { BillingHistoryPanel } from './billing-history-panel';
import { BillingPlanCards, isMakePaymentButton } from './billing-plan-cards';
import { BillingProgressDialog } from './billing-progress-dialog';
import { BillingSubscriptionCard } from './billing-subscription-card';
import { BillingUsageCard } from './billing-usage-card';
import { useBillingPayment, useSubscription } from './use-billing';
import { BILLING_PLAN_PARAM } from '../../lib/paths';
import { formatDay } from '../../lib/format';

const TABS = ['plans', 'history'] as const;
type BillingTab = (typeof TABS)[number];

/** The spec's retry: the current plan again, or Basic when the account is on TRIAL (or a plan that is not paid for here). */
const getRetryPlan = (subscription: Subscription): PaidPlanName => (isPaidPlanName(subscription.plan) ? subscription.plan : BASIC_PLAN);

/** The current plan's Make Payment (a custom amount) is offered while billing is on and the account works; Enterprise is paid by contract. */
const canCredit = (subscription: Subscription) =>
  subscription.billing === 'on' && subscription.state !== 'inactive' && subscription.plan !== 'ENTERPRISE';

/** What the account must know before anything else: billing is off, the account is deactivated, or a payment is due. */
function SubscriptionAlert({ subscription, onRetry }: { subscription: Subscription; onRetry: () => void }) {
  if (subscription.billing === 'off')
    return (
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />} title="Billing is off" data-testid="billing-off">
        {BILLING_MESSAGES.billingOff}.
      </Alert>
    );
  const retry = (
    <Button
      mt="sm"
      size="sm"
      color={subscription.state === 'inactive' ? 'red' : 'yellow.8'}
      leftSection={<IconCreditCard size={16} />}
      onClick={onRetry}
    >
      Make Payment
    </Button>
  );
  if (subscription.state === 'inactive')
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="Deactivated" data-testid="billing-deactivated">
        <Text size="sm">{BILLING_MESSAGES.deactivated}</Text>
        {retry}
      </Alert>
    );
  if (subscription.state === 'grace')
    return (
      <Alert color="yellow" variant="light" icon={<IconClockExclamation size={20} />} title="Payment due" data-testid="billing-grace">
        <Text size="sm">
          Your plan ended on {formatDay(subscription.periodEnd)}. Make a payment before {formatDay(subscription.graceEndsAt)} to keep your
          live apps answering.
        </Text>
        {retry}
      </Alert>
    );
  return null;
}

/**
 * The plan `?plan=` names (the pricing page's Start Now), once the subscription is in: its confirm dialog opens
 * for one period, as the pricing card priced it, with the annual toggle off to match; the parameter is then
 * dropped so a reload does not ask again. Nothing opens with billing off or for a plan that is not paid here.
 */
function useRequestedPlan(
  subscription: Subscription | undefined,
  onRequest: (request: PlanRequest) => void,
  onAnnualChange: (isAnnual: boolean) => void,
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(BILLING_PLAN_PARAM);
  useEffect(() => {
    if (!requested || !subscription) return;
    setSearchParams(
      (params) => {
        params.delete(BILLING_PLAN_PARAM);
        return params;
      },
      { replace: true },
    );
    if (!isPaidPlanName(requested) || subscription.billing !== 'on') return;
    onAnnualChange(false);
    onRequest(
      isMakePaymentButton(requested, subscription.plan)
        ? { kind: 'makePayment', plan: requested, isAnnual: false }
        : { kind: 'changePlan', plan: requested },
    );
  }, [requested, subscription, setSearchParams, onRequest, onAnnualChange]);
}

/**
 * 'Account Billing, Plans and Pricing' (/account-billing): the plan and its use, the plans to pay for, the payments
 * made. `?plan=STANDARD` opens that plan's payment at once (useRequestedPlan).
 */
export function BillingPage() {
  const { data: subscription, error, isPending, refetch } = useSubscription();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: BillingTab = searchParams.get('tab') === 'history' ? 'history' : 'plans';
  const [isAnnual, setAnnual] = useState(true);
  const [planRequest, setPlanRequest] = useState<PlanRequest | null>(null);
  useRequestedPlan(subscription, setPlanRequest, setAnnual);
  const [isCreditOpen, setCreditOpen] = useState(false);
  const { progress, openedPage, pay, closeProgress, clearOpenedPage } = useBillingPayment();

  const canPay = subscription?.billing === 'on';
  const retry = subscription && (() => setPlanRequest({ kind: 'makePayment', plan: getRetryPlan(subscription), isAnnual }));

  function choosePlan(plan: PaidPlanName, kind: 'makePayment' | 'changePlan') {
    setPlanRequest(kind === 'makePayment' ? { kind, plan, isAnnual } : { kind, plan });
  }

  function confirmPlan(request: PlanRequest) {
    setPlanRequest(null);
    void pay(request);
  }

  function payCredit(amount: number) {
    setCreditOpen(false);
    if (subscription) void pay({ kind: 'credit', plan: subscription.plan, amount });
  }

  return (
    <Stack gap="xl">
      <title>Account Billing · Dialflow</title>
      <PageHeader
        title="Account Billing"
        description="Your plan and this month's use, the plans you can pay for, and every payment you made."
      />

      {subscription && retry && <SubscriptionAlert subscription={subscription} onRetry={retry} />}
      {openedPage && (
        <PaymentPageNotice
          redirectUrl={openedPage.redirectUrl}
          message={openedPage.message}
          afterLink=". This page shows the payment once it is confirmed."
          onClose={clearOpenedPage}
          testId="billing-payment-notice"
        />
      )}

      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value === 'history' ? { tab: 'history' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="plans" leftSection={<IconCreditCard size={16} />}>
            Plans
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconReceipt size={16} />}>
            Payment History
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="plans">
          {isPending && <ListSkeleton label="Loading your plan" rows={6} />}
          {error && (
            <LoadErrorAlert
              testId="billing-error"
              title="Your plan was not loaded"
              message={error.message}
              onRetry={() => void refetch()}
            />
          )}
          {subscription && (
            <Stack gap="xl">
              <BillingSubscriptionCard
                subscription={subscription}
                onMakePayment={canCredit(subscription) ? () => setCreditOpen(true) : undefined}
              />
              <BillingUsageCard subscription={subscription} />
              <BillingPlanCards
                currentPlan={subscription.plan}
                isAnnual={isAnnual}
                onAnnualChange={setAnnual}
                canPay={canPay}
                onChoose={choosePlan}
              />
            </Stack>
          )}
        </Tabs.Panel>

        <Tabs.Panel value="history">
          <BillingHistoryPanel />
        </Tabs.Panel>
      </Tabs>

      <BillingConfirmDialog
        request={planRequest}
        accountBalance={subscription?.accountBalance ?? 0}
        onConfirm={confirmPlan}
        onClose={() => setPlanRequest(null)}
      />
      <BillingCreditDialog opened={isCreditOpen} onPay={payCredit} onClose={() => setCreditOpen(false)} />
      <BillingProgressDialog progress={progress} onClose={closeProgress} />
    </Stack>
  );
}
