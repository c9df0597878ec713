import type { PlanPrice } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow } from '../../platform/db/tables.js';

/**
 * A plan's prices in currencies other than its own (0054), per plan id, in currency order; a plan
 * with none maps to an empty list.
 */
export async function otherPricesOfPlans(
  db: DbOrTransaction,
  planIds: string[],
): Promise<Map<string, PlanPrice[]>> {
  const byPlan = new Map<string, PlanPrice[]>(planIds.map((id) => [id, []]));
  if (planIds.length === 0) return byPlan;
  const rows = await db
    .selectFrom('plan_prices')
    .select(['plan_id', 'currency', 'price_minor'])
    .where('plan_id', 'in', planIds)
    .orderBy('currency')
    .execute();
  for (const row of rows)
    byPlan.get(row.plan_id)?.push({ currency: row.currency, price_minor: Number(row.price_minor) });
  return byPlan;
}

/** Replaces the plan's prices in other currencies. */
export async function replaceOtherPrices(
  db: DbOrTransaction,
  planId: string,
  prices: PlanPrice[],
  nowIso: string,
): Promise<void> {
  await db.deleteFrom('plan_prices').where('plan_id', '=', planId).execute();
  if (prices.length === 0) return;
  await db
    .insertInto('plan_prices')
    .values(
      prices.map((price) => ({
        plan_id: planId,
        currency: price.currency,
        price_minor: price.price_minor,
        created_at: nowIso,
        updated_at: nowIso,
      })),
    )
    .execute();
}

/**
 * The plan as it is sold in `currency`: its row with `price_minor` and `currency` those of that
 * price, so everything that prices a charge from a plan row (coupons, tax, invoices, the provider's
 * plans) works in the currency unchanged. The plan's own row for its own currency (or null, a
 * subscription from before 0054); undefined when the plan is gone or not sold in `currency`.
 */
export async function planInCurrency(
  db: DbOrTransaction,
  plan: PlanRow | undefined,
  currency: string | null,
): Promise<PlanRow | undefined> {
  if (!plan || currency === null || currency === plan.currency) return plan;
  const price = await db
    .selectFrom('plan_prices')
    .select('price_minor')
    .where('plan_id', '=', plan.id)
    .where('currency', '=', currency)
    .executeTakeFirst();
  return price ? { ...plan, price_minor: Number(price.price_minor), currency } : undefined;
}

/** {@link planInCurrency} of the plan with `planId`. */
export const findPlanIn = async (
  db: DbOrTransaction,
  planId: string,
  currency: string | null,
): Promise<PlanRow | undefined> =>
  planInCurrency(
    db,
    await db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst(),
    currency,
  );
