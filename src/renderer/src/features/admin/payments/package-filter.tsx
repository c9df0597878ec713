import type { Plan } from '../../../../../shared/api/plans';
import { fetchPlan, fetchPlans } from '../../plans/plans-api';
import { type RemoteOption, RemoteSelect } from '../security/remote-select';

const toOption = (plan: Pick<Plan, 'id' | 'name' | 'code'>): RemoteOption => ({
  value: plan.id,
  label: `${plan.name} (${plan.code})`,
});

async function searchPackages(text: string): Promise<RemoteOption[]> {
  const page = await fetchPlans({
    page: 1,
    perPage: 20,
    sort: 'sort_order',
    ...(text.trim() ? { search: text.trim() } : {}),
  });
  return page.data.map(toOption);
}

const resolvePackage = async (id: string) => toOption(await fetchPlan(id));

/** "Package": filters a list to one plan, archived ones included. */
export function PackageFilter({ value, onChange }: { value: string; onChange: (planId: string) => void }) {
  return (
    <RemoteSelect
      label="Package"
      placeholder="Any package"
      value={value}
      onChange={onChange}
      search={searchPackages}
      resolve={resolvePackage}
      nothingFound="No package matches"
      clearLabel="Clear the package filter"
      style={{ flex: '1 1 200px', minWidth: 0 }}
    />
  );
}
