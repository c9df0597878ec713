import type { AccountDeletion, DataExport, DataExportAnswer } from '../../../../../shared/api/account-data';
import { usersApiPaths } from '../../../../../shared/routes';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks when the server gives no message.
export const accountDataMessages = {
  exportFetchFailed: 'Could not load your data export',
  exportFailed: 'Could not ask for your data export',
  deleteFailed: 'Could not delete your account',
  cancelFailed: 'Could not cancel the deletion',
} as const;

/** The account's own data: its export (asked for, then watched as it is made) and its deletion. */
export const accountDataApi = api.enhanceEndpoints({ addTagTypes: ['DataExport'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /users/me/data-export: the latest export, with its progress while it is made. */
      getDataExport: build.query<DataExport | null, void>({
        query: () => ({ url: usersApiPaths.dataExport }),
        transformResponse: (answer: DataExportAnswer) => answer.export,
        extraOptions: { fallback: accountDataMessages.exportFetchFailed },
        providesTags: ['DataExport'],
      }),
      /** POST /users/me/data-export (step-up): the one being made, if any, else a new one. */
      requestDataExport: build.mutation<DataExport, void>({
        query: () => ({ url: usersApiPaths.dataExport, method: 'POST', body: {} }),
        extraOptions: { fallback: accountDataMessages.exportFailed },
        invalidatesTags: ['DataExport'],
      }),
      /** POST /users/me/deletion (step-up): erased after the grace period unless cancelled. */
      requestAccountDeletion: build.mutation<AccountDeletion, void>({
        query: () => ({ url: usersApiPaths.deletion, method: 'POST', body: { confirm: true } }),
        extraOptions: { fallback: accountDataMessages.deleteFailed },
        invalidatesTags: ['Profile'],
      }),
      /** DELETE /users/me/deletion: the account stays. */
      cancelAccountDeletion: build.mutation<AccountDeletion, void>({
        query: () => ({ url: usersApiPaths.deletion, method: 'DELETE' }),
        extraOptions: { fallback: accountDataMessages.cancelFailed },
        invalidatesTags: ['Profile'],
      }),
    };
    recordEndpointArea('user', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetDataExportQuery,
  useRequestDataExportMutation,
  useRequestAccountDeletionMutation,
  useCancelAccountDeletionMutation,
} = accountDataApi;
