import type { AdminUser, EmailVerificationState } from '../../../../../shared/api/admin';
import type { UserRole } from '../../../../../shared/constants';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { LabelledOption } from '../options-in';
import type { StatusTone } from '../../../components/data/status-badge';

/** How the admin screens name roles and account states. */
export const ROLE_LABELS: Record<UserRole, MessageDescriptor> = {
  user: msg`User`,
  admin: msg`Administrator`,
};
export const USER_STATUS_LABELS: Record<AdminUser['status'], MessageDescriptor> = {
  active: msg`Active`,
  disabled: msg`Disabled`,
};

/**
 * One state per account: a disabled account is disabled whatever its address; an enabled one whose
 * address is not confirmed cannot sign in yet, so it reads "Unconfirmed", never also "Active".
 */
export function accountState(
  user: Pick<AdminUser, 'status' | 'email_verified'>,
  i18n: I18n,
): {
  key: 'active' | 'disabled' | 'unconfirmed';
  label: string;
  tone: StatusTone;
} {
  if (user.status === 'disabled')
    return { key: 'disabled', label: i18n._(USER_STATUS_LABELS.disabled), tone: 'neutral' };
  if (!user.email_verified)
    return { key: 'unconfirmed', label: i18n._(VERIFICATION_LABELS.unconfirmed), tone: 'caution' };
  return { key: 'active', label: i18n._(USER_STATUS_LABELS.active), tone: 'positive' };
}

export const ROLE_OPTIONS: LabelledOption[] = [
  { value: 'user', label: ROLE_LABELS.user },
  { value: 'admin', label: ROLE_LABELS.admin },
];
export const USER_STATUS_OPTIONS: LabelledOption[] = [
  { value: 'active', label: USER_STATUS_LABELS.active },
  { value: 'disabled', label: USER_STATUS_LABELS.disabled },
];

export const VERIFICATION_LABELS: Record<EmailVerificationState, MessageDescriptor> = {
  confirmed: msg`E-mail confirmed`,
  unconfirmed: msg`Unconfirmed`,
};
export const VERIFICATION_OPTIONS: LabelledOption[] = [
  { value: 'confirmed', label: VERIFICATION_LABELS.confirmed },
  { value: 'unconfirmed', label: VERIFICATION_LABELS.unconfirmed },
];

/** The name people know an account by: its full name, else its e-mail. */
export const displayName = (user: Pick<AdminUser, 'full_name' | 'email'>) =>
  user.full_name?.trim() || user.email;
