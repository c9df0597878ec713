import type { AxiosResponse } from 'axios';
import type { RegisterRequest } from '../../../../shared/api/auth';
import { authMessages } from '../../../../shared/messages';
import { apiPaths } from '../../../../shared/routes';
import type { HttpClient } from '../../lib/api-client';
import { ApiRequestError, isHttpError, toApiRequestError } from '../../lib/api-errors';
import { readTokenResponse, type SessionTokens } from '../../lib/refresh-response';
import { getServices } from '../../lib/services';

const defaultHttp = () => getServices().client.http;

// The fallbacks of the account e-mails' calls, shown when the server gives no message.
const fallbacks = {
  forgotPassword: 'Could not send the reset link',
  resetPassword: 'Could not reset the password',
  verifyRegistration: 'Could not confirm the e-mail address',
  resendVerification: 'Could not send a new confirmation link',
  changePassword: 'Could not change the password',
} as const;

/** The `{ message }` the server answers these calls with (shared `messageResponseSchema`), else the fallback. */
const messageOf = ({ data }: AxiosResponse<unknown>, fallback: string) =>
  typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string'
    ? data.message
    : fallback;

async function postForMessage(http: HttpClient, path: string, body: unknown, fallback: string) {
  try {
    return messageOf(await http.post(path, body), fallback);
  } catch (error) {
    throw toApiRequestError(error, fallback);
  }
}

/** Login must answer JSON; HTML means the API is not behind this address at all. */
function assertJson(response: AxiosResponse): void {
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  const looksHtml = typeof response.data === 'string' && /^\s*</.test(response.data);
  if (type.includes('text/html') || looksHtml)
    throw new ApiRequestError(authMessages.htmlResponse, { status: response.status });
  if (!type.includes('json'))
    throw new ApiRequestError(authMessages.nonJsonResponse, { status: response.status });
}

/** POST /auth/login as the OAuth2 form: the e-mail goes as `username`. */
export async function login(
  credentials: { email: string; password: string },
  http: HttpClient = defaultHttp(),
): Promise<SessionTokens> {
  let response: AxiosResponse;
  try {
    response = await http.post(
      apiPaths.auth.login,
      new URLSearchParams({ username: credentials.email, password: credentials.password }),
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    );
  } catch (error) {
    if (isHttpError(error) && error.response) assertJson(error.response);
    throw toApiRequestError(error, authMessages.loginFailed);
  }
  assertJson(response);
  return readTokenResponse(response.data, authMessages.noTokenReceived);
}

/** POST /auth/register: resolves to the server's message; the account still needs confirming. */
export function register(body: RegisterRequest, http: HttpClient = defaultHttp()): Promise<string> {
  return postForMessage(http, apiPaths.auth.register, body, authMessages.registrationFailed);
}

/** POST /auth/logout with the refresh token as `refreshToken`. */
export async function logout(refreshToken: string, http: HttpClient = defaultHttp()): Promise<void> {
  await http.post(apiPaths.auth.logout, { refreshToken }, { skipRefresh: true });
}

export function requestPasswordReset(email: string, http: HttpClient = defaultHttp()): Promise<string> {
  return postForMessage(http, apiPaths.auth.forgotPassword, { email }, fallbacks.forgotPassword);
}

export function resetPassword(
  { token, newPassword }: { token: string; newPassword: string },
  http: HttpClient = defaultHttp(),
): Promise<string> {
  return postForMessage(
    http,
    apiPaths.auth.resetPassword,
    { token, new_password: newPassword },
    fallbacks.resetPassword,
  );
}

export function verifyRegistration(token: string, http: HttpClient = defaultHttp()): Promise<string> {
  return postForMessage(http, apiPaths.auth.verifyRegistration, { token }, fallbacks.verifyRegistration);
}

export function resendVerification(email: string, http: HttpClient = defaultHttp()): Promise<string> {
  return postForMessage(http, apiPaths.auth.resendVerification, { email }, fallbacks.resendVerification);
}

/** POST /auth/change-password; the server then signs out every device, this one included. */
export function changePassword(
  { currentPassword, newPassword }: { currentPassword: string; newPassword: string },
  http: HttpClient = defaultHttp(),
): Promise<string> {
  return postForMessage(
    http,
    apiPaths.auth.changePassword,
    { current_password: currentPassword, new_password: newPassword },
    fallbacks.changePassword,
  );
}

/** POST /auth/validate-token: whether the server still accepts the current access token. */
export async function validateToken(http: HttpClient = defaultHttp()): Promise<boolean> {
  try {
    await http.post(apiPaths.auth.validateToken, {}, { skipRefresh: true });
    return true;
  } catch {
    return false;
  }
}
