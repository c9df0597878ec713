import { useEffect } from 'react';
import type { Paged } from '../../../../shared/api/paging';

/**
 * A page past the end (the last row of the last page was deleted, or a stale shared link) shows
 * the last page that exists instead of an empty table that claims nothing matches.
 */
export function useClampedPage(
  page: Paged<unknown> | null,
  current: number,
  setPage: (page: number) => void,
) {
  useEffect(() => {
    if (!page || page.data.length > 0 || page.total === 0 || current <= 1) return;
    const last = Math.max(1, Math.ceil(page.total / page.perPage));
    if (current > last) setPage(last);
  }, [page, current, setPage]);
}
