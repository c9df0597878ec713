import { licenseMessages } from '../../../../shared/screen-messages';
import { failureMessage } from '../../lib/api-errors';
import type { LicenseRecord } from './licenses-endpoints';

export type ListLoad = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; error: string };

/**
 * Where the read of the user's licenses stands, for skeletons, the list, or the error and a retry.
 * An answer that is not a list is a format error: the screens have nothing to show from it.
 */
export function listState(list: { data?: unknown; isError: boolean; error?: unknown }): ListLoad {
  if (list.isError)
    return { status: 'failed', error: failureMessage(list.error, licenseMessages.fetchLicensesFailed) };
  if (list.data === undefined) return { status: 'loading' };
  if (!Array.isArray(list.data)) return { status: 'failed', error: licenseMessages.invalidResponseFormat };
  return { status: 'ready' };
}

const STATUS_ORDER = {
  active: 0,
  paused: 1,
  suspended: 2,
  trial_expired: 3,
  expired: 4,
  revoked: 5,
} as const;

/** Active licenses first, then the newest. */
export const byRelevance = (a: LicenseRecord, b: LicenseRecord) =>
  STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.created_at.localeCompare(a.created_at);
