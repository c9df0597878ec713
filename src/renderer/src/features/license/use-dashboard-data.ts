import { useCallback, useEffect, useState } from 'react';
import type { Plan } from '../../../../shared/api/plans';
import { licenseMessages } from '../../../../shared/messages';
import { useAppDispatch } from '../../app/hooks';
import type { LicenseUsage } from './license-api';
import { isLicence } from './license-format';
import { checkLicenseStatus, fetchCurrentPlan, fetchLicenseUsage, type LicenseRecord } from './license-slice';
import { useLicenseList } from './use-license-list';

/** Days of daily usage the dashboard charts. */
export const DASHBOARD_USAGE_DAYS = 30;

export type Loadable<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; error: string };

/**
 * What the dashboard shows: the licences, the plan of the best active one (`GET
 * /licenses/current-plan`), this machine's status check and the usage of the featured licence.
 */
export function useDashboardData() {
  const dispatch = useAppDispatch();
  const list = useLicenseList();
  const [current, setCurrent] = useState<Loadable<{ plan: Plan | null; license: LicenseRecord | null }>>({
    status: 'loading',
  });
  const [usage, setUsage] = useState<Loadable<LicenseUsage> | null>(null);
  const [checking, setChecking] = useState(true);

  useEffect(() => {
    let live = true;
    void dispatch(fetchCurrentPlan()).then((result) => {
      if (!live) return;
      if (fetchCurrentPlan.rejected.match(result))
        setCurrent({ status: 'failed', error: result.payload ?? licenseMessages.fetchCurrentPlanFailed });
      else {
        const answer = result.payload as { plan?: Plan | null; license?: unknown } | null;
        setCurrent({
          status: 'ready',
          value: {
            plan: answer?.plan ?? null,
            license: isLicence(answer?.license) ? answer.license : null,
          },
        });
      }
    });
    void dispatch(checkLicenseStatus()).then(() => {
      if (live) setChecking(false);
    });
    return () => {
      live = false;
    };
  }, [dispatch]);

  // The licence the dashboard is about: the one giving the current plan, else the newest one held.
  const featured: LicenseRecord | null =
    (current.status === 'ready' ? current.value.license : null) ??
    [...list.licences].sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ??
    null;
  const featuredId = featured?.license_id ?? null;

  const loadUsage = useCallback(
    async (licenseId: string) => {
      setUsage({ status: 'loading' });
      const result = await dispatch(fetchLicenseUsage({ licenseId, days: DASHBOARD_USAGE_DAYS }));
      if (fetchLicenseUsage.rejected.match(result))
        setUsage({ status: 'failed', error: result.payload ?? licenseMessages.fetchUsageFailed });
      else setUsage({ status: 'ready', value: result.payload });
    },
    [dispatch],
  );

  useEffect(() => {
    if (featuredId) void loadUsage(featuredId);
  }, [featuredId, loadUsage]);

  return { list, current, featured, usage, checking, reloadUsage: loadUsage };
}
