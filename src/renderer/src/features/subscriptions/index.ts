// The subscriptions feature as other features and app/ see it: the subscribe calls the purchase
// checkout makes, the customer's subscriptions (the Purchase page marks the plans subscribed to)
// and how a recurring price is written.
export {
  type SandboxSubscriptionResult,
  subscriptionMessages,
  subscriptionsApi,
  useCompleteSandboxSubscriptionMutation,
  useCreateSubscriptionMutation,
  useGetSubscriptionsQuery,
  useVerifySubscriptionMutation,
} from './subscriptions-endpoints';
export { formatRecurringPrice, isLive, paymentMethodText } from './subscription-format';
export { ChargeLines, chargedTodayText } from './components/charge-lines';
