import { useCallback, useEffect, useState } from 'react';
import { licenseMessages } from '../../../../shared/messages';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { createAppThunk } from '../../lib/create-app-thunk';
import { fetchLicenses, type LicenseRecord, selectLicenses } from './license-slice';

export type LoadState = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; error: string };

/**
 * The signed-in user's licences (`GET /licenses` through the slice, cached 60 s), with the
 * state of the load so screens can show skeletons, the list, or the error and a retry.
 */
export function useLicenseList() {
  const dispatch = useAppDispatch();
  const stored = useAppSelector(selectLicenses);
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });

  const reload = useCallback(async () => {
    const result = await dispatch(fetchLicenses());
    if (fetchLicenses.rejected.match(result))
      setLoad({ status: 'failed', error: result.payload ?? licenseMessages.fetchLicensesFailed });
    else if (!Array.isArray(result.payload))
      setLoad({ status: 'failed', error: licenseMessages.invalidResponseFormat });
    else setLoad({ status: 'ready' });
  }, [dispatch]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // Until the list has loaded (or if the answer was not a list) there is nothing to show.
  const licences: LicenseRecord[] = load.status === 'ready' && Array.isArray(stored) ? stored : [];
  return { load, licences, reload };
}

/**
 * `GET /licenses` past the 60 s cache, for answers that need today's seat counts (a refused
 * activation may be about seats taken from another machine a moment ago).
 */
export const refreshLicenses = createAppThunk(
  'license/refreshList',
  async (_: void, { extra, dispatch, rejectWithValue }) => {
    extra.cache.invalidate('licenses:');
    const result = await dispatch(fetchLicenses());
    if (fetchLicenses.rejected.match(result))
      return rejectWithValue(result.payload ?? licenseMessages.fetchLicensesFailed);
    return Array.isArray(result.payload) ? result.payload : [];
  },
);
