import type { z } from 'zod';
import type { CouponPreview, couponPreviewRequestSchema } from '../../../../shared/api/coupons';
import type { License } from '../../../../shared/api/licenses';
import type { Paged } from '../../../../shared/api/paging';
import type {
  CheckoutFailure,
  Payment,
  PaymentConfig,
  PaymentOrder,
  PaymentStatus,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import type { SubscriptionCheckout } from '../../../../shared/api/subscriptions';
import { pathWith } from '../../../../shared/routes';
import {
  couponsApiPaths,
  licensesApiPaths,
  paymentsApiPaths,
  subscriptionsApiPaths,
} from '../../../../shared/api-paths';
import { recordEndpointArea } from '../../lib/api-actions';
import { api } from '../../lib/api';

/** GET /licenses/current-plan (shared `currentPlanSchema`): the plan of the user's best active license. */
export interface CurrentPlan {
  plan: Plan | null;
  license: License | null;
}

// The fallbacks of the buyer's payment calls, shown when the server gives no message.
export const paymentMessages = {
  fetchConfigFailed: 'Failed to fetch payment settings',
  createOrderFailed: 'Failed to start the checkout',
  sandboxCheckoutFailed: 'The sandbox checkout did not answer',
  verifyFailed: 'Failed to verify the payment',
  fetchStatusFailed: 'Failed to fetch payment status',
  fetchHistoryFailed: 'Failed to fetch payments',
  fetchCurrentPlanFailed: 'Failed to fetch current plan',
  previewCouponFailed: 'The coupon could not be checked',
  dismissFailed: 'The order could not be dismissed',
} as const;

/** POST /coupons/preview's body: the code as typed (the server reads it in capitals) and the plan. */
export type CouponPreviewRequest = z.input<typeof couponPreviewRequestSchema>;

/** What a checkout is opened with: the plan, the currency its price was shown in, and the code of a coupon the buyer applied. */
export interface CheckoutRequest {
  planId: string;
  /** One of the plan's `prices` currencies: the one the buyer saw, so they pay what they saw. */
  currency?: string;
  couponCode?: string;
}

/** A seat-based plan's checkout: the organisation it is bought for and how many seats. */
export interface OrganisationCheckoutRequest extends CheckoutRequest {
  organisationId: string;
  seats: number;
}

export type SandboxCheckoutResult =
  { outcome: 'paid'; checkout: VerifyPaymentRequest } | { outcome: 'declined'; failure: CheckoutFailure };

export interface PaymentHistoryQuery {
  page: number;
  perPage: number;
  status?: PaymentStatus;
}

/** The buyer's side of payments: what the checkout offers, orders, their outcome and the history. */
export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /payments/config: which checkout to show (Razorpay, or the sandbox). */
      getPaymentConfig: build.query<PaymentConfig, void>({
        query: () => ({ url: paymentsApiPaths.config }),
        extraOptions: { fallback: paymentMessages.fetchConfigFailed },
      }),
      /**
       * GET /licenses/current-plan, read here rather than through the licenses feature: /purchase
       * only marks the plan with it, and its failure must not touch the license screens' state.
       */
      getCurrentPlanSummary: build.query<CurrentPlan, void>({
        query: () => ({ url: licensesApiPaths.currentPlan }),
        extraOptions: { fallback: paymentMessages.fetchCurrentPlanFailed },
        providesTags: ['License'],
      }),
      /**
       * POST /payments/razorpay/create-order with the plan and, if one was applied, the coupon's
       * code: the price always comes from the plan (and the coupon), never from the page.
       */
      createPaymentOrder: build.mutation<PaymentOrder, CheckoutRequest>({
        query: ({ planId, currency, couponCode }) => ({
          url: paymentsApiPaths.createOrder,
          method: 'POST',
          body: {
            plan_id: planId,
            ...(currency ? { currency } : {}),
            ...(couponCode ? { coupon_code: couponCode } : {}),
          },
        }),
        extraOptions: { fallback: paymentMessages.createOrderFailed },
        // The new order is in the history, not completed.
        invalidatesTags: ['Payment'],
      }),
      /**
       * POST /payments/sandbox/orders/{orderId}/complete: `pay` answers what Razorpay Checkout would
       * hand the page (to verify next), `decline` records a failed attempt and answers the failure.
       */
      completeSandboxCheckout: build.mutation<
        SandboxCheckoutResult,
        { orderId: string; outcome: 'pay' | 'decline' }
      >({
        query: ({ orderId, outcome }) => ({
          url: pathWith(paymentsApiPaths.sandboxCheckout, { orderId }),
          method: 'POST',
          body: { outcome },
        }),
        transformResponse: (answer: VerifyPaymentRequest | CheckoutFailure): SandboxCheckoutResult =>
          'error' in answer
            ? { outcome: 'declined', failure: answer }
            : { outcome: 'paid', checkout: answer },
        extraOptions: { fallback: paymentMessages.sandboxCheckoutFailed },
        invalidatesTags: ['Payment'],
      }),
      /** POST /payments/razorpay/verify: grants (or extends) the plan's license, exactly once. */
      verifyPayment: build.mutation<PaymentVerification, VerifyPaymentRequest>({
        query: (checkout) => ({ url: paymentsApiPaths.verify, method: 'POST', body: checkout }),
        extraOptions: { fallback: paymentMessages.verifyFailed },
        // The license screens and the current plan show the new (or extended) license.
        invalidatesTags: ['License', 'Payment'],
      }),
      /**
       * GET /payments/status/{id}: one of the user's payments, by payment id or order id. Asked on
       * demand and never kept; the fresh answer replaces the payment in the history pages shown.
       */
      getPaymentStatus: build.query<Payment, string>({
        query: (id) => ({ url: pathWith(paymentsApiPaths.status, { id }) }),
        extraOptions: { fallback: paymentMessages.fetchStatusFailed },
        keepUnusedDataFor: 0,
        async onQueryStarted(_id, { dispatch, getState, queryFulfilled }): Promise<void> {
          let payment: Payment;
          try {
            ({ data: payment } = await queryFulfilled);
          } catch {
            return;
          }
          for (const query of paymentsApi.util.selectCachedArgsForQuery(getState(), 'getPaymentHistory'))
            dispatch(
              paymentsApi.util.updateQueryData('getPaymentHistory', query, (page) => {
                const index = page.data.findIndex((listed) => listed.id === payment.id);
                if (index >= 0) page.data[index] = payment;
              }),
            );
        },
      }),
      /**
       * POST /subscriptions for a seat-based plan: bought for an organisation the buyer owns or
       * administers, with its seats (the server refuses anything else, and says why).
       */
      createOrganisationSubscription: build.mutation<SubscriptionCheckout, OrganisationCheckoutRequest>({
        query: ({ planId, currency, couponCode, organisationId, seats }) => ({
          url: subscriptionsApiPaths.list,
          method: 'POST',
          body: {
            plan_id: planId,
            ...(currency ? { currency } : {}),
            organisation_id: organisationId,
            seats,
            ...(couponCode ? { coupon_code: couponCode } : {}),
          },
        }),
        extraOptions: { fallback: paymentMessages.createOrderFailed },
      }),
      /** POST /coupons/preview: what a coupon takes off a plan, before buying (nothing is redeemed). */
      // A read, though a POST: the answer follows the code and plan asked about, and is not kept
      // once the field lets go of it (an administrator may archive the coupon meanwhile).
      previewCoupon: build.query<CouponPreview, CouponPreviewRequest>({
        query: (body) => ({ url: couponsApiPaths.preview, method: 'POST', body }),
        extraOptions: { fallback: paymentMessages.previewCouponFailed },
        keepUnusedDataFor: 0,
      }),
      /**
       * POST /payments/history/{id}/dismiss: hides an expired or failed order from the history
       * (the record stays; a late payment still settles it).
       */
      dismissPayment: build.mutation<Payment, string>({
        query: (id) => ({ url: pathWith(paymentsApiPaths.dismiss, { id }), method: 'POST', body: {} }),
        extraOptions: { fallback: paymentMessages.dismissFailed },
        invalidatesTags: ['Payment'],
      }),
      /** GET /payments/history: the user's payments, newest first, paged. */
      getPaymentHistory: build.query<Paged<Payment>, PaymentHistoryQuery>({
        query: ({ page, perPage, status }) => ({
          url: paymentsApiPaths.history,
          params: { page, perPage, ...(status ? { status } : {}) },
        }),
        extraOptions: { fallback: paymentMessages.fetchHistoryFailed },
        providesTags: ['Payment'],
      }),
    };
    // Only this module's names: `paymentsApi.endpoints` also lists what other features injected.
    recordEndpointArea('payments', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetPaymentConfigQuery,
  useGetCurrentPlanSummaryQuery,
  useGetPaymentHistoryQuery,
  useCreatePaymentOrderMutation,
  useCreateOrganisationSubscriptionMutation,
  usePreviewCouponQuery,
  useCompleteSandboxCheckoutMutation,
  useVerifyPaymentMutation,
  useDismissPaymentMutation,
} = paymentsApi;
