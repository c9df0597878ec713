import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { PaymentConfig } from '../../../../../shared/api/payments';
import type { Plan } from '../../../../../shared/api/plans';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { portalPaths } from '../../../../../shared/routes';
import { Notice } from '../../../components/data/alert-notice';
import { wrappingLabel } from '../../../components/forms/wrapping-label';
import { HeaderedPage } from '../../../components/layout/page-header';
import { AlertIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatAmount } from '../../../lib/format-money';
import {
  CurrencySelect,
  currenciesOf,
  inCurrency,
  PlanCard,
  PlanCardSkeleton,
  PlanGrid,
  planMessages,
  useGetPublicPlansQuery,
  useShownCurrency,
} from '../../plans';
import { useGetBillingDetailsQuery } from '../../invoices';
import type { License } from '../../../../../shared/api/licenses';
import { coveringLifetime } from '../../../../../shared/plan-coverage';
import { useListMyLicensesQuery } from '../../licenses';
import { formatRecurringPrice, isLive, useGetSubscriptionsQuery } from '../../subscriptions';
import { CouponField, couponPeriod, couponPriceText } from '../components/coupon-field';
import { OrganisationPurchaseDialog } from '../components/organisation-purchase-dialog';
import { PaymentHistory, type RetryOrder } from '../components/payment-history';
import { PurchaseSuccess } from '../components/purchase-success';
import { orderSubject, SandboxCheckoutModal } from '../components/sandbox-checkout-modal';
import { SubscriptionSuccess } from '../components/subscription-success';
import { SandboxNotice } from '../components/sandbox-notice';
import { StartTrialButton } from '../components/start-trial-button';
import {
  type CurrentPlan,
  paymentMessages,
  useGetCurrentPlanSummaryQuery,
  useGetPaymentConfigQuery,
} from '../payments-endpoints';
import { type Checkout, useCheckout } from '../use-checkout';
import { useCheckoutLink } from '../use-checkout-link';
import { type CouponField as CouponFieldState, useCoupon } from '../use-coupon';
import { isRecurringPlan, type Subscribe, subscriptionSubject, useSubscribe } from '../use-subscribe';

interface Catalogue {
  /** At their prices in the currency shown. */
  plans: Plan[];
  /** The currencies the plans are sold in, the one shown, and the choice of another. */
  prices: { currencies: string[]; shown: string | null; choose: (currency: string) => void };
  config: PaymentConfig;
  /** Null when it could not be read: the plans are still on sale, just not marked. */
  current: CurrentPlan | null;
  /** The user's live subscriptions; empty when they could not be read. */
  subscriptions: Subscription[];
  /** The lifetime licenses the user holds, with their plans' features; empty when unknown. */
  lifetimes: HeldLifetime[];
  /** The plans the user has a personal license of (a trial's included): none is offered a trial. */
  heldPlanIds: ReadonlySet<string>;
}

/**
 * What /purchase offers: the public plans, the checkout's settings and the user's current plan,
 * shown together once all three have answered (the current plan may fail: nothing is marked then).
 */
function useCatalogue() {
  const plans = useGetPublicPlansQuery();
  const config = useGetPaymentConfigQuery();
  const current = useGetCurrentPlanSummaryQuery();
  const subscriptions = useGetSubscriptionsQuery();
  const licenses = useListMyLicensesQuery();
  // Prices are shown in the billing country's currency once billing details are saved.
  const details = useGetBillingDetailsQuery();
  const shown = useShownCurrency(details.data?.country);
  const failure = plans.error ?? config.error;
  const failed = failure !== undefined && !plans.isFetching && !config.isFetching;
  const loaded: Catalogue | null =
    plans.data && config.data && !current.isLoading && !subscriptions.isLoading && !licenses.isLoading
      ? {
          plans: plans.data.map((plan) => inCurrency(plan, shown.currency)),
          prices: { currencies: currenciesOf(plans.data), shown: shown.currency, choose: shown.choose },
          config: config.data,
          current: current.data ?? null,
          subscriptions: (subscriptions.data ?? []).filter(isLive),
          lifetimes: heldLifetimes(licenses.data ?? [], plans.data),
          heldPlanIds: new Set(
            (licenses.data ?? []).flatMap((license) =>
              license.organisation === null ? [license.plan_id] : [],
            ),
          ),
        }
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

/** A lifetime license the user holds, with the features of its plan as sold. */
interface HeldLifetime {
  planName: string;
  features: Plan['features'];
}

/** Lifetime licenses in use (not revoked or expired) whose plan the catalog still describes. */
function heldLifetimes(licenses: readonly License[], plans: readonly Plan[]): HeldLifetime[] {
  return licenses.flatMap((license) => {
    const plan = plans.find((offered) => offered.id === license.plan_id);
    return license.status === 'active' &&
      license.organisation === null &&
      license.expires_at === null &&
      plan?.billing_interval === 'lifetime'
      ? [{ planName: plan.name, features: plan.features }]
      : [];
  });
}

/** "Renews every month until you cancel." */
const renewsText = (interval: 'month' | 'year') =>
  interval === 'year' ? t`Renews every year until you cancel.` : t`Renews every month until you cancel.`;

const isBusy = (step: string) => step !== 'idle' && step !== 'succeeded';

const DAY_MS = 86_400_000;

/**
 * A plan's trial with a card, in its subscription checkout: "Start 14-day trial with card", and
 * when the first charge comes. The card is authorized now and charged at the trial's end.
 */
function CardTrialChoice({
  plan,
  config,
  subscribe,
  busy,
}: {
  plan: Plan & { billing_interval: 'month' | 'year' };
  config: PaymentConfig;
  subscribe: Subscribe;
  busy: boolean;
}) {
  const opening =
    subscribe.state.step === 'creating' && subscribe.state.planId === plan.id && subscribe.withTrial();
  const firstCharge = formatDate(new Date(Date.now() + plan.trial_days * DAY_MS).toISOString());
  const price = formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval);
  const describedBy = `card-trial-note-${plan.id}`;
  const days = plan.trial_days;
  return (
    <Stack gap={4}>
      <Button
        fullWidth
        {...wrappingLabel}
        variant="outline"
        loading={opening}
        disabled={busy && !opening}
        aria-describedby={describedBy}
        onClick={() => void subscribe.startTrial(plan, config)}
      >
        {plural(days, { one: 'Start #-day trial with card', other: 'Start #-day trial with card' })}
      </Button>
      <Text size="xs" c="dimmed" id={describedBy} data-testid="card-trial-note">
        <Trans>
          You won’t be charged until {firstCharge}, then {price}. Cancel before then and nothing is charged.
        </Trans>
      </Text>
    </Stack>
  );
}

/** A monthly or yearly plan: subscribe (with its trial, when it offers one), or manage the subscription. */
function subscriptionAction(
  plan: Plan & { billing_interval: 'month' | 'year' },
  catalogue: Catalogue,
  subscribe: Subscribe,
  busy: boolean,
  coupon: CouponFieldState,
): { action: ReactNode; note?: ReactNode } {
  const { subscriptions, config, lifetimes } = catalogue;
  const own = subscriptions.find((subscription) => subscription.plan.id === plan.id);
  if (own)
    return {
      action: (
        <Button component={Link} to={portalPaths.subscriptions} fullWidth variant="light" {...wrappingLabel}>
          <Trans>Manage subscription</Trans>
        </Button>
      ),
      note: t`You subscribe to this plan: change or cancel it on the Subscriptions page.`,
    };
  const loading =
    subscribe.state.step === 'creating' && subscribe.state.planId === plan.id && !subscribe.withTrial();
  const other = subscriptions[0];
  // Trials are for someone who does not subscribe yet, and a lifetime owner has nothing to try.
  const cardTrial = offersTrial(plan, catalogue) && !other && !coveringLifetime(lifetimes, plan.features);
  const covering = coveringLifetime(lifetimes, plan.features);
  const discount = coupon.applied?.planId === plan.id ? coupon.applied.preview : null;
  const price = discount
    ? discount.duration === 'forever'
      ? formatRecurringPrice(discount.amount_after_minor, plan.currency, plan.billing_interval)
      : `${formatAmount(discount.amount_after_minor, plan.currency)} ${couponPeriod(discount, plan)}`
    : formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval);
  const renews = renewsText(plan.billing_interval);
  const planName = plan.name;
  const subscribeButton = (
    <Button
      fullWidth
      {...wrappingLabel}
      loading={loading}
      disabled={busy && !loading}
      variant={covering ? 'light' : 'filled'}
      onClick={() =>
        void (covering ? subscribe.startDespiteLifetime : subscribe.start)(plan, config, coupon.codeFor(plan))
      }
    >
      {covering ? t`Subscribe anyway — ${price}` : t`Subscribe — ${price}`}
    </Button>
  );
  const lifetimeName = covering?.planName;
  const otherName = other?.plan.name;
  const note: ReactNode = covering ? (
    <Text component="span" fz="inherit" c="orange.8" data-testid="lifetime-overlap">
      {plan.billing_interval === 'year' ? (
        <Trans>
          You already own a lifetime {lifetimeName} license, which includes everything in {planName} for good.
          Subscribe only if you want to pay for it again every year.
        </Trans>
      ) : (
        <Trans>
          You already own a lifetime {lifetimeName} license, which includes everything in {planName} for good.
          Subscribe only if you want to pay for it again every month.
        </Trans>
      )}
    </Text>
  ) : other ? (
    <Trans>
      You subscribe to {otherName}: to move to this plan instead,{' '}
      <Anchor component={Link} to={portalPaths.subscriptions} underline="always" fz="inherit">
        change plan on the Subscriptions page
      </Anchor>
      .
    </Trans>
  ) : discount ? (
    `${couponLine(discount.code, couponPriceText(discount, plan), discount.duration === 'once' ? formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval) : null)} ${renews}`
  ) : (
    renews
  );
  if (!cardTrial) return { action: subscribeButton, note };
  // The subscription's line stays under its own button, before the trial with a card.
  return {
    action: (
      <Stack gap="xs">
        <Stack gap={4}>
          {subscribeButton}
          <PlanNote>{note}</PlanNote>
        </Stack>
        <CardTrialChoice plan={plan} config={config} subscribe={subscribe} busy={busy} />
      </Stack>
    ),
  };
}

/** "Coupon SAVE10: ₹899 for the first month, then ₹999 / month." */
function couponLine(code: string, discounted: string, then: string | null): string {
  return then ? t`Coupon ${code}: ${discounted}, then ${then}.` : t`Coupon ${code}: ${discounted}.`;
}

/** One seat's price each period, after the coupon applied to the plan when it discounts every charge. */
function seatPrice(plan: Plan, coupon: CouponFieldState): number {
  const discount = coupon.applied?.planId === plan.id ? coupon.applied.preview : null;
  return discount?.duration === 'forever' ? discount.amount_after_minor : plan.price_minor;
}

/** A seat-based plan: bought for an organisation, asked for in a dialog before the checkout. */
function seatPlanAction(
  plan: Plan & { billing_interval: 'month' | 'year' },
  subscribe: Subscribe,
  busy: boolean,
  coupon: CouponFieldState,
  buyForOrganisation: (plan: Plan & { billing_interval: 'month' | 'year' }) => void,
): { action: ReactNode; note?: ReactNode } {
  const loading = subscribe.state.step === 'creating' && subscribe.state.planId === plan.id;
  const discount = coupon.applied?.planId === plan.id ? coupon.applied.preview : null;
  return {
    action: (
      <Button
        fullWidth
        {...wrappingLabel}
        loading={loading}
        disabled={busy && !loading}
        onClick={() => buyForOrganisation(plan)}
      >
        <Trans>Buy for an organization</Trans>
      </Button>
    ),
    note: [
      discount ? seatCouponLine(discount.code, couponPriceText(discount, plan)) : null,
      seatRenewal(plan.billing_interval),
    ]
      .filter(Boolean)
      .join(' '),
  };
}

const seatCouponLine = (code: string, discounted: string) => t`Coupon ${code}: ${discounted} a seat.`;
const seatRenewal = (interval: 'month' | 'year') =>
  interval === 'year'
    ? t`For organizations: choose yours and the number of seats. Renews every year until canceled.`
    : t`For organizations: choose yours and the number of seats. Renews every month until canceled.`;

/** The button (and a line under it) that gets `plan`: subscribe, buy, activate free, or why not. */
function planAction(
  plan: Plan,
  catalogue: Catalogue,
  checkout: Checkout,
  subscribe: Subscribe,
  coupon: CouponFieldState,
  buyForOrganisation: (plan: Plan & { billing_interval: 'month' | 'year' }) => void,
): { action: ReactNode; note?: ReactNode } {
  const { config, current } = catalogue;
  const isCurrent = current?.plan?.id === plan.id;
  const { state } = checkout;
  const busy = isBusy(state.step) || isBusy(subscribe.state.step);
  const free = plan.billing_interval === 'free' || plan.price_minor === 0;

  if (free) {
    if (isCurrent)
      return {
        action: (
          <Button fullWidth variant="default" disabled>
            <Trans>Your current plan</Trans>
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
          aria-label={startFreeLabel(plan.name)}
        >
          <Trans>Start free</Trans>
        </Button>
      ),
      note: t`No payment: activate it on the Licenses page, once per account.`,
    };
  }
  if (!config.currencies.includes(plan.currency))
    return {
      action: (
        <Button fullWidth disabled>
          <Trans>Not available here</Trans>
        </Button>
      ),
      note: pricedElsewhere(plan.currency, config.currencies.join(', ')),
    };
  if (isCurrent && plan.billing_interval === 'lifetime')
    return {
      action: (
        <Button fullWidth variant="default" disabled>
          <Trans>You own this plan</Trans>
        </Button>
      ),
    };

  if (isRecurringPlan(plan) && plan.seat_based)
    return seatPlanAction(
      plan as Plan & { billing_interval: 'month' | 'year' },
      subscribe,
      busy,
      coupon,
      buyForOrganisation,
    );
  if (isRecurringPlan(plan))
    return subscriptionAction(
      plan as Plan & { billing_interval: 'month' | 'year' },
      catalogue,
      subscribe,
      busy,
      coupon,
    );

  const loading = state.step === 'creating' && state.planId === plan.id;
  const discount = coupon.applied?.planId === plan.id ? coupon.applied.preview : null;
  const planName = plan.name;
  const name = isCurrent ? t`Renew ${planName}` : t`Buy ${planName}`;
  return {
    action: (
      <Button
        fullWidth
        {...wrappingLabel}
        variant={isCurrent ? 'light' : 'filled'}
        loading={loading}
        disabled={busy && !loading}
        onClick={() => void checkout.start(plan, config, coupon.codeFor(plan))}
      >
        {discount ? `${name} — ${formatAmount(discount.amount_after_minor, plan.currency)}` : name}
      </Button>
    ),
    note:
      [
        discount ? couponLine(discount.code, couponPriceText(discount, plan), null) : '',
        isCurrent && plan.billing_interval === 'month' ? t`Adds one month to your current license.` : '',
        isCurrent && plan.billing_interval === 'year' ? t`Adds one year to your current license.` : '',
      ]
        .filter(Boolean)
        .join(' ') || undefined,
  };
}

const startFreeLabel = (planName: string) => t`Start free: activate ${planName} on the Licenses page`;
const pricedElsewhere = (priced: string, taken: string) =>
  t`Priced in ${priced}; this portal takes payments in ${taken}.`;

/** A plan card's line under an action, as the card writes its own note. */
const PlanNote = ({ children }: { children: ReactNode }) => (
  <Text size="xs" c="dimmed" ta="center" mb={4}>
    {children}
  </Text>
);

/**
 * Whether the page offers a plan's free trial: it has one, is sold here to a person (not per
 * seat), and the user holds no license of it yet (the server refuses a second trial anyway).
 */
const offersTrial = (plan: Plan, catalogue: Catalogue) =>
  plan.trial_days > 0 &&
  !plan.seat_based &&
  plan.price_minor > 0 &&
  catalogue.config.currencies.includes(plan.currency) &&
  !catalogue.heldPlanIds.has(plan.id);

/** The plans a coupon can be applied to: those the page offers to buy or subscribe to now. */
function couponPlans(catalogue: Catalogue | null): Plan[] {
  if (!catalogue) return [];
  const { plans, config, current, subscriptions } = catalogue;
  return plans.filter(
    (plan) =>
      plan.billing_interval !== 'free' &&
      plan.price_minor > 0 &&
      config.currencies.includes(plan.currency) &&
      !(current?.plan?.id === plan.id && plan.billing_interval === 'lifetime') &&
      // One may buy a seat-based plan again, for another organisation.
      (plan.seat_based || !subscriptions.some((subscription) => subscription.plan.id === plan.id)),
  );
}

function CurrentPlanLine({ current }: { current: CurrentPlan | null }) {
  if (!current) return null;
  if (!current.plan || !current.license)
    return (
      <Text size="sm">
        <Trans>
          You have no active plan yet. Start with the free plan on the{' '}
          <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
            Licenses page
          </Anchor>
          , or buy one below.
        </Trans>
      </Text>
    );
  const planName = current.plan.name;
  const until = current.license.expires_at ? formatDate(current.license.expires_at) : null;
  return (
    <Text size="sm" data-testid="current-plan">
      {until ? (
        <Trans>
          You are on <strong>{planName}</strong>, valid until {until}.
        </Trans>
      ) : (
        <Trans>
          You are on <strong>{planName}</strong>, with no end date.
        </Trans>
      )}
    </Text>
  );
}

export default function PurchasePage() {
  const { t } = useLingui();
  const catalogue = useCatalogue();
  const onAbandoned = useCallback(() => {
    notifications.show({
      color: 'gray',
      title: t`Checkout closed`,
      message: t`No payment was taken. Buy the plan whenever you are ready.`,
    });
  }, [t]);
  const { loaded } = catalogue;
  const discountable = couponPlans(loaded);
  const coupon = useCoupon(discountable);
  const { remove: removeCoupon, refuse: onCouponRefused } = coupon;
  const checkout = useCheckout({ onAbandoned, onCouponRefused });
  const subscribe = useSubscribe({ onAbandoned, onCouponRefused });
  const { state } = checkout;
  // The seat-based plan whose organisation and seats are being chosen, and the seats then bought.
  const [forOrganisation, setForOrganisation] = useState<
    (Plan & { billing_interval: 'month' | 'year' }) | null
  >(null);
  const [seatsBought, setSeatsBought] = useState(1);
  // The organisation a checkout link named, chosen already when the seat-based plan's dialog opens.
  const [linkedOrganisation, setLinkedOrganisation] = useState<string | null>(null);
  // Reached through a checkout link: the linked plan's checkout opens once the plans are there.
  useCheckoutLink(loaded ? { offered: discountable, config: loaded.config } : null, {
    buyForOrganisation: setForOrganisation,
    subscribe: (plan, config) => void subscribe.start(plan, config),
    buy: (plan, config) => void checkout.start(plan, config),
    chooseOrganisation: setLinkedOrganisation,
  });
  // Retry on an expired or failed order: a new checkout for its plan, if the plan is still on sale.
  const retry = useMemo<RetryOrder>(
    () => ({
      busy: state.step !== 'idle' && state.step !== 'succeeded',
      retry(payment) {
        const plan = loaded?.plans.find((offered) => offered.id === payment.plan.id);
        if (!loaded || !plan) {
          const planName = payment.plan.name;
          notifications.show({
            color: 'gray',
            title: t`${planName} is not on sale now`,
            message: t`Choose one of the plans above instead.`,
          });
          return;
        }
        void checkout.start(plan, loaded.config);
      },
    }),
    [state.step, loaded, checkout, t],
  );
  const bought = state.step === 'succeeded' || subscribe.state.step === 'succeeded';
  // Redeemed with the purchase: the next one is at the full price unless another code is given.
  useEffect(() => {
    if (bought) removeCoupon();
  }, [bought, removeCoupon]);
  const sandboxOpen = state.step === 'sandbox' ? state : null;
  const subscriptionOpen = subscribe.state.step === 'sandbox' ? subscribe.state : null;
  // One checkout runs at a time: its notice, and the sandbox dialog's answers go to it.
  const notice = checkout.notice ?? subscribe.notice;
  const dismissNotice = checkout.notice ? checkout.dismissNotice : subscribe.dismissNotice;
  const sandbox = subscriptionOpen
    ? {
        subject: subscriptionSubject(
          subscriptionOpen.opened,
          coupon.applied?.planId === subscriptionOpen.opened.subscription.plan.id
            ? coupon.applied.preview
            : null,
          loaded?.plans.find((plan) => plan.id === subscriptionOpen.opened.subscription.plan.id)?.seat_based
            ? seatsBought
            : 1,
        ),
        busy: subscriptionOpen.busy,
        problem: subscriptionOpen.problem,
        flow: subscribe,
      }
    : {
        subject: sandboxOpen ? orderSubject(sandboxOpen.opened) : null,
        busy: sandboxOpen?.busy ?? null,
        problem: sandboxOpen?.problem ?? null,
        flow: checkout,
      };

  return (
    <HeaderedPage
      size="xl"
      title={t`Purchase`}
      description={t`Pick the plan that fits. Your license is ready the moment the payment goes through.`}
    >
      {loaded?.config.sandbox ? (
        <SandboxNotice title={t`Sandbox payments: no real money`} testId="sandbox-banner">
          <Trans>
            This server runs the payment sandbox. Checkout asks for no card and charges nothing; licenses
            bought here are granted exactly as after a real payment.
          </Trans>
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
          closeButtonLabel={t`Dismiss this message`}
          onClose={dismissNotice}
        >
          {notice.message}
        </Notice>
      ) : null}

      {state.step === 'verifying' || subscribe.state.step === 'verifying' ? (
        <Notice color="blue" variant="light" title={t`Confirming your payment…`} role="status">
          <Trans>The payment went through; the license server is checking it. This takes a moment.</Trans>
        </Notice>
      ) : null}

      {state.step === 'succeeded' ? (
        <PurchaseSuccess verification={state.done} onDone={checkout.reset} />
      ) : null}

      {subscribe.state.step === 'succeeded' ? (
        <SubscriptionSuccess
          activation={subscribe.state.done}
          sandbox={subscribe.state.done.subscription.sandbox}
          onDone={subscribe.reset}
        />
      ) : null}

      <Stack gap="md" component="section" aria-labelledby="plans-title">
        <div>
          <Title order={2} size="h3" id="plans-title">
            <Trans>Plans</Trans>
          </Title>
          {loaded ? <CurrentPlanLine current={loaded.current} /> : null}
        </div>

        {loaded ? (
          <Group justify="space-between" align="flex-end" gap="md">
            <CouponField coupon={coupon} plans={discountable} />
            {loaded.prices.shown && loaded.prices.currencies.length > 1 ? (
              <CurrencySelect
                currencies={loaded.prices.currencies}
                value={loaded.prices.shown}
                onChange={loaded.prices.choose}
              />
            ) : null}
          </Group>
        ) : null}

        {catalogue.failure !== null ? (
          <ErrorAlert title={t`Plans could not be loaded`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{catalogue.failure || paymentMessages.fetchConfigFailed}</Text>
              <Button size="xs" variant="white" color="red" onClick={catalogue.reload}>
                <Trans>Try again</Trans>
              </Button>
            </Stack>
          </ErrorAlert>
        ) : !loaded ? (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 4 }}
            spacing="lg"
            aria-busy="true"
            aria-label={t`Loading plans`}
          >
            {Array.from({ length: 4 }, (_, index) => (
              <PlanCardSkeleton key={index} compact />
            ))}
          </SimpleGrid>
        ) : loaded.plans.length === 0 ? (
          <Text c="dimmed">
            <Trans>
              No plans are on sale right now. Your free license stays available on the{' '}
              <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
                Licenses page
              </Anchor>
              .
            </Trans>
          </Text>
        ) : (
          <PlanGrid count={loaded.plans.length}>
            {loaded.plans.map((plan) => {
              const { action, note } = planAction(
                plan,
                loaded,
                checkout,
                subscribe,
                coupon,
                setForOrganisation,
              );
              const trial = offersTrial(plan, loaded);
              return (
                <PlanCard
                  key={plan.id}
                  plan={plan}
                  current={loaded.current?.plan?.id === plan.id}
                  action={
                    trial ? (
                      <Stack gap={6}>
                        {action}
                        {/* The purchase's line stays under its own button: the trial renews nothing. */}
                        {note ? <PlanNote>{note}</PlanNote> : null}
                        <StartTrialButton plan={plan} />
                      </Stack>
                    ) : (
                      action
                    )
                  }
                  note={
                    trial ? (
                      <Trans>No card needed: the trial ends by itself, nothing is charged.</Trans>
                    ) : (
                      note
                    )
                  }
                  compact
                />
              );
            })}
          </PlanGrid>
        )}

        {loaded && !loaded.config.sandbox ? (
          <Text size="xs" c="dimmed">
            <Trans>
              Payments are processed by Razorpay: card, UPI and bank details go to Razorpay directly and never
              reach this portal.
            </Trans>
          </Text>
        ) : null}
      </Stack>

      <PaymentHistory retry={retry} />

      <OrganisationPurchaseDialog
        plan={forOrganisation}
        organisationId={linkedOrganisation}
        seatPriceMinor={forOrganisation ? seatPrice(forOrganisation, coupon) : 0}
        onClose={() => setForOrganisation(null)}
        onContinue={(target) => {
          if (!forOrganisation || !loaded) return;
          setForOrganisation(null);
          setSeatsBought(target.seats);
          void subscribe.startForOrganisation(
            forOrganisation,
            loaded.config,
            target,
            coupon.codeFor(forOrganisation),
          );
        }}
      />

      <SandboxCheckoutModal
        subject={sandbox.subject}
        busy={sandbox.busy}
        problem={sandbox.problem}
        onPay={() => void sandbox.flow.pay()}
        onDecline={() => void sandbox.flow.decline()}
        onClose={sandbox.flow.closeSandbox}
      />
    </HeaderedPage>
  );
}
