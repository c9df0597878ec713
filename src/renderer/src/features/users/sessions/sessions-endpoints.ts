import type { AccountSession } from '../../../../../shared/api/auth';
import { pathWith, authApiPaths, usersApiPaths } from '../../../../../shared/routes';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks of the session calls, shown when the server gives no message.
export const sessionMessages = {
  fetchFailed: 'Could not load your sessions',
  revokeFailed: 'Could not sign out of that session',
  revokeOthersFailed: 'Could not sign out of your other sessions',
} as const;

/** The account's own sessions (devices signed in): listed, and ended one by one or all but this one. */
export const sessionsApi = api.enhanceEndpoints({ addTagTypes: ['AccountSession'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /users/me/sessions: this device first, then the most recently active. */
      listMySessions: build.query<AccountSession[], void>({
        query: () => ({ url: usersApiPaths.sessions }),
        transformResponse: (answer: { data: AccountSession[] }) => answer.data,
        extraOptions: { fallback: sessionMessages.fetchFailed },
        providesTags: ['AccountSession'],
      }),
      /** DELETE /users/me/sessions/{id}: that device must sign in again. */
      revokeMySession: build.mutation<string, string>({
        query: (id) => ({ url: pathWith(usersApiPaths.session, { id }), method: 'DELETE' }),
        transformResponse: (answer: { message: string }) => answer.message,
        extraOptions: { fallback: sessionMessages.revokeFailed },
        invalidatesTags: ['AccountSession'],
      }),
      /** POST /auth/logout-others: every session but this one ends. */
      signOutOtherSessions: build.mutation<{ message: string; ended: number }, void>({
        query: () => ({ url: authApiPaths.logoutOthers, method: 'POST', body: {} }),
        extraOptions: { fallback: sessionMessages.revokeOthersFailed },
        invalidatesTags: ['AccountSession'],
      }),
    };
    recordEndpointArea('user', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListMySessionsQuery, useRevokeMySessionMutation, useSignOutOtherSessionsMutation } =
  sessionsApi;
