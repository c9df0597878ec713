import type { Paged } from '../../../../../shared/api/paging';
import type { AdminSupportRequest } from '../../../../../shared/api/support';
import { pathWith } from '../../../../../shared/routes';
import { adminSupportApiPaths } from '../../../../../shared/api-paths';
import type { ListParams } from '../../../components/data-table/list-query';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks of the administrators' support calls, shown when the server gives no message.
export const adminSupportMessages = {
  fetchFailed: 'Failed to fetch support requests',
  markFailed: 'Failed to update the support request',
} as const;

/** Administrators: the customers' support requests, paged, and marking one handled (or open again). */
export const adminSupportApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/support-requests: newest first, searched, open or handled ones. */
      listSupportRequests: build.query<Paged<AdminSupportRequest>, ListParams>({
        query: (params) => ({ url: adminSupportApiPaths.list, params }),
        extraOptions: { fallback: adminSupportMessages.fetchFailed },
        providesTags: ['SupportRequest'],
      }),
      /** PUT /admin/support-requests/{id}/handled. */
      setSupportRequestHandled: build.mutation<AdminSupportRequest, { id: string; handled: boolean }>({
        query: ({ id, handled }) => ({
          url: pathWith(adminSupportApiPaths.handled, { id }),
          method: 'PUT',
          body: { handled },
        }),
        extraOptions: { fallback: adminSupportMessages.markFailed },
        invalidatesTags: ['SupportRequest'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListSupportRequestsQuery, useSetSupportRequestHandledMutation } = adminSupportApi;
