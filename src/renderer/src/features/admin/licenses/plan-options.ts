import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Plan } from '../../../../../shared/api/plans';
import { useListPlansQuery } from '../../plans';
import { failureOf } from '../query-answer';

const ALL_PLANS = { page: 1, perPage: 100, sort: 'sort_order', status: 'all' } as const;

/** Every plan (archived ones too, marked), in display order, for the plan filter and the license forms. */
export function usePlans(): { plans: Plan[] | null; error: string | null } {
  const answer = useListPlansQuery(ALL_PLANS);
  return { plans: answer.data?.data ?? null, error: failureOf(answer) };
}

/** "Pro (archived)", "Team (inactive)": plans that cannot be sold any more say so. */
export function planLabel(plan: Plan, i18n: I18n): string {
  const name = plan.name;
  if (plan.archived_at) return i18n._(msg`${name} (archived)`);
  return plan.is_active ? name : i18n._(msg`${name} (inactive)`);
}

/** Plans a new license may be issued on (an archived plan sells no more). */
export const issuablePlans = (plans: readonly Plan[]) => plans.filter((plan) => !plan.archived_at);
