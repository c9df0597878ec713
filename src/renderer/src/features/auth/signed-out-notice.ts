import { notifications } from '@mantine/notifications';
import type { SessionEndReason } from '../../../../shared/api/auth';

/** Why the session ended, in the words of the notice; `inactive` is the portal's own 30-minute rule. */
export type SignedOutReason = SessionEndReason | 'inactive';

const BECAUSE: Record<SignedOutReason, string> = {
  signed_out: 'You were signed out because this session was ended on another device.',
  signed_out_everywhere: 'You were signed out because your account was signed out on every device.',
  signed_out_elsewhere:
    'You were signed out because you ended this session from another device signed in to your account.',
  password_changed: 'You were signed out because your password was changed.',
  password_reset: 'You were signed out because your password was reset.',
  role_changed: 'You were signed out because an administrator changed your account’s role.',
  account_disabled:
    'You were signed out because your account was disabled. Contact support if this is a mistake.',
  session_reused:
    'You were signed out because your session was used from two places at once. If that was not you, change your password.',
  session_expired: 'You were signed out because your session expired.',
  inactive: 'You were signed out because there was no activity for 30 minutes.',
};

/** The notice's words for `reason`; a session that ended for no reason the server gave is said to have ended. */
export const signedOutMessage = (reason: SignedOutReason | undefined) =>
  (reason && BECAUSE[reason]) || 'You were signed out because your session ended.';

/**
 * Says once why this device was signed out: it stays until dismissed (one id, so a second loss
 * of the same session does not stack a second notice).
 */
export function showSignedOutNotice(reason: SignedOutReason | undefined): void {
  notifications.show({
    id: 'signed-out',
    title: 'Signed out',
    message: signedOutMessage(reason),
    color: 'yellow',
    autoClose: false,
    closeButtonProps: { 'aria-label': 'Dismiss notification' },
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}
