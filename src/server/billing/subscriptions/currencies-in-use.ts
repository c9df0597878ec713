import type { Db } from '../../platform/db/database.js';

/**
 * The currencies a plan's live subscriptions are charged in. The catalogue, which may not look at
 * subscriptions, receives it at composition: a plan keeps a price in each, since a subscription is
 * charged in the currency it was bought in for its whole life.
 */
export const createCurrenciesInUse =
  (db: Db) =>
  async (planId: string): Promise<string[]> => {
    const rows = await db
      .selectFrom('subscriptions')
      .select('currency')
      .distinct()
      .where('plan_id', '=', planId)
      .where('status', '!=', 'cancelled')
      // Every row has one since 0054 filled them in.
      .where('currency', 'is not', null)
      .execute();
    return rows.flatMap((row) => (row.currency ? [row.currency] : []));
  };
