import { currencyOfCountry } from '../../../shared/currencies.js';
import { otherPricesOfPlans, planInCurrency } from '../../catalogue/index.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { conflict } from '../../platform/http-error.js';
import type { PlanRow } from '../../platform/db/tables.js';
import { buyerCountry } from '../invoices/buyer-treatment.js';

/** Who buys, and the currency they chose, if they chose one. */
export interface CurrencyChoice {
  userId: string;
  organisationId?: string | undefined;
  requested?: string | undefined;
}

/**
 * The plan as the buyer pays for it (issue 34, item 7): in the currency they chose among those the
 * plan is sold in (the portal sends the one it showed), else their billing country's when the plan
 * is sold in it, else the plan's own.
 * A currency the plan is not sold in is refused (409 `currency_not_offered`), never converted.
 */
export async function planForBuyer(
  db: DbOrTransaction,
  plan: PlanRow,
  choice: CurrencyChoice,
): Promise<PlanRow> {
  const offered = [
    plan.currency,
    ...((await otherPricesOfPlans(db, [plan.id])).get(plan.id) ?? []).map((price) => price.currency),
  ];
  if (choice.requested !== undefined && !offered.includes(choice.requested))
    throw conflict(
      'currency_not_offered',
      `${plan.name} is not sold in ${choice.requested}: choose ${offered.join(' or ')}`,
    );
  const country = choice.requested === undefined ? await buyerCountry(db, choice) : null;
  const wanted = choice.requested ?? (country ? currencyOfCountry(country) : plan.currency);
  const priced = await planInCurrency(db, plan, offered.includes(wanted) ? wanted : plan.currency);
  if (!priced) throw new Error(`plan ${plan.id} lost its price in ${wanted}`);
  return priced;
}
