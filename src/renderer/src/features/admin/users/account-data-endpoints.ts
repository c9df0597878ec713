import type { DataExport, EraseUserRequest } from '../../../../../shared/api/account-data';
import { pathWith } from '../../../../../shared/routes';
import { adminApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks when the server gives no message.
export const adminAccountDataMessages = {
  exportFailed: 'Failed to ask for the user’s data export',
  eraseFailed: 'Failed to erase the user',
} as const;

/** Administrators: a user's data export (mailed to the user) and erasing a user now, with a reason. */
export const adminAccountDataApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** POST /admin/users/{id}/data-export (step-up). */
      requestUserDataExport: build.mutation<DataExport, string>({
        query: (id) => ({ url: pathWith(adminApiPaths.userDataExport, { id }), method: 'POST', body: {} }),
        extraOptions: { fallback: adminAccountDataMessages.exportFailed },
      }),
      /** POST /admin/users/{id}/erase (step-up): the users' list and details follow. */
      eraseUser: build.mutation<null, { id: string } & EraseUserRequest>({
        query: ({ id, reason }) => ({
          url: pathWith(adminApiPaths.eraseUser, { id }),
          method: 'POST',
          body: { reason },
        }),
        extraOptions: { fallback: adminAccountDataMessages.eraseFailed },
        invalidatesTags: ['AdminUser', 'AdminPayment', 'AdminLicense', 'SecurityEvent', 'Dashboard'],
      }),
    };
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useRequestUserDataExportMutation, useEraseUserMutation } = adminAccountDataApi;
