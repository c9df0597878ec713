import { licenseMessages } from '../../../../shared/messages';
import { failureMessage } from '../../lib/api-errors';

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
