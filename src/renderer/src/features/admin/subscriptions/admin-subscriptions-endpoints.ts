import {
  type AdminCancelSubscriptionRequest,
  type AdminPauseSubscriptionRequest,
  type AdminResumePauseRequest,
  type AdminSubscription,
  type AdminSubscriptionDetail,
} from '../../../../../shared/api/admin-subscriptions';
import type { Paged } from '../../../../../shared/api/paging';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../../shared/constants';
import { pathWith } from '../../../../../shared/routes';
import { adminSubscriptionsApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';
import type { ListParams } from '../admin-types';

// The fallbacks of the administrators' subscription calls, shown when the server gives no message.
export const adminSubscriptionMessages = {
  fetchSubscriptionsFailed: 'Failed to fetch subscriptions',
  fetchSubscriptionFailed: 'Failed to fetch the subscription',
  cancelFailed: 'The subscription could not be canceled',
  pauseFailed: 'The subscription could not be paused',
  unpauseFailed: 'The pause could not be ended',
} as const;

const paths = adminSubscriptionsApiPaths;

/**
 * Administrators: every customer's subscriptions. They share the payments' tag: a subscription is
 * its charges, so a refund (which invalidates payments) shows on the subscription at once.
 */
export const adminSubscriptionsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/subscriptions, paged and filtered like the other admin lists. */
      listAdminSubscriptions: build.query<Paged<AdminSubscription>, ListParams | void>({
        query: (params) => ({
          url: paths.list,
          params: {
            ...params,
            page: params?.page ?? DEFAULT_PAGE,
            perPage: params?.perPage ?? DEFAULT_PAGE_SIZE,
          },
        }),
        extraOptions: { fallback: adminSubscriptionMessages.fetchSubscriptionsFailed },
        providesTags: ['AdminPayment'],
      }),
      /** GET /admin/subscriptions/{id}: its charges, invoices and credit notes. */
      getAdminSubscription: build.query<AdminSubscriptionDetail, string>({
        query: (id) => ({ url: pathWith(paths.detail, { id }) }),
        extraOptions: { fallback: adminSubscriptionMessages.fetchSubscriptionFailed },
        providesTags: ['AdminPayment'],
      }),
      /** POST /admin/subscriptions/{id}/cancel: at the period's end or now, with the reason. */
      cancelAdminSubscription: build.mutation<
        AdminSubscriptionDetail,
        { id: string; body: AdminCancelSubscriptionRequest }
      >({
        query: ({ id, body }) => ({ url: pathWith(paths.cancel, { id }), method: 'POST', body }),
        extraOptions: { fallback: adminSubscriptionMessages.cancelFailed },
        // The license may end now; the overview's figures and the security log change.
        invalidatesTags: ['AdminPayment', 'AdminLicense', 'License', 'Dashboard', 'SecurityEvent'],
      }),
      /** POST /admin/subscriptions/{id}/pause: for 1 to 3 periods from the paid period's end, with the reason. */
      pauseAdminSubscription: build.mutation<
        AdminSubscriptionDetail,
        { id: string; body: AdminPauseSubscriptionRequest }
      >({
        query: ({ id, body }) => ({ url: pathWith(paths.pause, { id }), method: 'POST', body }),
        extraOptions: { fallback: adminSubscriptionMessages.pauseFailed },
        invalidatesTags: ['AdminPayment', 'AdminLicense', 'License', 'Dashboard', 'SecurityEvent'],
      }),
      /** POST /admin/subscriptions/{id}/unpause: resumes now (billed now) or withdraws a planned pause, with the reason. */
      unpauseAdminSubscription: build.mutation<
        AdminSubscriptionDetail,
        { id: string; body: AdminResumePauseRequest }
      >({
        query: ({ id, body }) => ({ url: pathWith(paths.unpause, { id }), method: 'POST', body }),
        extraOptions: { fallback: adminSubscriptionMessages.unpauseFailed },
        invalidatesTags: ['AdminPayment', 'AdminLicense', 'License', 'Dashboard', 'SecurityEvent'],
      }),
    };
    recordEndpointArea('admin-subscriptions', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useListAdminSubscriptionsQuery,
  useGetAdminSubscriptionQuery,
  useCancelAdminSubscriptionMutation,
  usePauseAdminSubscriptionMutation,
  useUnpauseAdminSubscriptionMutation,
} = adminSubscriptionsApi;
