import type { RegisterRequest } from '../../../../shared/api/auth';
import type { Services } from '../../lib/services';
import type { AppDispatch } from '../../lib/store-hooks';
import { sessionCleared, tokensRefreshed } from './auth-slice';
import type { SignInValues } from './sign-in-form';

/*
 * The sign-in, sign-up and account e-mail calls as the public pages make them. Their endpoints
 * (and with them RTK Query and axios) load on the first call, not with /landing or /login.
 * Each resolves to the answer or rejects with the endpoint's ApiFailure.
 *
 * The `import()` is made here, in a module the first download holds (index.ts exports signOut from
 * it): made from a chunk loaded later, the bundler would split React and react-redux out of the
 * first download's chunk, which costs /login about 1 KB of its budget.
 */
export const endpoints = async () => (await import('./auth-endpoints')).authApi.endpoints;

/** The password step: who signed in, or (`secondFactor`) the challenge of a second step. */
export const signIn = async (dispatch: AppDispatch, credentials: SignInValues) =>
  dispatch((await endpoints()).login.initiate(credentials)).unwrap();

/** The second step of a sign-in; the identity arrives as a refresh's does, so every slice takes it in. */
export async function completeSecondFactor(
  dispatch: AppDispatch,
  body: { challenge: string; code: string } | { challenge: string; recovery_code: string },
) {
  const identity = await dispatch((await endpoints()).completeSecondFactor.initiate(body)).unwrap();
  dispatch(tokensRefreshed(identity));
  return identity;
}

/** Registration does not sign in: the address must be confirmed first. */
export const signUp = async (dispatch: AppDispatch, body: RegisterRequest) =>
  dispatch((await endpoints()).register.initiate(body)).unwrap();

/** Ends the session here; it ends whether or not the server answered, so this never rejects. */
export async function signOut(dispatch: AppDispatch): Promise<void> {
  try {
    await dispatch((await endpoints()).logout.initiate());
  } catch {
    // The endpoints could not be downloaded (offline): the session ends here all the same.
    await dispatch((_dispatch, _getState, services: Services) => services.tokens.clear());
    dispatch(sessionCleared());
  }
}

export const requestPasswordReset = async (dispatch: AppDispatch, email: string) =>
  dispatch((await endpoints()).requestPasswordReset.initiate(email)).unwrap();

export const resetPassword = async (dispatch: AppDispatch, change: { token: string; newPassword: string }) =>
  dispatch((await endpoints()).resetPassword.initiate(change)).unwrap();

export const verifyRegistration = async (dispatch: AppDispatch, token: string) =>
  dispatch((await endpoints()).verifyRegistration.initiate(token)).unwrap();

export const resendVerification = async (dispatch: AppDispatch, email: string) =>
  dispatch((await endpoints()).resendVerification.initiate(email)).unwrap();
