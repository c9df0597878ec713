import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PlanChangeQuoteRow } from '../../platform/db/tables-plan-change-quotes.js';

/** Keeps a quote, and forgets the subscription's quotes that no longer hold (expired before `now`). */
export async function savePlanChangeQuote(
  db: DbOrTransaction,
  row: PlanChangeQuoteRow,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('plan_change_quotes')
    .where('subscription_id', '=', row.subscription_id)
    .where('expires_at', '<=', now)
    .execute();
  await db.insertInto('plan_change_quotes').values(row).execute();
}

/** A kept quote of this subscription, by id. */
export const findPlanChangeQuote = (
  db: DbOrTransaction,
  subscriptionId: string,
  id: string,
): Promise<PlanChangeQuoteRow | undefined> =>
  db
    .selectFrom('plan_change_quotes')
    .selectAll()
    .where('id', '=', id)
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
