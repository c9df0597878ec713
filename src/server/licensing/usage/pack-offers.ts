import type { CreditPack, PlanFeature } from '../../../shared/api/plans.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UsagePackRow, UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http-error.js';
import { featuresOfPlans, findPlanRow } from '../../catalogue/index.js';
import { licenseNotFound } from '../licenses/access.js';
import { findLicenseById } from '../licenses/repository.js';
import { inactiveLicense } from '../licenses/refusals.js';
import { effectiveStatus } from '../licenses/views.js';
import { findMembership } from '../organisations/seats-repository.js';
import { addUsagePack } from './packs.js';

/** A credit pack a customer may buy now: the license, its plan's metered feature and the pack it sells. */
export interface PackOffer {
  license: LicenseRow;
  feature: PlanFeature;
  pack: CreditPack;
  /** The plan's currency, which the pack is priced in. */
  currency: string;
  planName: string;
}

/**
 * The license a customer buys packs for: their own, or their organisation's when they own or
 * administer it (a plain member is refused with 403, as for seats); anyone else's reads as not found.
 */
async function buyersLicense(db: DbOrTransaction, user: UserRow, licenseId: string): Promise<LicenseRow> {
  const license = await findLicenseById(db, licenseId);
  if (!license) throw licenseNotFound();
  if (license.organisation_id === null) {
    if (license.user_id !== user.id) throw licenseNotFound();
    return license;
  }
  const membership = await findMembership(db, license.organisation_id, user.id);
  if (!membership) throw licenseNotFound();
  if (membership.role !== 'owner' && membership.role !== 'admin')
    throw forbidden(
      'organisation_admin_required',
      'Only the organization’s owner and admins may buy credits for its license. Ask one of them.',
    );
  return license;
}

/** The metered feature of the license's plan that `name` names (id or key), counted per period. */
async function meteredFeature(db: DbOrTransaction, license: LicenseRow, name: string): Promise<PlanFeature> {
  const features = (await featuresOfPlans(db, [license.plan_id])).get(license.plan_id) ?? [];
  const feature = features.find((each) => each.feature_id === name || each.key === name);
  if (!feature) throw notFound('feature_not_found', `${name} is not a feature of this license’s plan`);
  if (feature.kind !== 'metered' || !feature.period)
    throw badRequest('feature_not_metered', `${feature.name} is not counted per period: it takes no credits`);
  return feature;
}

/**
 * What `user` may buy of the license's feature: refused when the license is not theirs to buy for
 * (404, or 403 for an organisation's plain member), not active, or the feature sells no pack (409).
 */
export async function packOffer(
  db: DbOrTransaction,
  clock: Clock,
  user: UserRow,
  licenseId: string,
  featureName: string,
): Promise<PackOffer> {
  const license = await buyersLicense(db, user, licenseId);
  const status = effectiveStatus(license, clock.now());
  if (status !== 'active') throw inactiveLicense(license, status);
  const feature = await meteredFeature(db, license, featureName);
  if (!feature.pack)
    throw conflict('pack_not_sold', `No credit pack of ${feature.name} is on sale for this license’s plan`);
  const plan = await findPlanRow(db, license.plan_id);
  return {
    license,
    feature,
    pack: feature.pack,
    currency: plan?.currency ?? 'INR',
    planName: plan?.name ?? license.plan_id,
  };
}

/** What an invoice line calls one pack of a feature: "500 AI requests credit pack". */
export const packDescription = (feature: Pick<PlanFeature, 'name' | 'unit'>, units: number) =>
  `${new Intl.NumberFormat('en-US').format(units)} ${feature.unit ?? feature.name} credit pack`;

/**
 * An administrator's grant of units of a license's metered feature, as a pack with the grant's
 * reason, in the caller's transaction (which records the security event with it).
 */
export async function grantUsageUnits(
  trx: DbOrTransaction,
  clock: Clock,
  grant: {
    licenseId: string;
    feature: string;
    units: number;
    reason: string;
    validMonths: number;
    adminId: string;
  },
): Promise<{ license: LicenseRow; feature: PlanFeature; pack: UsagePackRow }> {
  const license = await findLicenseById(trx, grant.licenseId);
  if (!license) throw licenseNotFound();
  const feature = await meteredFeature(trx, license, grant.feature);
  const pack = await addUsagePack(trx, clock, undefined, {
    license,
    feature: { id: feature.feature_id, key: feature.key, name: feature.name, unit: feature.unit },
    units: grant.units,
    validMonths: grant.validMonths,
    source: 'grant',
    grantedBy: grant.adminId,
    reason: grant.reason,
  });
  if (!pack) throw new Error('a granted pack has no payment to repeat');
  return { license, feature, pack };
}
