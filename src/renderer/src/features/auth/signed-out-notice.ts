import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import type { SessionEndReason } from '../../../../shared/api/auth';

/** Why the session ended, in the words of the notice; `inactive` is the portal's own 30-minute rule. */
export type SignedOutReason = SessionEndReason | 'inactive';

const BECAUSE: Record<SignedOutReason, MessageDescriptor> = {
  signed_out: msg`You were signed out because this session was ended on another device.`,
  signed_out_everywhere: msg`You were signed out because your account was signed out on every device.`,
  signed_out_elsewhere: msg`You were signed out because you ended this session from another device signed in to your account.`,
  password_changed: msg`You were signed out because your password was changed.`,
  password_reset: msg`You were signed out because your password was reset.`,
  role_changed: msg`You were signed out because an administrator changed your account’s role.`,
  account_disabled: msg`You were signed out because your account was disabled. Contact support if this is a mistake.`,
  session_reused: msg`You were signed out because your session was used from two places at once. If that was not you, change your password.`,
  session_expired: msg`You were signed out because your session expired.`,
  inactive: msg`You were signed out because there was no activity for 30 minutes.`,
};

/**
 * The notice's words for `reason`, in the language shown; a session that ended for no reason the
 * server gave is said to have ended.
 */
export function signedOutMessage(reason: SignedOutReason | undefined): string {
  // A reason this portal does not know (a newer server's) is said as no reason.
  const because: MessageDescriptor | undefined = reason && BECAUSE[reason];
  return because ? t(because) : t`You were signed out because your session ended.`;
}

/**
 * Says once why this device was signed out: it stays until dismissed (one id, so a second loss
 * of the same session does not stack a second notice).
 */
export function showSignedOutNotice(reason: SignedOutReason | undefined): void {
  notifications.show({
    id: 'signed-out',
    title: t`Signed out`,
    message: signedOutMessage(reason),
    color: 'yellow',
    autoClose: false,
    closeButtonProps: { 'aria-label': t`Dismiss notification` },
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}
