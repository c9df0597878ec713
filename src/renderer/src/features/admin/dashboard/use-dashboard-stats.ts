import { useCallback, useEffect, useState } from 'react';
import { adminMessages } from '../../../../../shared/messages';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { fetchSystemStats, selectAdmin } from '../admin-slice';

/**
 * The overview's numbers (`GET /admin/dashboard`), kept in the admin slice as `systemStats`.
 * `refresh()` asks the server again instead of reading the 60 s cache.
 */
export function useDashboardStats() {
  const dispatch = useAppDispatch();
  const stats = useAppSelector((state) => selectAdmin(state).systemStats);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    (fresh: boolean) => {
      setLoading(true);
      setError(null);
      let current = true;
      dispatch(fetchSystemStats({ fresh }))
        .unwrap()
        .then(
          () => current && setLoading(false),
          (reason: unknown) => {
            if (!current) return;
            setError(typeof reason === 'string' ? reason : adminMessages.fetchSystemStatsFailed);
            setLoading(false);
          },
        );
      return () => {
        current = false;
      };
    },
    [dispatch],
  );

  useEffect(() => load(false), [load]);

  return { stats, loading, error, refresh: useCallback(() => void load(true), [load]) };
}
