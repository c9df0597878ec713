import type { Feature } from '../../../../../shared/api/features';
import type { Paged } from '../../../../../shared/api/paging';
import type { CreatePlanRequest, Plan, UpdatePlanRequest } from '../../../../../shared/api/plans';
import { MAX_PAGE_SIZE } from '../../../../../shared/constants';
import { adminMessages } from '../../../../../shared/messages';
import { getServices, type Services } from '../../../lib/services';
import {
  createPlan,
  deletePlan,
  fetchPlan,
  fetchPlans,
  type PlanListParams,
  updatePlan,
} from '../../plans/plans-api';
import { adminPaths } from '../admin-paths';
import type { ListParams } from '../admin-types';
import { adminRead } from '../security/admin-read';

/**
 * The packages (plans) console's calls. Plans are not in the admin slice: they go through
 * the plans API functions (services, 60 s cache, `plans:` entries forgotten on every write), and
 * a write also forgets the `admin:` entries, whose feature stats count the packages of a feature.
 */

export const fetchPackages = (params: ListParams): Promise<Paged<Plan>> =>
  fetchPlans(params as PlanListParams);

export const fetchPackage = (id: string): Promise<Plan> => fetchPlan(id);

async function write<T>(run: (services: Services) => Promise<T>, services: Services): Promise<T> {
  const result = await run(services);
  services.cache.invalidate('admin:');
  return result;
}

export const createPackage = (body: CreatePlanRequest, services: Services = getServices()) =>
  write((s) => createPlan(body, s), services);

/** PUT /plans/{id}; `features` (when sent) replaces the package's features and limits. */
export const updatePackage = (id: string, body: UpdatePlanRequest, services: Services = getServices()) =>
  write((s) => updatePlan(id, body, s), services);

/** DELETE /plans/{id}: deleted, or archived when licenses refer to it (the answer says which). */
export const deletePackage = (id: string, services: Services = getServices()) =>
  write((s) => deletePlan(id, s), services);

/** Safety net: a catalogue this large is not edited feature by feature. */
const MAX_FEATURE_PAGES = 50;

/** Every feature of the catalogue, by name: the rows of a package's feature editor (cached 60 s). */
export async function fetchAllFeatures(services: Services = getServices()): Promise<Feature[]> {
  const page = (number: number) =>
    adminRead<Paged<Feature>>(
      adminPaths.features,
      { page: number, perPage: MAX_PAGE_SIZE, sort: 'name' },
      adminMessages.fetchFeaturesFailed,
      services,
    );
  const first = await page(1);
  const pages = Math.min(Math.ceil(first.total / MAX_PAGE_SIZE), MAX_FEATURE_PAGES);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, index) => page(index + 2)),
  );
  return [first, ...rest].flatMap((result) => result.data);
}
