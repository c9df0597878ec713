import { createHash } from 'node:crypto';
import type { PlanFeature } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import {
  featuresOfPlans,
  findCataloguePlan,
  findFingerprintThreshold,
  type PlanSummary,
} from './repository.js';

/** How long a license check may answer with a plan as it was: an admin's edit shows within this. */
export const PLAN_CACHE_MS = 5_000;

export interface CachedPlan {
  plan: PlanSummary;
  features: PlanFeature[];
  /** The currency the plan is priced in (its overage prices too); not part of what a check shows. */
  currency: string;
  /** A digest of the plan and its features: equal exactly when what a license check shows of them is. */
  fingerprint: string;
  /** How many of a machine's fingerprint components must match for it to be known again. */
  fingerprintThreshold: number;
}

/**
 * Plans and their features for the license-check hot path, kept for {@link PLAN_CACHE_MS}: every
 * desktop check needs them and they change rarely, so two of a check's queries become none.
 * Kept per process; instances converge within the same few seconds.
 */
/** Components that must match when a plan says nothing (the plans' column default). */
const DEFAULT_FINGERPRINT_THRESHOLD = 3;

export function createPlanCatalogueCache(db: DbOrTransaction, now: () => number = Date.now) {
  const entries = new Map<string, { loadedAt: number; value: Promise<CachedPlan> }>();

  async function load(planId: string): Promise<CachedPlan> {
    const [features, { currency, ...plan }, threshold] = await Promise.all([
      featuresOfPlans(db, [planId]),
      findCataloguePlan(db, planId),
      findFingerprintThreshold(db, planId),
    ]);
    const planFeatures = features.get(planId) ?? [];
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([plan, planFeatures]))
      .digest('base64url');
    return {
      plan,
      features: planFeatures,
      currency,
      fingerprint,
      fingerprintThreshold: threshold ?? DEFAULT_FINGERPRINT_THRESHOLD,
    };
  }

  return {
    get(planId: string): Promise<CachedPlan> {
      const hit = entries.get(planId);
      if (hit && now() - hit.loadedAt < PLAN_CACHE_MS) return hit.value;
      const value = load(planId);
      entries.set(planId, { loadedAt: now(), value });
      // A failed load is not remembered: the next check tries again.
      value.catch(() => entries.delete(planId));
      return value;
    },
    /** Forgets everything, after this process changed a plan or feature. */
    clear: () => entries.clear(),
  };
}

export type PlanCatalogueCache = ReturnType<typeof createPlanCatalogueCache>;
