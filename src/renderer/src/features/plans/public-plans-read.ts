import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { Plan } from '../../../../shared/api/plans';
import { plansApiPaths } from '../../../../shared/routes';
import type { ApiClient } from '../../lib/api-client';
import type { Services } from '../../lib/services';
import { planMessages } from './plan-messages';

/**
 * GET /plans/public with the client's plain `fetch`: no axios, and no RTK Query either. /landing is
 * in the first download (150 KB gzip with /login), and the API cache's 19 KB would take it past
 * that, so the landing page reads its plans with this one call instead of the `getPublicPlans`
 * endpoint (which runs the same call for the signed-in screens).
 */
export const fetchPublicPlans = (client: Pick<ApiClient, 'getPublic'>): Promise<Plan[]> =>
  client.getPublic<Plan[]>(plansApiPaths.public, planMessages.fetchPlansFailed);

/** {@link fetchPublicPlans} with the store's services, for the landing page. */
export const readPublicPlans =
  (): ThunkAction<Promise<Plan[]>, unknown, Services, UnknownAction> => (_dispatch, _getState, services) =>
    fetchPublicPlans(services.client);
