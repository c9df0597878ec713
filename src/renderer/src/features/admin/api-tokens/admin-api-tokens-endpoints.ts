import type {
  AdminApiToken,
  ApiToken,
  CreateApiTokenBody,
  CreatedApiToken,
} from '../../../../../shared/api/api-tokens';
import type { Paged } from '../../../../../shared/api/paging';
import { pathWith } from '../../../../../shared/routes';
import { adminApiPaths } from '../../../../../shared/api-paths';
import type { ListParams } from '../../../components/data-table/list-query';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks of the administrators' token calls, shown when the server gives no message.
export const adminApiTokenMessages = {
  fetchFailed: 'Failed to fetch API tokens',
  createFailed: 'Could not create the platform token',
  revokeFailed: 'Could not revoke the token',
} as const;

/** Administrators: every account's API tokens (to find and revoke a leaked one) and their own platform tokens. */
export const adminApiTokensApi = api.enhanceEndpoints({ addTagTypes: ['ApiToken'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/api-tokens: paged, searched by name, shown characters or owner. */
      listAllApiTokens: build.query<Paged<AdminApiToken>, ListParams>({
        query: (params) => ({ url: adminApiPaths.apiTokens, params }),
        extraOptions: { fallback: adminApiTokenMessages.fetchFailed },
        providesTags: ['ApiToken'],
      }),
      createPlatformApiToken: build.mutation<CreatedApiToken, CreateApiTokenBody>({
        query: (body) => ({ url: adminApiPaths.apiTokens, method: 'POST', body }),
        extraOptions: { fallback: adminApiTokenMessages.createFailed },
        invalidatesTags: ['ApiToken'],
      }),
      revokeAnyApiToken: build.mutation<ApiToken, string>({
        query: (tokenId) => ({ url: pathWith(adminApiPaths.apiToken, { tokenId }), method: 'DELETE' }),
        extraOptions: { fallback: adminApiTokenMessages.revokeFailed },
        invalidatesTags: ['ApiToken'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListAllApiTokensQuery, useCreatePlatformApiTokenMutation, useRevokeAnyApiTokenMutation } =
  adminApiTokensApi;
