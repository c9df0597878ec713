import { useLingui } from '@lingui/react/macro';
import { skipToken } from '@reduxjs/toolkit/query/react';
import type { Plan } from '../../../../../shared/api/plans';
import { type RemoteOption, RemoteSelect } from '../../../components/forms/remote-select';
import { useGetPlanQuery, useListPlansQuery } from '../../plans';

const toOption = (plan: Pick<Plan, 'id' | 'name' | 'code'>): RemoteOption => ({
  value: plan.id,
  label: `${plan.name} (${plan.code})`,
});

/** The first twenty packages whose name or code matches, in display order. */
function usePackageOptions(text: string | null) {
  const answer = useListPlansQuery(
    text === null
      ? skipToken
      : { page: 1, perPage: 20, sort: 'sort_order', ...(text.trim() ? { search: text.trim() } : {}) },
  );
  return { options: answer.data?.data.map(toOption) ?? [], loading: answer.isFetching };
}

/** The package of an id from the URL, by its name and code. */
function usePackageOption(id: string | null) {
  const answer = useGetPlanQuery(id ?? skipToken);
  if (answer.data && answer.data.id === id) return toOption(answer.data);
  return answer.isError ? null : undefined;
}

/** "Package": filters a list to one plan, archived ones included. */
export function PackageFilter({ value, onChange }: { value: string; onChange: (planId: string) => void }) {
  const { t } = useLingui();
  return (
    <RemoteSelect
      label={t`Package`}
      placeholder={t`Any package`}
      value={value}
      onChange={onChange}
      useOptions={usePackageOptions}
      useOption={usePackageOption}
      nothingFound={t`No package matches`}
      clearLabel={t`Clear the package filter`}
      style={{ flex: '1 1 200px', minWidth: 0 }}
    />
  );
}
