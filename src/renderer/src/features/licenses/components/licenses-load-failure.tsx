import { RetryNotice } from '../../../components/data/retry-notice';
import type { ListLoad } from '../license-list';

/** A failed load of the user's licenses, with Retry; nothing while they load or once they have. */
export function LicensesLoadFailure({ load, onRetry }: { load: ListLoad; onRetry: () => void }) {
  return load.status === 'failed' ? (
    <RetryNotice title="Could not load your licenses" message={load.error} onRetry={onRetry} />
  ) : null;
}
