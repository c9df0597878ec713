// The plans feature as other features and app/ see it: the catalogue's endpoints, types and wording.
export type { DeletePlanResponse, PlanListParams, PlanStats } from './plans-endpoints';
export {
  plansApi,
  useCreatePlanMutation,
  useDeletePlanMutation,
  useGetPlanQuery,
  useGetPlanStatsQuery,
  useGetPublicPlanQuery,
  useGetPublicPlansQuery,
  useListPlansQuery,
  usePublishPlanMutation,
  useUpdatePlanMutation,
} from './plans-endpoints';
export { planMessages } from './plan-messages';
export { formatFeature, formatPlanPrice, formatSeats } from './plan-format';
export { PlanCard, PlanCardSkeleton, type PlanCardProps } from './components/plan-card';
export { balancedColumns, PlanGrid } from './components/plan-grid';
export { CHECKOUT_PARAMS, checkoutPath } from './checkout-link';
export { currenciesOf, inCurrency, useShownCurrency } from './shown-currency';
export { CurrencySelect } from './components/currency-select';
