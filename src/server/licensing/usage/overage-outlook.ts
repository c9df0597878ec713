import type { FeatureUsage, OverageOutlook } from '../../../shared/api/licenses.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import { billableOverage, overageCharge } from './allowance.js';
import { overageOwed } from './overage.js';
import { pendingOfLicense, subscriptionTerms } from './overage-repository.js';

/**
 * What the customer will be charged for use past the allowance, before it is: per feature whose
 * plan bills over it, this period's projected overage, what ended periods owe and are not billed
 * yet, and when that is charged (with the subscription's next renewal). A license without a live
 * subscription renewing is never charged overage: it reads as not billable.
 */
export async function overageOutlook(
  db: DbOrTransaction,
  license: LicenseRow,
  features: FeatureUsage[],
  now: Date,
): Promise<OverageOutlook[]> {
  const billed = features.filter(
    (feature) =>
      feature.kind === 'metered' &&
      feature.period !== null &&
      feature.overage.policy !== 'stop' &&
      feature.overage.price_minor !== null,
  );
  if (billed.length === 0) return [];
  const terms = license.subscription_id ? await subscriptionTerms(db, license.subscription_id) : undefined;
  const renews =
    terms !== undefined &&
    (terms.status === 'active' || terms.status === 'past_due') &&
    Number(terms.cancel_at_period_end) === 0;
  const [owed, pending] = renews
    ? await Promise.all([overageOwed(db, license, terms.created_at, now), pendingOfLicense(db, license.id)])
    : [[], []];
  return billed.map((feature) => {
    const owedOf = owed.filter((item) => item.featureId === feature.feature_id);
    const pendingOf = pending.filter((item) => item.feature_id === feature.feature_id);
    return {
      feature_id: feature.feature_id,
      projected_minor: overageCharge(
        billableOverage(feature.limit, feature.used, feature.from_packs),
        feature.overage,
      ),
      owed_units:
        owedOf.reduce((sum, item) => sum + item.units, 0) +
        pendingOf.reduce((sum, item) => sum + Number(item.units), 0),
      owed_minor:
        owedOf.reduce((sum, item) => sum + item.amountMinor, 0) +
        pendingOf.reduce((sum, item) => sum + Number(item.amount_minor), 0),
      billable: renews,
      charged_on: renews ? (terms.current_period_end ?? null) : null,
    };
  });
}
