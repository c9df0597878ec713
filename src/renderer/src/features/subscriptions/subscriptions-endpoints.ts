import type {
  CardChangeCheckout,
  PlanChangeQuote,
  Subscription,
  SubscriptionActivation,
  SubscriptionCheckout,
  SubscriptionDetail,
  VerifySubscriptionRequest,
} from '../../../../shared/api/subscriptions';
import type { CheckoutFailure } from '../../../../shared/api/payments';
import { pathWith } from '../../../../shared/routes';
import { subscriptionsApiPaths } from '../../../../shared/api-paths';
import { recordEndpointArea } from '../../lib/api-actions';
import { api } from '../../lib/api';

// The fallbacks of the subscription calls, shown when the server gives no message.
export const subscriptionMessages = {
  fetchListFailed: 'Failed to fetch your subscriptions',
  fetchDetailFailed: 'Failed to fetch the subscription',
  createFailed: 'Failed to start the subscription',
  sandboxCheckoutFailed: 'The sandbox checkout did not answer',
  verifyFailed: 'Failed to verify the subscription’s first payment',
  cancelFailed: 'Could not cancel the subscription',
  resumeFailed: 'Could not resume the subscription',
  pauseFailed: 'Could not pause the subscription',
  unpauseFailed: 'Could not end the pause',
  quoteFailed: 'Could not price the plan change',
  changePlanFailed: 'Could not change the plan',
  paymentMethodFailed: 'Could not update the payment method',
  payNowFailed: 'The payment did not go through',
  sandboxRenewFailed: 'Could not simulate the renewal',
} as const;

/** What the sandbox checkout of a subscription answered: Checkout's response to verify, or a decline. */
export type SandboxSubscriptionResult =
  | { outcome: 'paid'; checkout: VerifySubscriptionRequest }
  | { outcome: 'declined'; failure: Pick<CheckoutFailure, 'error'> };

/** Every write changes the subscription, the license it keeps and (most) the charges and invoices. */
const WRITE_TAGS = ['Subscription', 'License', 'Payment', 'Invoice'] as const;

/** The customer's subscriptions: subscribe, see, cancel, resume, change plan, pay, and the sandbox's controls. */
export const subscriptionsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /subscriptions: newest first, unpaid (pending) ones left out. */
      getSubscriptions: build.query<Subscription[], void>({
        query: () => ({ url: subscriptionsApiPaths.list }),
        transformResponse: (answer: { data: Subscription[] }) => answer.data,
        extraOptions: { fallback: subscriptionMessages.fetchListFailed },
        providesTags: ['Subscription'],
      }),
      /** GET /subscriptions/{id}: one subscription with every charge, newest first. */
      getSubscription: build.query<SubscriptionDetail, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.detail, { id }) }),
        extraOptions: { fallback: subscriptionMessages.fetchDetailFailed },
        providesTags: ['Subscription', 'Payment'],
      }),
      /**
       * POST /subscriptions with the plan and, if one was applied, a coupon's code: a pending
       * subscription and what Checkout opens with.
       */
      createSubscription: build.mutation<
        SubscriptionCheckout,
        {
          planId: string;
          /** The currency the buyer saw the price in (one of the plan's `prices`). */
          currency?: string;
          couponCode?: string;
          confirmLifetimeOverlap?: boolean;
          trial?: boolean;
        }
      >({
        query: ({ planId, currency, couponCode, confirmLifetimeOverlap, trial }) => ({
          url: subscriptionsApiPaths.list,
          method: 'POST',
          body: {
            plan_id: planId,
            ...(currency ? { currency } : {}),
            ...(couponCode ? { coupon_code: couponCode } : {}),
            // Sent only when the buyer was told of their lifetime license and went on.
            ...(confirmLifetimeOverlap ? { confirm_lifetime_overlap: true } : {}),
            // A card trial: the card is authorized now and first charged at the trial's end.
            ...(trial ? { trial: true } : {}),
          },
        }),
        extraOptions: { fallback: subscriptionMessages.createFailed },
      }),
      /** POST /payments/sandbox/subscriptions/{id}/complete: what Razorpay Checkout would hand the page. */
      completeSandboxSubscription: build.mutation<
        SandboxSubscriptionResult,
        { subscriptionId: string; outcome: 'pay' | 'decline' }
      >({
        query: ({ subscriptionId, outcome }) => ({
          url: pathWith(subscriptionsApiPaths.sandboxCheckout, { id: subscriptionId }),
          method: 'POST',
          body: { outcome },
        }),
        transformResponse: (
          answer: VerifySubscriptionRequest | Pick<CheckoutFailure, 'error'>,
        ): SandboxSubscriptionResult =>
          'error' in answer
            ? { outcome: 'declined', failure: answer }
            : { outcome: 'paid', checkout: answer },
        extraOptions: { fallback: subscriptionMessages.sandboxCheckoutFailed },
      }),
      /** POST /subscriptions/verify: starts the subscription and issues its license, once. */
      verifySubscription: build.mutation<SubscriptionActivation, VerifySubscriptionRequest>({
        query: (checkout) => ({ url: subscriptionsApiPaths.verify, method: 'POST', body: checkout }),
        extraOptions: { fallback: subscriptionMessages.verifyFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/cancel: at the end of the paid period, or now. */
      cancelSubscription: build.mutation<Subscription, { id: string; at: 'period_end' | 'now' }>({
        query: ({ id, at }) => ({
          url: pathWith(subscriptionsApiPaths.cancel, { id }),
          method: 'POST',
          body: { at },
        }),
        extraOptions: { fallback: subscriptionMessages.cancelFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/resume: takes back a cancellation at period end. */
      resumeSubscription: build.mutation<Subscription, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.resume, { id }), method: 'POST' }),
        extraOptions: { fallback: subscriptionMessages.resumeFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /**
       * POST /subscriptions/{id}/pause: for 1 to 3 billing periods from the end of the paid period
       * (409 when the subscription cannot be paused now, with the server's reason).
       */
      pauseSubscription: build.mutation<Subscription, { id: string; periods: number }>({
        query: ({ id, periods }) => ({
          url: pathWith(subscriptionsApiPaths.pause, { id }),
          method: 'POST',
          body: { periods },
        }),
        extraOptions: { fallback: subscriptionMessages.pauseFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/unpause: a paused subscription resumes now (billed now); a planned pause is withdrawn. */
      unpauseSubscription: build.mutation<Subscription, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.unpause, { id }), method: 'POST' }),
        extraOptions: { fallback: subscriptionMessages.unpauseFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /**
       * POST /subscriptions/{id}/plan/quote: what a move to `planId` costs now. Asked fresh each
       * time the dialog shows it, never kept: a renewal changes the answer.
       */
      quotePlanChange: build.mutation<PlanChangeQuote, { id: string; planId: string }>({
        query: ({ id, planId }) => ({
          url: pathWith(subscriptionsApiPaths.planQuote, { id }),
          method: 'POST',
          body: { plan_id: planId },
        }),
        extraOptions: { fallback: subscriptionMessages.quoteFailed },
      }),
      /**
       * POST /subscriptions/{id}/plan: moves now, charging exactly the kept quote's amount while it
       * holds (409 quote_expired after, quote_changed when the subscription changed since); Razorpay
       * answers the new subscription's checkout instead, which makes the change once paid.
       */
      changeSubscriptionPlan: build.mutation<
        Subscription | SubscriptionCheckout,
        { id: string; planId: string; quoteId: string }
      >({
        query: ({ id, planId, quoteId }) => ({
          url: pathWith(subscriptionsApiPaths.plan, { id }),
          method: 'POST',
          body: { plan_id: planId, quote_id: quoteId },
        }),
        extraOptions: { fallback: subscriptionMessages.changePlanFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** PUT /subscriptions/{id}/payment-method (sandbox): whether the card on file pays. */
      setSandboxCard: build.mutation<Subscription, { id: string; card: 'succeeds' | 'declines' }>({
        query: ({ id, card }) => ({
          url: pathWith(subscriptionsApiPaths.paymentMethod, { id }),
          method: 'PUT',
          body: { sandbox_card: card },
        }),
        extraOptions: { fallback: subscriptionMessages.paymentMethodFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/card-change (Razorpay): what Checkout opens with to authorise another card. */
      openCardChange: build.mutation<CardChangeCheckout, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.cardChange, { id }), method: 'POST' }),
        extraOptions: { fallback: subscriptionMessages.paymentMethodFailed },
      }),
      /** POST /subscriptions/{id}/card-change/verify (Razorpay): Checkout's answer; the new card shown. */
      confirmCardChange: build.mutation<Subscription, { id: string; answer: VerifySubscriptionRequest }>({
        query: ({ id, answer }) => ({
          url: pathWith(subscriptionsApiPaths.cardChangeVerify, { id }),
          method: 'POST',
          body: answer,
        }),
        extraOptions: { fallback: subscriptionMessages.paymentMethodFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/pay: pays what is outstanding (past due or suspended). */
      payOutstanding: build.mutation<Subscription, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.payNow, { id }), method: 'POST' }),
        extraOptions: { fallback: subscriptionMessages.payNowFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
      /** POST /subscriptions/{id}/sandbox/renew: the next renewal, retry or end of grace, now. */
      simulateRenewal: build.mutation<Subscription, string>({
        query: (id) => ({ url: pathWith(subscriptionsApiPaths.sandboxRenew, { id }), method: 'POST' }),
        extraOptions: { fallback: subscriptionMessages.sandboxRenewFailed },
        invalidatesTags: [...WRITE_TAGS],
      }),
    };
    // Only this module's names: `subscriptionsApi.endpoints` also lists what other features injected.
    recordEndpointArea('subscriptions', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetSubscriptionsQuery,
  useGetSubscriptionQuery,
  useCreateSubscriptionMutation,
  useCompleteSandboxSubscriptionMutation,
  useVerifySubscriptionMutation,
  useCancelSubscriptionMutation,
  useResumeSubscriptionMutation,
  usePauseSubscriptionMutation,
  useUnpauseSubscriptionMutation,
  useQuotePlanChangeMutation,
  useChangeSubscriptionPlanMutation,
  useSetSandboxCardMutation,
  useOpenCardChangeMutation,
  useConfirmCardChangeMutation,
  usePayOutstandingMutation,
  useSimulateRenewalMutation,
} = subscriptionsApi;
