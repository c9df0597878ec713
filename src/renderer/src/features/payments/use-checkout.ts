import { t } from '@lingui/core/macro';
import { useMemo } from 'react';
import type {
  PaymentOrder,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../../shared/api/payments';
import { useAppDispatch } from '../../lib/store-hooks';
import {
  type CheckoutEvents,
  type CheckoutFlow,
  type CheckoutKind,
  freshLicenses,
  useCheckoutFlow,
} from './checkout-flow';
import {
  paymentsApi,
  useCompleteSandboxCheckoutMutation,
  useCreatePaymentOrderMutation,
  useVerifyPaymentMutation,
} from './payments-endpoints';

export type Checkout = CheckoutFlow<PaymentOrder, PaymentVerification>;

/**
 * Buying a plan once: an order → the sandbox dialog or Razorpay Checkout opened on `order_id` →
 * verify → the license. When Razorpay's window closes unpaid, a webhook may have settled the order
 * meanwhile: its status is asked before the page says nothing was bought.
 */
export function useCheckout(events: CheckoutEvents = {}): Checkout {
  const dispatch = useAppDispatch();
  const [createOrder] = useCreatePaymentOrderMutation();
  const [completeSandbox] = useCompleteSandboxCheckoutMutation();
  const [verifyPayment] = useVerifyPaymentMutation();
  const kind = useMemo<CheckoutKind<PaymentOrder, PaymentVerification, VerifyPaymentRequest>>(
    () => ({
      open: (plan, couponCode) =>
        createOrder({ planId: plan.id, currency: plan.currency, couponCode }).unwrap(),
      startFailedTitle: ({ name }) => t`Could not start the checkout for ${name}`,
      isSandbox: (order) => order.sandbox,
      async completeSandbox(order, outcome) {
        const result = await completeSandbox({ orderId: order.order_id, outcome }).unwrap();
        return result.outcome === 'declined'
          ? { outcome: 'declined', description: result.failure.error.description }
          : { outcome: 'paid', answer: result.checkout };
      },
      async openRazorpay(razorpay, order, options, callbacks) {
        razorpay.openRazorpayCheckout(await razorpay.loadRazorpayCheckout(), order, options, callbacks);
      },
      verify: (answer) => verifyPayment(answer).unwrap(),
      verifyFailed: (order) => {
        const planName = order.plan.name;
        return t`The payment for ${planName} could not be verified.`;
      },
      licenseOf: (verification) => verification.license,
      async settledMeanwhile(order) {
        const payment = await dispatch(
          paymentsApi.endpoints.getPaymentStatus.initiate(order.order_id, {
            subscribe: false,
            forceRefetch: true,
          }),
        ).unwrap();
        if (payment.status !== 'paid' || !payment.license_id) return undefined;
        // The webhook issued the license: the current plan shows it too.
        dispatch(paymentsApi.util.invalidateTags(['License']));
        const license = (await freshLicenses(dispatch)).find(
          (item) => item.license_id === payment.license_id,
        );
        return license ? { payment, license, sandbox: payment.sandbox, charge: null } : undefined;
      },
      // Razorpay reports to the page what the server learns by webhook: the history may have changed.
      changed: () => dispatch(paymentsApi.util.invalidateTags(['Payment'])),
    }),
    [completeSandbox, createOrder, dispatch, verifyPayment],
  );
  return useCheckoutFlow(kind, events);
}
