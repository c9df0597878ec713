import { t } from '@lingui/core/macro';
import type { Paged } from '../../../../../shared/api/paging';
import type { AdminSupportRequest } from '../../../../../shared/api/support';
import { pathWith } from '../../../../../shared/routes';
import { adminSupportApiPaths } from '../../../../../shared/api-paths';
import type { ListParams } from '../../../components/data-table/list-query';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

/**
 * The fallbacks of the administrators' support calls, shown when the server gives no
 * message, read when shown (a getter) so it is in the language shown then.
 */
export const adminSupportMessages = {
  get fetchFailed() {
    return t`Failed to fetch support requests`;
  },
  get markFailed() {
    return t`Failed to update the support request`;
  },
};

/** Administrators: the customers' support requests, paged, and marking one handled (or open again). */
export const adminSupportApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/support-requests: newest first, searched, open or handled ones. */
      listSupportRequests: build.query<Paged<AdminSupportRequest>, ListParams>({
        query: (params) => ({ url: adminSupportApiPaths.list, params }),
        extraOptions: {
          get fallback() {
            return adminSupportMessages.fetchFailed;
          },
        },
        providesTags: ['SupportRequest'],
      }),
      /** PUT /admin/support-requests/{id}/handled. */
      setSupportRequestHandled: build.mutation<AdminSupportRequest, { id: string; handled: boolean }>({
        query: ({ id, handled }) => ({
          url: pathWith(adminSupportApiPaths.handled, { id }),
          method: 'PUT',
          body: { handled },
        }),
        extraOptions: {
          get fallback() {
            return adminSupportMessages.markFailed;
          },
        },
        invalidatesTags: ['SupportRequest'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListSupportRequestsQuery, useSetSupportRequestHandledMutation } = adminSupportApi;
