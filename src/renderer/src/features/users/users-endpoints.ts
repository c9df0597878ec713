import type { HealthResponse } from '../../../../shared/api/health';
import type {
  SupportRequestBody,
  SupportRequestList,
  SupportRequestReceipt,
} from '../../../../shared/api/support';
import type {
  ChangePasswordRequest,
  Preferences,
  UpdatePreferencesRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../../../../shared/api/users';
import { userMessages } from '../../../../shared/screen-messages';
import { authApiPaths, healthApiPaths, usersApiPaths } from '../../../../shared/routes';
import { supportApiPaths } from '../../../../shared/api-paths';
import { api, servicesOf } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';
import { attempt } from '../../lib/api-errors';

// The fallbacks when the server gives no message.
export const changePasswordFailed = 'Could not change the password';
export const signOutEverywhereFailed = 'Could not sign out of every device';
export const sendSupportRequestFailed = 'Your request could not be sent';
export const fetchSupportRequestsFailed = 'Your support requests could not be loaded';

const messageOr = (fallback: string) => (answer: { message?: string } | undefined) =>
  answer?.message || fallback;

/** The signed-in user's own account: profile, preferences, password and sessions, and the server's version. */
export const userApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /users/me: the live profile (another device may have changed it since sign-in). */
      fetchMyProfile: build.query<UserProfile, void>({
        query: () => ({ url: usersApiPaths.me }),
        extraOptions: { fallback: userMessages.fetchProfileFailed },
        providesTags: ['Profile'],
      }),
      /** PUT /users/me; the stored user data follows, as the auth user does (see the auth slice). */
      updateMyProfile: build.mutation<UserProfile, UpdateProfileRequest>({
        queryFn: (body, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(
            async () => {
              const { data } = await services.client.http.put<UserProfile>(usersApiPaths.me, body);
              await services.tokens.setUser(data);
              return data;
            },
            { fallback: userMessages.updateProfileFailed },
          );
        },
        invalidatesTags: ['Profile'],
      }),
      /**
       * PUT /users/me/preferences; the stored user's preferences follow, or the next page load would
       * restore the session with the ones of sign-in (a language just chosen shown in the old one).
       */
      updateMyPreferences: build.mutation<Preferences, UpdatePreferencesRequest>({
        queryFn: (body, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(
            async () => {
              const { data } = await services.client.http.put<Preferences>(usersApiPaths.preferences, body);
              const stored = await services.tokens.getUser<UserProfile>();
              if (stored) await services.tokens.setUser({ ...stored, preferences: data });
              return data;
            },
            { fallback: userMessages.updatePreferencesFailed },
          );
        },
        invalidatesTags: ['Profile'],
      }),
      /**
       * PUT /users/me/password (the same operation as POST /auth/change-password). The server then
       * ends every session of the account, this one included: the caller signs out afterwards.
       */
      changeMyPassword: build.mutation<string, ChangePasswordRequest>({
        query: (body) => ({ url: usersApiPaths.password, method: 'PUT', body }),
        transformResponse: messageOr('Your password was changed.'),
        extraOptions: { fallback: changePasswordFailed },
      }),
      /** POST /auth/logout-all: the server ends every session of the account, this one included. */
      signOutEverywhere: build.mutation<string, void>({
        query: () => ({ url: authApiPaths.logoutAll, method: 'POST', body: {} }),
        transformResponse: messageOr('Signed out on every device'),
        extraOptions: { fallback: signOutEverywhereFailed },
      }),
      /** POST /support/requests: stored for support and mailed to them, with Reply-To the account's address. */
      sendSupportRequest: build.mutation<SupportRequestReceipt, SupportRequestBody>({
        query: (body) => ({ url: supportApiPaths.requests, method: 'POST', body }),
        extraOptions: { fallback: sendSupportRequestFailed },
        invalidatesTags: ['SupportRequest'],
      }),
      /** GET /support/requests: the account's own requests, newest first, each open or handled. */
      fetchMySupportRequests: build.query<SupportRequestList, { page: number; perPage: number }>({
        query: ({ page, perPage }) => ({ url: supportApiPaths.requests, params: { page, perPage } }),
        extraOptions: { fallback: fetchSupportRequestsFailed },
        providesTags: ['SupportRequest'],
      }),
      /** GET /health: the server's version (the version of the portal it serves), for support requests. */
      fetchServerVersion: build.query<string, void>({
        query: () => ({ url: healthApiPaths.health }),
        transformResponse: (answer: HealthResponse) => answer.version,
      }),
    };
    // Only this module's names: `userApi.endpoints` also lists what other features injected.
    recordEndpointArea('user', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useFetchMyProfileQuery,
  useUpdateMyProfileMutation,
  useUpdateMyPreferencesMutation,
  useChangeMyPasswordMutation,
  useSignOutEverywhereMutation,
  useFetchServerVersionQuery,
  useSendSupportRequestMutation,
  useFetchMySupportRequestsQuery,
} = userApi;
