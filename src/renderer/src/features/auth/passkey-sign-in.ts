import { t } from '@lingui/core/macro';
import type { PasskeyCeremony } from '../../../../shared/api/passkeys';
import { authMessages } from '../../../../shared/messages';
import { authApiPaths } from '../../../../shared/routes';
import { api, servicesOf } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';
import { attempt } from '../../lib/api-errors';
import { signWithPasskey } from '../../lib/passkey-ceremony';
import { readTokenResponse } from '../../lib/refresh-response';
import type { AppDispatch } from '../../lib/store-hooks';
import { tokensRefreshed } from './auth-slice';
import { identityFrom, type SessionIdentity } from './identity';

/*
 * Signing in with a passkey: loaded when the sign-in page's passkey button is first pressed, so
 * the page's first download carries neither RTK Query nor the WebAuthn helpers.
 */

/** The calls' fallback when the server gives no message: read when a call fails, in the language shown. */
const failed = {
  get fallback() {
    return t`Could not sign in with a passkey`;
  },
};

export const passkeySignInApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** POST /auth/passkeys/options; with `challenge`, the second step of that password sign-in. */
      startPasskeySignIn: build.mutation<PasskeyCeremony, { challenge?: string }>({
        query: (body) => ({ url: authApiPaths.passkeyLoginOptions, method: 'POST', body }),
        extraOptions: failed,
      }),
      /** POST /auth/passkeys/login: keeps the tokens as a password sign-in does and answers who signed in. */
      signInWithPasskey: build.mutation<
        SessionIdentity,
        { challenge?: string; ceremony: string; response: unknown }
      >({
        queryFn: (body, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(async () => {
            const { data } = await services.client.http.post<unknown>(authApiPaths.passkeyLogin, body);
            const tokens = readTokenResponse(data, authMessages.noTokenReceived);
            await services.tokens.save(tokens);
            return identityFrom(services, tokens.accessToken, tokens.user);
          }, failed);
        },
      }),
    };
    recordEndpointArea('auth', Object.keys(endpoints));
    return endpoints;
  },
});

/**
 * The whole passkey sign-in: the server's options, the browser's ceremony, the server's check.
 * With `challenge` it completes a password sign-in waiting for its second factor. Rejects with
 * the words to show (the server's refusal, or the browser's).
 */
export async function signInWithPasskey(dispatch: AppDispatch, challenge?: string): Promise<SessionIdentity> {
  const { endpoints } = passkeySignInApi;
  const asked = challenge === undefined ? {} : { challenge };
  const { ceremony, options } = await dispatch(endpoints.startPasskeySignIn.initiate(asked)).unwrap();
  const response = await signWithPasskey(options);
  const identity = await dispatch(
    endpoints.signInWithPasskey.initiate({ ...asked, ceremony, response }),
  ).unwrap();
  // The session's identity arrives as a refresh's does: the auth slice and the slices that follow it take it in.
  dispatch(tokensRefreshed(identity));
  return identity;
}
