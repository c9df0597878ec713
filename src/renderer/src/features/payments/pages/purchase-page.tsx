import { Anchor, Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useCallback } from 'react';
import { Link } from 'react-router-dom';
import type { PaymentConfig } from '../../../../../shared/api/payments';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { Notice } from '../../../components/data/alert-notice';
import { HeaderedPage } from '../../../components/layout/page-header';
import { AlertIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { failureMessage } from '../../../lib/api-errors';
import { PlanCard, PlanCardSkeleton, planMessages, useGetPublicPlansQuery } from '../../plans';
import { PaymentHistory } from '../components/payment-history';
import { formatDate } from '../components/payment-format';
import { PurchaseSuccess } from '../components/purchase-success';
import { SandboxCheckoutModal } from '../components/sandbox-checkout-modal';
import { SandboxNotice } from '../components/sandbox-notice';
import {
  type CurrentPlan,
  paymentMessages,
  useGetCurrentPlanSummaryQuery,
  useGetPaymentConfigQuery,
} from '../payments-endpoints';
import { type Checkout, useCheckout } from '../use-checkout';

interface Catalogue {
  plans: Plan[];
  config: PaymentConfig;
  /** Null when it could not be read: the plans are still on sale, just not marked. */
  current: CurrentPlan | null;
}

/**
 * What /purchase offers: the public plans, the checkout's settings and the user's current plan,
 * shown together once all three have answered (the current plan may fail: nothing is marked then).
 */
function useCatalogue() {
  const plans = useGetPublicPlansQuery();
  const config = useGetPaymentConfigQuery();
  const current = useGetCurrentPlanSummaryQuery();
  const failure = plans.error ?? config.error;
  const failed = failure !== undefined && !plans.isFetching && !config.isFetching;
  const loaded: Catalogue | null =
    plans.data && config.data && !current.isLoading
      ? { plans: plans.data, config: config.data, current: current.data ?? null }
      : null;
  const reload = () => {
    if (plans.isError) void plans.refetch();
    if (config.isError) void config.refetch();
  };
  return {
    loaded: failed ? null : loaded,
    failure: failed ? failureMessage(failure, planMessages.fetchPlansFailed) : null,
    reload,
  };
}

const INTERVAL_WORDS: Partial<Record<Plan['billing_interval'], string>> = { month: 'month', year: 'year' };

/** The button (and a line under it) that gets `plan`: buy, renew, activate free, or why not. */
function planAction(
  plan: Plan,
  { config, current }: Catalogue,
  checkout: Checkout,
): { action: ReactNode; note?: ReactNode } {
  const isCurrent = current?.plan?.id === plan.id;
  const { state } = checkout;
  const busy = state.step !== 'idle' && state.step !== 'succeeded';
  const free = plan.billing_interval === 'free' || plan.price_minor === 0;

  if (free) {
    if (isCurrent)
      return {
        action: (
          <Button fullWidth variant="default" disabled>
            Your current plan
          </Button>
        ),
      };
    return {
      action: (
        <Button
          component={Link}
          to={portalPaths.licenses}
          fullWidth
          variant="default"
          aria-label={`Start free: activate ${plan.name} on the Licenses page`}
        >
          Start free
        </Button>
      ),
      note: 'No payment: activate it on the Licenses page, once per account.',
    };
  }
  if (plan.currency !== config.currency)
    return {
      action: (
        <Button fullWidth disabled>
          Not available here
        </Button>
      ),
      note: `Priced in ${plan.currency}; this portal takes payments in ${config.currency}.`,
    };
  if (isCurrent && plan.billing_interval === 'lifetime')
    return {
      action: (
        <Button fullWidth variant="default" disabled>
          You own this plan
        </Button>
      ),
    };

  const loading = state.step === 'creating' && state.planId === plan.id;
  const interval = INTERVAL_WORDS[plan.billing_interval];
  return {
    action: (
      <Button
        fullWidth
        // Long plan names wrap instead of being cut off.
        h="auto"
        mih={36}
        py={6}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
        variant={isCurrent ? 'light' : 'filled'}
        loading={loading}
        disabled={busy && !loading}
        onClick={() => void checkout.buy(plan, config)}
      >
        {isCurrent ? `Renew ${plan.name}` : `Buy ${plan.name}`}
      </Button>
    ),
    note: isCurrent && interval ? `Adds one ${interval} to your current license.` : undefined,
  };
}

function CurrentPlanLine({ current }: { current: CurrentPlan | null }) {
  if (!current) return null;
  if (!current.plan || !current.license)
    return (
      <Text size="sm">
        You have no active plan yet. Start with the free plan on the{' '}
        <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
          Licenses page
        </Anchor>
        , or buy one below.
      </Text>
    );
  return (
    <Text size="sm" data-testid="current-plan">
      You are on <strong>{current.plan.name}</strong>
      {current.license.expires_at
        ? `, valid until ${formatDate(current.license.expires_at)}.`
        : ', with no end date.'}
    </Text>
  );
}

export default function PurchasePage() {
  const catalogue = useCatalogue();
  const onAbandoned = useCallback(() => {
    notifications.show({
      color: 'gray',
      title: 'Checkout closed',
      message: 'No payment was taken. Buy the plan whenever you are ready.',
    });
  }, []);
  const checkout = useCheckout({ onAbandoned });
  const { state, notice } = checkout;
  const { loaded } = catalogue;
  const sandboxOpen = state.step === 'sandbox' ? state : null;

  return (
    <HeaderedPage
      size="xl"
      title="Purchase"
      description="Pick the plan that fits. Your license is ready the moment the payment goes through."
    >
      {loaded?.config.sandbox ? (
        <SandboxNotice title="Sandbox payments: no real money" testId="sandbox-banner">
          This server runs the payment sandbox. Checkout asks for no card and charges nothing; licenses bought
          here are granted exactly as after a real payment.
        </SandboxNotice>
      ) : null}

      {notice ? (
        <Notice
          color={notice.tone === 'error' ? 'red' : 'blue'}
          variant="light"
          icon={<AlertIcon size={20} />}
          title={notice.title}
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss this message"
          onClose={checkout.dismissNotice}
        >
          {notice.message}
        </Notice>
      ) : null}

      {state.step === 'verifying' ? (
        <Notice color="blue" variant="light" title="Confirming your payment…" role="status">
          The payment went through; the license server is checking it. This takes a moment.
        </Notice>
      ) : null}

      {state.step === 'succeeded' ? (
        <PurchaseSuccess verification={state.verification} onDone={checkout.reset} />
      ) : null}

      <Stack gap="md" component="section" aria-labelledby="plans-title">
        <div>
          <Title order={2} size="h3" id="plans-title">
            Plans
          </Title>
          {loaded ? <CurrentPlanLine current={loaded.current} /> : null}
        </div>

        {catalogue.failure !== null ? (
          <ErrorAlert title="Plans could not be loaded">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{catalogue.failure || paymentMessages.fetchConfigFailed}</Text>
              <Button size="xs" variant="white" color="red" onClick={catalogue.reload}>
                Try again
              </Button>
            </Stack>
          </ErrorAlert>
        ) : !loaded ? (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 4 }}
            spacing="lg"
            aria-busy="true"
            aria-label="Loading plans"
          >
            {Array.from({ length: 4 }, (_, index) => (
              <PlanCardSkeleton key={index} compact />
            ))}
          </SimpleGrid>
        ) : loaded.plans.length === 0 ? (
          <Text c="dimmed">
            No plans are on sale right now. Your free license stays available on the{' '}
            <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
              Licenses page
            </Anchor>
            .
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(loaded.plans.length, 4) }} spacing="lg">
            {loaded.plans.map((plan) => {
              const { action, note } = planAction(plan, loaded, checkout);
              return (
                <PlanCard
                  key={plan.id}
                  plan={plan}
                  current={loaded.current?.plan?.id === plan.id}
                  action={action}
                  note={note}
                  compact
                />
              );
            })}
          </SimpleGrid>
        )}

        {loaded && !loaded.config.sandbox ? (
          <Text size="xs" c="dimmed">
            Payments are processed by Razorpay: card, UPI and bank details go to Razorpay directly and never
            reach this portal.
          </Text>
        ) : null}
      </Stack>

      <PaymentHistory />

      <SandboxCheckoutModal
        order={sandboxOpen?.order ?? null}
        busy={sandboxOpen?.busy ?? null}
        problem={sandboxOpen?.problem ?? null}
        onPay={() => void checkout.pay()}
        onDecline={() => void checkout.decline()}
        onClose={checkout.closeSandbox}
      />
    </HeaderedPage>
  );
}
