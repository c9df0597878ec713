import { t } from '@lingui/core/macro';
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

/**
 * The fallbacks of the administrators' token calls, shown when the server gives no
 * message, read when shown (a getter) so it is in the language shown then.
 */
export const adminApiTokenMessages = {
  get fetchFailed() {
    return t`Failed to fetch API tokens`;
  },
  get createFailed() {
    return t`Could not create the platform token`;
  },
  get revokeFailed() {
    return t`Could not revoke the token`;
  },
};

/** Administrators: every account's API tokens (to find and revoke a leaked one) and their own platform tokens. */
export const adminApiTokensApi = api.enhanceEndpoints({ addTagTypes: ['ApiToken'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/api-tokens: paged, searched by name, shown characters or owner. */
      listAllApiTokens: build.query<Paged<AdminApiToken>, ListParams>({
        query: (params) => ({ url: adminApiPaths.apiTokens, params }),
        extraOptions: {
          get fallback() {
            return adminApiTokenMessages.fetchFailed;
          },
        },
        providesTags: ['ApiToken'],
      }),
      createPlatformApiToken: build.mutation<CreatedApiToken, CreateApiTokenBody>({
        query: (body) => ({ url: adminApiPaths.apiTokens, method: 'POST', body }),
        extraOptions: {
          get fallback() {
            return adminApiTokenMessages.createFailed;
          },
        },
        invalidatesTags: ['ApiToken'],
      }),
      revokeAnyApiToken: build.mutation<ApiToken, string>({
        query: (tokenId) => ({ url: pathWith(adminApiPaths.apiToken, { tokenId }), method: 'DELETE' }),
        extraOptions: {
          get fallback() {
            return adminApiTokenMessages.revokeFailed;
          },
        },
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
