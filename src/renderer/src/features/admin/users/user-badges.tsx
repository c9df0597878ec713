import { Badge } from '@mantine/core';
import type { AdminUser } from '../../../../../shared/api/admin';
import { StatusBadge } from '../../../components/data/status-badge';
import { ROLE_LABELS, USER_STATUS_LABELS } from './user-format';

/** Administrators stand out; plain users read as plain text. */
export function RoleBadge({ role }: { role: AdminUser['role'] }) {
  return role === 'admin' ? (
    // Light iris: the dark text on the tint passes AA in both schemes.
    <Badge variant="light" color="iris" tt="none" size="md" style={{ minWidth: 'max-content' }}>
      {ROLE_LABELS.admin}
    </Badge>
  ) : (
    <Badge variant="default" tt="none" size="md" fw={500} style={{ minWidth: 'max-content' }}>
      {ROLE_LABELS.user}
    </Badge>
  );
}

/** An account whose e-mail address is not confirmed yet: it cannot sign in until it is. */
export function UnconfirmedBadge() {
  return (
    <Badge
      variant="outline"
      color="yellow.9"
      tt="none"
      size="md"
      style={{ minWidth: 'max-content' }}
      title="The e-mail address is not confirmed yet"
    >
      Unconfirmed
    </Badge>
  );
}

export function UserStatusBadge({ status }: { status: AdminUser['status'] }) {
  return (
    <StatusBadge tone={status === 'active' ? 'positive' : 'neutral'} size="md">
      {USER_STATUS_LABELS[status]}
    </StatusBadge>
  );
}
