import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import { useGetPublicPlansQuery } from '../plans';
import { useGetSubscriptionsQuery } from '../subscriptions';
import type { LicenseRecord } from './licenses-endpoints';
import { type LicenseFlag, licenseFlag, needsSubscription } from './license-flags';

/**
 * Each license's flag, by license id. The subscriptions are read only when a flag depends on one
 * (a suspended or soon-ending subscription license): an unpaid subscription is fixed by paying,
 * and one that renews is not about to expire. The plans on sale are read only when a perpetual
 * license's updates ended, for the renewal its flag offers.
 */
export function useLicenseFlags(licenses: LicenseRecord[]): Map<string, LicenseFlag> {
  const now = Date.now();
  const needed = licenses.some((license) => needsSubscription(license, now));
  const { currentData: subscriptions } = useGetSubscriptionsQuery(undefined, { skip: !needed });
  // The plans on sale, only when a perpetual license's updates ended: its renewal is one of them.
  const windowEnded = licenses.some((license) => license.update_window_ended);
  const { currentData: plans } = useGetPublicPlansQuery(undefined, { skip: !windowEnded });
  // The flags are words: they are written again in a language chosen later.
  const { i18n } = useLingui();
  const language = i18n.locale;
  return useMemo(() => {
    const renewalOf = new Map(
      (Array.isArray(plans) ? plans : []).flatMap((plan) =>
        plan.renews_updates_of ? [[plan.renews_updates_of, plan.id] as const] : [],
      ),
    );
    const byLicense = new Map(
      (Array.isArray(subscriptions) ? subscriptions : []).flatMap((subscription) =>
        subscription.license_id ? [[subscription.license_id, subscription] as const] : [],
      ),
    );
    const flags = new Map<string, LicenseFlag>();
    for (const license of licenses) {
      const renewalPlanId = renewalOf.get(license.plan_id);
      const flag = licenseFlag(license, {
        subscription: byLicense.get(license.license_id),
        ...(renewalPlanId ? { renewalPlanId } : {}),
      });
      if (flag) flags.set(license.license_id, flag);
    }
    return flags;
  }, [licenses, subscriptions, plans, language]);
}
