import { useLingui } from '@lingui/react';
import type { LicenseStatus } from '../../../../../shared/api/licenses';
import { statusLabel } from '../license-format';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';

const TONES: Record<LicenseStatus, StatusTone> = {
  active: 'positive',
  suspended: 'caution',
  paused: 'info',
  expired: 'caution',
  revoked: 'negative',
  trial_expired: 'caution',
};

/** A license's status (active, suspended, expired, revoked, trial ended) as a badge. */
export function LicenseStatusBadge({ status, size }: { status: LicenseStatus; size?: 'sm' | 'md' | 'lg' }) {
  // Written again when the language changes.
  useLingui();
  return (
    <StatusBadge tone={TONES[status]} size={size}>
      {statusLabel(status)}
    </StatusBadge>
  );
}
