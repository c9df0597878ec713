import { useMemo } from 'react';
import { useGetSubscriptionsQuery } from '../subscriptions';
import type { LicenseRecord } from './licenses-endpoints';
import { type LicenseFlag, licenseFlag, needsSubscription } from './license-flags';

/**
 * Each license's flag, by license id. The subscriptions are read only when a flag depends on one
 * (a suspended or soon-ending subscription license): an unpaid subscription is fixed by paying,
 * and one that renews is not about to expire.
 */
export function useLicenseFlags(licenses: LicenseRecord[]): Map<string, LicenseFlag> {
  const now = Date.now();
  const needed = licenses.some((license) => needsSubscription(license, now));
  const { currentData: subscriptions } = useGetSubscriptionsQuery(undefined, { skip: !needed });
  return useMemo(() => {
    const byLicense = new Map(
      (Array.isArray(subscriptions) ? subscriptions : []).flatMap((subscription) =>
        subscription.license_id ? [[subscription.license_id, subscription] as const] : [],
      ),
    );
    const flags = new Map<string, LicenseFlag>();
    for (const license of licenses) {
      const flag = licenseFlag(license, { subscription: byLicense.get(license.license_id) });
      if (flag) flags.set(license.license_id, flag);
    }
    return flags;
  }, [licenses, subscriptions]);
}
