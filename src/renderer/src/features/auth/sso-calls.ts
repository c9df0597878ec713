import { authMessages } from '../../../../shared/messages';
import type { AppDispatch } from '../../lib/store-hooks';
import { endpoints } from './auth-calls';
import { tokensRefreshed } from './auth-slice';
import type { SessionIdentity } from './identity';

/*
 * Single sign-on's calls, loaded by the sign-in page only when it needs them (an address typed,
 * back from the provider, or a password refused with sso_required): few visitors use them, and
 * /login's first download is on a budget (tests/e2e/bundle-budget.test.ts).
 */

/** Where to send the browser for the provider of the address's organization. */
export const startSso = async (dispatch: AppDispatch, email: string) =>
  dispatch((await endpoints()).startSso.initiate({ email })).unwrap();

/** Whether the address signs in through its organization's provider (and must). */
export const discoverSso = async (dispatch: AppDispatch, email: string) =>
  dispatch((await endpoints()).discoverSso.initiate(email)).unwrap();

/**
 * The provider's sign-in, come back with its one-time code: a session as any sign-in's (the page
 * signs it in with `signInAs`), or the second step of an account with a second factor.
 */
export const completeSso = async (dispatch: AppDispatch, code: string) =>
  dispatch((await endpoints()).completeSso.initiate(code)).unwrap();

/** Signs the identity a single sign-on came back with in: the page then goes home. */
export const signInAs = (dispatch: AppDispatch, identity: SessionIdentity) =>
  dispatch(tokensRefreshed(identity));

/** What the provider's sign-in came back with, in the fragment (never sent to a server). */
export function ssoReturn(hash: string): { code?: string; error?: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const code = fragment.get('sso_code');
  if (code) return { code };
  return fragment.get('sso_error') ? { error: fragment.get('message') ?? authMessages.loginFailed } : {};
}
