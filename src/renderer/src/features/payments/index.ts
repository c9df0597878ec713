// The payments feature as other features and app/ see it: the reference a payment is known by and
// the buyer's endpoints. How an amount, a date or a payment's status is written is in lib/ and
// components/, where the Subscriptions and the administrators' screens find it too.
export { paymentReference } from './components/payment-format';
export {
  type CurrentPlan,
  paymentMessages,
  paymentsApi,
  useCompleteSandboxCheckoutMutation,
  useGetPaymentConfigQuery,
  useVerifyPaymentMutation,
} from './payments-endpoints';
// The Usage page's credit packs are paid through the same sandbox checkout as a plan.
export { orderSubject, SandboxCheckoutModal } from './components/sandbox-checkout-modal';
// The free trial's one-click start, which the landing page offers a signed-in customer too.
export { StartTrialButton } from './components/start-trial-button';
