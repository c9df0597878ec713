import type { BaseQueryApi, BaseQueryFn } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import { QUERY_CACHE_SECONDS } from '../../../shared/constants';
import { announceApi, API_REDUCER_PATH } from './api-actions';
import { type ApiCallOptions, type ApiFailure, attempt, UNREACHABLE_CODE } from './api-errors';
import { type ReachabilityWatch, watchUntilReachable } from './reachability-watch';
import type { Services } from './services';
import { promptStepUp, STEP_UP_REQUIRED } from './step-up-prompt';

/** One call as an endpoint describes it; the axios client adds the base path, API key and bearer. */
export interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  params?: Record<string, unknown>;
}

/** The app's services, which the store hands every endpoint as its extra argument. */
export const servicesOf = (api: Pick<BaseQueryApi, 'extra'>) => api.extra as Services;

/**
 * While a call found no server, its health is checked until it answers; then every screen's reads
 * are fetched again (RTK Query's reconnect, see `refetchOnReconnect`), so a screen that said it
 * cannot reach the server fills in by itself. One watch at a time.
 */
let watch: ReachabilityWatch | null = null;
function retryWhenServerIsBack(dispatch: BaseQueryApi['dispatch']): void {
  watch ??= watchUntilReachable({
    onBack: () => {
      watch = null;
      dispatch(api.internalActions.onOnline());
    },
  });
}

/**
 * Every endpoint's call goes through the one axios client (its interceptors keep the session). A
 * change the server refuses until the session proves itself again (403 `step_up_required`) asks
 * for the password or a code (see lib/step-up-prompt.ts) and is sent once more when it was given.
 */
const axiosBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiFailure, ApiCallOptions> = async (
  { url, method = 'GET', body, params },
  api,
  options = {},
) => {
  const call = () =>
    attempt(
      async () => (await servicesOf(api).client.http.request({ url, method, data: body, params })).data,
      options,
    );
  const answer = await call();
  if ('error' in answer && answer.error.code === STEP_UP_REQUIRED && (await promptStepUp())) return call();
  if ('error' in answer && answer.error.code === UNREACHABLE_CODE) retryWhenServerIsBack(api.dispatch);
  return answer;
};

/** What a write can make stale; each read names what it shows. */
export const API_TAGS = [
  'License',
  'Plan',
  'Profile',
  'Sessions',
  'Payment',
  'Download',
  'AdminUser',
  'AdminLicense',
  'AdminPayment',
  'AdminFeature',
  'AdminPackage',
  'SecurityEvent',
  'Dashboard',
  'ThisMachine',
  'Billing',
  'Invoice',
  'Subscription',
  'Coupon',
  'SupportRequest',
  'AdminWebhookEndpoint',
  'AdminWebhookDelivery',
  'Organisation',
  'AdminOrganisation',
  'AdminRelease',
] as const;

/**
 * The portal's one path to server data. Each feature injects its endpoints; answers stay cached
 * for 60 s after the last screen using them goes away, and writes invalidate the tags they touch.
 */
export const api = createApi({
  reducerPath: API_REDUCER_PATH,
  baseQuery: axiosBaseQuery,
  keepUnusedDataFor: QUERY_CACHE_SECONDS,
  // Reads are fetched again when the server answers after an outage (see `retryWhenServerIsBack`).
  refetchOnReconnect: true,
  tagTypes: API_TAGS,
  endpoints: () => ({}),
});

// Every store built so far (and any built later) takes in the API's reducer and middleware now.
announceApi(api);
