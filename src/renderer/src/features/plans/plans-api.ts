import type { z } from 'zod';
import type {
  CreatePlanRequest,
  deletePlanResponseSchema,
  Plan,
  planStatsSchema,
  UpdatePlanRequest,
} from '../../../../shared/api/plans';
import type { Paged } from '../../../../shared/api/paging';
import { apiPaths, pathWith } from '../../../../shared/routes';
import { toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';
import type { HttpClient } from '../../lib/api-client';

// The fallbacks of the plan calls, shown when the server gives no message.
export const planMessages = {
  fetchPlansFailed: 'Failed to fetch plans',
  fetchPlanFailed: 'Failed to fetch plan',
  savePlanFailed: 'Failed to save plan',
  deletePlanFailed: 'Failed to delete plan',
  fetchPlanStatsFailed: 'Failed to fetch plan statistics',
} as const;

const CACHE_PREFIX = 'plans:';

// Answers are read as the shared schemas' types without parsing them again here: the server writes
// every response through those schemas, and zod stays out of the pages that only show plans.
export type PlanStats = z.infer<typeof planStatsSchema>;
export type DeletePlanResponse = z.infer<typeof deletePlanResponseSchema>;

async function call<T>(
  fallback: string,
  run: (http: HttpClient) => Promise<T>,
  services: Services,
): Promise<T> {
  try {
    return await run(services.client.http);
  } catch (error) {
    throw toApiRequestError(error, fallback);
  }
}

/** GET /plans/public: the plans anyone may buy (cached 60 s; without axios, see `getPublic`). */
export function fetchPublicPlans(services: Services = getServices()): Promise<Plan[]> {
  return services.cache.get(`${CACHE_PREFIX}public`, () =>
    services.client.getPublic<Plan[]>(apiPaths.plans.public, planMessages.fetchPlansFailed),
  );
}

/** GET /plans/public/{id} (cached 60 s). */
export function fetchPublicPlan(id: string, services: Services = getServices()): Promise<Plan> {
  return services.cache.get(`${CACHE_PREFIX}public:${id}`, () =>
    call(
      planMessages.fetchPlanFailed,
      async (http) => (await http.get<Plan>(pathWith(apiPaths.plans.publicDetail, { id }))).data,
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
      async (http) => (await http.get<Paged<Plan>>(apiPaths.plans.list, { params })).data,
      services,
    ),
  );
}

/** GET /plans/{id} (admin; cached 60 s). */
export function fetchPlan(id: string, services: Services = getServices()): Promise<Plan> {
  return services.cache.get(`${CACHE_PREFIX}detail:${id}`, () =>
    call(
      planMessages.fetchPlanFailed,
      async (http) => (await http.get<Plan>(pathWith(apiPaths.plans.detail, { id }))).data,
      services,
    ),
  );
}

/** GET /plans/stats (admin; cached 60 s). */
export function fetchPlanStats(services: Services = getServices()) {
  return services.cache.get(`${CACHE_PREFIX}stats`, () =>
    call(
      planMessages.fetchPlanStatsFailed,
      async (http) => (await http.get<PlanStats>(apiPaths.plans.stats)).data,
      services,
    ),
  );
}

export async function createPlan(body: CreatePlanRequest, services: Services = getServices()): Promise<Plan> {
  const plan = await call(
    planMessages.savePlanFailed,
    async (http) => (await http.post<Plan>(apiPaths.plans.list, body)).data,
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
    async (http) => (await http.put<Plan>(pathWith(apiPaths.plans.detail, { id }), body)).data,
    services,
  );
  services.cache.invalidate(CACHE_PREFIX);
  return plan;
}

/** DELETE /plans/{id}: a plan that licences refer to is archived instead (see the answer's outcome). */
export async function deletePlan(id: string, services: Services = getServices()) {
  const result = await call(
    planMessages.deletePlanFailed,
    async (http) => (await http.delete<DeletePlanResponse>(pathWith(apiPaths.plans.detail, { id }))).data,
    services,
  );
  services.cache.invalidate(CACHE_PREFIX);
  return result;
}
