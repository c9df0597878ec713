import type {
  ApiToken,
  ApiTokenList,
  CreateApiTokenBody,
  CreatedApiToken,
} from '../../../../../shared/api/api-tokens';
import { apiPaths, pathWith } from '../../../../../shared/routes';
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
        query: () => ({ url: apiPaths.accountSecurity.apiTokens }),
        transformResponse: (answer: ApiTokenList) => answer.data,
        extraOptions: { fallback: apiTokenMessages.listFailed },
        providesTags: ['ApiToken'],
      }),
      createApiToken: build.mutation<CreatedApiToken, CreateApiTokenBody>({
        query: (body) => ({ url: apiPaths.accountSecurity.apiTokens, method: 'POST', body }),
        extraOptions: { fallback: apiTokenMessages.createFailed },
        invalidatesTags: ['ApiToken'],
      }),
      revokeApiToken: build.mutation<ApiToken, string>({
        query: (tokenId) => ({
          url: pathWith(apiPaths.accountSecurity.apiToken, { tokenId }),
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
