import type { GrantUsageRequest, UsageGrant } from '../../shared/api/admin.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { grantUsageUnits } from '../licensing/index.js';
import { securityEventTypes } from '../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../platform/security-log/service.js';

/**
 * Administrators' grants of usage units: a credit pack of the license's metered feature, drawn
 * like a bought one once the period's allowance is used, and a security event naming who granted
 * how many units of what to which license, and why, committed with it.
 */
export function createUsageGrants({
  db,
  clock,
  validMonths,
}: {
  db: Db;
  clock: Clock;
  /** How long a grant's units may be drawn unless it says (USAGE_PACK_VALID_MONTHS). */
  validMonths: number;
}) {
  return {
    async grant(actor: AdminActor, licenseId: string, body: GrantUsageRequest): Promise<UsageGrant> {
      return db.transaction().execute(async (trx) => {
        const { license, feature, pack } = await grantUsageUnits(trx, clock, {
          licenseId,
          feature: body.feature,
          units: body.units,
          reason: body.reason,
          validMonths: body.valid_months ?? validMonths,
          adminId: actor.id,
        });
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.usageUnitsGranted,
          severity: 'warning',
          userId: license.user_id,
          details: {
            license_id: license.id,
            feature_id: feature.feature_id,
            feature_key: feature.key,
            units: body.units,
            reason: body.reason,
            pack_id: pack.id,
            expires_at: pack.expires_at,
          },
        });
        return {
          id: pack.id,
          license_id: license.id,
          feature_id: feature.feature_id,
          units: Number(pack.units),
          reason: body.reason,
          granted_by: actor.id,
          created_at: pack.created_at,
          expires_at: pack.expires_at,
        };
      });
    },
  };
}

export type UsageGrants = ReturnType<typeof createUsageGrants>;
