import type { z } from 'zod';
import type { FeatureUsage, trackUsageRequestSchema } from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict, HttpError, notFound } from '../../platform/http-error.js';
import { currentPeriodStart, findFeatureByIdOrKey } from '../../catalogue/index.js';
import { createLicenseAccess } from './access.js';
import { featureUsage } from './usage.js';
import { addUsage, recordUsageEvent, usageHistory } from './usage-repository.js';
import { toLicense } from './views.js';

type TrackUsageInput = z.output<typeof trackUsageRequestSchema>;

/** Thrown inside the usage transaction to roll it back when the limit would be passed. */
const usageRefused = new Error('usage limit would be passed');

/** The features of a license, their use this period and its history, and counting new use. */
export function createUsageService({ db, clock }: { db: Db; clock: Clock }) {
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
      used: 0,
      remaining: 0,
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
      const now = clock.now();
      const since = utc(now)
        .startOf('day')
        .subtract(days - 1, 'day')
        .toISOString();
      const history = await usageHistory(db, row.id, since);
      const license = await toLicense(db, row, now);
      return { license_id: row.id, usage_info: license.usage_info, history };
    },

    /** Counts use of a metered feature against this period's limit, atomically. */
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
      const now = clock.now();
      const periodStart = currentPeriodStart(feature.period, now);
      const total = await db
        .transaction()
        .execute(async (trx) => {
          const added = await addUsage(trx, {
            licenseId: row.id,
            featureId: feature.feature_id,
            periodStart,
            amount: body.usageAmount,
            limit: feature.limit,
          });
          // Refused: roll back, so not even the period's empty counter row is left behind.
          if (added === undefined) throw usageRefused;
          await recordUsageEvent(trx, {
            licenseId: row.id,
            featureId: feature.feature_id,
            amount: body.usageAmount,
            data: body.usageData,
            at: now.toISOString(),
          });
          return added;
        })
        .catch((error: unknown) => {
          if (error === usageRefused) return undefined;
          throw error;
        });
      if (total === undefined) {
        const { usage: latest } = await featureOf(row, feature.feature_id);
        const left = latest.remaining ?? 0;
        throw conflict(
          'usage_limit_reached',
          left > 0
            ? `${latest.message}. Only ${left} ${latest.unit ?? 'units'} left, fewer than the ${body.usageAmount} asked for.`
            : `${latest.message}.`,
        );
      }
      return {
        license_id: row.id,
        recorded: body.usageAmount,
        feature: featureUsage(feature, total, now, true),
      };
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
