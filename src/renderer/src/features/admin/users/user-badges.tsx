import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import type { AdminUser } from '../../../../../shared/api/admin';
import { StatusBadge } from '../../../components/data/status-badge';
import { accountState, ROLE_LABELS } from './user-format';

/** Administrators stand out; plain users read as plain text. */
export function RoleBadge({ role }: { role: AdminUser['role'] }) {
  const { i18n } = useLingui();
  return role === 'admin' ? (
    // Light iris: the dark text on the tint passes AA in both schemes.
    <Badge variant="light" color="iris" tt="none" size="md" style={{ minWidth: 'max-content' }}>
      {i18n._(ROLE_LABELS.admin)}
    </Badge>
  ) : (
    <Badge variant="default" tt="none" size="md" fw={500} style={{ minWidth: 'max-content' }}>
      {i18n._(ROLE_LABELS.user)}
    </Badge>
  );
}

/**
 * Where an account stands, in one badge: disabled, waiting for its e-mail address to be confirmed
 * (it cannot sign in yet, so it is not called active), or active. The dot carries the tone and the
 * words keep the body colour, so each passes 4.5:1 in both schemes.
 */
export function AccountStateBadge({ user }: { user: Pick<AdminUser, 'status' | 'email_verified'> }) {
  const { i18n } = useLingui();
  const state = accountState(user, i18n);
  return (
    <StatusBadge tone={state.tone} size="md">
      {state.label}
    </StatusBadge>
  );
}
