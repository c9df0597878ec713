import { useLingui } from '@lingui/react/macro';
import { RetryNotice } from '../../../components/data/retry-notice';
import type { ListLoad } from '../license-list';

/** A failed load of the user's licenses, with Retry; nothing while they load or once they have. */
export function LicensesLoadFailure({ load, onRetry }: { load: ListLoad; onRetry: () => void }) {
  const { t } = useLingui();
  return load.status === 'failed' ? (
    <RetryNotice title={t`Could not load your licenses`} message={load.error} onRetry={onRetry} />
  ) : null;
}
