import { t } from '@lingui/core/macro';
import type { AxiosResponse } from 'axios';
import type { RegisterRequest, SecondFactorMethod } from '../../../../shared/api/auth';
import type { SecondFactorLoginRequest } from '../../../../shared/api/two-factor';
import { authMessages } from '../../../../shared/messages';
import { authApiPaths } from '../../../../shared/routes';
import { localStorageKeys } from '../../../../shared/storage-keys';
import { api, servicesOf } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';
import { type ApiFailure, attempt, isHttpError, toApiFailure } from '../../lib/api-errors';
import { readTokenResponse } from '../../lib/refresh-response';
import type { SignInValues } from './sign-in-form';
import { identityFrom, type SessionIdentity } from './identity';

// The fallbacks of the account e-mails' calls, shown when the server gives no message: read when
// shown, so they are in the language shown then.
const fallbacks = {
  forgotPassword: () => t`Could not send the reset link`,
  resetPassword: () => t`Could not reset the password`,
  verifyRegistration: () => t`Could not confirm the e-mail address`,
  resendVerification: () => t`Could not send a new confirmation link`,
  changePassword: () => t`Could not change the password`,
};

/** The `{ message }` these calls answer with (shared `messageResponseSchema`), else the fallback. */
const messageOf = (answer: unknown, fallback: string) =>
  typeof answer === 'object' && answer !== null && 'message' in answer && typeof answer.message === 'string'
    ? answer.message
    : fallback;

/** A POST answered with a message: the message, and the fallback both as answer and as failure. */
const messageCall = <Arg>(url: string, fallback: () => string, body: (arg: Arg) => unknown) => ({
  query: (arg: Arg) => ({ url, method: 'POST' as const, body: body(arg) }),
  transformResponse: (answer: unknown) => messageOf(answer, fallback()),
  extraOptions: {
    get fallback() {
      return fallback();
    },
  },
});

/** Login must answer JSON; HTML means the API is not behind this address at all. */
function notJson(response: AxiosResponse): ApiFailure | null {
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  const looksHtml = typeof response.data === 'string' && /^\s*</.test(response.data);
  const message =
    type.includes('text/html') || looksHtml
      ? authMessages.htmlResponse
      : type.includes('json')
        ? null
        : authMessages.nonJsonResponse;
  return message === null ? null : { message, status: response.status, fieldErrors: {} };
}

/** A password sign-in to an account with a second factor: no tokens yet, the challenge of the second step. */
export interface SecondFactorStep {
  secondFactor: { challenge: string; methods: SecondFactorMethod[]; expiresIn: number };
}
export type SignInAnswer = SessionIdentity | SecondFactorStep;

/** What a single sign-on came back with: what to tell the person, and a session or its second step. */
export type SsoArrival = { sso: { message: string; hasSeat: boolean } } & (
  { identity: SessionIdentity } | SecondFactorStep
);

/** The first step's answer when it asks for a second factor (`second_factor_required`). */
function secondFactorStepOf(body: unknown): SecondFactorStep | null {
  if (typeof body !== 'object' || body === null) return null;
  const answer = body as Record<string, unknown>;
  if (answer['second_factor_required'] !== true || typeof answer['challenge'] !== 'string') return null;
  return {
    secondFactor: {
      challenge: answer['challenge'],
      methods: Array.isArray(answer['methods']) ? (answer['methods'] as SecondFactorMethod[]) : ['totp'],
      expiresIn: typeof answer['expires_in'] === 'number' ? answer['expires_in'] : 300,
    },
  };
}

/**
 * Signing in and out, registration and the account e-mails' links. Sign-in keeps the tokens and
 * answers who signed in; sign-out forgets the tokens whether or not the server answered.
 */
export const authApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /**
       * POST /auth/login as the OAuth2 form: the e-mail goes as `username`. An account with a
       * second factor answers the challenge of the second step instead of tokens.
       */
      login: build.mutation<SignInAnswer, SignInValues>({
        queryFn: async ({ email, password }, queryApi) => {
          const services = servicesOf(queryApi);
          const options = { fallback: authMessages.loginFailed };
          let response: AxiosResponse;
          try {
            response = await services.client.http.post(
              authApiPaths.login,
              new URLSearchParams({ username: email, password }),
              { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
            );
          } catch (error) {
            const refused = isHttpError(error) && error.response ? notJson(error.response) : null;
            return { error: refused ?? toApiFailure(error, options) };
          }
          const refused = notJson(response);
          if (refused) return { error: refused };
          const secondStep = secondFactorStepOf(response.data);
          if (secondStep) return { data: secondStep };
          return attempt(async () => {
            const tokens = readTokenResponse(response.data, authMessages.noTokenReceived);
            await services.tokens.save(tokens);
            return identityFrom(services, tokens.accessToken, tokens.user);
          }, options);
        },
      }),
      /**
       * POST /auth/login/second-factor: the challenge and a code (or a recovery code); keeps the
       * tokens as the password sign-in does and answers who signed in.
       */
      completeSecondFactor: build.mutation<SessionIdentity, SecondFactorLoginRequest>({
        queryFn: (body, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(
            async () => {
              const { data } = await services.client.http.post<unknown>(authApiPaths.loginSecondFactor, body);
              const tokens = readTokenResponse(data, authMessages.noTokenReceived);
              await services.tokens.save(tokens);
              return identityFrom(services, tokens.accessToken, tokens.user);
            },
            { fallback: authMessages.loginFailed },
          );
        },
      }),
      /** POST /auth/sso/start: where to send the browser for the organization's provider. */
      startSso: build.mutation<string, { email: string }>({
        queryFn: (body, queryApi) =>
          attempt(
            async () => {
              const { data } = await servicesOf(queryApi).client.http.post<{ authorization_url: string }>(
                authApiPaths.ssoStart,
                body,
              );
              return data.authorization_url;
            },
            { fallback: authMessages.loginFailed },
          ),
      }),
      /**
       * POST /auth/sso/discover: whether the address's organization signs it in through its
       * provider, and whether its password is refused (the e-mail-first sign-in).
       */
      discoverSso: build.mutation<{ sso: boolean; required: boolean }, string>({
        queryFn: (email, queryApi) =>
          attempt(
            async () => {
              const { data } = await servicesOf(queryApi).client.http.post<{
                sso?: unknown;
                required?: unknown;
              }>(authApiPaths.ssoDiscover, { email });
              return { sso: data.sso === true, required: data.required === true };
            },
            { fallback: authMessages.loginFailed },
          ),
      }),
      /**
       * POST /auth/sso/complete: the callback's one-time code traded for a session, as a sign-in's,
       * or for the second step of one when the account has a second factor of its own. The
       * identity is not signed in here: the page says first what the sign-in did (no seat free).
       */
      completeSso: build.mutation<SsoArrival, string>({
        queryFn: (code, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(
            async () => {
              const { data } = await services.client.http.post<unknown>(authApiPaths.ssoComplete, { code });
              const sso = (data as { sso?: { message?: unknown; has_seat?: unknown } }).sso;
              const said = {
                message: typeof sso?.message === 'string' ? sso.message : '',
                hasSeat: sso?.has_seat !== false,
              };
              const secondStep = secondFactorStepOf(data);
              if (secondStep) return { ...secondStep, sso: said };
              const tokens = readTokenResponse(data, authMessages.noTokenReceived);
              await services.tokens.save(tokens);
              return { identity: await identityFrom(services, tokens.accessToken, tokens.user), sso: said };
            },
            { fallback: authMessages.loginFailed },
          );
        },
      }),
      /** POST /auth/register: answers the server's message; the account still needs confirming. */
      register: build.mutation<string, RegisterRequest>(
        messageCall(
          authApiPaths.register,
          () => authMessages.registrationFailed,
          (body: RegisterRequest) => body,
        ),
      ),
      /** POST /auth/logout with the refresh token, which may also sit in local storage under the product's name. */
      logout: build.mutation<null, void>({
        queryFn: async (_, queryApi) => {
          const services = servicesOf(queryApi);
          try {
            const refreshToken =
              (await services.tokens.getRefreshToken()) ??
              services.local.getItem(localStorageKeys.refreshToken);
            if (refreshToken)
              await services.client.http.post(authApiPaths.logout, { refreshToken }, { skipRefresh: true });
            return { data: null };
          } catch (error) {
            return { error: toApiFailure(error, { fallback: authMessages.logoutFailed }) };
          } finally {
            await services.tokens.clear();
          }
        },
      }),
      requestPasswordReset: build.mutation<string, string>(
        messageCall(authApiPaths.forgotPassword, fallbacks.forgotPassword, (email: string) => ({ email })),
      ),
      resetPassword: build.mutation<string, { token: string; newPassword: string }>(
        messageCall(
          authApiPaths.resetPassword,
          fallbacks.resetPassword,
          ({ token, newPassword }: { token: string; newPassword: string }) => ({
            token,
            new_password: newPassword,
          }),
        ),
      ),
      verifyRegistration: build.mutation<string, string>(
        messageCall(authApiPaths.verifyRegistration, fallbacks.verifyRegistration, (token: string) => ({
          token,
        })),
      ),
      resendVerification: build.mutation<string, string>(
        messageCall(authApiPaths.resendVerification, fallbacks.resendVerification, (email: string) => ({
          email,
        })),
      ),
      /** POST /auth/change-password; the server then signs out every device, this one included. */
      changePassword: build.mutation<string, { currentPassword: string; newPassword: string }>(
        messageCall(
          authApiPaths.changePassword,
          fallbacks.changePassword,
          ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) => ({
            current_password: currentPassword,
            new_password: newPassword,
          }),
        ),
      ),
      /** POST /auth/validate-token: whether the server still accepts the current access token. */
      validateToken: build.mutation<boolean, void>({
        queryFn: async (_, queryApi) => {
          try {
            await servicesOf(queryApi).client.http.post(
              authApiPaths.validateToken,
              {},
              { skipRefresh: true },
            );
            return { data: true };
          } catch {
            return { data: false };
          }
        },
      }),
    };
    // Only this module's names: `authApi.endpoints` also lists what other features injected.
    recordEndpointArea('auth', Object.keys(endpoints));
    return endpoints;
  },
});
