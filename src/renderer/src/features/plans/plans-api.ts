import type { AxiosInstance } from 'axios';
import {
  type CreatePlanRequest,
  deletePlanResponseSchema,
  type Plan,
  planListSchema,
  planSchema,
  planStatsSchema,
  publicPlanListSchema,
  type UpdatePlanRequest,
} from '../../../../shared/api/plans';
import type { Paged } from '../../../../shared/api/paging';
import { apiPaths, pathWith } from '../../../../shared/routes';
import { toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';

// Not in SPEC §8's catalogue: the fallbacks of the plan calls.
export const planMessages = {
  fetchPlansFailed: 'Failed to fetch plans',
  fetchPlanFailed: 'Failed to fetch plan',
  savePlanFailed: 'Failed to save plan',
  deletePlanFailed: 'Failed to delete plan',
  fetchPlanStatsFailed: 'Failed to fetch plan statistics',
} as const;

const CACHE_PREFIX = 'plans:';

async function call<T>(
  fallback: string,
  run: (http: AxiosInstance) => Promise<T>,
  services: Services,
): Promise<T> {
  try {
    return await run(services.client.http);
  } catch (error) {
    throw toApiRequestError(error, fallback);
  }
}

/** GET /plans/public: the plans anyone may buy (cached 60 s). */
export function fetchPublicPlans(services: Services = getServices()): Promise<Plan[]> {
  return services.cache.get(`${CACHE_PREFIX}public`, () =>
    call(
      planMessages.fetchPlansFailed,
      async (http) => publicPlanListSchema.parse((await http.get(apiPaths.plans.public)).data),
      services,
    ),
  );
}

/** GET /plans/public/{id} (cached 60 s). */
export function fetchPublicPlan(id: string, services: Services = getServices()): Promise<Plan> {
  return services.cache.get(`${CACHE_PREFIX}public:${id}`, () =>
    call(
      planMessages.fetchPlanFailed,
      async (http) => planSchema.parse((await http.get(pathWith(apiPaths.plans.publicDetail, { id }))).data),
      services,
    ),
  );
}

export interface PlanListParams {
  page?: number;
  perPage?: number;
  search?: string;
  sort?: string;
  status?: 'active' | 'inactive' | 'archived' | 'all';
}

/** GET /plans (admin; cached 60 s per query). */
export function fetchPlans(
  params: PlanListParams = {},
  services: Services = getServices(),
): Promise<Paged<Plan>> {
  return services.cache.get(`${CACHE_PREFIX}list:${JSON.stringify(params)}`, () =>
    call(
      planMessages.fetchPlansFailed,
      async (http) => planListSchema.parse((await http.get(apiPaths.plans.list, { params })).data),
      services,
    ),
  );
}

/** GET /plans/{id} (admin; cached 60 s). */
export function fetchPlan(id: string, services: Services = getServices()): Promise<Plan> {
  return services.cache.get(`${CACHE_PREFIX}detail:${id}`, () =>
    call(
      planMessages.fetchPlanFailed,
      async (http) => planSchema.parse((await http.get(pathWith(apiPaths.plans.detail, { id }))).data),
      services,
    ),
  );
}

/** GET /plans/stats (admin; cached 60 s). */
export function fetchPlanStats(services: Services = getServices()) {
  return services.cache.get(`${CACHE_PREFIX}stats`, () =>
    call(
      planMessages.fetchPlanStatsFailed,
      async (http) => planStatsSchema.parse((await http.get(apiPaths.plans.stats)).data),
      services,
    ),
  );
}

export async function createPlan(body: CreatePlanRequest, services: Services = getServices()): Promise<Plan> {
  const plan = await call(
    planMessages.savePlanFailed,
    async (http) => planSchema.parse((await http.post(apiPaths.plans.list, body)).data),
    services,
  );
  services.cache.invalidate(CACHE_PREFIX);
  return plan;
}

export async function updatePlan(
  id: string,
  body: UpdatePlanRequest,
  services: Services = getServices(),
): Promise<Plan> {
  const plan = await call(
    planMessages.savePlanFailed,
    async (http) => planSchema.parse((await http.put(pathWith(apiPaths.plans.detail, { id }), body)).data),
    services,
  );
  services.cache.invalidate(CACHE_PREFIX);
  return plan;
}

/** DELETE /plans/{id}: a plan that licences refer to is archived instead (see the answer's outcome). */
export async function deletePlan(id: string, services: Services = getServices()) {
  const result = await call(
    planMessages.deletePlanFailed,
    async (http) =>
      deletePlanResponseSchema.parse((await http.delete(pathWith(apiPaths.plans.detail, { id }))).data),
    services,
  );
  services.cache.invalidate(CACHE_PREFIX);
  return result;
}
