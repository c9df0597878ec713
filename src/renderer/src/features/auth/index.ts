// The auth feature as app/ and other features see it: who is signed in, the session's actions
// and matchers, signing out, and the new-password strength meter.
export {
  authReducer,
  homeFor,
  identityArrived,
  selectAuthError,
  selectAuthStatus,
  selectCurrentUser,
  selectIsAdmin,
  selectIsAuthenticated,
  selectLastActivity,
  selectUserRole,
  sessionCleared,
  sessionEnded,
  tokensRefreshed,
  updateActivity,
  type AuthState,
} from './auth-slice';
export {
  initializeSession,
  refreshSession,
  type SessionIdentity,
  type SessionOutcome,
} from './session-thunks';
export { signOut } from './auth-calls';
export {
  destinationAfterSignIn,
  forgetReturnPath,
  nextOf,
  rememberReturnPath,
  withNext,
} from './return-path';
/** Who fresh tokens belong to: for a call that answers like a sign-in (an invitation's sign-up). */
export { identityFrom } from './identity';
export { PasswordStrengthMeter } from './components/lazy-password-strength-meter';

/** Signing in with a passkey (its endpoints and the browser's WebAuthn calls), loaded when first used. */
export const loadPasskeySignIn = () => import('./passkey-sign-in');

/** The notice of why this device was signed out, loaded when a session is lost (rarely needed). */
export const loadSignedOutNotice = () => import('./signed-out-notice');
export type { SignedOutReason } from './signed-out-notice';
