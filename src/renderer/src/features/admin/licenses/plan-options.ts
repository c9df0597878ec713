import { useEffect, useState } from 'react';
import type { Plan } from '../../../../../shared/api/plans';
import { fetchPlans } from '../../plans/plans-api';

/** Every plan (archived ones too, marked), in display order, for the plan filter and the license forms. */
export function usePlans() {
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    fetchPlans({ page: 1, perPage: 100, sort: 'sort_order', status: 'all' }).then(
      (page) => current && setPlans(page.data),
      (reason: unknown) => current && setError(reason instanceof Error ? reason.message : String(reason)),
    );
    return () => {
      current = false;
    };
  }, []);
  return { plans, error };
}

/** "Pro (archived)", "Team (inactive)": plans that cannot be sold any more say so. */
export const planLabel = (plan: Plan) =>
  plan.archived_at ? `${plan.name} (archived)` : plan.is_active ? plan.name : `${plan.name} (inactive)`;

/** Plans a new license may be issued on (an archived plan sells no more). */
export const issuablePlans = (plans: readonly Plan[]) => plans.filter((plan) => !plan.archived_at);
