import type { LicenseStatusAnswer } from '../../../shared/api/licenses.js';
import type { Clock } from '../../clock.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import type { ActivationRow } from '../../db/tables.js';
import type { LeaseSigner } from '../licensing/lease-signer.js';
import type { PlanCatalogueCache } from '../plans/catalogue-cache.js';
import { createLicenseAccess } from './access.js';
import { leaseFor } from './lease.js';
import { machineRefusal } from './refusals.js';
import { findActivation, recordActivationSeen } from './repository.js';
import { featureUsages } from './usage.js';
import { currentTotals } from './usage-repository.js';
import { toActivation } from './views.js';

/** How often a status check writes `last_seen_at`: enough for seat reclaim measured in days. */
export const HEARTBEAT_INTERVAL_MS = 60_000;

/** Records that a machine checked in, at most once per {@link HEARTBEAT_INTERVAL_MS}. */
async function recordHeartbeat(
  db: DbOrTransaction,
  activation: ActivationRow,
  now: Date,
): Promise<ActivationRow> {
  if (now.getTime() - Date.parse(activation.last_seen_at) < HEARTBEAT_INTERVAL_MS) return activation;
  const last_seen_at = now.toISOString();
  await recordActivationSeen(db, activation.id, last_seen_at);
  return { ...activation, last_seen_at };
}

export interface LicenseChecksDeps {
  db: Db;
  clock: Clock;
  leases: LeaseSigner;
  planCatalogue: PlanCatalogueCache;
}

/** License checks from machines (`/licenses/validate`, `/licensing/status`), the hot path of every desktop. */
export function createLicenseChecksService({ db, clock, leases, planCatalogue }: LicenseChecksDeps) {
  const access = createLicenseAccess({ db, clock });

  return {
    /** Answers a license check from a machine and refreshes its heartbeat and lease. */
    async validate(body: { license_key: string; hardware_id: string }): Promise<LicenseStatusAnswer> {
      const row = await access.byKey(body.license_key);
      access.assertActive(row);
      const activation = await findActivation(db, row.id, body.hardware_id);
      if (!activation || activation.deactivated_at !== null) throw machineRefusal(activation);
      const now = clock.now();
      const seen = await recordHeartbeat(db, activation, now);
      const [{ plan, features: planFeatures }, totals] = await Promise.all([
        planCatalogue.get(row.plan_id),
        currentTotals(db, [row.id], now),
      ]);
      const features = featureUsages(row.id, planFeatures, totals, now, true);
      const signed = await leaseFor(leases, row, body.hardware_id, { plan, usage_info: { features } });
      return {
        valid: true,
        status: 'active',
        message: 'License is valid',
        requires_activation: false,
        license_id: row.id,
        license_key: row.license_key,
        plan,
        expires_at: row.expires_at,
        features,
        activation: toActivation(seen),
        lease: signed.lease,
        lease_expires_at: signed.expiresAt,
      };
    },
  };
}

export type LicenseChecksService = ReturnType<typeof createLicenseChecksService>;
