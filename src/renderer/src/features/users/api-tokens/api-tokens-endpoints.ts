import type {
  ApiToken,
  ApiTokenList,
  CreateApiTokenBody,
  CreatedApiToken,
} from '../../../../../shared/api/api-tokens';
import { pathWith } from '../../../../../shared/routes';
import { accountSecurityApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks when the server gives no message.
export const apiTokenMessages = {
  listFailed: 'Could not load your API tokens',
  createFailed: 'Could not create the token',
  revokeFailed: 'Could not revoke the token',
} as const;

/** The signed-in account's personal API tokens: the list, creating one (shown once) and revoking. */
export const apiTokensApi = api.enhanceEndpoints({ addTagTypes: ['ApiToken'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      listApiTokens: build.query<ApiToken[], void>({
        query: () => ({ url: accountSecurityApiPaths.apiTokens }),
        transformResponse: (answer: ApiTokenList) => answer.data,
        extraOptions: { fallback: apiTokenMessages.listFailed },
        providesTags: ['ApiToken'],
      }),
      createApiToken: build.mutation<CreatedApiToken, CreateApiTokenBody>({
        query: (body) => ({ url: accountSecurityApiPaths.apiTokens, method: 'POST', body }),
        extraOptions: { fallback: apiTokenMessages.createFailed },
        invalidatesTags: ['ApiToken'],
      }),
      revokeApiToken: build.mutation<ApiToken, string>({
        query: (tokenId) => ({
          url: pathWith(accountSecurityApiPaths.apiToken, { tokenId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: apiTokenMessages.revokeFailed },
        invalidatesTags: ['ApiToken'],
      }),
    };
    recordEndpointArea('user', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListApiTokensQuery, useCreateApiTokenMutation, useRevokeApiTokenMutation } = apiTokensApi;
