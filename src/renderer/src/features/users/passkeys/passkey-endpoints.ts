import type { Passkey, PasskeyCeremony, PasskeyList } from '../../../../../shared/api/passkeys';
import { authApiPaths } from '../../../../../shared/routes';
import { accountSecurityApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks when the server gives no message.
export const passkeyMessages = {
  listFailed: 'Could not load your passkeys',
  addFailed: 'Could not add the passkey',
  renameFailed: 'Could not rename the passkey',
  removeFailed: 'Could not remove the passkey',
  stepUpFailed: 'Could not confirm it is you',
} as const;

const passkeyPath = (id: string) =>
  accountSecurityApiPaths.passkey.replace(':passkeyId', encodeURIComponent(id));

/** The signed-in account's passkeys: the list, the registration ceremony, rename and removal. */
export const passkeyApi = api.enhanceEndpoints({ addTagTypes: ['Passkey'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      listPasskeys: build.query<Passkey[], void>({
        query: () => ({ url: accountSecurityApiPaths.passkeys }),
        transformResponse: (answer: PasskeyList) => answer.data,
        extraOptions: { fallback: passkeyMessages.listFailed },
        providesTags: ['Passkey'],
      }),
      /** POST …/passkeys/options: what the browser's `create()` needs, and the ceremony to send back. */
      startPasskeyRegistration: build.mutation<PasskeyCeremony, void>({
        query: () => ({ url: accountSecurityApiPaths.passkeyRegistrationOptions, method: 'POST', body: {} }),
        extraOptions: { fallback: passkeyMessages.addFailed },
      }),
      finishPasskeyRegistration: build.mutation<
        Passkey,
        { ceremony: string; name: string; response: unknown }
      >({
        query: (body) => ({ url: accountSecurityApiPaths.passkeys, method: 'POST', body }),
        extraOptions: { fallback: passkeyMessages.addFailed },
        invalidatesTags: ['Passkey'],
      }),
      renamePasskey: build.mutation<Passkey, { id: string; name: string }>({
        query: ({ id, name }) => ({ url: passkeyPath(id), method: 'PATCH', body: { name } }),
        extraOptions: { fallback: passkeyMessages.renameFailed },
        invalidatesTags: ['Passkey'],
      }),
      removePasskey: build.mutation<null, string>({
        query: (id) => ({ url: passkeyPath(id), method: 'DELETE' }),
        extraOptions: { fallback: passkeyMessages.removeFailed },
        invalidatesTags: ['Passkey'],
      }),
      /** POST /auth/step-up/passkey-options: a ceremony limited to this account's passkeys. */
      startPasskeyStepUp: build.mutation<PasskeyCeremony, void>({
        query: () => ({ url: authApiPaths.stepUpPasskeyOptions, method: 'POST', body: {} }),
        extraOptions: { fallback: passkeyMessages.stepUpFailed },
      }),
      stepUpWithPasskey: build.mutation<{ stepped_up_at: string }, { ceremony: string; response: unknown }>({
        query: (body) => ({ url: authApiPaths.stepUpPasskey, method: 'POST', body }),
        extraOptions: { fallback: passkeyMessages.stepUpFailed },
      }),
    };
    // Only this module's names: `passkeyApi.endpoints` also lists what other features injected.
    recordEndpointArea('user', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useListPasskeysQuery,
  useStartPasskeyRegistrationMutation,
  useFinishPasskeyRegistrationMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
  useStartPasskeyStepUpMutation,
  useStepUpWithPasskeyMutation,
} = passkeyApi;
