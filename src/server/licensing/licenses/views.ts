import {
  type Activation,
  type License,
  type LicenseStatus,
  type LicenseTrialDetails,
  MASKED_LICENSE_KEY,
} from '../../../shared/api/licenses.js';
import type { PlanFeature } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import type { LicenseTrialRow } from '../../platform/db/tables-trials.js';
import { trialsOfLicenses } from '../trials/repository.js';
import { trialAt } from '../../../shared/trial-days.js';
import { featuresOfPlans, planSummaries, type PlanSummary } from '../../catalogue/index.js';
import { activationsOfLicense, organisationNames, renewingLicenseIds, seatsInUse } from './repository.js';
import { featureUsages } from '../usage/feature-usage.js';
import { currentCounters } from '../usage/counters-repository.js';
import { packsLeft } from '../usage/packs-repository.js';
import { machineChanges } from './deactivation-cap.js';

/**
 * The status people see: an active license past its expiry is expired, whatever the row says, and
 * a free trial past its end (never bought) is `trial_expired`.
 */
export function effectiveStatus(
  license: Pick<LicenseRow, 'status' | 'expires_at'> & Partial<Pick<LicenseRow, 'trial_ends_at'>>,
  now: Date,
): LicenseStatus {
  if (license.status === 'active' && license.expires_at !== null && license.expires_at <= now.toISOString()) {
    return license.trial_ends_at ? 'trial_expired' : 'expired';
  }
  return license.status;
}

/** The trial on a license's view: its end and days left, with its start and source. */
function trialDetails(
  row: LicenseRow,
  trial: LicenseTrialRow | undefined,
  now: Date,
): LicenseTrialDetails | null {
  const told = trialAt(row.trial_ends_at, now);
  if (!told) return null;
  return { ...told, started_at: trial?.started_at ?? row.created_at, source: trial?.source ?? 'account' };
}

export const toActivation = (row: ActivationRow): Activation => ({
  activation_id: row.id,
  license_id: row.license_id,
  hardware_id: row.hardware_id,
  label: row.label,
  device_name: row.device_name,
  platform: row.platform,
  app_version: row.app_version,
  activated_at: row.activated_at,
  last_seen_at: row.last_seen_at,
  deactivated_at: row.deactivated_at,
  deactivated_reason: row.deactivated_reason,
});

export interface LicenseViewOptions {
  /** Adds the machines (the detail view). */
  withActivations?: boolean;
  /**
   * The account looking, when it may not be the owner. Someone who activated with a key its owner
   * shared sees neither the owner's account nor the owner's other machines: only the machines
   * they activated themselves. Left out, the license is shown in full (to its owner or an admin).
   * A member of the license's organisation sees its key masked as well.
   */
  viewerId?: string;
}

/**
 * Licenses as the API shows them: with their plan, seats in use and this period's usage per
 * feature; `withActivations` adds the machines (the detail view).
 */
export async function toLicenses(
  db: DbOrTransaction,
  rows: LicenseRow[],
  now: Date,
  { withActivations = false, viewerId }: LicenseViewOptions = {},
): Promise<License[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const planIds = [...new Set(rows.map((row) => row.plan_id))];
  const organisationIds = [
    ...new Set(rows.flatMap((row) => (row.organisation_id === null ? [] : [row.organisation_id]))),
  ];
  const [plans, features, seats, counters, organisations, renewing, trials, left] = await Promise.all([
    planSummaries(db, planIds),
    featuresOfPlans(db, planIds),
    seatsInUse(db, ids),
    currentCounters(db, ids, now),
    organisationNames(db, organisationIds),
    renewingLicenseIds(db, ids),
    trialsOfLicenses(
      db,
      rows.flatMap((row) => (row.trial_ends_at === null ? [] : [row.id])),
    ),
    packsLeft(db, ids, now.toISOString()),
  ]);
  const planOf = new Map<string, PlanSummary>(
    plans.map(({ id, code, name, billing_interval }) => [id, { id, code, name, billing_interval }]),
  );
  const floatingPlans = new Set(plans.filter((plan) => plan.floating_seats !== null).map((plan) => plan.id));
  return Promise.all(
    rows.map(async (row) => {
      const status = effectiveStatus(row, now);
      const planFeatures: PlanFeature[] = features.get(row.plan_id) ?? [];
      const seenByOwner = viewerId === undefined || viewerId === row.user_id;
      const organisationName =
        row.organisation_id === null ? undefined : organisations.get(row.organisation_id);
      const license: License = {
        license_id: row.id,
        license_key: seenByOwner || row.organisation_id === null ? row.license_key : MASKED_LICENSE_KEY,
        user_id: seenByOwner ? row.user_id : null,
        plan_id: row.plan_id,
        plan: planOf.get(row.plan_id) ?? {
          id: row.plan_id,
          code: 'unknown',
          name: 'Unknown plan',
          billing_interval: 'free',
        },
        subscription_id: seenByOwner ? row.subscription_id : null,
        status,
        expires_at: row.expires_at,
        paused_until: status === 'paused' ? row.paused_until : null,
        renews: status === 'active' && row.expires_at !== null && renewing.has(row.id),
        updates_until: row.updates_until,
        update_window_ended: row.updates_until !== null && row.updates_until <= now.toISOString(),
        max_activations: row.max_activations,
        activations_used: seats.get(row.id) ?? 0,
        revoked_reason: row.revoked_reason,
        revoked_at: row.revoked_at,
        created_at: row.created_at,
        updated_at: row.updated_at,
        usage_info: {
          features: featureUsages(row.id, planFeatures, counters.totals, now, status === 'active', {
            draws: counters.draws,
            left,
          }),
        },
        floating: floatingPlans.has(row.plan_id),
        organisation:
          row.organisation_id === null ? null : { id: row.organisation_id, name: organisationName ?? '' },
        trial: trialDetails(row, trials.get(row.id), now),
      };
      if (withActivations) {
        const machines = await activationsOfLicense(db, row.id);
        license.activations = machines
          .filter((machine) => seenByOwner || machine.activated_by === viewerId)
          .map(toActivation);
        license.machine_changes = await machineChanges(db, row, now);
      }
      return license;
    }),
  );
}

export async function toLicense(
  db: DbOrTransaction,
  row: LicenseRow,
  now: Date,
  options: LicenseViewOptions = {},
): Promise<License> {
  return (await toLicenses(db, [row], now, options))[0] as License;
}

/**
 * A license's `usage_info` alone, as the usage reads answer it: its plan's features with this
 * period's use, in two reads instead of a whole view's eight. What is left in its packs comes from
 * the packs the caller has read already; the plan's features from `planFeatures` (the catalogue's
 * cache) when given.
 */
export async function usageInfoOf(
  db: DbOrTransaction,
  row: LicenseRow,
  now: Date,
  packsLeftByFeature: Map<string, number>,
  planFeatures?: (planId: string) => Promise<PlanFeature[]>,
): Promise<License['usage_info']> {
  const [features, counters] = await Promise.all([
    planFeatures
      ? planFeatures(row.plan_id)
      : featuresOfPlans(db, [row.plan_id]).then((byPlan) => byPlan.get(row.plan_id) ?? []),
    currentCounters(db, [row.id], now),
  ]);
  const active = effectiveStatus(row, now) === 'active';
  return {
    features: featureUsages(row.id, features, counters.totals, now, active, {
      draws: counters.draws,
      left: packsLeftByFeature,
    }),
  };
}
