import { t } from '@lingui/core/macro';
import type { AdminUsageList } from '../../../../../shared/api/admin-usage';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../../shared/constants';
import { adminUsageApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';
import type { ListParams } from '../admin-types';

export type AdminUsageRow = AdminUsageList['data'][number];

/**
 * The fallback of the administrators' usage call, shown when the server gives no
 * message, read when shown (a getter) so it is in the language shown then.
 */
export const adminUsageMessages = {
  get fetchUsageFailed() {
    return t`Failed to fetch usage`;
  },
};

/** Administrators: metered use per customer and feature this month or the last, heaviest first. */
export const adminUsageApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/usage: paged; `period` (current, previous), `feature`, `search`, `sort`. */
      listAdminUsage: build.query<AdminUsageList, ListParams | void>({
        query: (params) => ({
          url: adminUsageApiPaths.list,
          params: {
            ...params,
            page: params?.page ?? DEFAULT_PAGE,
            perPage: params?.perPage ?? DEFAULT_PAGE_SIZE,
          },
        }),
        extraOptions: {
          get fallback() {
            return adminUsageMessages.fetchUsageFailed;
          },
        },
        // Use moves with the licenses and plans an administrator changes.
        providesTags: ['AdminLicense'],
      }),
    };
    recordEndpointArea('admin-usage', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListAdminUsageQuery } = adminUsageApi;
