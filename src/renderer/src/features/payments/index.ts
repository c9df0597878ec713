// The payments feature as other features and app/ see it: how a payment is shown (the admin's
// payment screens use the buyer's wording and badges) and the buyer's endpoints.
export {
  formatAmount,
  formatDate,
  formatDateTime,
  PAYMENT_STATUS_LABELS,
  paymentReference,
} from './components/payment-format';
export { paymentStatusText, PaymentStatusBadge, SandboxBadge } from './components/payment-status-badge';
export { useCardChange } from './use-card-change';
export { useReplacementCheckout } from './use-replacement-checkout';
export {
  type CurrentPlan,
  paymentMessages,
  paymentsApi,
  useGetPaymentConfigQuery,
} from './payments-endpoints';
