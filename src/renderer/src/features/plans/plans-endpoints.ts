import type { z } from 'zod';
import type {
  CreatePlanRequest,
  deletePlanResponseSchema,
  Plan,
  planStatsSchema,
  UpdatePlanRequest,
} from '../../../../shared/api/plans';
import type { Paged } from '../../../../shared/api/paging';
import { pathWith, plansApiPaths } from '../../../../shared/routes';
import { recordEndpointArea } from '../../lib/api-actions';
import { attempt } from '../../lib/api-errors';
import { api, servicesOf } from '../../lib/api';
import { planFallback } from './plan-messages';
import { fetchPublicPlans } from './public-plans-read';

// Answers are read as the shared schemas' types without parsing them again here: the server writes
// every response through those schemas, and zod stays out of the pages that only show plans.
export type PlanStats = z.infer<typeof planStatsSchema>;
export type DeletePlanResponse = z.infer<typeof deletePlanResponseSchema>;

export interface PlanListParams {
  page?: number;
  perPage?: number;
  search?: string;
  sort?: string;
  status?: 'active' | 'inactive' | 'draft' | 'archived' | 'all';
}

/**
 * A plan write changes the catalogue, and the admin feature stats and dashboard that count plans.
 * Licenses keep their own copy of the plan's name, so they are not refetched.
 */
const PLAN_WRITE_TAGS = ['Plan', 'AdminFeature', 'Dashboard'] as const;

/** The plan catalogue: the public plans anyone may buy, and the admin's full list and writes. */
export const plansApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /plans/public, with the call /landing makes too (see `fetchPublicPlans`). */
      getPublicPlans: build.query<Plan[], void>({
        queryFn: (_arg, queryApi) =>
          attempt(() => fetchPublicPlans(servicesOf(queryApi).client), planFallback('fetchPlansFailed')),
        providesTags: ['Plan'],
      }),
      getPublicPlan: build.query<Plan, string>({
        query: (id) => ({ url: pathWith(plansApiPaths.publicDetail, { id }) }),
        extraOptions: planFallback('fetchPlanFailed'),
        providesTags: (_plan, _error, id) => [{ type: 'Plan', id }],
      }),
      /** GET /plans (admin): every plan, paged and filtered. */
      listPlans: build.query<Paged<Plan>, PlanListParams>({
        query: (params) => ({ url: plansApiPaths.list, params: { ...params } }),
        extraOptions: planFallback('fetchPlansFailed'),
        providesTags: ['Plan'],
      }),
      /** GET /plans/{id} (admin). */
      getPlan: build.query<Plan, string>({
        query: (id) => ({ url: pathWith(plansApiPaths.detail, { id }) }),
        extraOptions: planFallback('fetchPlanFailed'),
        providesTags: (_plan, _error, id) => [{ type: 'Plan', id }],
      }),
      /** GET /plans/stats (admin). */
      getPlanStats: build.query<PlanStats, void>({
        query: () => ({ url: plansApiPaths.stats }),
        extraOptions: planFallback('fetchPlanStatsFailed'),
        providesTags: ['Plan'],
      }),
      createPlan: build.mutation<Plan, CreatePlanRequest>({
        query: (body) => ({ url: plansApiPaths.list, method: 'POST', body }),
        extraOptions: planFallback('savePlanFailed'),
        invalidatesTags: [...PLAN_WRITE_TAGS],
      }),
      /** PUT /plans/{id}; `features` (when sent) replaces the plan's features and limits. */
      updatePlan: build.mutation<Plan, { id: string; body: UpdatePlanRequest }>({
        query: ({ id, body }) => ({ url: pathWith(plansApiPaths.detail, { id }), method: 'PUT', body }),
        extraOptions: planFallback('savePlanFailed'),
        invalidatesTags: [...PLAN_WRITE_TAGS],
      }),
      /** POST /plans/{id}/publish: a draft with at least one feature goes on sale. */
      publishPlan: build.mutation<Plan, string>({
        query: (id) => ({ url: pathWith(plansApiPaths.publish, { id }), method: 'POST' }),
        extraOptions: planFallback('publishPlanFailed'),
        invalidatesTags: [...PLAN_WRITE_TAGS],
      }),
      /** DELETE /plans/{id}: a plan that licenses refer to is archived instead (see the answer's outcome). */
      deletePlan: build.mutation<DeletePlanResponse, string>({
        query: (id) => ({ url: pathWith(plansApiPaths.detail, { id }), method: 'DELETE' }),
        extraOptions: planFallback('deletePlanFailed'),
        invalidatesTags: [...PLAN_WRITE_TAGS],
      }),
    };
    // Only this module's names: `plansApi.endpoints` also lists what other features injected.
    recordEndpointArea('plans', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetPublicPlansQuery,
  useGetPublicPlanQuery,
  useListPlansQuery,
  useGetPlanQuery,
  useGetPlanStatsQuery,
  useCreatePlanMutation,
  useUpdatePlanMutation,
  useDeletePlanMutation,
  usePublishPlanMutation,
} = plansApi;
