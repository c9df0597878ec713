import type { z } from 'zod';
import type { FeatureUsage, trackUsageRequestSchema } from '../../../shared/api/licenses.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { STOP_AT_ALLOWANCE } from '../../../shared/api/plans.js';
import type { UsageEvent } from '../../../shared/api/usage.js';
import { badRequest, conflict, HttpError, notFound } from '../../platform/http-error.js';
import { findFeatureByIdOrKey } from '../../catalogue/index.js';
import { createLicenseAccess } from '../licenses/access.js';
import { toLicense } from '../licenses/views.js';
import { usageCeiling } from './allowance.js';
import { usageReport } from './usage-report.js';
import { reportUsage, singleEvent, type UsageDeps } from './report-usage.js';
import { reportingMachine } from './reservations.js';

type TrackUsageInput = z.output<typeof trackUsageRequestSchema>;

/** The features of a license, their use this period and its history, and counting new use. */
export function createUsageService(deps: UsageDeps) {
  const { db, clock } = deps;
  const access = createLicenseAccess({ db, clock });

  /** A feature of the license with this period's use; one the plan lacks reads as unavailable. */
  async function featureOf(
    row: LicenseRow,
    featureId: string,
  ): Promise<{ usage: FeatureUsage; included: boolean }> {
    const feature = await findFeatureByIdOrKey(db, featureId);
    if (!feature) throw notFound('feature_not_found', `Unknown feature: ${featureId}`);
    const license = await toLicense(db, row, clock.now());
    const included = license.usage_info.features.find((item) => item.feature_id === feature.id);
    if (included) return { usage: included, included: true };
    const usage: FeatureUsage = {
      feature_id: feature.id,
      key: feature.key,
      name: feature.name,
      kind: feature.kind,
      period: feature.period,
      unit: feature.unit,
      limit: 0,
      overage: STOP_AT_ALLOWANCE,
      pack: null,
      used: 0,
      remaining: 0,
      from_packs: 0,
      packs_left: 0,
      over_allowance: 0,
      available: false,
      message: `${feature.name} is not included in the ${license.plan.name} plan. Upgrade to use it.`,
      period_start: null,
      period_end: null,
    };
    return { usage, included: false };
  }

  return {
    async usage(user: UserRow, id: string, days: number) {
      const row = await access.usable(user, id);
      return usageReport(db, row, days, clock.now(), {
        callerId: user.id,
        planFeatures: deps.planFeatures,
        planCurrency: deps.planCurrency,
      });
    },

    /**
     * Counts one use of a metered feature, the way a batch counts each event: an amount that would
     * pass what the period may count is refused with 409 and not counted.
     */
    async trackUsage(user: UserRow, id: string, body: TrackUsageInput) {
      const row = await access.usable(user, id);
      access.assertActive(row);
      const { usage: feature, included } = await featureOf(row, body.featureId);
      if (!included) throw new HttpError(403, 'feature_not_included', feature.message);
      if (feature.kind !== 'metered' || !feature.period) {
        throw badRequest(
          'feature_not_metered',
          `${feature.name} is an on/off feature; only metered features count usage`,
        );
      }
      const answer = await reportUsage(deps, row, user.id, [
        singleEvent(feature.feature_id, body.usageAmount, body.usageData),
      ]);
      const latest = answer.features[0] ?? feature;
      const refusal = answer.results[0];
      // The organisation's cap on this member, not the pool, stopped it: say so.
      if (refusal?.code === 'member_cap_reached')
        throw conflict(
          'member_cap_reached',
          refusal.message ?? 'Your organization’s cap on your use is reached',
        );
      if (answer.counted === 0) {
        const ceiling = usageCeiling(latest.limit, latest.overage);
        // Packs cover use past the allowance before the ceiling counts it.
        const own = latest.used - latest.from_packs;
        const left = ceiling === null ? 0 : Math.max(0, ceiling - own) + latest.packs_left;
        throw conflict(
          'usage_limit_reached',
          left > 0
            ? `${latest.message}. Only ${left} ${latest.unit ?? 'units'} left, fewer than the ${body.usageAmount} asked for.`
            : `${latest.message}.`,
        );
      }
      return { license_id: row.id, recorded: body.usageAmount, feature: latest };
    },

    /**
     * Counts a batch of usage events of a license the user uses (see `reportUsage`); a batch from
     * one of its machines may use what that machine holds for offline use.
     */
    async reportEvents(user: UserRow, id: string, events: UsageEvent[], machine?: string) {
      const row = await access.usable(user, id);
      access.assertActive(row);
      const machineId = machine === undefined ? null : await reportingMachine(db, row.id, machine);
      return reportUsage(deps, row, user.id, events, { machineId });
    },

    async features(user: UserRow, id: string) {
      const license = await toLicense(db, await access.usable(user, id), clock.now());
      return { license_id: license.license_id, features: license.usage_info.features };
    },

    featureCheck: async (user: UserRow, id: string, featureId: string) =>
      (await featureOf(await access.usable(user, id), featureId)).usage,
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
