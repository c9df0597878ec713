import type { Db } from '../../platform/db/database.js';
import { planHasLicenses } from './repository.js';

/**
 * Whether any license refers to a plan. The catalogue, which may not look at licenses, receives it
 * at composition: it archives such a plan instead of deleting it.
 */
export const createPlanInUse =
  (db: Db) =>
  (planId: string): Promise<boolean> =>
    planHasLicenses(db, planId);
