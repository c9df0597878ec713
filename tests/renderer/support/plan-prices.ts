import type { Plan, PlanPrice } from '../../../src/shared/api/plans';

/** A plan fixture with its `prices` as the server answers them: its own price first, unless given. */
export const withOwnPrice = (plan: Omit<Plan, 'prices'> & { prices?: PlanPrice[] | undefined }): Plan => ({
  ...plan,
  prices: plan.prices ?? [{ currency: plan.currency, price_minor: plan.price_minor }],
});
