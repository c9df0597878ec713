import type { Plan } from '../../../../../shared/api/plans';
import { useListMyLicensesQuery } from '../../licenses';
import { StartTrialButton } from '../../payments';

/**
 * The landing page's trial button for a signed-in customer: one click starts the plan's trial,
 * unless they hold a license of it already (a trial's too), when there is nothing to offer.
 * Loaded only for a signed-in visitor, so the first download of /landing carries no API cache.
 */
export default function LandingTrialButton({ plan, label }: { plan: Plan; label: string }) {
  const { data: licenses, isLoading } = useListMyLicensesQuery();
  if (isLoading) return null;
  const held = (licenses ?? []).some(
    (license) => license.organisation === null && license.plan_id === plan.id,
  );
  if (held) return null;
  return <StartTrialButton plan={plan} label={label} size="lg" variant="light" fullWidth={false} />;
}
