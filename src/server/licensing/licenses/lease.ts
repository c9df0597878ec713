import type { License, LicenseTrial } from '../../../shared/api/licenses.js';
import type { SeatHolder } from '../../../shared/api/organisations.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import type { LeaseSigner } from '../leases/lease-signer.js';

/**
 * A signed offline lease of the license for one machine, carrying its plan and feature limits,
 * on an organisation's license the member whose seat the machine is on, and on a perpetual one
 * the end of its update window; with metered features, the machine's offline allowance of them.
 */
export const leaseFor = (
  leases: LeaseSigner,
  row: Pick<LicenseRow, 'id' | 'license_key' | 'expires_at' | 'updates_until'>,
  hardwareId: string,
  license: Pick<License, 'plan' | 'usage_info'> & { trial?: LicenseTrial | null },
  seat: SeatHolder | null = null,
  activationId?: string,
) =>
  leases.sign({
    licenseId: row.id,
    licenseKey: row.license_key,
    hardwareId,
    plan: { id: license.plan.id, code: license.plan.code, name: license.plan.name },
    features: license.usage_info.features.map((feature) => ({
      key: feature.key,
      kind: feature.kind,
      limit: feature.limit,
    })),
    licenseExpiresAt: row.expires_at,
    seat,
    trial: license.trial ? { ends_at: license.trial.ends_at, days_left: license.trial.days_left } : null,
    updatesUntil: row.updates_until,
    metered: license.usage_info.features,
    activationId,
  });
