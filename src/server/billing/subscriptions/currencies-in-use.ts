import type { Db } from '../../platform/db/database.js';
import { liveSubscriptionCurrencies } from './repository.js';

/**
 * The currencies a plan's live subscriptions are charged in. The catalogue, which may not look at
 * subscriptions, receives it at composition: a plan keeps a price in each, since a subscription is
 * charged in the currency it was bought in for its whole life.
 */
export const createCurrenciesInUse =
  (db: Db) =>
  (planId: string): Promise<string[]> =>
    liveSubscriptionCurrencies(db, planId);
